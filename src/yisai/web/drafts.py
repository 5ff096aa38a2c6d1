"""The console's 规程 drafter (issue #32 item 5, #40 item 4): upload a 规程 (.txt/.docx/.pdf) on
the console page, see the draft beside the source text — open points first, each a small form (a
date, a number, a choice, text, by the field's type in the schema) next to its sentence — answer
them, and the answers are written into the file by the drafter's own TOML writer and re-checked
(the same checks as ``yisai regulation check``, every problem listed at once); then create the
event from the finished draft, or download it. The file can also be corrected by hand.

Nothing is stored until the event is created: the extracted source text and the answers travel
with the form; the draft is rebuilt from the text on every request, so a refused answer comes
back with everything else the director entered.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from yisai.formats.draft_answers import Answers, Outcome, apply
from yisai.formats.regulation_draft import field_name, to_toml
from yisai.formats.regulation_source import SourceError, read_bytes
from yisai.i18n import Text, tr
from yisai.regulation import RegulationError, loads
from yisai.regulation.draft import MAX_TEXT_CHARS, Draft, TextTooLong, draft
from yisai.regulation.draft.model import asked
from yisai.regulation.loader import MAX_REGULATION_BYTES
from yisai.regulation.locate import key_lines
from yisai.services.errors import InputError
from yisai.services.events import create_event_from_text
from yisai.services.identity import Action
from yisai.web import console
from yisai.web.core import page

router = APIRouter(prefix="/console", include_in_schema=False)

ANSWER = "a:"
"""Form names: ``a:<point key>`` the value typed for a point, ``k:<point key>`` its default kept."""
KEEP = "k:"


@dataclass
class SentenceView:
    index: int
    section: str
    text: str
    fields: list[tuple[str, int | None]] = field(default_factory=list)
    """(field name, its line in the file): the tag selects that value."""


def _views(result: Draft, toml: str) -> list[SentenceView]:
    lines = key_lines(toml)
    views = [SentenceView(s.index, s.section, s.text) for s in result.sentences]
    for path, cited in result.sources.items():
        name = field_name(result.doc, path)
        for i in cited:
            if all(name != f for f, _ in views[i].fields):
                views[i].fields.append((name, lines.get(path)))
    for v in views:
        v.fields = v.fields[:8]
    return views


def _digest(toml: str) -> str:
    """The file as the page wrote it: a different one came back edited by hand (line ends and
    outer blanks do not count: browsers send a textarea with CRLF)."""
    return hashlib.sha256(toml.replace("\r\n", "\n").strip().encode("utf-8")).hexdigest()


@dataclass
class State:
    """One request's draft: rebuilt from the source text with the director's answers applied."""

    result: Draft
    outcome: Outcome
    answers: Answers
    toml: str
    generated: str


def _build(text: str, source_name: str, answers: Answers) -> State:
    result = _draft_text(text)
    outcome = apply(result, answers)
    toml = to_toml(result, source_name)
    return State(result, outcome, answers, toml, toml)


def _render(request: Request, st: State, source_text: str, source_name: str, problems: list[str],
            status: int = 200, edited: bool = False, name: str = "") -> Response:
    result = st.result
    sentences = _views(result, st.toml)
    tags = {f for v in sentences for f, _ in v.fields}
    missing = [(field_name(result.doc, m.path), asked(m.question)) for m in result.missing]
    figures = {"sentences": len(sentences), "read": sum(1 for v in sentences if v.fields), "drafted": len(tags),
               "open": len(st.outcome.open), "answered": len(st.outcome.answered), "missing": len(missing)}
    return page(
        request, "console/draft.html", http_status=status, sentences=sentences, used=result.used,
        open_points=st.outcome.open, answered=st.outcome.answered, errors=st.outcome.errors,
        values=st.answers.values, kept=st.answers.kept, missing=missing, figures=figures, toml=st.toml,
        base=_digest(st.generated), edited=edited, problems=problems, source_text=source_text,
        source_name=source_name, event_name=name,
    )


def _problems(toml: str) -> list[str]:
    try:
        loads(toml, "draft.toml")
    except RegulationError as exc:
        return [i.text.render() for i in exc.issues]
    return []


def _draft_text(text: str) -> Draft:
    try:
        return draft(text)
    except TextTooLong:
        raise InputError(Text(f"规程文字超过 {MAX_TEXT_CHARS} 字, 未读取",
                              f"the text is over {MAX_TEXT_CHARS} characters; nothing was read"),
                         code="too_long") from None


def _answers(form: dict[str, Any]) -> Answers:
    out = Answers()
    for k, v in form.items():
        if k.startswith(ANSWER) and isinstance(v, str):
            out.values[k[len(ANSWER):]] = v[:500]
        elif k.startswith(KEEP) and v:
            out.kept.add(k[len(KEEP):])
    return out


@router.post("/drafts")
async def draft_upload(request: Request) -> Response:
    """Read the uploaded 规程 and show its draft."""
    form = await console._form(request)
    with console.acting(request) as work:
        work.require(Action.CREATE_EVENT)
    filename, data = await console._upload(form, "source")
    try:
        text = await run_in_threadpool(read_bytes, data, filename)
    except SourceError as exc:
        raise InputError(exc.text, code="bad_source") from None
    st = await run_in_threadpool(_build, text, filename, Answers())
    return _render(request, st, text, filename, _problems(st.toml))


EDITED = Text("规程文件已手工修改, 回答没有写入 (以免丢失手工修改): 请直接在文件中修改这些值, "
              "或清空规程文件后再点「写入回答并检查」(文件将按原文和回答重新生成)",
              "the file was edited by hand, so the answers were not written (that would lose the edits): "
              "change these values in the file, or empty the file and write the answers again "
              "(it is then rebuilt from the text and the answers)")


@router.post("/drafts/event")
async def draft_to_event(request: Request) -> Response:
    """Write the answers into the draft (``apply``), create the event from it (``create``), or
    hand it back as a file (``download``). A file edited by hand in the page is taken as it is."""
    form = await console._form(request)
    with console.acting(request) as work:
        work.require(Action.CREATE_EVENT)
    posted = console._text(form, "toml")
    source_text = str(form.get("source_text") or "")[:MAX_TEXT_CHARS]
    source_name = console._text(form, "source_name")[:200]
    action = console._text(form, "action") or "create"
    if len(posted.encode("utf-8")) > MAX_REGULATION_BYTES:
        raise InputError(Text("规程文件超过 1 MB", "the regulation file is over 1 MB"), code="too_large")
    edited = bool(posted) and _digest(posted) != console._text(form, "base")
    answers = _answers(form)
    if not source_text and not posted:
        raise InputError(Text("表单中既没有规程原文也没有规程文件: 请重新上传规程",
                              "the form holds neither the 规程 text nor the file: upload the 规程 again"),
                         code="no_source")
    st = await run_in_threadpool(_build, source_text, source_name, answers)
    if edited:
        st.toml = posted  # the director's hand edits win; the answers are shown, not written
    if action == "download":
        name = (source_name.rsplit(".", 1)[0] or "draft") + ".toml"
        body = st.toml if source_text else posted  # a file without its text: handed back as it is
        return Response(body + ("" if body.endswith("\n") else "\n"), media_type="application/toml; charset=utf-8",
                        headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}"})
    refused = [f"{tr('回答', 'answer')}: {t.render()}" for t in st.outcome.errors.values()]
    if edited and action == "apply" and (answers.values or answers.kept):
        refused.insert(0, EDITED.render())
    toml = st.toml
    problems = refused + _problems(toml)
    if action == "apply" or problems:
        return _render(request, st, source_text, source_name, problems,
                       status=422 if problems else 200, edited=edited, name=console._text(form, "name")[:200])
    with console.acting(request) as work:
        event = create_event_from_text(work, toml, loads(toml, "draft.toml"),
                                       name=console._text(form, "name") or None)
    return console.back(f"/console/events/{event.id}", tr("比赛已从规程草稿创建", "event created from the draft"))

"""The console's 规程 drafter (issue #32 item 5): upload a 规程 (.txt/.docx/.pdf) on the console
page, see the draft beside the source text — open points and missing values first, each
recognised sentence highlighted with the fields it set — correct the TOML in the page, then create
the event from it (the same checks as ``yisai regulation check``) or download it.

Nothing is stored until the event is created: the extracted source text travels with the form,
so a refused draft comes back with the director's edits and the same source column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from yisai.formats.regulation_draft import coverage, field_name, to_toml
from yisai.formats.regulation_source import SourceError, read_bytes
from yisai.i18n import Text, tr
from yisai.regulation import RegulationError, loads
from yisai.regulation.draft import MAX_TEXT_CHARS, Draft, TextTooLong, draft
from yisai.regulation.loader import MAX_REGULATION_BYTES
from yisai.services.errors import InputError
from yisai.services.events import create_event_from_text
from yisai.services.identity import Action
from yisai.web import console
from yisai.web.core import page

router = APIRouter(prefix="/console", include_in_schema=False)


@dataclass
class SentenceView:
    index: int
    section: str
    text: str
    fields: list[str] = field(default_factory=list)


def _views(result: Draft) -> list[SentenceView]:
    views = [SentenceView(s.index, s.section, s.text) for s in result.sentences]
    for path, cited in result.sources.items():
        name = field_name(result.doc, path)
        for i in cited:
            if name not in views[i].fields:
                views[i].fields.append(name)
    for v in views:
        v.fields = v.fields[:8]
    return views


def _render(request: Request, result: Draft, source_text: str, source_name: str, toml: str,
            problems: list[str], status: int = 200) -> Response:
    used = result.used
    return page(
        request, "console/draft.html", http_status=status, sentences=_views(result), used=used,
        open_points=[(q.topic, q.question, q.default, field_name(result.doc, q.path)) for q in result.open],
        missing=[(field_name(result.doc, m.path), m.question) for m in result.missing],
        figures=coverage(result), toml=toml, problems=problems, source_text=source_text,
        source_name=source_name,
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
    result = await run_in_threadpool(_draft_text, text)
    toml = to_toml(result, filename)
    return _render(request, result, text, filename, toml, _problems(toml))


@router.post("/drafts/event")
async def draft_to_event(request: Request) -> Response:
    """Create the event from the corrected draft, or hand the draft back as a file."""
    form = await console._form(request)
    with console.acting(request) as work:
        work.require(Action.CREATE_EVENT)
    toml = console._text(form, "toml")
    source_text = str(form.get("source_text") or "")[:MAX_TEXT_CHARS]
    source_name = console._text(form, "source_name")[:200]
    if len(toml.encode("utf-8")) > MAX_REGULATION_BYTES:
        raise InputError(Text("规程文件超过 1 MB", "the regulation file is over 1 MB"), code="too_large")
    if console._text(form, "action") == "download":
        name = (source_name.rsplit(".", 1)[0] or "draft") + ".toml"
        return Response(toml + "\n", media_type="application/toml; charset=utf-8",
                        headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}"})
    problems = _problems(toml)
    if problems:
        result = await run_in_threadpool(_draft_text, source_text)
        return _render(request, result, source_text, source_name, toml, problems, status=422)
    with console.acting(request) as work:
        event = create_event_from_text(work, toml, loads(toml, "draft.toml"),
                                       name=console._text(form, "name") or None)
    return console.back(f"/console/events/{event.id}", tr("比赛已从规程草稿创建", "event created from the draft"))

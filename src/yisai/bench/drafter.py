"""`yisai bench draft`: the drafter measured on real 规程 against values read by hand.

Each annotation file (``tests/regulation/draft/real/*.json``) names a 规程 text and lists the
values a careful tournament director writes into the regulation file from it, the topics the
text states a rule about, and what the schema cannot state. The bench drafts every text with the
drafter (the code path of ``yisai regulation draft``: read the source, draft, write the TOML,
load it as ``regulation check`` does), resolves each annotated path against the draft and counts
values drafted equal, drafted wrong and missing, the open points that deny a stated topic
("规程未写明" of a rule the text does state), and whether the draft passes ``regulation check``.

Annotated paths are the flat paths of ``yisai.regulation.flat`` with two conventions for list
items whose id is the drafter's free choice: ``stages[main]`` is the only stage of a one-stage
event, and ``{名称}`` is the item whose ``name`` is the text's name (for items known by their
division — ``rank_awards``, ``promotions`` — and for maps keyed by division id —
``formats_by_division`` — the division of that name). A ``[n]`` that names no item's key is the
n-th item (``prizes.lists[0]`` for a text that does not name its only list).

A seed entry (``{"text": "seed:000", "expected_file": "regulations/2025-shanhai-cup.toml"}``)
expects every value of the shipped file, compared path by path as the seed round trip does.
"""

from __future__ import annotations

import json
import re
import tomllib
import types
import typing
import unicodedata
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import typer
from pydantic import BaseModel

from yisai.i18n import tr
from yisai.regulation.flat import flat, item_key
from yisai.regulation.schema import Regulation
from yisai.vocabulary.rank import Rank

TOPICS = ("dates", "venue", "format", "rounds", "time_control", "komi", "ranking", "prizes",
          "rank_awards", "divisions", "eligibility", "registration", "fees", "teams", "appeals",
          "rules_of_play", "issuer", "issue_date", "year")
"""``issuer`` and ``issue_date`` are the sign-off (落款): stated only by a text that has one. The
event's dates never state who issued the 规程 or when, so an open point asking for the issuer of a
text without a sign-off is honest, not a denial (tests/regulation/draft/real/README.md). ``year`` is
stated by a text whose annotation has a ``year`` value: days of play written without a year (5月28日)
state dates, not the year."""
# Lists whose order carries meaning; every other list of plain values is compared as a set.
ORDERED = frozenset({"criteria", "tie_breaks", "round1_seeding", "confirm_reminder_days"})
RANK_KEYS = frozenset({"min_rank", "max_rank", "rank", "highest"})
_DENIAL = re.compile(r"(未|没有|没)(写明|写|规定|给出|说明|明确|注明|提及|列出)")
_CITED = re.compile(r"未能读出|请核对")  # an open point that quotes the sentence it could not read
_TOKEN = re.compile(r"\[([^\]]*)\]|\{([^}]*)\}|([^.\[{]+)")


class AnnotationError(ValueError):
    """An annotation file that cannot be used: names the file and what to fix."""


@dataclass(frozen=True)
class Expected:
    path: str
    value: Any
    clause: str = ""


@dataclass(frozen=True)
class Annotation:
    """One annotated text: the 规程 file, the values expected, the stated topics; or a seed."""

    name: str
    source: Path
    group: str  # real (the corpus), own (tests/regulation/draft/texts) or seeds
    values: tuple[Expected, ...] = ()
    stated: frozenset[str] = frozenset()
    expected_file: Path | None = None  # seed entries: every value of this shipped file


@dataclass
class TextResult:
    text: str
    group: str = ""
    expected: int = 0
    equal: int = 0
    wrong: int = 0
    wrong_unasked: int = 0  # wrong values no open point asks about
    missing: int = 0
    denied: int = 0
    open_points: int = 0
    check: bool = False
    wrong_paths: list[str] = field(default_factory=list)
    missing_paths: list[str] = field(default_factory=list)
    denied_topics: list[str] = field(default_factory=list)
    error: str | None = None


# ---------------------------------------------------------------- paths


def parse_path(path: str) -> list[tuple[str, str]]:
    """``prizes.lists{男子}.rows[0].amount`` → [(key, prizes), (key, lists), (name, 男子), (item, 0),
    (key, amount)]; ValueError when the path is not well formed."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(path):
        if path[pos] == "." and tokens and pos + 1 < len(path) and path[pos + 1] not in ".[{":
            pos += 1
        m = _TOKEN.match(path, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"路径写法不对 (第{pos + 1}个字符): {path}")
        item, name, key = m.groups()
        tokens.append(("item", item) if item is not None else ("name", name) if name is not None
                      else ("key", key))
        pos = m.end()
    if not tokens or tokens[0][0] != "key" or any(v == "" for _, v in tokens):
        raise ValueError(f"路径写法不对: {path}")
    return tokens


def _members(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [m for a in typing.get_args(annotation) for m in _members(a)]
    return [annotation]


def _is_model(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, BaseModel)


def schema_problem(path: str) -> str | None:
    """Why ``path`` is not a field of the regulation schema (None when it is one that holds a
    value): a misspelt annotation must fail, not count as a value the drafter missed."""
    try:
        tokens = parse_path(path)
    except ValueError as exc:
        return str(exc)
    current: list[Any] = [Regulation]
    for kind, key in tokens:
        nxt: list[Any] = []
        for t in (m for c in current for m in _members(c)):
            origin = typing.get_origin(t)
            if kind == "key" and _is_model(t):
                for name, f in t.model_fields.items():
                    if key in (name, f.alias):
                        nxt.append(f.annotation)
            elif origin is dict:
                nxt.append(typing.get_args(t)[1])
            elif kind != "key" and origin is list:
                nxt.append(typing.get_args(t)[0])
        if not nxt:
            return f"{path}: “{key}” 不是规程字段 (见 docs/regulation.md)"
        current = nxt
    leaves = [m for c in current for m in _members(c)]
    if all(_is_model(m) or (typing.get_origin(m) is list and any(
            _is_model(x) for x in _members(typing.get_args(m)[0]))) for m in leaves):
        return f"{path}: 是一组字段, 不是一个值; 请写到具体字段"
    return None


def _division_ids(root: dict[str, Any], name: str) -> set[str]:
    return {str(d.get("id")) for d in root.get("divisions") or [] if isinstance(d, dict)
            and name in (d.get("name"), str(d.get("name", "")).removesuffix("组"), d.get("id"))}


def resolve(root: dict[str, Any], path: str) -> tuple[bool, Any, str]:
    """The value at annotated ``path`` in a regulation document (show's JSON or the raw TOML):
    (found, value, the dotted path as open points name fields: list items by id, else position)."""
    node: Any = root
    concrete: list[str] = []
    for kind, key in parse_path(path):
        if kind == "key":
            if not isinstance(node, dict) or key not in node:
                return False, None, ""
            node = node[key]
            concrete.append(key)
            continue
        if isinstance(node, dict):
            wanted = {key} if kind == "item" else _division_ids(root, key)
            hit = next((k for k in node if k in wanted), None)
            if hit is None:
                return False, None, ""
            node = node[hit]
            concrete.append(hit)
            continue
        if not isinstance(node, list):
            return False, None, ""
        items = [x for x in node if isinstance(x, dict)]
        chosen: dict[str, Any] | None = None
        if kind == "item":
            if key == "main" and concrete and concrete[-1] == "stages" and len(items) == 1:
                chosen = items[0]
            chosen = chosen or next((x for x in items if item_key(x) == key), None)
            if chosen is None and key.isdigit() and int(key) < len(items):
                chosen = items[int(key)]
        else:
            chosen = next((x for x in items if x.get("name") == key), None)
            if chosen is None:  # rank_awards, promotions: known by their division (if only one)
                ids = _division_ids(root, key)
                of_division = [x for x in items if x.get("division") in ids]
                chosen = of_division[0] if len(of_division) == 1 else None
        if chosen is None:
            return False, None, ""
        concrete.append(str(chosen["id"]) if "id" in chosen else str(node.index(chosen)))
        node = chosen
    return node is not None, node, ".".join(concrete)


# ---------------------------------------------------------------- values


def _rank(v: Any) -> Rank | None:
    try:
        return Rank.parse(str(v))
    except ValueError:
        return None


def same(path: str, want: Any, got: Any) -> bool:
    """Equality as a director means it: numbers as numbers, ranks as ranks (4段 = 4d), lists of
    plain values as sets unless their order means something (tie-breaks)."""
    last = parse_path(path)[-1][1]
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got
    if isinstance(want, int | float) and isinstance(got, int | float):
        return float(want) == float(got)
    if isinstance(want, str) and isinstance(got, str):
        if last in RANK_KEYS and (a := _rank(want)) is not None:
            return a == _rank(got)
        return want.strip() == got.strip()
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return False
        if last in ORDERED:
            return all(same(path, a, b) for a, b in zip(want, got, strict=True))
        rest = list(got)
        for a in want:
            hit = next((i for i, b in enumerate(rest) if same(path, a, b)), None)
            if hit is None:
                return False
            rest.pop(hit)
        return True
    return bool(want == got)


def _plain(node: Any) -> Any:
    """TOML values as show's JSON writes them (dates and times ISO)."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, datetime | date | time):
        return node.isoformat()
    return node


# ---------------------------------------------------------------- topics of open points

_FIELD_TOPICS: tuple[tuple[str, str], ...] = (
    (r"\.format\.(rounds|group_rounds)|rounds_provisional", "rounds"),
    (r"time_control|byoyomi|main_minutes", "time_control"),
    (r"^rules\.komi", "komi"),
    (r"^rules\.", "rules_of_play"),
    (r"eligibility", "eligibility"),
    (r"^(ranking|divisions\.[^.]+\.ranking_rules)", "ranking"),
    (r"^prizes", "prizes"),
    (r"^(rank_awards|promotions)", "rank_awards"),
    (r"^divisions", "divisions"),
    (r"^registration|^teams\.registration", "registration"),
    (r"^fees|fee_note", "fees"),
    (r"^teams|\.format\.(boards|competition)", "teams"),
    (r"^appeals", "appeals"),
    (r"\.venue", "venue"),
    (r"^issued\.by", "issuer"),
    (r"^issued\.on", "issue_date"),
    (r"^year$", "year"),
    (r"\.(start|end|check_in|periods|timetable)", "dates"),
    (r"\.format", "format"),
)
_WORD_TOPICS: tuple[tuple[str, str], ...] = (
    ("轮", "rounds"), ("用时", "time_control"), ("读秒", "time_control"), ("贴", "komi"),
    ("名次", "ranking"), ("奖", "prizes"), ("段", "rank_awards"), ("级", "rank_awards"),
    ("组别", "divisions"), ("资格", "eligibility"), ("报名", "registration"), ("费", "fees"),
    ("团体", "teams"), ("申诉", "appeals"), ("地点", "venue"), ("日期", "dates"), ("时间", "dates"),
    ("赛制", "format"), ("规则", "rules_of_play"),
)


# Details no 规程 writes in words, asked whatever the text says about the topic around them: an
# open point on one of these does not deny the topic (a text naming 中国围棋竞赛规则 states the
# rules of play, not the superko wording; a prize table does not state taxes).
DETAIL_FIELDS = re.compile(r"^(rules\.(superko|cycle_result|suicide_allowed)|prizes\.(pre_tax|tied_places)"
                           r"|scoring\.forfeit_counts_in_sos|pairing\.)")


def open_point_topic(point: dict[str, Any]) -> str | None:
    """The annotation topic an open point speaks of: by its field, else by its topic's words;
    None for a detail field (``DETAIL_FIELDS``)."""
    fld = str(point.get("field") or "")
    if DETAIL_FIELDS.search(fld):
        return None
    for pattern, topic in _FIELD_TOPICS:
        if re.search(pattern, fld):
            return topic
    words = str(point.get("topic") or "")
    return next((topic for word, topic in _WORD_TOPICS if word in words), None)


def denies(point: dict[str, Any]) -> bool:
    """Whether an open point says the text does not state its rule (rather than quoting a
    sentence it could not read)."""
    said = f"{point.get('choice') or ''} {point.get('question') or ''}"
    return bool(_DENIAL.search(said)) and not _CITED.search(said)


# ---------------------------------------------------------------- annotations


def _entries(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AnnotationError(f"{path}: 无法读取标注 ({exc}); 请修正为 UTF-8 JSON") from None
    entries = data if isinstance(data, list) else [data]
    if not all(isinstance(e, dict) and isinstance(e.get("text"), str) for e in entries):
        raise AnnotationError(f"{path}: 每条标注须是含 \"text\" 的对象")
    return entries


def load_annotations(expected_dir: Path, corpus: Path, texts: Path, seeds: Path,
                     root: Path) -> list[Annotation]:
    """Every annotation under ``expected_dir``, with its text resolved (the corpus first, then
    the test texts; ``seed:NNN`` in the seeds folder)."""
    out: list[Annotation] = []
    for file in sorted(expected_dir.glob("*.json")):
        for e in _entries(file):
            text = e["text"]
            if text.startswith("seed:"):
                found = sorted(seeds.glob(f"{text.removeprefix('seed:')}_*.txt"))
                if not found or not isinstance(e.get("expected_file"), str):
                    raise AnnotationError(f"{file}: {text}: 在 {seeds} 中找不到种子文本, 或缺 expected_file")
                out.append(Annotation(text, found[0], "seeds", expected_file=root / e["expected_file"]))
                continue
            own = not (corpus / text).is_file() and (texts / text).is_file()
            source = texts / text if own else corpus / text
            try:
                values = tuple(Expected(str(v["path"]), v["value"], str(v.get("clause", "")))
                               for v in e.get("values", []))
                stated = frozenset(str(s["topic"]) for s in e.get("stated", []))
                if any(v.path == "year" for v in values):
                    stated |= {"year"}  # a year read by hand is a year the text states
            except (KeyError, TypeError, AttributeError):
                raise AnnotationError(f"{file}: {text}: values 每项须有 path 与 value, stated 每项须有 topic"
                                      ) from None
            bad = sorted(stated - set(TOPICS))
            if bad:
                raise AnnotationError(f"{file}: 未知的 stated topic {bad}; 允许: {', '.join(TOPICS)}")
            out.append(Annotation(Path(text).stem, source, "own" if own else "real", values, stated))
    return out


# ---------------------------------------------------------------- drafting and measuring


def _drafted(source: Path, event_id: str | None) -> tuple[dict[str, Any], bool]:
    """Draft ``source`` as ``yisai regulation draft`` does: the file's document (show's JSON
    when ``check`` accepts it, else the TOML as written) and whether ``check`` accepts it."""
    from yisai.formats.regulation_draft import to_toml
    from yisai.formats.regulation_source import read_path
    from yisai.regulation import RegulationError, loads
    from yisai.regulation.draft import draft

    toml = to_toml(draft(read_path(source), event_id), source.name)
    try:
        reg = loads(toml, source.name)
    except RegulationError:
        return _plain(tomllib.loads(toml)), False
    return reg.model_dump(mode="json", by_alias=True), True


def measure(a: Annotation) -> TextResult:
    """Draft one annotated text and count its values. A text that cannot be read, or a drafter
    that fails on it, is reported on its row (all its values missing), never raised: one bad
    text must not hide the figures of the others."""
    r = TextResult(a.name, a.group)
    try:
        if a.expected_file is not None:
            return _measure_seed(a, r)
        doc, r.check = _drafted(a.source, None)
    except Exception as exc:  # the row says what failed; the run goes on
        r.error = f"{type(exc).__name__}: {exc}"
        r.expected = len(a.values)
        r.missing = r.expected
        return r
    r.expected = len(a.values)
    points = [p for p in doc.get("open_points") or [] if isinstance(p, dict)]
    asked = [str(p.get("field")) for p in points if p.get("field")]
    for v in a.values:
        found, got, where = resolve(doc, v.path)
        if not found:
            r.missing += 1
            r.missing_paths.append(v.path)
        elif same(v.path, v.value, got):
            r.equal += 1
        else:
            r.wrong += 1
            r.wrong_paths.append(f"{v.path}: {got!r} ≠ {v.value!r}")
            if not any(where == f or where.startswith(f + ".") for f in asked):
                r.wrong_unasked += 1
    r.open_points = len(points)
    for p in points:
        topic = open_point_topic(p)
        if topic in a.stated and denies(p):
            r.denied += 1
            r.denied_topics.append(f"{topic}: {p.get('field') or p.get('topic')}")
    return r


def _measure_seed(a: Annotation, r: TextResult) -> TextResult:
    from yisai.formats.regulation_file import load

    assert a.expected_file is not None
    shipped = load(a.expected_file)
    want = {p: v for p, v in flat(shipped.model_dump(mode="json", by_alias=True)).items()
            if not p.startswith("open_points")}
    doc, r.check = _drafted(a.source, shipped.id)
    got = flat(doc)
    points = [p for p in doc.get("open_points") or [] if isinstance(p, dict)]
    asked = [str(p.get("field")) for p in points if p.get("field")]
    r.open_points = len(points)
    r.expected = len(want)
    for p, v in want.items():
        if p not in got:
            r.missing += 1
            r.missing_paths.append(p)
        elif v == got[p] or (isinstance(v, int | float) and isinstance(got[p], int | float)
                             and not isinstance(v, bool) and float(v) == float(got[p])):
            r.equal += 1
        else:
            r.wrong += 1
            r.wrong_paths.append(f"{p}: {got[p]!r} ≠ {v!r}")
            where = p.replace("[", ".").replace("]", "")
            if not any(where == f or where.startswith(f + ".") for f in asked):
                r.wrong_unasked += 1
    return r


def total(results: list[TextResult], label: tuple[str, str] = ("合计", "total")) -> TextResult:
    t = TextResult(tr(*label), "total")
    for r in results:
        for k in ("expected", "equal", "wrong", "wrong_unasked", "missing", "denied", "open_points"):
            setattr(t, k, getattr(t, k) + getattr(r, k))
    t.check = all(r.check for r in results)
    return t


GROUPS = (("real", ("真实规程", "real texts")), ("own", ("自编文本", "own texts")), ("seeds", ("种子", "seeds")))


def subtotals(results: list[TextResult]) -> dict[str, tuple[TextResult, list[TextResult]]]:
    """The corpus's real 规程, the texts written for the tests and the seeds apart (the seeds'
    thousand values would hide the corpus's figure), then everything."""
    out: dict[str, tuple[TextResult, list[TextResult]]] = {}
    for key, label in GROUPS:
        part = [r for r in results if r.group == key]
        if part:
            out[key] = (total(part, label), part)
    out["total"] = (total(results), results)
    return out


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal columns (a Chinese character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    fill = " " * max(width - used, 0)
    return fill + text if right else text + fill


HEADS = (("文本", "text"), ("应有", "expected"), ("相同", "equal"), ("错误", "wrong"), ("错而未问", "unasked"),
         ("缺少", "missing"), ("否认", "denied"), ("待确认", "open"), ("check", "check"))


def table(results: list[TextResult]) -> list[str]:
    """The per-text table, then the real texts, the seeds and all together (the check column of
    a sum counts the drafts it accepts)."""
    head = [tr(zh, en) for zh, en in HEADS]
    width = max([len(r.text) for r in results] + [12])
    rows = [_pad(head[0], width) + " " + " ".join(_pad(h, 8, right=True) for h in head[1:])]

    def row(r: TextResult, ok: str) -> str:
        figures = (r.expected, r.equal, r.wrong, r.wrong_unasked, r.missing, r.denied, r.open_points, ok)
        return _pad(r.text, width) + " " + " ".join(_pad(str(x), 8, right=True) for x in figures)

    rows += [row(r, tr("通过", "ok") if r.check else tr("不通过", "fails")) for r in results]
    for t, part in subtotals(results).values():
        share = 100 * t.equal / t.expected if t.expected else 0.0
        rows.append(row(t, f"{sum(x.check for x in part)}/{len(part)}") + f"  {share:.1f}%")
    return rows


def _checkout() -> Path:
    """The checkout this package runs from (src/yisai/bench/ → three up), else the cwd."""
    here = Path(__file__).resolve().parents[3]
    return here if (here / "pyproject.toml").is_file() else Path.cwd()


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("draft")
    def draft_bench(
        corpus: Path | None = typer.Option(None, "--corpus", help=tr(
            "规程文本目录 (默认: 检出目录旁的 ../shared/testdata/regulations-real)",
            "folder of 规程 texts (default: ../shared/testdata/regulations-real next to the checkout)")),
        expected: Path | None = typer.Option(None, "--expected", help=tr(
            "手工标注目录 (默认 tests/regulation/draft/real)", "hand annotations (default tests/regulation/draft/real)")),
        fmt: str = typer.Option("table", "--format", help="table | json"),
    ) -> None:
        """规程起草器基准: 逐篇起草真实规程, 与手工读出的值比较 (相同/错误/缺少/否认已写明的规则)."""
        root = _checkout()
        corpus_dir = corpus or root.parent / "shared" / "testdata" / "regulations-real"
        expected_dir = expected or root / "tests" / "regulation" / "draft" / "real"
        if fmt not in ("table", "json"):
            typer.echo(tr(f"未知格式: {fmt} (允许: table, json)", f"unknown format: {fmt} (allowed: table, json)"),
                       err=True)
            raise typer.Exit(2)
        if not corpus_dir.is_dir():
            typer.echo(tr(f"{corpus_dir}: 规程文本目录不存在, 请用 --corpus 指定",
                          f"{corpus_dir}: no such folder of 规程 texts; give one with --corpus"), err=True)
            raise typer.Exit(2)
        if not expected_dir.is_dir():
            typer.echo(tr(f"{expected_dir}: 标注目录不存在, 请用 --expected 指定",
                          f"{expected_dir}: no such annotation folder; give one with --expected"), err=True)
            raise typer.Exit(2)
        try:
            annotations = load_annotations(expected_dir, corpus_dir, root / "tests" / "regulation" / "draft"
                                           / "texts", corpus_dir.parent.parent / "seeds", root)
        except AnnotationError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from None
        bad = [p for a in annotations for v in a.values if (p := schema_problem(v.path))]
        if bad:
            typer.echo("\n".join(bad), err=True)
            raise typer.Exit(2)
        results = [measure(a) for a in annotations]
        if fmt == "json":
            sums = {k: {**asdict(t), "checked": sum(x.check for x in part), "texts": len(part)}
                    for k, (t, part) in subtotals(results).items()}
            typer.echo(json.dumps({"texts": [asdict(r) for r in results], **sums}, ensure_ascii=False, indent=2))
        else:
            typer.echo("\n".join(table(results)))
            for r in results:
                if r.error:
                    typer.echo(tr(f"{r.text}: 无法读取: {r.error}", f"{r.text}: cannot read: {r.error}"), err=True)

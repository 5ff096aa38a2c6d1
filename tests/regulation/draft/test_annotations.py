"""The hand annotations of 规程 texts (real/ for the development corpus, texts/ for the three
written for the tests) keep one format, so the drafter's measure can read every one of them the
same way: required keys, known topics, short clauses, one value per path, ISO dates, and every
path a field of the regulation schema holding its value as `regulation show` writes it. Only the
JSON files are read: the corpus texts themselves live outside the repository."""

from __future__ import annotations

import json
import re
import types
import typing
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from yisai.bench.drafter import TOPICS as BENCH_TOPICS
from yisai.regulation.schema import Regulation

HERE = Path(__file__).parent
# seeds.json names the shipped files whose every value is expected (the seeds), not values
FILES = sorted(p for p in [*(HERE / "real").glob("*.json"), *(HERE / "texts").glob("*.json")]
               if p.name != "seeds.json")

TOPICS = frozenset(BENCH_TOPICS)  # the measure's topics, one list (issuer/issue_date: the sign-off)
MAX_CLAUSE = 40
# A flat path as tests/regulation/draft/flat.py writes it: dotted names, each optionally followed
# by list keys ``[id]`` (an id or a position) or ``{name}`` (a list item named as the text does).
SEGMENT = r"[a-z_][a-z0-9_]*(?:\[[^\[\]{}.]+\]|\{[^\[\]{}]+\})*"
PATH = re.compile(rf"^{SEGMENT}(?:\.{SEGMENT})*$")
DATE_FIELDS = frozenset({"start", "end", "check_in", "on", "born_from", "born_to", "award_day", "day"})
DATETIME_FIELDS = frozenset({"opens", "closes", "deadline", "registration_from", "registration_to", "at"})
MONEY_FIELDS = frozenset({"amount", "fee", "pool"})


def _load(path: Path) -> dict[str, Any]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict), f"{path.name}: 顶层须为对象"
    return doc


def _clause_ok(clause: object) -> bool:
    return isinstance(clause, str) and clause.strip() != "" and len(clause) <= MAX_CLAUSE


def _scalar(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _last_name(path: str) -> str:
    """The field name a path ends in (``stages{预选赛}.start`` → ``start``)."""
    return re.sub(r"\[[^\]]*\]|\{[^}]*\}", "", path).rsplit(".", 1)[-1]


def _iso_date(value: object) -> bool:
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _iso_datetime(value: object) -> bool:
    if _iso_date(value):
        return True
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?", value):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def problems(path: Path) -> list[str]:
    """Every way the annotation file breaks the format (empty when it keeps it)."""
    doc = _load(path)
    out: list[str] = []
    required = {"text", "values", "stated", "cannot_state"}
    allowed = required | {"open"}
    out += [f"缺少 {k}" for k in sorted(required - set(doc))]
    out += [f"多余的键 {k}" for k in sorted(set(doc) - allowed)]
    if doc.get("text") != f"{path.stem}.txt":
        out.append(f"text 应为 {path.stem}.txt, 现为 {doc.get('text')!r}")
    for key in ("values", "stated", "cannot_state"):
        if not isinstance(doc.get(key, []), list):
            out.append(f"{key} 须为列表")
    if "open" in doc and not (isinstance(doc["open"], list) and all(isinstance(x, str) for x in doc["open"])):
        out.append("open 须为字段名列表")
    seen: set[str] = set()
    for i, item in enumerate(doc.get("values", [])):
        if not isinstance(item, dict) or set(item) != {"path", "value", "clause"}:
            out.append(f"values[{i}] 须正好有 path、value、clause")
            continue
        p, value = item["path"], item["value"]
        if not isinstance(p, str) or not PATH.match(p):
            out.append(f"values[{i}] 路径格式不对: {p!r}")
            continue
        if p in seen:
            out.append(f"路径重复: {p}")
        seen.add(p)
        if not (_scalar(value) or (isinstance(value, list) and all(_scalar(x) for x in value))):
            out.append(f"{p}: 值须为 JSON 标量或标量列表")
        if not _clause_ok(item["clause"]):
            out.append(f"{p}: clause 须非空且不超过 {MAX_CLAUSE} 字")
        field = _last_name(p)
        if field in DATE_FIELDS and not _iso_date(value):
            out.append(f"{p}: 日期须为 YYYY-MM-DD, 现为 {value!r}")
        if field in DATETIME_FIELDS and not _iso_datetime(value):
            out.append(f"{p}: 时间须为 YYYY-MM-DD 或 YYYY-MM-DDTHH:MM, 现为 {value!r}")
        if field in MONEY_FIELDS and not (isinstance(value, int) and not isinstance(value, bool)):
            out.append(f"{p}: 金额须为整数元, 现为 {value!r}")
    for i, item in enumerate(doc.get("stated", [])):
        if not isinstance(item, dict) or set(item) != {"topic", "clause"}:
            out.append(f"stated[{i}] 须正好有 topic、clause")
            continue
        if item["topic"] not in TOPICS:
            out.append(f"stated[{i}]: 未知的 topic {item['topic']!r}")
        if not _clause_ok(item["clause"]):
            out.append(f"stated[{i}]: clause 须非空且不超过 {MAX_CLAUSE} 字")
    for i, item in enumerate(doc.get("cannot_state", [])):
        if not isinstance(item, dict) or set(item) != {"rule", "clause"}:
            out.append(f"cannot_state[{i}] 须正好有 rule、clause")
            continue
        if not (isinstance(item["rule"], str) and item["rule"].strip()):
            out.append(f"cannot_state[{i}]: rule 须非空")
        if not _clause_ok(item["clause"]):
            out.append(f"cannot_state[{i}]: clause 须非空且不超过 {MAX_CLAUSE} 字")
    return out


def _inner(annotation: Any) -> tuple[list[type[BaseModel]], str]:
    """The models inside a field's annotation and its shape: model, list, dict or scalar."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _inner(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        models: list[type[BaseModel]] = []
        shapes: set[str] = set()
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                found, shape = _inner(arg)
                models += found
                shapes.add(shape)
        return models, shapes.pop() if len(shapes) == 1 else "scalar"
    if origin in (list, dict):
        return _inner(typing.get_args(annotation)[-1])[0], origin.__name__
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation], "model"
    return [], "scalar"


def _dict_values(annotation: Any) -> Any:
    """``dict[str, X]`` (possibly optional or annotated) → ``X``."""
    for arg in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(arg) is dict:
            return typing.get_args(arg)[1]
    return annotation


def schema_problem(path: str, value: object) -> str | None:
    """Why ``path`` is not a field of the regulation schema holding ``value`` in the form
    ``regulation show --format json`` gives it (None when it is). Stages' formats are a union,
    so a name is looked up in every model the path can be at."""
    at: list[type[BaseModel]] = [Regulation]
    leaves: list[Any] = []
    segments = iter(path.split("."))
    for segment in segments:
        name, keys = re.fullmatch(r"([a-z_][a-z0-9_]*)(.*)", segment).groups()  # type: ignore[union-attr]
        fields = [f for m in at for n, f in m.model_fields.items() if name in (n, f.alias)]
        if not fields:
            return f"{name} 不是 {'/'.join(m.__name__ for m in at)} 的字段"
        at, shape = [], "scalar"
        leaves = [f.annotation for f in fields]
        for f in fields:
            found, shape = _inner(f.annotation)
            at += found
        if shape == "list" and at and not keys:
            return f"{name} 是列表, 须写 [键] 或 {{名称}}"
        if keys and shape not in ("list", "dict"):
            return f"{name} 不是列表"
        if shape == "dict" and (keys or next(segments, None) is not None):  # a division's key, free
            leaves = [_dict_values(a) for a in leaves]
    reasons = []
    for annotation in leaves:
        adapter: TypeAdapter[Any] = TypeAdapter(annotation)
        try:
            held = adapter.dump_python(adapter.validate_python(value), mode="json")
        except ValidationError as e:
            reasons.append(e.errors()[0]["msg"])
            continue
        if held == value:
            return None
        reasons.append(f"schema 写作 {held!r}")
    return f"值 {value!r} 不合该字段: {'; '.join(reasons)}"


def test_there_are_annotations_to_check() -> None:
    assert {p.stem for p in (HERE / "texts").glob("*.json")} == {
        "team-league", "round-robin-knockout", "dan-promotion"}
    assert list((HERE / "real").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_annotation_keeps_the_format(path: Path) -> None:
    assert problems(path) == []


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_every_path_is_a_schema_field_holding_its_value(path: Path) -> None:
    """Each value could be written into a regulation file as it stands (enum spelling, ranks as
    3段, dates ISO), so a drafted file can be compared with it field by field."""
    wrong = {v["path"]: p for v in _load(path)["values"] if (p := schema_problem(v["path"], v["value"]))}
    assert wrong == {}


@pytest.mark.parametrize(("path", "value"), [
    ("stages[main].format.roundz", 7),
    ("teams.competitions.size", 3),
    ("rules.superko", "simple"),
    ("divisions{A组}.eligibility.min_rank", "3d"),
    ("ranking.criteria[0].criterion", "积分"),
    ("stages[main].timetable[0].at", "2023-08-26T12:00"),
])
def test_a_path_or_value_the_schema_does_not_hold_is_reported(path: str, value: object) -> None:
    assert schema_problem(path, value) is not None


def test_the_texts_annotations_name_texts_that_exist() -> None:
    for path in (HERE / "texts").glob("*.json"):
        assert (HERE / "texts" / _load(path)["text"]).is_file()


@pytest.mark.parametrize(("doc", "found"), [
    ({"values": [], "stated": [], "cannot_state": []}, "缺少 text"),
    ({"text": "x.txt", "values": [{"path": "name", "value": "a", "clause": "标题"},
                                  {"path": "name", "value": "b", "clause": "标题"}],
      "stated": [], "cannot_state": []}, "路径重复: name"),
    ({"text": "x.txt", "values": [{"path": "stages[main].start", "value": "2014.3.8", "clause": "三、"}],
      "stated": [], "cannot_state": []}, "stages[main].start: 日期须为 YYYY-MM-DD"),
    ({"text": "x.txt", "values": [], "stated": [{"topic": "money", "clause": "六、"}],
      "cannot_state": []}, "未知的 topic"),
    ({"text": "x.txt", "values": [{"path": "name", "value": "a", "clause": "甲" * 41}],
      "stated": [], "cannot_state": []}, "clause 须非空"),
    ({"text": "x.txt", "values": [{"path": "prizes.lists{男子}.rows[0].amount", "value": "1万",
                                   "clause": "六、"}], "stated": [], "cannot_state": []}, "金额须为整数元"),
    ({"text": "x.txt", "values": [{"path": "teams", "value": {"kind": "club"}, "clause": "五、"}],
      "stated": [], "cannot_state": []}, "值须为 JSON 标量或标量列表"),
])
def test_a_broken_annotation_is_reported(tmp_path: Path, doc: dict[str, Any], found: str) -> None:
    """The checker itself finds each kind of break (hand-made broken files)."""
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    assert any(found in p for p in problems(path)), problems(path)

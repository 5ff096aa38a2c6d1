"""What kind of value a regulation field holds, read from the schema, and a director's typed
answer turned into that value: the console's draft page asks each open point with a small form
(a date, a number, a choice, text) instead of making the director write TOML."""

from __future__ import annotations

import enum
import re
import types
import typing
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from yisai.i18n import Text
from yisai.regulation.schema import Regulation

Path = tuple[str | int, ...]
Kind = Literal["date", "datetime", "time", "int", "float", "bool", "choice", "text", "list", "choices"]


@dataclass(frozen=True)
class FieldType:
    """One leaf of the schema: its kind, the allowed values of a choice, and numeric bounds."""

    kind: Kind
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    optional: bool = False


class BadAnswer(ValueError):
    """An answer that is not a value of its field, worded in both languages."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.zh)


def _strip(annotation: Any) -> tuple[Any, bool]:
    """Drop ``Annotated`` and ``| None``: (the type, whether None is allowed)."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if origin is typing.Annotated:
            annotation = args[0]
        elif origin in (typing.Union, types.UnionType) and type(None) in args:
            optional = True
            rest = [a for a in args if a is not type(None)]
            annotation = rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]  # noqa: UP007
        else:
            return annotation, optional


def _field(model: type[BaseModel], key: str) -> FieldInfo | None:
    for name, f in model.model_fields.items():
        if (f.alias or name) == key:
            return f
    return None


def _pick_model(annotation: Any, node: Any) -> type[BaseModel] | None:
    """The model among a union's members, by the ``kind`` the document gives."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kind = node.get("kind") if isinstance(node, dict) else None
        for member in typing.get_args(annotation):
            member, _ = _strip(member)
            if not (isinstance(member, type) and issubclass(member, BaseModel)):
                continue
            literal = member.model_fields.get("kind")
            if literal is not None and kind in typing.get_args(literal.annotation):
                return member
    return None


def _bounds(info: FieldInfo | None) -> tuple[float | None, float | None]:
    low = high = None
    for m in info.metadata if info is not None else []:
        if isinstance(m, annotated_types.Ge):
            low = float(m.ge)  # type: ignore[arg-type]
        elif isinstance(m, annotated_types.Gt):
            low = float(m.gt) + (1 if isinstance(m.gt, int) else 0)  # type: ignore[arg-type]
        elif isinstance(m, annotated_types.Le):
            high = float(m.le)  # type: ignore[arg-type]
        elif isinstance(m, annotated_types.Lt):
            high = float(m.lt)  # type: ignore[arg-type]
    return low, high


def _choices(annotation: Any) -> tuple[str, ...] | None:
    if typing.get_origin(annotation) is Literal:
        return tuple(str(a) for a in typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(str(m.value) for m in annotation)
    return None


def _leaf(annotation: Any, info: FieldInfo | None) -> FieldType | None:
    annotation, optional = _strip(annotation)
    low, high = _bounds(info)
    choices = _choices(annotation)
    if choices is not None:
        return FieldType("choice", choices, optional=optional)
    simple: dict[Any, Kind] = {bool: "bool", int: "int", float: "float", date: "date", datetime: "datetime",
                               time: "time", str: "text"}
    if annotation in simple:
        return FieldType(simple[annotation], ("true", "false") if annotation is bool else (), low, high, optional)
    if typing.get_origin(annotation) is list:
        inner, _ = _strip(typing.get_args(annotation)[0])
        if inner is str:
            return FieldType("list", optional=optional)
        inner_choices = _choices(inner)
        if inner_choices is not None:
            return FieldType("choices", inner_choices, optional=optional)
    return None


def field_type(doc: dict[str, Any], path: Path) -> FieldType | None:
    """The kind of value at ``path`` of the regulation document ``doc``; None for a table, a
    list of tables, or anything a small form cannot hold (the director edits the file)."""
    model: type[BaseModel] | None = Regulation
    node: Any = doc
    annotation: Any = None
    info: FieldInfo | None = None
    for key in path:
        if isinstance(key, str) and model is not None:
            info = _field(model, key)
            if info is None:
                return None
            annotation, _ = _strip(info.annotation)
            node = node.get(key) if isinstance(node, dict) else None
            model = None
        elif isinstance(key, int) and typing.get_origin(annotation) is list:
            annotation, _ = _strip(typing.get_args(annotation)[0])
            node = node[key] if isinstance(node, list) and key < len(node) else None
        elif isinstance(key, str) and typing.get_origin(annotation) is dict:
            annotation, _ = _strip(typing.get_args(annotation)[1])
            node = node.get(key) if isinstance(node, dict) else None
        else:
            return None
        picked = _pick_model(annotation, node)
        if picked is not None:
            model = picked
    if model is not None:
        return None  # a whole table
    return _leaf(annotation, info)


_DATE = re.compile(r"^\s*(\d{4})\s*[-./年]\s*(\d{1,2})\s*[-./月]\s*(\d{1,2})\s*日?\s*$")
_SPLIT = re.compile(r"\s*[、,，;；\n]\s*")


def parse_answer(ft: FieldType, raw: str, label: str) -> Any:
    """The value ``raw`` stands for in a field of type ``ft`` (``label`` names the field in the
    message); raises BadAnswer saying what to enter. An empty answer to an optional field is None."""
    raw = raw.strip()
    if not raw:
        if ft.optional:
            return None
        raise BadAnswer(Text(f"{label}: 请填写一个值", f"{label}: please enter a value"))
    if ft.kind in ("date", "datetime"):
        return _date(raw, label) if ft.kind == "date" else _datetime(raw, label)
    if ft.kind == "time":
        try:
            return time.fromisoformat(raw)
        except ValueError:
            raise BadAnswer(Text(f"{label}: “{raw}”不是有效的时间, 请写成 HH:MM",
                                 f"{label}: \"{raw}\" is not a valid time; write HH:MM")) from None
    if ft.kind in ("int", "float"):
        return _number(ft, raw, label)
    if ft.kind in ("choice", "bool"):
        if raw not in ft.choices:
            raise BadAnswer(Text(f"{label}: “{raw}”不是可选值, 可选: {'、'.join(ft.choices)}",
                                 f"{label}: \"{raw}\" is not one of {', '.join(ft.choices)}"))
        return raw == "true" if ft.kind == "bool" else raw
    if ft.kind in ("list", "choices"):
        items = [x for x in _SPLIT.split(raw) if x]
        wrong = [x for x in items if ft.kind == "choices" and x not in ft.choices]
        if wrong:
            raise BadAnswer(Text(f"{label}: “{'、'.join(wrong)}”不是可选值, 可选: {'、'.join(ft.choices)}",
                                 f"{label}: \"{', '.join(wrong)}\" is not one of {', '.join(ft.choices)}"))
        return items
    return raw


def _date(raw: str, label: str) -> date:
    m = _DATE.match(raw)
    try:
        if m is None:
            raise ValueError(raw)
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise BadAnswer(Text(f"{label}: “{raw}”不是有效的日期, 请写成 年-月-日, 如 2025-05-02",
                             f"{label}: \"{raw}\" is not a valid date; write YYYY-MM-DD, e.g. 2025-05-02")) from None


def _datetime(raw: str, label: str) -> datetime:
    try:
        return datetime.fromisoformat(raw.replace(" ", "T"))
    except ValueError:
        raise BadAnswer(Text(f"{label}: “{raw}”不是有效的日期时间, 请写成 2025-05-02T08:30",
                             f"{label}: \"{raw}\" is not a valid date and time; write 2025-05-02T08:30")) from None


def _number(ft: FieldType, raw: str, label: str) -> int | float:
    try:
        n: int | float = int(raw) if ft.kind == "int" else float(raw)
    except ValueError:
        what = ("整数", "a whole number") if ft.kind == "int" else ("数字", "a number")
        raise BadAnswer(Text(f"{label}: “{raw}”不是{what[0]}, 请填写{what[0]}",
                             f"{label}: \"{raw}\" is not {what[1]}; enter {what[1]}")) from None
    if n != n or n in (float("inf"), float("-inf")):
        raise BadAnswer(Text(f"{label}: 请填写有限的数字", f"{label}: enter a finite number"))
    if ft.minimum is not None and n < ft.minimum:
        low = _shown(ft.minimum)
        raise BadAnswer(Text(f"{label}: {raw} 太小, 不能小于 {low}", f"{label}: {raw} is too small; at least {low}"))
    if ft.maximum is not None and n > ft.maximum:
        high = _shown(ft.maximum)
        raise BadAnswer(Text(f"{label}: {raw} 太大, 不能大于 {high}", f"{label}: {raw} is too large; at most {high}"))
    return n


def _shown(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)

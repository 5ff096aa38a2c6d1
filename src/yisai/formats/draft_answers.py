"""A director's answers to a draft's open points, written into the draft so the TOML writer
(``regulation_draft.to_toml``) renders the file with them: a typed value replaces the default, a
confirmed default stops being open. The draft is rebuilt from the source text on every request;
the answers travel with the form, so nothing is stored before the event is created."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yisai.formats.regulation_draft import field_name
from yisai.i18n import Text
from yisai.regulation.draft import Draft
from yisai.regulation.draft.model import OpenQuestion, Path, asked, dotted
from yisai.regulation.field_types import BadAnswer, FieldType, field_type, parse_answer


@dataclass(frozen=True)
class Point:
    """One open point as the page asks it (duplicates of the same question folded, as in the file)."""

    key: str
    path: Path
    topic: str
    question: Text
    default: str
    field: str
    said: int | None
    type: FieldType | None
    """None: a table or list the small forms cannot hold; the director confirms the default or
    edits the file."""

    @property
    def label(self) -> str:
        return f"{self.topic} ({self.field})"


def key_of(q: OpenQuestion) -> str:
    """A point's name in the form: its path with list positions (stable while answers rename ids)."""
    return f"{dotted(q.path)}|{'' if q.said is None else q.said}|{q.topic}"


def points(d: Draft) -> list[Point]:
    """The draft's open points, each once, in the order the file lists them."""
    out: list[Point] = []
    seen: set[str] = set()
    for q in d.open:
        key = key_of(q)
        if key in seen:
            continue
        seen.add(key)
        out.append(Point(key, q.path, q.topic, asked(q.question), q.default, field_name(d.doc, q.path), q.said,
                         field_type(d.doc, q.path)))
    return out


@dataclass
class Answers:
    """What the director entered: a raw value per point key, and the keys whose default is kept."""

    values: dict[str, str] = field(default_factory=dict)
    kept: set[str] = field(default_factory=set)


@dataclass
class Outcome:
    """After the answers are applied: the points still open, those answered (with the text the
    director typed, "" for a kept default), and the refused answers (the point stays open)."""

    open: list[Point]
    answered: list[tuple[Point, str]]
    errors: dict[str, Text]


def apply(d: Draft, answers: Answers) -> Outcome:
    """Write each valid answer into ``d`` (the value at its path; the point no longer open)."""
    still: list[Point] = []
    answered: list[tuple[Point, str]] = []
    errors: dict[str, Text] = {}
    done: set[str] = set()
    for p in points(d):
        raw = answers.values.get(p.key, "").strip()
        if raw and p.type is not None:
            try:
                value: Any = parse_answer(p.type, raw, p.label)
            except BadAnswer as exc:
                errors[p.key] = exc.text
                still.append(p)
                continue
            if value is None:
                _drop(d, p.path)
            else:
                d.put(p.path, value)
            done.add(p.key)
            answered.append((p, raw))
        elif p.key in answers.kept:
            done.add(p.key)
            answered.append((p, ""))
        else:
            still.append(p)
    d.open = [q for q in d.open if key_of(q) not in done]
    return Outcome(still, answered, errors)


def _drop(d: Draft, path: Path) -> None:
    """An optional value answered empty: removed from the file."""
    parent = d.get(path[:-1])
    if isinstance(parent, dict):
        parent.pop(path[-1], None)

"""Every section and field of the regulation schema, walked from the pydantic models: what the
field reference in docs/regulation.md must cover (its test walks the same list, so a field added
to the schema without documentation fails the suite)."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from yisai.regulation.schema import Regulation


@dataclass(frozen=True)
class Section:
    """One model as it appears in a file: its TOML path (``[stages.format]``), the model, and
    the discriminator value when the path holds one of several models (``kind = "swiss"``)."""

    path: str
    model: type[BaseModel]
    kind: str | None = None

    @property
    def fields(self) -> list[tuple[str, FieldInfo]]:
        """(name as written in the file, field) in the schema's order."""
        return [(f.alias or name, f) for name, f in self.model.model_fields.items()]


def _models(annotation: object) -> Iterator[tuple[type[BaseModel], bool]]:
    """The models inside a field's type, and whether they sit in a list (``[[...]]``)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        yield from _models(args[0])
    elif origin in (typing.Union, types.UnionType):
        for a in args:
            yield from _models(a)
    elif origin is list:
        for model, _ in _models(args[0]):
            yield model, True
    elif origin is dict:
        yield from _models(args[1])
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation, False


def sections() -> list[Section]:
    """Every model reachable from ``Regulation``, each once, in the order a file meets them."""
    out: list[Section] = [Section("(顶层)", Regulation)]
    seen: set[type[BaseModel]] = {Regulation}
    queue: list[tuple[str, type[BaseModel]]] = [("", Regulation)]
    while queue:
        prefix, model = queue.pop(0)
        for name, f in model.model_fields.items():
            key = f.alias or name
            found = list(_models(f.annotation))
            for sub, in_list in found:
                if sub in seen:
                    continue
                seen.add(sub)
                path = f"{prefix}.{key}" if prefix else key
                kind_field = sub.model_fields.get("kind")
                kind = None
                if len(found) > 1 and kind_field is not None:
                    literal = typing.get_args(kind_field.annotation)
                    kind = str(literal[0]) if literal else None
                out.append(Section(f"[[{path}]]" if in_list else f"[{path}]", sub, kind))
                queue.append((path, sub))
    return out

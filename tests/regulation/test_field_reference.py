"""docs/regulation.md documents every field of every section of the schema (walked from the
pydantic models, so a field added anywhere — by any change — fails here until it is documented)."""

from __future__ import annotations

from pathlib import Path

from yisai.regulation.fields import sections
from yisai.regulation.prizes import PrizeRow
from yisai.regulation.schema import Regulation

DOC = Path(__file__).resolve().parents[2] / "docs" / "regulation.md"


def _blocks(text: str) -> dict[str, str]:
    """Model name → the text of its section (from its ``### … — `Model` `` heading to the next)."""
    out: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        if line.startswith("#"):
            current = None
            if line.startswith("### ") and line.rstrip().endswith("`"):
                current = line.rstrip().rsplit("`", 2)[-2]
                out[current] = ""
            continue
        if current is not None:
            out[current] += line + "\n"
    return out


def test_every_section_and_field_of_the_schema_is_in_the_reference() -> None:
    blocks = _blocks(DOC.read_text(encoding="utf-8"))
    missing = []
    for section in sections():
        block = blocks.get(section.model.__name__)
        if block is None:
            missing.append(f"{section.path} ({section.model.__name__}): 没有这一节")
            continue
        for name, _ in section.fields:
            if f"| `{name}` |" not in block:
                missing.append(f"{section.path}.{name} ({section.model.__name__})")
    assert not missing, "docs/regulation.md 缺少字段:\n" + "\n".join(missing)


def test_the_walk_reaches_nested_and_aliased_fields() -> None:
    found = {s.model: s for s in sections()}
    assert found[Regulation].path == "(顶层)"
    assert found[PrizeRow].path == "[[prizes.lists.rows]]"
    assert [n for n, _ in found[PrizeRow].fields][:2] == ["from", "to"]  # the names written in files
    assert {s.kind for s in sections() if s.path == "[stages.format]"} >= {"swiss", "online_ladder"}


def test_every_documented_row_has_an_example() -> None:
    blocks = _blocks(DOC.read_text(encoding="utf-8"))
    empty = [f"{model}: {row.split('|')[1].strip()}" for model, block in blocks.items()
             for row in block.splitlines()
             if row.startswith("| `") and row.rstrip().endswith("|  |")]
    assert not empty, empty

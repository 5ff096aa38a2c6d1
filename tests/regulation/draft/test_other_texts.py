"""Three 规程 written for these tests in the style of real ones (texts/): a team league, a round
robin with a knockout, a 段位赛 with promotion. Each drafts to a file `regulation check` accepts;
the expected values (texts/<name>.json) were written by hand from reading each text, each with
its clause, and the fields each text leaves open are listed by hand too (their ``open`` list)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.regulation.draft.flat import shown
from yisai.cli.app import app

TEXTS = Path(__file__).parent / "texts"


def hand_values(name: str) -> tuple[dict[str, object], list[str]]:
    """The values and the open fields written by hand for ``texts/<name>.txt``, from
    ``texts/<name>.json`` (the annotation format of the real corpus, plus its ``open`` list)."""
    doc = json.loads((TEXTS / f"{name}.json").read_text(encoding="utf-8"))
    return {v["path"]: v["value"] for v in doc["values"]}, list(doc["open"])


@pytest.mark.parametrize("name", ["team-league", "round-robin-knockout", "dan-promotion"])
def test_text_drafts_to_its_hand_written_values(tmp_path: Path, name: str) -> None:
    expected, open_fields = hand_values(name)
    out = tmp_path / f"{name}.toml"
    result = CliRunner().invoke(app, ["regulation", "draft", str(TEXTS / f"{name}.txt"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(app, ["regulation", "check", str(out)]).exit_code == 0
    got = shown(str(out))
    wrong = {p: (got.get(p, "<absent>"), v) for p, v in expected.items() if got.get(p, "<absent>") != v}
    assert wrong == {}
    fields = {v for k, v in got.items() if k.startswith("open_points") and k.endswith(".field")}
    assert set(open_fields) <= fields, sorted(fields)


@pytest.mark.parametrize("name", ["team-league", "round-robin-knockout", "dan-promotion"])
def test_every_drafted_value_cites_a_sentence_or_is_an_open_point(name: str) -> None:
    """Issue #32 item 2: no value is written without its clause, unless it is a marked default."""
    from yisai.formats.regulation_draft import field_name
    from yisai.regulation.draft import draft

    d = draft((TEXTS / f"{name}.txt").read_text(encoding="utf-8"))
    defaults = {q.path for q in d.open}
    bare = [field_name(d.doc, p) for p in _leaves(d.doc, ())
            if p != ("schema_version",)
            and not any(p[:k] in d.sources or p[:k] in defaults for k in range(1, len(p) + 1))]
    assert bare == []


def _leaves(node: object, path: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]

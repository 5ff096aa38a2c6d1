"""A director's answers written into a draft (#40 item 4): a typed value replaces the default at
its path and the point stops being open; a kept default only closes the point; a refused answer
leaves the point open and the draft untouched; the TOML writer renders the answered draft, which
``regulation check`` accepts once every answer is valid."""

from __future__ import annotations

import tomllib
from datetime import date

from tests.web.test_draft_answers import CYCLE, ID, MINI, ON, YEAR
from yisai.formats.draft_answers import Answers, apply, points
from yisai.formats.regulation_draft import to_toml
from yisai.regulation import loads
from yisai.regulation.draft import draft


def test_typed_values_replace_defaults_and_close_their_points() -> None:
    d = draft(MINI.decode())
    before = [p.key for p in points(d)]
    assert {YEAR, ON, CYCLE, ID} <= set(before)
    out = apply(d, Answers({YEAR: "2025", ON: "2025年5月2日", CYCLE: "draw", ID: "2025-qingxi"}))
    assert out.errors == {}
    assert [p.key for p, _raw in out.answered] == [k for k in before if k in {YEAR, ON, CYCLE, ID}]
    assert [p.key for p in out.open] == [k for k in before if k not in {YEAR, ON, CYCLE, ID}]
    assert (d.get(("year",)), d.get(("issued", "on")), d.get(("rules", "cycle_result"))) == (2025, date(2025, 5, 2), "draw")
    assert [p.key for p in points(d)] == [p.key for p in out.open]  # the draft's own list agrees
    doc = tomllib.loads(to_toml(d, "青溪.txt"))
    assert doc["year"] == 2025 and doc["id"] == "2025-qingxi"
    assert {p["field"] for p in doc["open_points"]} == {p.field for p in out.open}


def test_a_refused_answer_leaves_the_point_open_and_the_value_alone() -> None:
    d = draft(MINI.decode())
    year = d.get(("year",))
    out = apply(d, Answers({YEAR: "-3"}))
    assert out.errors[YEAR].zh == "比赛年份 (year): -3 太小, 不能小于 1900"
    assert YEAR in [p.key for p in out.open] and d.get(("year",)) == year


def test_every_point_answered_or_kept_gives_a_file_check_accepts() -> None:
    d = draft(MINI.decode())
    keys = [p.key for p in points(d)]
    out = apply(d, Answers({ID: "2025-qingxi"}, kept={k for k in keys if k != ID}))
    assert out.open == [] and len(out.answered) == len(keys)
    reg = loads(to_toml(d, "青溪.txt"), "draft.toml")
    assert reg.id == "2025-qingxi" and reg.open_points == []

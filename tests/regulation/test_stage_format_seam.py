"""The stage-format seam (issue 42 item 4): every format of ``stages.Format`` has its play and
its wording registered by kind, and no code outside the seam tests a format's class."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from yisai.formats.regulation_summary import _FORMAT_LINES
from yisai.regulation.stages import (
    AnnouncedLaterFormat,
    DoubleRoundRobinFormat,
    Format,
    KnockoutFormat,
    LadderFormat,
    RoundRobinFormat,
    SwissFormat,
    TwoGroupSwissFormat,
)
from yisai.services.stage_play import PLAYS

SRC = Path(__file__).resolve().parents[2] / "src" / "yisai"


def _kinds() -> set[str]:
    members = get_args(get_args(Format)[0])
    return {get_args(m.model_fields["kind"].annotation)[0] for m in members}


def test_every_format_kind_has_a_play_and_wording() -> None:
    kinds = _kinds()
    assert {"swiss", "two_group_swiss", "round_robin", "knockout", "team_match", "online_ladder",
            "announced_later"} <= kinds
    assert set(PLAYS) == kinds
    assert set(_FORMAT_LINES) == kinds


def test_no_caller_tests_a_format_class() -> None:
    pattern = re.compile(r"isinstance\(.*Format\)")
    found = [f"{p.relative_to(SRC)}:{n}" for p in SRC.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if pattern.search(line)]
    assert found == []


def test_traits_follow_the_regulation_text() -> None:
    """暂定7轮 fixes nothing; 分组5轮 + 第6轮同名次决赛 ends in round 6 and everyone plays the 5
    group rounds; a round robin with a knockout ends in a bracket of its own rules."""
    provisional = SwissFormat(kind="swiss", rounds=7, rounds_provisional=True)
    assert provisional.fixed_rounds() is None and provisional.last_round() is None
    assert not provisional.rounds_by_entries()
    assert SwissFormat(kind="swiss").rounds_by_entries()
    fixed = SwissFormat(kind="swiss", rounds=7)
    assert (fixed.fixed_rounds(), fixed.last_round()) == (7, 7)
    two = TwoGroupSwissFormat.model_validate(
        {"kind": "two_group_swiss", "group_rounds": 5, "placement_final": {"round": 6, "top": 8}})
    assert (two.fixed_rounds(), two.last_round(), two.swiss_group_rounds()) == (None, 6, 5)
    rr = RoundRobinFormat.model_validate(
        {"kind": "round_robin", "groups": ["A", "B"], "knockout": {"qualifiers_per_group": 2, "third_place": True}})
    rules = rr.bracket_rules()
    assert rules is not None and rules.third_place
    assert RoundRobinFormat(kind="round_robin").bracket_rules() is None
    ko = KnockoutFormat(kind="knockout")
    assert ko.bracket_rules() is ko and ko.crosstables and not ko.round_robin_groups
    for quiet in (LadderFormat.model_validate({"kind": "online_ladder", "qualifiers": {"open": 38}}),
                  AnnouncedLaterFormat(kind="announced_later")):
        assert not quiet.plays_rounds and quiet.last_round() is None
    assert LadderFormat.online and not SwissFormat.online


def test_the_crosstable_page_is_named_by_its_format() -> None:
    """A round robin alone is 循环赛, with a knockout after its groups 循环赛·淘汰赛; a knockout
    alone is 淘汰赛; 双循环 has neither groups nor a bracket."""
    labels = {
        "rr": RoundRobinFormat(kind="round_robin").page_label().zh,
        "rr+ko": RoundRobinFormat.model_validate(
            {"kind": "round_robin", "groups": ["A", "B"], "knockout": {"qualifiers_per_group": 2}}).page_label().zh,
        "ko": KnockoutFormat(kind="knockout").page_label().zh,
        "drr": DoubleRoundRobinFormat(kind="double_round_robin").page_label().zh,
    }
    assert labels == {"rr": "循环赛", "rr+ko": "循环赛·淘汰赛", "ko": "淘汰赛", "drr": "双循环"}


def test_each_format_checks_its_own_settings() -> None:
    """负局得分不低于胜局得分; 同名次决赛不在分组赛之后一轮; 3人淘汰赛设季军赛."""
    ladder = LadderFormat.model_validate({"kind": "online_ladder", "qualifiers": {"open": 1}, "win": 2, "loss": 2})
    assert [f.path for f in ladder.findings(("f",))] == [("f", "loss")]
    two = TwoGroupSwissFormat.model_validate(
        {"kind": "two_group_swiss", "group_rounds": 5, "placement_final": {"round": 7, "top": 8}})
    assert [f.path for f in two.findings(("f",))] == [("f", "placement_final", "round")]
    ko = KnockoutFormat(kind="knockout", players=3, third_place=True)
    assert [f.path for f in ko.findings(("f",))] == [("f", "third_place")]
    assert SwissFormat(kind="swiss", rounds=7).findings(("f",)) == []

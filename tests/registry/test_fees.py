"""报名费 from the regulation text, in the core (``registry.fees``). Seed 000 十一: 线上赛免费报名;
线下赛赛事服务费260元 (regional, semi-final and final stages); a team-wide item is paid once."""

from __future__ import annotations

from tests.conftest import REGULATIONS
from yisai.formats.regulation_file import load
from yisai.registry.fees import fee_for, team_fee_for

SHANHAI = load(REGULATIONS / "2025-shanhai-cup.toml")


def test_online_entries_are_free_and_offline_stages_cost_the_service_fee() -> None:
    assert fee_for(SHANHAI, "open", "online") == 0
    for stage in ("regional", "semifinal", "final"):
        assert fee_for(SHANHAI, "open", stage) == 260
    # no stage named: the 260 yuan item applies once, not once per offline stage
    assert fee_for(SHANHAI, "open") == 260


def test_a_team_item_is_paid_once_by_the_team_not_by_each_entry() -> None:
    items = [*SHANHAI.fees.items, SHANHAI.fees.items[0].model_copy(update={"name": "团体报名费", "amount": 500,
                                                                           "per": "team", "applies_to": []})]
    reg = SHANHAI.model_copy(update={"fees": SHANHAI.fees.model_copy(update={"items": items})})
    assert team_fee_for(reg) == 500 and team_fee_for(SHANHAI) == 0
    assert fee_for(reg, "open", "final") == 260

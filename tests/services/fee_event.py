"""A seed-002 event that charges money, for the fee tests: 赛事服务费260元 per player (not refunded
to a no-show, as seed 000 says), 报名费600元 per team, 申诉费1000元 (seed 002), two teams of six."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from tests.conftest import REGULATIONS
from tests.formats.roster_files import team_rows, write_csv
from yisai.services import events, roster_import
from yisai.services.context import Context
from yisai.store import EventRecord

NOW = datetime(2025, 4, 10, 9)
FREE = '  { name = "赛事服务费", amount = 0, note = "参赛棋手免收赛事服务费" },'
CHARGED = ('  { name = "赛事服务费", amount = 260, refundable_if_absent = false,'
           ' note = "报名后无故不参加比赛者，赛事服务费不予退还" },\n'
           '  { name = "报名费", amount = 600, per = "team" },')


def fee_regulation(folder: Path, team_fee: bool = True) -> Path:
    text = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")
    assert FREE in text
    path = folder / "charged.toml"
    charged = CHARGED if team_fee else CHARGED.split("\n", 1)[0]
    path.write_text(text.replace(FREE, charged), encoding="utf-8")
    return path


def fee_event(ctx: Context, folder: Path, team_fee: bool = True) -> EventRecord:
    """The event with 辽宁队 and 山东队 registered (12 entries of 260元, 2 teams of 600元; with
    ``team_fee=False`` the entries only)."""
    rows = team_rows("辽宁队", "辽宁省", "沈阳", "210102", 1) + team_rows("山东队", "山东省", "济南", "370102", 2)
    roster = write_csv(folder / "r.csv", rows, "utf-8")
    with ctx.work() as w:
        event = events.create_event(w, fee_regulation(folder, team_fee), seed=3)
        roster_import.import_roster(w, event, roster.read_bytes(), roster.name, require_team=True)
    return event

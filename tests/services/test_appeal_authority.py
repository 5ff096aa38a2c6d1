"""A team leader appeals on his own team's games only (issue 43 item 3: the 北京 leader's appeal
on 山东 v 天津 was accepted). Seed 002, three provincial teams in 甲组, round 1 paired with
same-team avoidance; the referee records anyone's written appeal."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.formats.roster_files import team_rows, write_csv
from yisai.services import appeals, events, roster_import, teams
from yisai.services.context import open_context
from yisai.services.errors import Forbidden
from yisai.services.identity import Actor, Role
from yisai.services.rounds import pair
from yisai.store import round_rows


def test_a_team_leader_appeals_on_his_own_boards_only(tmp_path: Path) -> None:
    rows = team_rows("辽宁队", "辽宁省", "沈阳", "210102", 1)
    rows += team_rows("山东队", "山东省", "济南", "370102", 2)
    rows += team_rows("天津队", "天津市", "天津", "120101", 3)
    path = write_csv(tmp_path / "r.csv", rows, "utf-8")
    with open_context(str(tmp_path / "a.sqlite"), actor="裁判长", now=datetime(2025, 4, 10, 9)) as ctx:
        with ctx.work() as w:
            event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
            roster_import.import_roster(w, event, path.read_bytes(), path.name, require_team=True)
            pair(w, event.id, "jia", 1)
            listed = {t.team.name: t for t in teams.list_teams(w, event)}
            team_of = {p.id: name for name, t in listed.items() for p in t.players}
            boards = {g.board: {team_of[g.black], team_of[g.white]}
                      for r in round_rows.list_rounds(w.session, event.id, "jia") for g in r.games if g.white}
        own = next(b for b, sides in boards.items() if "辽宁队" in sides)
        other = next(b for b, sides in boards.items() if "辽宁队" not in sides)
        leader = Actor("9", "辽宁领队", Role.TEAM_LEADER, team=str(listed["辽宁队"].team.id), event=event.id)
        with ctx.work(leader) as w:
            filed = appeals.file_appeal(w, str(event.id), "jia", 1, board=own, appellant="辽宁队",
                                        subject="对本台判罚有异议")
        assert filed.board == own
        with pytest.raises(Forbidden) as info, ctx.work(leader) as w:
            appeals.file_appeal(w, str(event.id), "jia", 1, board=other, appellant="辽宁队",
                                subject="对他队对局有异议")
        assert info.value.code == "not_own_team" and "本队" in info.value.render()
        with ctx.work() as w:  # the chief referee records any team's written appeal
            appeals.file_appeal(w, str(event.id), "jia", 1, board=other, appellant="山东队", subject="异议")

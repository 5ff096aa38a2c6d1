"""A Swiss team stage through the generic services: five teams (one sits out each round with a
bye = a won match and every board), 场分 groups, never a rematch."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from tests.conftest import REGULATIONS
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services import reports
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.services.team_matches import team_round_view
from yisai.services.teams import add_team
from yisai.store import roster_rows

TEAMS = ["甲", "乙", "丙", "丁", "戊"]


def test_five_teams_swiss(tmp_path: Path) -> None:
    text = (REGULATIONS / "examples" / "team-league.toml").read_text(encoding="utf-8")
    text = text.replace('system = "round_robin"', 'system = "swiss"\nrounds = 3')
    text = text.replace('seating = "lot"', 'seating = "registered_order"')
    reg = tmp_path / "swiss.toml"
    reg.write_text(text, encoding="utf-8")
    with open_context(str(tmp_path / "s.sqlite"), actor="裁判长", now=datetime(2026, 3, 20, 9)) as ctx:
        with ctx.work() as w:
            event = create_event(w, reg, seed=9)
            for i, t in enumerate(TEAMS):
                ids = []
                for k, g in enumerate((Gender.MALE, Gender.MALE, Gender.FEMALE)):
                    p = Player(id="", name=f"{t}{k + 1}", gender=g, birth_date=date(1990, 1 + i, 1 + k))
                    ids.append((register_player(w, event, p, division="league").player.id, None))
                add_team(w, event, Team(name=f"{t}队"), ids)
        met: set[frozenset[str]] = set()
        byes: list[str] = []
        for rnd in (1, 2, 3):
            with ctx.work() as w:
                pair(w, event.id, "league", rnd)
                view = team_round_view(w, event.id, rnd)
                if rnd == 1:  # registered order: 甲 乙 | 丙 丁 (戊, last, has the bye): 1–3, 2–4
                    assert {frozenset((m.name_a, m.name_b)) for m in view.matches if m.team_b} == {
                        frozenset(("甲队", "丙队")), frozenset(("乙队", "丁队"))}
                for m in view.matches:
                    if m.team_b is None:
                        byes.append(m.name_a)
                        continue
                    pair_ = frozenset((m.name_a, m.name_b))
                    assert pair_ not in met
                    met.add(pair_)
                    winner = min(m.name_a, m.name_b, key=lambda n: TEAMS.index(n[0]))
                    for b in m.boards:  # the team registered first wins every board
                        table = view.tables[(m.number, b.board)]
                        g = view.games[table]
                        black_team = view.player_names[g.black][0] + "队"
                        record_result(w, event.id, "league", rnd, table, "黑胜" if black_team == winner else "白胜")
        assert len(set(byes)) == 3  # a different team sits out each round
        with ctx.work() as w:
            table = reports.prizes(w, event.id).teams[0]
    got = {r.name: (r.value, r.board_points) for r in table.rows}
    # a bye: 2 场分 and 3 局分; every match: the earlier-registered team 3:0
    assert byes[0] == "戊队" and got["甲队"][0] == 6 and got["甲队"][1] == 9
    assert sum(v for v, _ in got.values()) == 3 * 2 * 2 + 3 * 2  # 2 matches and 1 bye per round


def test_a_player_not_checked_in_gives_his_board_to_the_next_registered(tmp_path: Path) -> None:
    # 报到 required: a team without a line-up plays its registered order minus who has not arrived.
    text = (REGULATIONS / "examples" / "team-league.toml").read_text(encoding="utf-8")
    text = text.replace("[prizes]\n", "[registration.arrival]\nday = 2026-04-11\n\n[prizes]\n", 1)
    reg = tmp_path / "arrive.toml"
    reg.write_text(text, encoding="utf-8")
    from yisai.services.checkin import tick

    with open_context(str(tmp_path / "a.sqlite"), actor="裁判长", now=datetime(2026, 3, 20, 9)) as ctx, \
            ctx.work() as w:
        event = create_event(w, reg, seed=3)
        for i, t in enumerate(("东", "西")):
            ids = []
            for k, (suffix, g) in enumerate((("一", Gender.MALE), ("二", Gender.MALE), ("三", Gender.MALE),
                                             ("女", Gender.FEMALE))):
                p = Player(id="", name=f"{t}{suffix}", gender=g, birth_date=date(1990, 1 + i, 1 + k))
                ids.append((register_player(w, event, p, division="league").player.id, None))
            add_team(w, event, Team(name=f"{t}队"), ids)
        for p in roster_rows.list_players(w.session, event.id):
            if p.name != "东一":  # 东一 has not arrived
                tick(w, event, p.id)
        pair(w, event.id, "league", 1)
        view = team_round_view(w, event.id, 1)
    (m,) = view.matches
    east = [b.player_a if m.name_a == "东队" else b.player_b for b in m.boards]
    # 东一 sits out: 东二 and 东三 move up; the woman stays on board 3 (min_women = 1)
    assert [view.player_names[p] for p in east if p] == ["东二", "东三", "东女"]


def test_the_generic_round_loop_plays_a_team_league_to_the_end(tmp_path: Path) -> None:
    """What a simulated event does for any regulation — pair, enter each board of
    ``paired.parts``, rank — plays the team league with no team-specific call."""
    from yisai.services.demo_event import play_round
    from yisai.services.team_matches import team_stage_rounds

    reg = REGULATIONS / "examples" / "team-league.toml"
    with open_context(str(tmp_path / "g.sqlite"), actor="裁判长", now=datetime(2026, 3, 20, 9)) as ctx:
        with ctx.work() as w:
            event = create_event(w, reg, seed=12)
            for i, t in enumerate(("一", "二", "三", "四", "五", "六")):
                ids = []
                for k, g in enumerate((Gender.MALE, Gender.MALE, Gender.MALE, Gender.FEMALE)):
                    p = Player(id="", name=f"{t}队{k + 1}", gender=g, birth_date=date(1990, 1 + i, 1 + k))
                    ids.append((register_player(w, event, p, division="league").player.id, None))
                add_team(w, event, Team(name=f"{t}队"), ids)
            rounds = team_stage_rounds(w, event.id)
        assert rounds == 5
        for n in range(1, rounds + 1):
            with ctx.work() as w:
                play_round(w, event, "league", n, seed=100 + n)
        with ctx.work() as w:
            view = reports.prizes(w, event.id)
    table = view.teams[0]
    # 15 matches, each gives 2 场分 in all (2+0 or 1+1); 3 boards each give 1 局分 in all
    assert sum(r.value for r in table.rows) == 30 and sum(r.board_points for r in table.rows) == 45
    assert len(table.rows) == 6 and all(r.place is not None for r in table.rows)
    assert {pl.id for pl in view.report.lists} >= {"teams", "best-board1", "best-board2", "best-board3"}

"""退赛 / 取消资格 / 恢复参赛 in a running event: pairing, standings, teams, prizes, promotion and
the public page after each.

The event (``withdrawal_rules.toml``-like text below): 8 players P1..P8 holding 1..8段, four
clubs of two (甲 P1 P2, 乙 P3 P4, 丙 P5 P6, 丁 P7 P8), Swiss over 4 rounds ranked by 积分, 对手分,
累进分; teams by the sum of the two places; prizes 300/200/100 for places 1–3; 升段 for one
win in 4 rounds. Black wins every game. Round 1 is the regulation's slide pairing by rank (the
top half 8..5段 against the bottom half 4..1段), round 2 is asserted as paired, and every
expected figure below is computed by hand from those two rounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from yisai.cli.app import app
from yisai.services.context import Forbidden, InputError, open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import audit_rows, entry_rows, roster_rows, round_rows

runner = CliRunner()

REGULATION = """
schema_version = 1
id = "test-withdrawal"
name = "退赛测试赛"
year = 2026
[issued]
by = "测试围棋协会"
on = 2026-01-10
[organisers]
hosts = ["测试围棋协会"]
[ranking]
criteria = ["积分", "对手分", "累进分"]
[pairing]
round1_seeding = ["rank", "lot"]
round1_method = "slide"
[[divisions]]
id = "open"
name = "公开组"
[[divisions.rankings]]
id = "all"
name = "公开组名次"
[[stages]]
id = "main"
name = "比赛"
kind = "main"
divisions = ["open"]
start = 2026-03-28
end = 2026-03-29
[stages.format]
kind = "swiss"
rounds = 4
[teams]
kind = "club"
name = "俱乐部队"
max_players = 2
[[teams.competitions]]
id = "team"
name = "团体"
division = "open"
size = 2
method = "sum_of_places"
ranking = "all"
[[promotions]]
division = "open"
name = "升段"
rounds = 4
steps = [{ wins = 1, promote = 1 }]
must_play_all_rounds = false
[prizes]
[[prizes.lists]]
id = "top"
name = "前三名"
division = "open"
ranking = "all"
places = 3
rows = [
  { from = 1, to = 1, amount = 300 },
  { from = 2, to = 2, amount = 200 },
  { from = 3, to = 3, amount = 100 },
]
"""


def cli(db: str, *args: str) -> str:
    r = runner.invoke(app, [*args, "--db", db])
    assert r.exit_code == 0, r.output
    return r.output


def pairs(db: str, rnd: int) -> list[tuple[str, str | None]]:
    """(black, white) names per board of round ``rnd``; white None for a bye."""
    with open_context(db) as c, c.work() as w:
        names = {p.id: p.name for p in roster_rows.list_players(w.session, 1)}
        (r,) = [r for r in round_rows.list_rounds(w.session, 1, "open") if r.number == rnd]
        return [(names[g.black], names[g.white] if g.white else None) for g in r.games]


def play(db: str, rnd: int) -> None:
    cli(db, "pair", "-d", "open", "-r", str(rnd))
    for board, (_b, white) in enumerate(pairs(db, rnd), start=1):
        if white is not None:
            cli(db, "result", "黑胜", "-d", "open", "-r", str(rnd), "-b", str(board))


def event(tmp_path: Path, extra: str = "") -> str:
    reg = tmp_path / "reg.toml"
    reg.write_text(REGULATION + extra, encoding="utf-8")
    db = str(tmp_path / "t.sqlite")
    cli(db, "event", "create", "--regulation", str(reg), "--seed", "3")
    for i in range(1, 9):
        cli(db, "player", "add", "--name", f"P{i}", "--gender", "男", "--birth", f"2000-0{i}-01",
            "--rank", f"{i}段", "--division", "open")
    for k, club in enumerate(("甲队", "乙队", "丙队", "丁队")):
        cli(db, "team", "add", "--name", club, "-m", str(2 * k + 1), "-m", str(2 * k + 2))
    play(db, 1)
    play(db, 2)
    # Round 1, slide by rank: 8段–4段, 7段–3段, 6段–2段, 5段–1段 (colours by lot).
    assert {frozenset(p) for p in pairs(db, 1)} == {
        frozenset(("P8", "P4")), frozenset(("P7", "P3")), frozenset(("P6", "P2")), frozenset(("P5", "P1"))}
    # Round 2 as paired (the hand computations below start from these four games).
    assert pairs(db, 1) == [("P8", "P4"), ("P3", "P7"), ("P2", "P6"), ("P5", "P1")]
    assert pairs(db, 2) == [("P2", "P5"), ("P8", "P3"), ("P6", "P1"), ("P7", "P4")]
    return db


def standings(db: str, *extra: str) -> list[tuple[str, str, list[str]]]:
    """(place, name, [积分, 对手分, 累进分]) per row of the CSV export."""
    out = cli(db, "standings", "1", "--division", "open", "--format", "csv", *extra)
    _header, *rows = out.strip().splitlines()
    return [(c[0], c[1], c[4:7]) for c in (row.split(",") for row in rows)]


# After round 2 (black won all): P2 4 (beat P6, P5), P8 4 (P4, P3), P3 2, P5 2, P6 2, P7 2,
# P1 0, P4 0. 对手分: P2 = P6 2 + P5 2 = 4; P8 = P4 0 + P3 2 = 2; P3 = P7 2 + P8 4 = 6;
# P5 = P1 0 + P2 4 = 4; P6 = P2 4 + P1 0 = 4; P7 = P3 2 + P4 0 = 2; P1 = P5 2 + P6 2 = 4;
# P4 = P8 4 + P7 2 = 6. 累进分: P2 2+4, P8 2+4, P3 2+2, P5 2+2, P6 0+2, P7 0+2, P1 0, P4 0.
AFTER_2 = [
    ("1", "P2", ["4", "4", "6"]), ("2", "P8", ["4", "2", "6"]), ("3", "P3", ["2", "6", "4"]),
    ("4", "P5（退赛）", ["2", "4", "4"]), ("5", "P6", ["2", "4", "2"]), ("6", "P7", ["2", "2", "2"]),
    ("7", "P4", ["0", "6", "0"]), ("8", "P1", ["0", "4", "0"]),
]


def test_a_withdrawn_player_keeps_his_games_and_place_and_is_not_paired_again(tmp_path: Path) -> None:
    db = event(tmp_path)
    cli(db, "entry", "withdraw", "5", "--reason", "身体不适中途退赛")
    assert standings(db, "--round", "2") == AFTER_2
    # Round 3 pairs the seven others (one bye) and never P5.
    play(db, 3)
    seated = {n for pair in pairs(db, 3) for n in pair if n}
    assert seated == {"P1", "P2", "P3", "P4", "P6", "P7", "P8"}
    assert sum(1 for _b, w in pairs(db, 3) if w is None) == 1
    # His two games stay: P5 still has 2 points after round 3 (absent: 0) and counts in the
    # 对手分 of P1 and P2, whatever round 3 gave them.
    after_3 = {name: vals for _p, name, vals in standings(db)}
    assert after_3["P5（退赛）"][0] == "2"


def test_the_public_page_and_the_api_mark_him_and_never_fail(tmp_path: Path) -> None:
    from yisai.web.app import create_app

    db = event(tmp_path)
    cli(db, "entry", "withdraw", "5", "--reason", "身体不适中途退赛")
    web = create_app(Settings(database=db), secret="test", refresh_seconds=0)
    with TestClient(web) as client:
        page = client.get("/events/1/standings/open")
        assert page.status_code == 200
        assert "P5（退赛）" in page.text
        api = client.get("/api/events/1/standings/open")
        assert api.status_code == 200
        (row,) = [r for r in api.json()["rows"] if r["name"] == "P5"]
        assert row["status"] == "withdrawn" and row["place"] == 4
        # 团体 after round 2 (sum of places): 丁 P8 2 + P7 6 = 8; 甲 P2 1 + P1 8 = 9; 丙 P5 4 +
        # P6 5 = 9; 乙 P3 3 + P4 7 = 10. 甲 and 丙 tie on 9: the best single place (甲's 1) first.
        (team,) = client.get("/api/events/1/teams").json()["competitions"]
        assert [(r["place"], r["team"], r["value"]) for r in team["rows"]] == [
            (1, "丁队", 8), (2, "甲队", 9), (3, "丙队", 9), (4, "乙队", 10)]
        assert client.get("/events/1/awards").status_code == 200
    # Prizes after round 2: places 1–3 are P2 300, P8 200, P3 100 (P5 on 4 takes none).
    lines = [ln for ln in cli(db, "prizes", "1").splitlines() if any(f" {n} " in ln for n in ("P2", "P8", "P3", "P5"))]
    cells = [[c.strip() for c in ln.split("│") if c.strip()] for ln in lines if "元" not in ln and "队" in ln]
    assert [(c[0], c[1], c[3]) for c in cells if len(c) >= 4 and c[3].isdigit()] == [
        ("1", "P2", "300"), ("2", "P8", "200"), ("3", "P3", "100")]


def test_not_ranked_when_the_regulation_says_so_and_prizes_move_up(tmp_path: Path) -> None:
    db = event(tmp_path, "[withdrawal]\nwithdrawn_ranked = false\n")
    cli(db, "entry", "withdraw", "5", "--reason", "身体不适中途退赛")
    rows = standings(db, "--round", "2")
    # The others move up one from place 4 (P5's); he follows unplaced, his games still counted.
    assert [(p, n) for p, n, _v in rows] == [
        ("1", "P2"), ("2", "P8"), ("3", "P3"), ("4", "P6"), ("5", "P7"), ("6", "P4"), ("7", "P1"),
        ("—", "P5（退赛）")]
    assert rows[0][2] == ["4", "4", "6"]  # P2's 对手分 still holds P5's 2 points


def test_leaders_cannot_withdraw_mid_event_and_a_reason_is_required(tmp_path: Path) -> None:
    db = event(tmp_path)
    with open_context(db) as c:
        with pytest.raises(Forbidden), c.work(Actor("u:9", "领队", Role.TEAM_LEADER, team="3")) as w:
            from yisai.services.withdrawal import withdraw_entry

            withdraw_entry(w, "5", "不想下了")
        with pytest.raises(InputError), c.work() as w:
            withdraw_entry(w, "5", "")
        with c.work() as w:
            assert entry_rows.get_entry(w.session, "5").status.value == "approved"  # nothing was written


def test_reinstated_player_is_paired_again_and_keeps_the_round_he_missed_as_absent(tmp_path: Path) -> None:
    db = event(tmp_path)
    cli(db, "entry", "withdraw", "5", "--reason", "身体不适中途退赛")
    play(db, 3)
    refused = runner.invoke(app, ["entry", "reinstate", "5", "--db", db])
    assert refused.exit_code != 0 and "理由" in refused.output
    cli(db, "entry", "reinstate", "5", "--reason", "身体恢复, 经裁判长同意继续比赛")
    play(db, 4)
    assert "P5" in {n for pair in pairs(db, 4) for n in pair if n}
    rows = {name: (place, vals) for place, name, vals in standings(db)}
    assert "P5" in rows and "P5（退赛）" not in rows  # no mark once back
    # Round 3 missed: 0 points; his score is round 1's 2 plus what round 4 gave him.
    r4 = pairs(db, 4)
    (black, white) = next(p for p in r4 if "P5" in p)
    won_r4 = black == "P5" or white is None
    assert rows["P5"][1][0] == str(2 + (2 if won_r4 else 0))
    # The audit has all three decisions with their reasons.
    with open_context(db) as c, c.work() as w:
        actions = [(a.action, a.note) for a in audit_rows.audit_log(w.session, 1, "entry", "5")]
    assert ("withdraw", "身体不适中途退赛") in actions and ("reinstate", "身体恢复, 经裁判长同意继续比赛") in actions


def test_disqualified_players_games_become_losses_when_the_regulation_says_so(tmp_path: Path) -> None:
    db = event(tmp_path, '[withdrawal]\ndisqualified_games = "forfeit"\n')
    cli(db, "entry", "disqualify", "2", "--reason", "冒名顶替")
    rows = standings(db, "--round", "2")
    by_name = {n: (p, v) for p, n, v in rows}
    # P2's two wins (over P6 and P5) become theirs: P6 2 → 4, P5 2 → 4, P2 4 → 0, unplaced.
    assert by_name["P2（取消资格）"][0] == "—" and by_name["P2（取消资格）"][1][0] == "0"
    assert by_name["P6"][1][0] == "4" and by_name["P5"][1][0] == "4"
    assert "—" not in [p for p, n, _v in rows if "取消资格" not in n]


def test_disqualified_games_stand_by_default(tmp_path: Path) -> None:
    db = event(tmp_path)
    cli(db, "entry", "disqualify", "2", "--reason", "冒名顶替")
    by_name = {n: (p, v) for p, n, v in standings(db, "--round", "2")}
    assert by_name["P2（取消资格）"] == ("—", ["4", "4", "6"])
    assert by_name["P8"][0] == "1"  # the next one up takes place 1
    assert by_name["P6"][1][0] == "2"


def test_promotion_refuses_a_withdrawn_player_apart_from_a_forfeited_round(tmp_path: Path) -> None:
    db = event(tmp_path)
    cli(db, "entry", "withdraw", "5", "--reason", "身体不适中途退赛")
    play(db, 3)
    play(db, 4)
    out = cli(db, "awards", "1")
    # P5 won round 1 (one win is enough under this rule) but withdrew: refused, with the reason.
    line = next(ln for ln in out.splitlines() if "P5" in ln)
    assert "中途退赛" in line and "不予授予" in line


def test_a_player_who_leaves_after_the_group_stage_meets_nobody_in_the_same_place_final(
        tmp_path: Path) -> None:
    """Seed 000's final: groups A/B, 9 rounds, then A_k–B_k. Group A's leader withdraws after
    round 9: round 10 pairs the others only, and his games still stand in the standings."""
    from tests.conftest import REGULATIONS
    from yisai.services import reports
    from yisai.services.demo_event import (
        play_round,
        register_all,
        registration_moment,
        shanhai_people,
    )
    from yisai.services.event_data import approved_players, group_members
    from yisai.services.events import (
        create_event,
        playing_stage,
        read_regulation_file,
        regulation_of,
    )
    from yisai.services.rounds import pair
    from yisai.services.withdrawal import withdraw_entry

    path = REGULATIONS / "2025-shanhai-cup.toml"
    with open_context(str(tmp_path / "f.sqlite"), actor="裁判长",
                      now=registration_moment(read_regulation_file(path)[1])) as ctx:
        with ctx.work() as w:
            event = create_event(w, path, seed=20250430)
            reg = regulation_of(event)
            people, teams = shanhai_people(event.seed, 0.1)
            register_all(w, event, reg, people, teams)
        for r in range(1, 10):
            with ctx.work() as w:
                play_round(w, event, "open", r, event.seed + r)
        with ctx.work() as w:
            groups = group_members(w, event, "open", playing_stage(reg, "open"))
            first_a = reports.event_standings(w, event.id, "公开组").standings.rows[0].player.id
            assert first_a in groups["A"] or first_a in groups["B"]
            (entry,) = [e for e in roster_rows.list_entries(w.session, event.id, division="open", player_id=first_a)]
            withdraw_entry(w, entry.id, "赛后离会, 不参加同名次决赛")
            n_playing = len(approved_players(w, event, "open"))
        with ctx.work() as w:
            paired = pair(w, str(event.id), "open", 10)
        with ctx.work() as w:
            (r10,) = [r for r in round_rows.list_rounds(w.session, event.id, "open") if r.number == 10]
            seated = {g.black for g in r10.games} | {g.white for g in r10.games if g.white}
            assert first_a not in seated and seated
            assert paired is not None
            rows = reports.event_standings(w, event.id, "公开组").standings.listed
            (mine,) = [r for r in rows if r.player.id == first_a]
            assert mine.player.status == "withdrawn" and mine.values["score"] > 0
            assert len(rows) == n_playing + 1


def test_a_group_winner_who_withdraws_is_not_drawn_into_the_knockout(tmp_path: Path) -> None:
    """The round-robin + knockout example (tests/services/rrko_event.py): group A ends 16, then
    01, 08, 09 on 4 points (小循环 01, 08, 09), then 17. 选手16 withdraws after the groups, so
    A1 is 选手01 and A2 选手08: the quarter-finals A1–B2, C1–D2, B1–A2, D1–C2 become
    01–07, 03–05, 02–08, 04–06."""
    from tests.services.rrko_event import NOW, play_example
    from yisai.services.rounds import pair
    from yisai.services.withdrawal import withdraw_entry

    with open_context(str(tmp_path / "rr.sqlite"), actor="裁判长", now=NOW) as ctx:
        event_id, _views = play_example(ctx, last_round=5)
        with ctx.work() as w:
            names = {p.id: p.name for p in roster_rows.list_players(w.session, event_id)}
            (pid,) = [i for i, n in names.items() if n == "选手16"]
            (entry,) = roster_rows.list_entries(w.session, event_id, division="open", player_id=pid)
            withdraw_entry(w, entry.id, "家中有事, 不参加淘汰赛")
        with ctx.work() as w:
            paired = pair(w, event_id, "open", 6)
        quarter = {frozenset((names[b.black], names[b.white])) for _g, p in paired.parts for b in p.boards}
        assert quarter == {frozenset(("选手01", "选手07")), frozenset(("选手03", "选手05")),
                           frozenset(("选手02", "选手08")), frozenset(("选手04", "选手06"))}


def test_after_a_reinstatement_pages_teams_and_prizes_are_as_if_he_never_left(tmp_path: Path) -> None:
    from yisai.web.app import create_app

    db = event(tmp_path)
    cli(db, "entry", "withdraw", "5", "--reason", "身体不适中途退赛")
    cli(db, "entry", "reinstate", "5", "--reason", "误报退赛, 经裁判长核实")
    assert standings(db, "--round", "2") == [(p, n.replace("（退赛）", ""), v) for p, n, v in AFTER_2]
    web = create_app(Settings(database=db), secret="test", refresh_seconds=0)
    with TestClient(web) as client:
        page = client.get("/events/1/standings/open")
        assert page.status_code == 200 and "P5" in page.text and "P5（退赛）" not in page.text
        (team,) = client.get("/api/events/1/teams").json()["competitions"]
        assert [(r["place"], r["team"], r["value"]) for r in team["rows"]] == [
            (1, "丁队", 8), (2, "甲队", 9), (3, "丙队", 9), (4, "乙队", 10)]
    prizes = cli(db, "prizes", "1")
    assert all(n in prizes for n in ("P2", "P8", "P3")) and "（退赛）" not in prizes

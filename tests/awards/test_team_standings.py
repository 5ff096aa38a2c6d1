"""团体名次: sum of places (seed 002 八(六)), sum of scores (seed 000 as the file states), 场分."""

from __future__ import annotations

from datetime import date

from tests.awards.awardfields import player, shanhai, table, team, xiaoqiwang
from yisai.awards.inputs import EventResults
from yisai.regulation.teams import TeamCompetition
from yisai.standings.teams import TeamMatch, match_points, team_standings

DIVS = ("jia", "yi", "bing")
BIRTH = {"jia": date(2013, 6, 1), "yi": date(2016, 6, 1), "bing": date(2018, 6, 1)}
SLOTS = [(d, s) for d in DIVS for s in ("b", "g")]


def xqw_field(places: dict[str, list[int]]):
    """``places[team] = [甲男, 甲女, 乙男, 乙女, 丙男, 丙女]`` places; builds the six lists."""
    players, tables, teams = [], [], []
    lists: dict[tuple[str, str], list[tuple[int, str]]] = {s: [] for s in SLOTS}
    for tid, ps in places.items():
        members = []
        for (div, s), place in zip(SLOTS, ps, strict=True):
            pid = f"{tid}-{div}-{s}"
            members.append(pid)
            players.append(player(pid, "M" if s == "b" else "F", birth=BIRTH[div]))
            lists[(div, s)].append((place, pid))
        teams.append(team(tid, members))
    for (div, s), rows in lists.items():
        rows.sort()
        tables.append(table(div, "boys" if s == "b" else "girls", [p for _, p in rows],
                            places=[pl for pl, _ in rows]))
    return EventResults(xiaoqiwang(), {p.id: p for p in players}, tuple(tables), teams)


def test_sum_of_places_lower_first_ties_by_best_then_next_place():
    # 团体成绩比较各队甲乙丙组男、女棋手个人名次之和，低者列前，如相同则依次比较最高个人名次
    res = xqw_field({
        "A": [2, 3, 4, 5, 6, 6],  # 26, best 2
        "B": [1, 5, 5, 5, 5, 5],  # 26, best 1  → ahead of A
        "C": [1, 4, 5, 5, 5, 6],  # 26, best 1, next 4 → ahead of B (next 5)
        "D": [3, 2, 1, 2, 1, 1],  # 10 → first
        "E": [6, 6, 6, 6, 4, 4],  # 32 → last
    })
    tt = res.team_tables()["team"]
    assert [(r.team_id, r.place, r.value) for r in tt.rows] == [
        ("D", 1, 10), ("C", 2, 26), ("B", 3, 26), ("A", 4, 26), ("E", 5, 32),
    ]


def test_identical_place_sets_share_the_place():
    res = xqw_field({"A": [1, 2, 3, 4, 5, 6], "B": [6, 5, 4, 3, 2, 1], "C": [7, 7, 7, 7, 7, 7]})
    tt = res.team_tables()["team"]
    assert [(r.team_id, r.place) for r in tt.rows] == [("A", 1), ("B", 1), ("C", 3)]


def test_only_complete_teams_of_six_are_ranked():
    # 报满6人的参赛队计算团体成绩: S sent 5 players (its 丙组女 seat empty); its 5 would sum to 5.
    res = xqw_field({"A": [2, 2, 2, 2, 2, 2], "B": [3, 3, 3, 3, 3, 3], "S": [1, 1, 1, 1, 1, 9]})
    teams = [t if t.id != "S" else team("S", [m.player_id for m in t.members][:5]) for t in res.teams]
    res = EventResults(res.regulation, res.players, res.rankings, teams)
    tt = res.team_tables()["team"]
    assert [(r.team_id, r.place) for r in tt.rows] == [("A", 1), ("B", 2), ("S", None)]
    assert "不计团体成绩" in tt.rows[-1].note


def test_men_team_sum_of_scores_with_sos_then_best_place():
    # seed 000 as its file states: 3 men's scores summed, ties by summed 对手分, then best place.
    reg = shanhai()
    comp = reg.teams.competitions[0]
    assert comp.id == "men" and comp.size == 3 and comp.method == "sum_of_scores"
    # pid: (place, score, sos)
    data = {
        "a1": (1, 16, 80), "b1": (2, 14, 90), "a2": (3, 14, 70), "c1": (4, 14, 60),
        "b2": (5, 12, 75), "c2": (6, 12, 75), "aw": (7, 12, 50), "a3": (8, 10, 60),
        "b3": (9, 12, 50), "c3": (10, 12, 70), "d1": (11, 10, 40), "d2": (12, 10, 40),
    }
    order = sorted(data, key=lambda p: data[p][0])
    players = {p: player(p, "F" if p == "aw" else "M") for p in data}
    t = table("open", "mixed", order, [data[p][1] for p in order], [data[p][2] for p in order])
    teams = [
        team("A", ["aw", "a1", "a2", "a3"]),  # the woman is not a men's team member
        team("B", ["b1", "b2", "b3"]),
        team("C", ["c1", "c2", "c3"]),
        team("D", ["d1", "d2"]),  # only 2 men: not a men's team (不足以个人名义参赛)
    ]
    tt = team_standings(comp, teams, players, {("open", "mixed"): t})
    # A: 16+14+10 = 40, sos 210; B: 14+12+12 = 38, sos 215; C: 14+12+12 = 38, sos 205
    assert [(r.team_id, r.place, r.value) for r in tt.rows] == [
        ("A", 1, 40), ("B", 2, 38), ("C", 3, 38), ("D", None, 20),
    ]
    assert [m.player_id for m in tt.rows[0].members] == ["a1", "a2", "a3"]


def test_more_members_than_size_count_the_first_ones():
    comp = shanhai().teams.competitions[0]
    players = {p: player(p) for p in ("x1", "x2", "x3", "x4")}
    t = table("open", "mixed", ["x4", "x1", "x2", "x3"], [8, 6, 4, 2])
    tt = team_standings(comp, [team("X", ["x1", "x2", "x3", "x4"])], players, {("open", "mixed"): t})
    assert tt.rows[0].value == 6 + 4 + 2


def test_match_points_from_board_points():
    # 场分 2/1/0 from 局分
    assert match_points(3, 2) == (2, 0)
    assert match_points(2.5, 2.5) == (1, 1)
    assert match_points(1, 4) == (0, 2)
    comp = TeamCompetition(
        id="league", name="团体赛", division="open", size=4, method="match_points",
        tie_breaks=["board_points"],
    )
    teams = [team(t, []) for t in ("P", "Q", "R", "S")]
    matches = [
        TeamMatch(1, "P", "Q", 3, 1), TeamMatch(1, "R", "S", 2, 2),
        TeamMatch(2, "P", "R", 2, 2), TeamMatch(2, "Q", "S", 4, 0),
        TeamMatch(3, "P", "S", 1, 3), TeamMatch(3, "Q", "R", 2.5, 1.5),
    ]
    tt = team_standings(comp, teams, {}, {}, matches)
    # P: 2+1+0 = 3 mp, 6 bp; Q: 0+2+2 = 4 mp, 7.5 bp; R: 1+1+0 = 2, 5.5; S: 1+0+2 = 3, 5
    assert [(r.team_id, r.place, r.value, r.board_points) for r in tt.rows] == [
        ("Q", 1, 4, 7.5), ("P", 2, 3, 6), ("S", 3, 3, 5), ("R", 4, 2, 5.5),
    ]


def test_table_from_computed_standings_feeds_team_standings():
    # Round robin of four: a beats all, b beats c and d, c beats d. Scores 6, 4, 2, 0.
    from yisai.awards.inputs import table_from_standings
    from yisai.record import Game, Result
    from yisai.standings import StandingsInput, StandingsPlayer, compute_standings

    ids = ["a", "b", "c", "d"]
    games = [
        Game(1, "a", "b", Result.BLACK_WINS), Game(1, "c", "d", Result.BLACK_WINS),
        Game(2, "a", "c", Result.BLACK_WINS), Game(2, "b", "d", Result.BLACK_WINS),
        Game(3, "d", "a", Result.WHITE_WINS), Game(3, "b", "c", Result.BLACK_WINS),
    ]
    inp = StandingsInput(tuple(StandingsPlayer(i, i) for i in ids), tuple(games), 3)
    t = table_from_standings("open", "mixed", compute_standings(inp))
    assert [(r.player_id, r.place, r.score) for r in t.rows] == [
        ("a", 1, 6), ("b", 2, 4), ("c", 3, 2), ("d", 4, 0),
    ]
    comp = shanhai().teams.competitions[0]
    players = {i: player(i) for i in ids}
    tt = team_standings(comp, [team("T", ["a", "c", "d"])], players, {("open", "mixed"): t})
    # sum of scores 6 + 2 + 0; 对手分之和: a 6, c 10, d 12 (each opponent's final score)
    assert tt.rows[0].value == 8
    assert dict(tt.rows[0].tie_values)["对手分之和"] == 6 + 10 + 12


def test_a_seat_counts_only_a_place_in_its_own_division():
    # Seed 002: each team has six seats 甲乙丙组 × 男女. Team B's 乙组女 seat holds b4, who moved
    # to 甲组 (the store reports her live entry there) and has a place only in 甲组女子 (1st).
    # Her 甲组 place must not stand in for the 乙组女 seat: team B is incomplete and, as
    # complete_only says, unranked. Hand-computed: A = 1+2+2+1+1+2 = 9, C = 2+3+1+2+2+1 = 11.
    from yisai.registry.team import Team, TeamMember

    seats = ["甲组男", "甲组女", "乙组男", "乙组女", "丙组男", "丙组女"]
    divs = ["jia", "jia", "yi", "yi", "bing", "bing"]
    genders = ["M", "F", "M", "F", "M", "F"]
    players, teams = [], []
    for tid in ("A", "B", "C"):
        members = []
        for k in range(6):
            pid = f"{tid.lower()}{k + 1}"
            division = "jia" if pid == "b4" else divs[k]
            players.append(player(pid, genders[k], birth=BIRTH[divs[k]]))
            members.append(TeamMember(player_id=pid, slot=seats[k], division=division))
        teams.append(Team(id=tid, name=tid, members=tuple(members)))
    tables = [
        table("jia", "boys", ["a1", "c1", "b1"]),
        table("jia", "girls", ["b4", "a2", "c2", "b2"]),
        table("yi", "boys", ["c3", "a3", "b3"]),
        table("yi", "girls", ["a4", "c4"]),
        table("bing", "boys", ["a5", "c5", "b5"]),
        table("bing", "girls", ["c6", "a6", "b6"]),
    ]
    res = EventResults(xiaoqiwang(), {p.id: p for p in players}, tuple(tables), teams)
    tt = res.team_tables()["team"]
    assert [(r.team_id, r.place, r.value) for r in tt.ranked] == [("A", 1, 9), ("C", 2, 11)]
    (b,) = [r for r in tt.rows if r.team_id == "B"]
    assert b.place is None and not b.complete
    b4 = next(m for m in b.members if m.player_id == "b4")
    assert (b4.division, b4.place) == ("yi", None)
    assert "乙组女" in b.note


def test_an_incomplete_team_shows_its_partial_sum_never_a_stand_in_place():
    # 报满6人的参赛队计算团体成绩 (seed 002 八(六)). S sent 5 players, each 1st in his list, its
    # 丙组女 seat empty. A complete team's sum is 6 × 2 = 12 (A) and 6 × 3 = 18 (B). S is
    # listed after both, unranked; its value is the 5 places it played, 1+1+1+1+1 = 5 — not
    # 5 + a stand-in "last place + 1" (each list has 3 rows, so the old stand-in was 4: 9).
    res = xqw_field({"A": [2, 2, 2, 2, 2, 2], "B": [3, 3, 3, 3, 3, 3], "S": [1, 1, 1, 1, 1, 9]})
    teams = [t if t.id != "S" else team("S", [m.player_id for m in t.members][:5]) for t in res.teams]
    res = EventResults(res.regulation, res.players, res.rankings, teams)
    tt = res.team_tables()["team"]
    assert [(r.team_id, r.place, r.value, r.partial, r.counted) for r in tt.rows] == [
        ("A", 1, 12, False, None), ("B", 2, 18, False, None), ("S", None, 5, True, 5)]
    s = tt.rows[-1]
    # its tie values read only the places played: best 1, then 1, 1, 1, 1 (no stand-in 4)
    assert [v for _, v in s.tie_values] == [1, (1, 1, 1, 1)]
    assert "不计团体成绩" in s.note
    # the printed/public table marks the sum as partial (5 of 6 seats) and says why under it
    from yisai.formats.awards_report import team_table

    shown = team_table(tt, res.players)
    assert shown.rows[-1][2] == "5 （部分5/6人）" and shown.rows[0][2] == 12
    assert any("列于所有完整队之后" in n and "部分之和" in n for n in shown.notes)

"""regulations/examples/round-robin-knockout.toml from an empty database to the final places,
through the generic services (pair, record_result, standings) and the CLI; the event and its
hand-made results are described in ``tests/services/rrko_event.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.services.rrko_event import EXAMPLE, NOW, approve_all, play_example
from yisai.services import reports
from yisai.services.context import Context, Refused, open_context
from yisai.services.rounds import RoundView, pair
from yisai.store import roster_rows, round_rows


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Context, int, list[RoundView]]]:
    db = Path(tmp_path_factory.mktemp("rrko")) / "e.sqlite"
    with open_context(str(db), actor="裁判长", now=NOW) as ctx:
        event_id, views = play_example(ctx)
        yield ctx, event_id, views


def _names(view: RoundView) -> list[tuple[str, list[frozenset[str]]]]:
    out = []
    for rnd in view.rounds:
        out.append((rnd.group, [frozenset((view.names[g.black], view.names[g.white]))
                                for g in rnd.games if g.white]))
    return out


def test_groups_by_snake_and_every_pair_meets_once(event: tuple[Context, int, list[RoundView]]) -> None:
    _ctx, _eid, views = event
    met: dict[str, list[frozenset[str]]] = {}
    for view in views[:5]:
        for group, pairs in _names(view):
            met.setdefault(group, []).extend(pairs)
    members = {g: sorted({p for pr in pairs for p in pr}) for g, pairs in met.items()}
    assert members == {
        "A": ["选手01", "选手08", "选手09", "选手16", "选手17"],
        "B": ["选手02", "选手07", "选手10", "选手15", "选手18"],
        "C": ["选手03", "选手06", "选手11", "选手14"],
        "D": ["选手04", "选手05", "选手12", "选手13"],
    }
    for g, pairs in met.items():
        n = len(members[g])
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    # Groups of 4 play 3 rounds, groups of 5 five (one bye each): rounds 4–5 have A and B only.
    assert [g for g, _ in _names(views[3])] == ["A", "B"]
    byes_a = [g.black for v in views[:5] for r in v.rounds if r.group == "A" for g in r.games if g.is_bye]
    assert len(byes_a) == len(set(byes_a)) == 5


def test_the_bracket_is_crossed_from_the_group_places(event: tuple[Context, int, list[RoundView]]) -> None:
    _ctx, _eid, views = event
    # A: 16, then 01, 08, 09 on 4 points split by 小循环 (01 4, 08 2, 09 0), then 17.
    # A1–B2, C1–D2, B1–A2, D1–C2.
    assert _names(views[5]) == [("knockout", [
        frozenset(("选手16", "选手07")), frozenset(("选手03", "选手05")),
        frozenset(("选手02", "选手01")), frozenset(("选手04", "选手06"))])]
    # Winners: 16 (upset), 03, 01, 06 (forfeit) → semi-finals 16–03 and 01–06.
    assert _names(views[6]) == [("knockout", [frozenset(("选手16", "选手03")), frozenset(("选手01", "选手06"))])]
    # Final 03–01 on board 1, third-place match 16–06 on board 2.
    assert _names(views[7]) == [("knockout", [frozenset(("选手03", "选手01")), frozenset(("选手16", "选手06"))])]


def test_final_places_and_prizes(event: tuple[Context, int, list[RoundView]]) -> None:
    ctx, eid, _views = event
    with ctx.work() as w:
        rows = reports.event_standings(w, eid, "open").standings.rows
    got = [(r.place, r.player.name) for r in rows]
    assert got == [
        (1, "选手01"), (2, "选手03"), (3, "选手06"), (4, "选手16"),
        (5, "选手07"), (5, "选手05"), (5, "选手02"), (5, "选手04"),
        (9, "选手08"), (9, "选手10"), (9, "选手11"), (9, "选手12"),
        (13, "选手09"), (13, "选手15"), (13, "选手14"), (13, "选手13"),
        (17, "选手17"), (17, "选手18"),
    ]
    assert [r.shared for r in rows[:5]] == [False, False, False, False, True]


def test_a_ninth_round_does_not_exist(event: tuple[Context, int, list[RoundView]]) -> None:
    from yisai.services.context import Refused

    ctx, eid, _views = event
    with pytest.raises(Refused) as info, ctx.work() as w:
        pair(w, eid, "open", 9)
    assert info.value.code == "no_such_round"


runner = CliRunner()


def test_the_same_event_through_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic commands drive the format with nothing special: pair, result, standings."""
    from yisai.cli.app import app

    monkeypatch.setenv("YISAI_DB", str(tmp_path / "c.sqlite"))
    monkeypatch.setenv("YISAI_NOW", "2026-03-20T09:00:00")
    assert runner.invoke(app, ["event", "create", "--regulation", str(EXAMPLE), "--seed", "5"]).exit_code == 0
    ranks = ["9段", "8段", "7段", "6段", "5段", "4段", "3段", "2段", "1段", "1级", "2级", "3级"]
    for i, rank in enumerate(ranks, start=1):
        r = runner.invoke(app, ["player", "add", "--name", f"棋手{i:02d}", "--gender", "男", "--birth", "1990-01-01",
                                "--rank", rank, "--division", "open"])
        assert r.exit_code == 0, r.output
    # 报名后须经审核 (the example's approval_required): the director approves them all
    approved = runner.invoke(app, ["entry", "approve", "--all"])
    assert approved.exit_code == 0, approved.output
    # The Berger table is fixed: the director's controls are refused with the reason.
    refused = runner.invoke(app, ["pair", "-d", "open", "-r", "1", "--sit-out", "1"])
    assert refused.exit_code == 1 and "贝格尔表" in refused.output and "弃权" in refused.output
    # 12 players in 4 groups of 3: one round each of 3 rounds (everyone rests once), then the
    # 8-player bracket: rounds 4, 5, 6. Black always wins.
    for n in range(1, 7):
        r = runner.invoke(app, ["pair", "-d", "open", "-r", str(n)])
        assert r.exit_code == 0, (n, r.output)
        from yisai.services.context import unit_of_work
        from yisai.services.events import resolve_event

        with unit_of_work(str(tmp_path / "c.sqlite")) as w:
            ev = resolve_event(w, None)
            rounds = round_rows.list_rounds(w.session, ev.id, "open", number=n)
            boards = [(rnd.group, g.board) for rnd in rounds for g in rnd.games if g.white]
        if n == 5:  # a bracket round without results paired again: the same pairs
            again = runner.invoke(app, ["pair", "-d", "open", "-r", "5", "--replace"])
            assert again.exit_code == 0, again.output
            with unit_of_work(str(tmp_path / "c.sqlite")) as w:
                assert [g for r in round_rows.list_rounds(w.session, ev.id, "open", number=5) for g in r.games] == [
                    g for r in rounds for g in r.games]
        for group, board in boards:
            r = runner.invoke(app, ["result", "黑胜", "-d", "open", "-r", str(n), "-b", str(board), "--group", group])
            assert r.exit_code == 0, r.output
    assert runner.invoke(app, ["pair", "-d", "open", "-r", "7"]).exit_code == 1
    shown = runner.invoke(app, ["round", "show", "-d", "open", "-r", "6"])
    assert shown.exit_code == 0 and "淘汰赛" in shown.output
    with unit_of_work(str(tmp_path / "c.sqlite")) as w:
        ev = resolve_event(w, None)
        final = round_rows.list_rounds(w.session, ev.id, "open", number=6)[0]
        names = {p.id: p.name for p in roster_rows.list_players(w.session, ev.id)}
    champion = names[final.games[0].black]  # Black won the final (board 1)
    third = names[final.games[1].black]  # and the third-place match (board 2)
    r = runner.invoke(app, ["standings", str(ev.id), "-d", "open"])
    assert r.exit_code == 0, r.output
    lines = [line for line in r.output.splitlines() if champion in line or third in line]
    assert champion in lines[0] and "1" in lines[0].split(champion)[0]
    assert third in lines[1]


KNOCKOUT_ONLY = EXAMPLE.read_text(encoding="utf-8")
_start = KNOCKOUT_ONLY.index("[stages.format]")
_end = KNOCKOUT_ONLY.index("[stages.time_control]")
KNOCKOUT_ONLY = (KNOCKOUT_ONLY[:_start] + '[stages.format]\nkind = "knockout"\nseeding = "rank"\nthird_place = true\n'
                 'on_draw = "replay"\non_both_lose = "higher_seed"\n' + KNOCKOUT_ONLY[_end:]).replace(
    "mini_league = true\n", "")


def test_a_knockout_by_rank_with_byes_a_replay_and_a_both_lost_game(tmp_path: Path) -> None:
    """Six players seeded by rating (K1 strongest): an 8-slot bracket 1–bye, 4–5, 2–bye, 3–6
    (seeds 7 and 8 do not exist). 4–5 is drawn and must be replayed (K5 wins the replay); 3–6
    both lose and the higher seed K3 goes on. Semi-finals K1–K5, K2–K3; final and third place."""
    from yisai.registry.person import Gender, Player
    from yisai.services.context import Refused
    from yisai.services.entries import register_player
    from yisai.services.events import create_event
    from yisai.services.round_results import record_result

    reg_file = tmp_path / "ko.toml"
    reg_file.write_text(KNOCKOUT_ONLY, encoding="utf-8")
    with open_context(str(tmp_path / "k.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, reg_file, seed=3)
            for i in range(1, 7):
                approve_all(w, [register_player(w, ev, Player(id="", name=f"K{i}", gender=Gender.MALE, rank="5段",
                                              rating=2000 - i, region="中国大陆"), division="open")])
        with ctx.work() as w:
            first = pair(w, ev.id, "open", 1)
            names = first.names
            (_, rp), = first.parts
            assert sorted(names[y.player] for y in rp.byes) == ["K1", "K2"]
            boards = {frozenset((names[b.black], names[b.white])): b for b in rp.boards}
            assert set(boards) == {frozenset(("K4", "K5")), frozenset(("K3", "K6"))}
            b45, b36 = boards[frozenset(("K4", "K5"))], boards[frozenset(("K3", "K6"))]
            record_result(w, ev.id, "open", 1, b45.board, "和", group="knockout")
            record_result(w, ev.id, "open", 1, b36.board, "双方弃权", group="knockout")
        with pytest.raises(Refused) as info, ctx.work() as w:
            pair(w, ev.id, "open", 2)
        assert "重赛" in info.value.render("zh")
        assert sorted(d.split(" ")[0] for d in info.value.render_details("zh")) == ["K4", "K5"]  # named
        with ctx.work() as w:  # the replay: K5 wins
            k5_black = names[b45.black] == "K5"
            record_result(w, ev.id, "open", 1, b45.board, "黑胜" if k5_black else "白胜", group="knockout",
                          change=True, note="重赛")
            semis = pair(w, ev.id, "open", 2)
            (_, sp), = semis.parts
            assert [frozenset((names[b.black], names[b.white])) for b in sp.boards] == [
                frozenset(("K1", "K5")), frozenset(("K2", "K3"))]
            for b in sp.boards:  # the higher rating wins
                won = min((b.black, b.white), key=lambda p: int(names[p][1:]))
                record_result(w, ev.id, "open", 2, b.board, "黑胜" if won == b.black else "白胜", group="knockout")
        with ctx.work() as w:
            final = pair(w, ev.id, "open", 3)
            (_, fp), = final.parts
            assert [frozenset((names[b.black], names[b.white])) for b in fp.boards] == [
                frozenset(("K1", "K2")), frozenset(("K5", "K3"))]
            for b in fp.boards:  # the lower rating wins both
                won = max((b.black, b.white), key=lambda p: int(names[p][1:]))
                record_result(w, ev.id, "open", 3, b.board, "黑胜" if won == b.black else "白胜", group="knockout")
        with ctx.work() as w:
            rows = reports.event_standings(w, ev.id, "open").standings.rows
        # Final: K2 beat K1; third place: K5 beat K3; first round: K4 lost the replay, K6 was out
        # with K3 (both lost, the higher seed K3 went on) — both first-round losers share 5th.
        assert [(r.place, names[r.player.id]) for r in rows] == [
            (1, "K2"), (2, "K1"), (3, "K5"), (4, "K3"), (5, "K4"), (5, "K6")]


def test_one_group_without_knockout_is_ranked_by_points_then_mini_league(tmp_path: Path) -> None:
    """The five players of group A alone, in one round robin without a knockout: five rounds,
    each rests once (轮空不得分), and the final order is the ranking itself:
    选手16 (6), then 01, 08, 09 on 4 split by 小循环 (4, 2, 0), then 选手17 (2)."""
    from tests.services.rrko_event import GROUP_A_WINS, RATING
    from yisai.registry.person import Gender, Player
    from yisai.services.entries import register_player
    from yisai.services.events import create_event
    from yisai.services.round_results import record_result

    text = EXAMPLE.read_text(encoding="utf-8").replace('groups = ["A", "B", "C", "D"]', 'groups = ["A"]')
    start, end = text.index("[stages.format.knockout]"), text.index("[stages.time_control]")
    reg_file = tmp_path / "rr.toml"
    reg_file.write_text(text[:start] + text[end:], encoding="utf-8")
    players = ["选手01", "选手08", "选手09", "选手16", "选手17"]
    with open_context(str(tmp_path / "r.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, reg_file, seed=9)
            for name in players:
                approve_all(w, [register_player(w, ev, Player(id="", name=name, gender=Gender.MALE, rank="5段",
                                              rating=RATING[name], region="中国大陆"), division="open")])
        rested = []
        for r in range(1, 6):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                names = paired.names
                (_, rp), = paired.parts
                rested += [names[y.player] for y in rp.byes]
                for b in rp.boards:
                    winner = GROUP_A_WINS[frozenset((names[b.black], names[b.white]))]
                    record_result(w, ev.id, "open", r, b.board, "黑胜" if winner == names[b.black] else "白胜",
                                  group="A")
        assert sorted(rested) == sorted(players)
        with pytest.raises(Refused), ctx.work() as w:
            pair(w, ev.id, "open", 6)
        with ctx.work() as w:
            st = reports.event_standings(w, ev.id, "open").standings
    assert [(r.place, names[r.player.id], r.values["score"]) for r in st.rows] == [
        (1, "选手16", 6), (2, "选手01", 4), (3, "选手08", 4), (4, "选手09", 4), (5, "选手17", 2)]


def test_a_knockout_of_the_top_four_places_the_others_after_the_bracket(tmp_path: Path) -> None:
    """players = 4 of six entrants: semi-finals K1–K4 and K2–K3 (seeds 1 v 4, 2 v 3); K5 and K6
    never play and share 5th after the bracket. The higher rating wins every game."""
    from yisai.registry.person import Gender, Player
    from yisai.services.entries import register_player
    from yisai.services.events import create_event
    from yisai.services.round_results import record_result

    reg_file = tmp_path / "ko4.toml"
    reg_file.write_text(KNOCKOUT_ONLY.replace('seeding = "rank"\n', 'seeding = "rank"\nplayers = 4\n'),
                        encoding="utf-8")
    with open_context(str(tmp_path / "k4.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, reg_file, seed=4)
            for i in range(1, 7):
                approve_all(w, [register_player(w, ev, Player(id="", name=f"K{i}", gender=Gender.MALE, rank="5段",
                                              rating=2000 - i, region="中国大陆"), division="open")])
        for r in (1, 2):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                names = paired.names
                (_, rp), = paired.parts
                if r == 1:
                    assert [frozenset((names[b.black], names[b.white])) for b in rp.boards] == [
                        frozenset(("K1", "K4")), frozenset(("K2", "K3"))]
                for b in rp.boards:
                    won = min((b.black, b.white), key=lambda p: int(names[p][1:]))
                    record_result(w, ev.id, "open", r, b.board, "黑胜" if won == b.black else "白胜",
                                  group="knockout")
        with ctx.work() as w:
            rows = reports.event_standings(w, ev.id, "open").standings.rows
    assert [(r.place, names[r.player.id]) for r in rows] == [
        (1, "K1"), (2, "K2"), (3, "K3"), (4, "K4"), (5, "K5"), (5, "K6")]


def test_a_group_filtered_before_the_knockout_keeps_the_mini_league(
        event: tuple[Context, int, list[RoundView]]) -> None:
    """#31 item 4: `standings --round 5 --filter group=A` ranks group A as its crosstable does.
    By hand (rrko_event): 16 has 6 points; 01, 08, 09 have 4 and among themselves 01 4, 08 2
    (08 beat 09), 09 0; 17 has 2. Ranked among all 18 players, the 4-point tie also held
    players of other groups, the 小循环 was skipped and 09 went above 08 on 胜对手分."""
    ctx, eid, _views = event
    with ctx.work() as w:
        report = reports.event_standings(w, eid, "open", round_=5, filters=["group=A"])
    assert [(r.place, r.player.name) for r in report.standings.rows] == [
        (1, "选手16"), (2, "选手01"), (3, "选手08"), (4, "选手09"), (5, "选手17")]
    assert report.standings.round == 5


def test_the_heading_counts_the_knockout_rounds(event: tuple[Context, int, list[RoundView]]) -> None:
    """18 players: 5 group rounds, then quarter-finals, semi-finals, final (rounds 6, 7, 8): the
    final places are "after round 8", not after the last group round."""
    ctx, eid, _views = event
    with ctx.work() as w:
        assert reports.event_standings(w, eid, "open").standings.round == 8
        assert reports.event_standings(w, eid, "open", round_=7).standings.round == 5  # no final yet
        assert reports.event_standings(w, eid, "open", filters=["group=A"]).standings.round == 8


def test_prize_lists_before_the_end_are_marked_provisional(tmp_path: Path) -> None:
    """#31 item 7: after 3 of the 5 group rounds the prize list says 暂定 (第3轮后); the
    finished event's list (module fixture, all 8 rounds) carries no such mark."""
    with open_context(str(tmp_path / "p.sqlite"), actor="裁判长", now=NOW) as ctx:
        eid, _ = play_example(ctx, last_round=3)
        with ctx.work() as w:
            view = reports.prizes(w, eid)
    assert view.prize_tables[0].title == "个人（录取前8名） · 暂定 (第3轮后)"
    assert [(p.division, p.after, p.final) for p in view.progress] == [("open", 3, False)]


def test_the_finished_event_has_no_provisional_mark(event: tuple[Context, int, list[RoundView]]) -> None:
    ctx, eid, _views = event
    with ctx.work() as w:
        view = reports.prizes(w, eid)
    assert view.prize_tables[0].title == "个人（录取前8名）"
    assert [(p.division, p.after, p.final) for p in view.progress] == [("open", 8, True)]

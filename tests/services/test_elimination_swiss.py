"""积分编排淘汰制 through the services (issue 41): who is paired in each round, and the final order.

Eight players 选手01 … 选手08 (all 5段, ratings 2790 … 2720, so the seeding order is 01 … 08), a
Swiss of 3 rounds with "第1轮后0分者淘汰, 第2轮后2分者淘汰" (win 2, loss 0), ranked by score then
对手分 (sos); the stronger player wins every game. By hand, with the default in-group order
(top half against bottom half, 1 v n/2+1):
  R1 01–05 02–06 03–07 04–08: 01–04 win (2 points); 05–08 have 0 → out after round 1.
  R2 (01–04, all on 2) 01–03 02–04: 01, 02 on 4; 03, 04 on 2 → out after round 2.
  R3 01–02: 01 on 6, 02 on 4.
Final order: 01 (6), 02 (4); then those out after round 2: 03 (2, sos 0+6 = 6) above 04 (2, sos
0+4 = 4); then those out after round 1, all on 0: 05 (sos 6, lost to 01), 06 (4, lost to 02),
07 and 08 (2 each, lost to 03 and 04) sharing 7th.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from tests.services.rrko_event import EXAMPLE, NOW, approve_all
from yisai.formats.regulation_summary import summarize
from yisai.i18n import use_language
from yisai.registry.person import Gender, Player
from yisai.regulation import RegulationError, loads
from yisai.services import reports
from yisai.services.context import Context, open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.results import division_progress
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.store import event_rows, roster_rows, round_rows

FORMAT = """[stages.format]
kind = "swiss"
rounds = 3
[stages.format.elimination]
after_rounds = [{round = 1, score_at_most = 0}, {round = 2, score_at_most = 2}]
"""


def _text(fmt: str = FORMAT) -> str:
    text = EXAMPLE.read_text(encoding="utf-8")
    start = text.index("[stages.format]")
    end = text.index("[stages.time_control]")
    text = text[:start] + fmt + text[end:]
    return text.replace('criteria = ["score", "sodos", "wins", "lot"]\nmini_league = true',
                        'criteria = ["score", "sos"]')


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Context, int, dict[int, set[frozenset[str]]], list]]:
    tmp = tmp_path_factory.mktemp("elim")
    path = tmp / "elimination.toml"
    path.write_text(_text(), encoding="utf-8")
    games: dict[int, set[frozenset[str]]] = {}
    progress = []
    with open_context(str(tmp / "e.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, path, seed=2026)
            for i in range(1, 9):
                done = register_player(w, ev, Player(
                    id="", name=f"选手{i:02d}", gender=Gender.MALE, birth_date=date(1990, 1, 1), rank="5段",
                    rating=2800 - 10 * i, region="中国大陆", province="浙江", city="杭州"), division="open")
                approve_all(w, [done])
        for r in range(1, 4):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                names = paired.names
                games[r] = set()
                for _group, pairing in paired.parts:
                    assert not pairing.sit_outs
                    for b in pairing.boards:
                        black, white = names[b.black], names[b.white]
                        games[r].add(frozenset((black, white)))
                        record_result(w, ev.id, "open", r, b.board, "黑胜" if black < white else "白胜")
            with ctx.work() as w:
                progress.append(division_progress(w, event_rows.get_event(w.session, ev.id), "open"))
        yield ctx, ev.id, games, progress


def _pairs(*pairs: tuple[int, int]) -> set[frozenset[str]]:
    return {frozenset((f"选手{a:02d}", f"选手{b:02d}")) for a, b in pairs}


def test_the_eliminated_are_not_paired_again(played) -> None:
    _ctx, _eid, games, _progress = played
    assert games[1] == _pairs((1, 5), (2, 6), (3, 7), (4, 8))
    assert games[2] == _pairs((1, 3), (2, 4))
    assert games[3] == _pairs((1, 2))


def test_the_round_says_who_was_eliminated_and_why(played) -> None:
    ctx, eid, _games, _progress = played
    with ctx.work() as w:
        names = {p.id: p.name for p in roster_rows.list_players(w.session, eid)}
        info = {r.number: r.info for r in round_rows.list_rounds(w.session, eid, "open")}
    assert "eliminated" not in info[1]
    assert {names[p]: why["zh"] for p, why in info[2]["eliminated"].items()} == {
        f"选手{i:02d}": "第1轮后积分0, 淘汰" for i in (5, 6, 7, 8)}
    assert {names[p] for p in info[3]["eliminated"]} == {f"选手{i:02d}" for i in range(3, 9)}
    lines = [line for line in info[2]["explain"]["zh"] if line.endswith("第1轮后积分0, 淘汰")]
    assert len(lines) == 4  # the pairing's explanation says it too, one line a player


def test_the_eliminated_are_placed_below_the_survivors(played) -> None:
    ctx, eid, _games, progress = played
    assert [p.final for p in progress] == [False, False, True]
    with ctx.work() as w:
        rows = reports.event_standings(w, eid, "open").standings.rows
    assert [(r.place, r.player.name, r.values["score"]) for r in rows] == [
        (1, "选手01", 6), (2, "选手02", 4), (3, "选手03", 2), (4, "选手04", 2), (5, "选手05", 0),
        (6, "选手06", 0), (7, "选手07", 0), (7, "选手08", 0)]


def test_the_summary_states_the_rule_and_the_order() -> None:
    reg = loads(_text())
    with use_language("zh"):
        text = "\n".join(summarize(reg))
    assert "第1轮后积分0分及以下者淘汰; 第2轮后积分2分及以下者淘汰" in text
    assert "名次列于未淘汰者之后, 较晚淘汰者在前" in text


def test_a_step_after_the_last_round_is_refused() -> None:
    fmt = FORMAT.replace("round = 2, score_at_most = 2", "round = 3, score_at_most = 2")
    with pytest.raises(RegulationError) as info:
        loads(_text(fmt), "e.toml")
    assert str(info.value).startswith("e.toml:75: stages.0.format.elimination.after_rounds.1.round: "
                                      "第3轮后淘汰, 但本阶段共3轮, 之后没有编排")


def test_the_demo_pairs_only_those_the_rule_keeps(tmp_path: Path) -> None:
    """`yisai demo --regulation` with "第2轮后0分者淘汰, 第3轮后2分者淘汰" (win 2, forfeit win 2, bye
    0 in this file): recomputed here from the stored games, nobody is paired after going out, and
    every survivor stands above every eliminated player."""
    from typer.testing import CliRunner

    from yisai.cli.app import app
    from yisai.services.context import unit_of_work

    fmt = FORMAT.replace("rounds = 3", "rounds = 5").replace(
        "{round = 1, score_at_most = 0}, {round = 2, score_at_most = 2}",
        "{round = 2, score_at_most = 0}, {round = 3, score_at_most = 2}")
    path = tmp_path / "elimination.toml"
    path.write_text(_text(fmt), encoding="utf-8")
    db = tmp_path / "demo.sqlite"
    result = CliRunner().invoke(app, ["demo", "--regulation", str(path), "--boards", "1", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with unit_of_work(str(db)) as work:
        (event,) = event_rows.list_events(work.session)
        games = round_rows.games(work.session, event.id, "open", stage="championship")
        rows = reports.event_standings(work, event.id, "open").standings.rows
    points = {"W": 2, "D": 1, "L": 0}
    score: dict[str, int] = {}
    out_after: dict[str, int] = {}
    for r in range(1, 6):
        paired = {p for g in games if g.round == r for p in (g.black, g.white) if p is not None}
        assert paired, r
        assert not paired & set(out_after), r  # nobody who went out is paired again
        for g in games:
            if g.round == r:
                for p in (g.black, g.white):
                    if p is not None:
                        score[p] = score.get(p, 0) + (0 if g.is_bye else points[g.outcome_for(p)])
        limit = {2: 0, 3: 2}.get(r)
        if limit is not None:
            out_after.update({p: r for p in paired if score[p] <= limit})
    assert out_after and len(out_after) < len(score)
    tiers = [0 if r.player.id not in out_after else 4 - out_after[r.player.id] for r in rows]
    assert tiers == sorted(tiers)


def test_neighbours_in_one_part_keep_the_criterion_that_split_them(played) -> None:
    """01 and 02 (both still in) are split by 积分 6 v 4, as in any Swiss; 04 and 05 by the rule
    (04 went out after round 2, 05 after round 1)."""
    ctx, eid, _games, _progress = played
    with ctx.work() as w:
        st = reports.event_standings(w, eid, "open").standings
    ids = {r.player.name: r.player.id for r in st.rows}
    top = st.decisions[(ids["选手01"], ids["选手02"])]
    assert (top.kind, top.upper_value, top.lower_value) == ("criterion", 6, 4)
    cut = st.decisions[(ids["选手04"], ids["选手05"])]
    assert cut.kind == "placement"
    with use_language("zh"):
        assert (cut.upper_value, cut.lower_value) == ("第2轮后积分2, 淘汰", "第1轮后积分0, 淘汰")


def test_a_field_eliminated_to_one_is_final_and_pairs_no_more(tmp_path: Path) -> None:
    """Four players, "第1轮后0分者淘汰, 第2轮后4分及以下者淘汰", the stronger wins. By hand: R1 01–03
    02–04, 03 and 04 out; R2 01–02: 01 on 4, 02 on 2, both at most 4 → out. Nobody is left for
    round 3: it is refused, and the places are final after round 2: 01, 02 (out after round 2),
    03 (sos 4), 04 (sos 2)."""
    from yisai.services.context import Refused

    path = tmp_path / "e.toml"
    path.write_text(_text(FORMAT.replace("score_at_most = 2", "score_at_most = 4")), encoding="utf-8")
    with open_context(str(tmp_path / "e.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, path, seed=2026)
            for i in range(1, 5):
                done = register_player(w, ev, Player(
                    id="", name=f"选手{i:02d}", gender=Gender.MALE, birth_date=date(1990, 1, 1), rank="5段",
                    rating=2800 - 10 * i, region="中国大陆", province="浙江", city="杭州"), division="open")
                approve_all(w, [done])
        for r in (1, 2):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                for _group, pairing in paired.parts:
                    for b in pairing.boards:
                        black, white = paired.names[b.black], paired.names[b.white]
                        record_result(w, ev.id, "open", r, b.board, "黑胜" if black < white else "白胜")
        with pytest.raises(Refused) as info, ctx.work() as w:
            pair(w, ev.id, "open", 3)
        assert info.value.code == "field_eliminated"
        assert info.value.text.zh.startswith("按规程的淘汰办法, 第2轮后只剩0人, 第3轮无法编排")
        with ctx.work() as w:
            assert division_progress(w, event_rows.get_event(w.session, ev.id), "open").final
            rows = reports.event_standings(w, ev.id, "open").standings.rows
    assert [(r.place, r.player.name) for r in rows] == [(1, "选手01"), (2, "选手02"), (3, "选手03"), (4, "选手04")]

"""双循环 (issue 41): one stage, one Berger table played twice; the second cycle repeats the
first cycle's pairs with colours swapped on every board, and one table ranks both cycles.

Six players 选手01 … 选手06 (ratings 2790 … 2740, so the seeding order is 01 … 06) seated by
seeding (seat k = 选手0k). The Berger table for six (FIDE Handbook C.05, Annex 1), the seat named
first taking Black:
  R1 1-6 2-5 3-4 · R2 6-4 5-3 1-2 · R3 2-6 3-1 4-5 · R4 6-5 1-4 2-3 · R5 3-6 4-2 5-1;
rounds 6–10 are the same pairs, the other seat Black. The stronger player wins every game but
one: 选手06 beats 选手01 in round 6 (R1's 1-6 swapped: 选手06 Black, 选手01 White). By hand: 选手01
9 wins, 02 8, 03 6, 04 4, 05 2, 06 1 — counting the second cycle only would tie 01 and 02 on 4.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from tests.services.rrko_event import EXAMPLE, NOW, approve_all
from yisai.registry.person import Gender, Player
from yisai.services import reports
from yisai.services.context import Context, Refused, open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.results import division_progress
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.store import event_rows

BERGER_6 = [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
            [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
UPSET = frozenset(("选手01", "选手06"))
FORMAT = '[stages.format]\nkind = "double_round_robin"\nseats = "seeding"\n'


def _regulation(tmp: Path) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    start = text.index("[stages.format]")
    end = text.index("[stages.time_control]")
    path = tmp / "double.toml"
    path.write_text(text[:start] + FORMAT + text[end:], encoding="utf-8")
    return path


def _winner(black: str, white: str, round_no: int) -> str:
    if round_no == 6 and frozenset((black, white)) == UPSET:
        return "选手06"
    return min(black, white)  # 选手01 is the strongest


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Context, int, dict[int, set[tuple[str, str]]], list]]:
    tmp = tmp_path_factory.mktemp("drr")
    games: dict[int, set[tuple[str, str]]] = {}
    progress = []
    with open_context(str(tmp / "d.sqlite"), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, _regulation(tmp), seed=2026)
            for i in range(1, 7):
                done = register_player(w, ev, Player(
                    id="", name=f"选手{i:02d}", gender=Gender.MALE, birth_date=date(1990, 1, 1), rank="5段",
                    rating=2800 - 10 * i, region="中国大陆", province="浙江", city="杭州"), division="open")
                approve_all(w, [done])
        for r in range(1, 11):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                names = paired.names
                games[r] = set()
                for _group, pairing in paired.parts:
                    for b in pairing.boards:
                        black, white = names[b.black], names[b.white]
                        games[r].add((black, white))
                        word = "黑胜" if _winner(black, white, r) == black else "白胜"
                        record_result(w, ev.id, "open", r, b.board, word)
            with ctx.work() as w:
                progress.append(division_progress(w, event_rows.get_event(w.session, ev.id), "open"))
        yield ctx, ev.id, games, progress


def _seat(k: int) -> str:
    return f"选手{k:02d}"


def test_the_first_cycle_follows_the_berger_table(played) -> None:
    _ctx, _eid, games, _progress = played
    for r, pairs in enumerate(BERGER_6, start=1):
        assert games[r] == {(_seat(b), _seat(w)) for b, w in pairs}


def test_the_second_cycle_swaps_colours_on_every_board(played) -> None:
    _ctx, _eid, games, _progress = played
    for r, pairs in enumerate(BERGER_6, start=1):
        assert games[r + 5] == {(_seat(w), _seat(b)) for b, w in pairs}
    swapped = sum(1 for r in range(1, 6) for b, w in games[r] if (w, b) in games[r + 5])
    assert swapped == 15


def test_one_final_table_over_both_cycles(played) -> None:
    ctx, eid, _games, progress = played
    assert [p.final for p in progress] == [False] * 9 + [True]
    assert progress[4].note.zh == "暂定 (第5轮后)"
    assert progress[9].note.zh == ""
    with ctx.work() as w:
        rows = reports.event_standings(w, eid, "open").standings.rows
    assert [(r.place, r.player.name, r.values["score"]) for r in rows] == [
        (1, "选手01", 18), (2, "选手02", 16), (3, "选手03", 12), (4, "选手04", 8), (5, "选手05", 4),
        (6, "选手06", 2)]


def test_there_is_no_eleventh_round(played) -> None:
    ctx, eid, _games, _progress = played
    with pytest.raises(Refused) as info, ctx.work() as w:
        pair(w, eid, "open", 11)
    assert info.value.code == "no_such_round"

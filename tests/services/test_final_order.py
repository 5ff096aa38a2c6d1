"""Seed 000's final: the event's order after round 10's same-place final is one computation,
used by standings, prizes and awards alike (issue: the final ranking ignored round 10)."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from yisai.services import reports
from yisai.services.context import Context, InputError, open_context
from yisai.services.demo_event import (
    play_round,
    registration_moment,
)
from yisai.services.events import read_regulation_file
from yisai.store import event_rows, round_rows


@pytest.fixture(scope="module")
def final(shanhai_final_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Context, int]]:
    """This module's own copy of the played final (``tests/conftest.py`` builds it once)."""
    db = Path(tmp_path_factory.mktemp("final")) / "f.sqlite"
    shutil.copy(shanhai_final_db, db)
    moment = registration_moment(read_regulation_file(REGULATIONS / "2025-shanhai-cup.toml")[1])
    with open_context(str(db), actor="裁判长", now=moment) as ctx:
        with ctx.work() as w:
            (event,) = event_rows.list_events(w.session)
        yield ctx, int(event.id)


def test_standings_after_the_final_follow_the_final_games(final: tuple[Context, int]) -> None:
    ctx, event_id = final
    with ctx.work() as w:
        report = reports.event_standings(w, event_id, "公开组")
        games = [g for r in round_rows.list_rounds(w.session, event_id, "open") if r.number == 10 for g in r.games]
    rows = report.standings.rows
    assert [r.place for r in rows] == list(range(1, len(rows) + 1))
    # 规程: round 10 pairs A_k–B_k; the winner takes place 2k−1 and the loser 2k.
    for k, g in enumerate(sorted((g for g in games if g.white), key=lambda g: g.board), start=1):
        winner, loser = (g.black, g.white) if g.outcome_for(g.black) == "W" else (g.white, g.black)
        assert rows[2 * k - 2].player.id == winner, k
        assert rows[2 * k - 1].player.id == loser, k
    # "why is A above B" speaks of the final, not of Swiss tie-breaks.
    text = report.standings.explain(rows[1].player.id).text()
    assert "同名次决赛" in text
    # The prize list uses the same order: its first place is the final's first winner.
    with ctx.work() as w:
        prizes = reports.prizes(w, event_id)
    mixed = next(t for t in prizes.results.rankings if t.division == "open")
    assert [r.player_id for r in mixed.rows[:4]] == [r.player.id for r in rows[:4]]


def test_standings_without_a_division_are_refused_with_the_divisions(final: tuple[Context, int]) -> None:
    """Divisions never play each other: one list across them would mean nothing."""
    ctx, event_id = final
    with ctx.work() as w:
        only_open = reports.event_standings(w, event_id, None)  # one division has games: that one
        assert {p.tags["division"] for p in only_open.source.players} == {"open"}
        play_round(w, event_rows.get_event(w.session, event_id), "senior", 1, 7)
    with pytest.raises(InputError) as info, ctx.work() as w:
        reports.event_standings(w, event_id, None)
    message = info.value.render("zh")
    assert info.value.code == "division_required"
    assert "公开组(open)" in message and "中老年组(senior)" in message


def test_women_of_the_final_keep_the_final_order(final: tuple[Context, int]) -> None:
    ctx, event_id = final
    with ctx.work() as w:
        everyone = reports.event_standings(w, event_id, "open").standings.rows
        women = reports.event_standings(w, event_id, "open", filters=["gender=女"]).standings.rows
    order = [r.player.id for r in everyone]
    assert women and [order.index(r.player.id) for r in women] == sorted(order.index(r.player.id) for r in women)
    assert [r.place for r in women] == list(range(1, len(women) + 1))


def test_the_final_round_shows_where_each_player_comes_from(final: tuple[Context, int]) -> None:
    from yisai.services.rounds import round_view

    ctx, event_id = final
    with ctx.work() as w:
        view = round_view(w, event_id, "公开组", 10)
    for g in view.rounds[0].games:
        if g.white:
            a, b = view.seeds[g.black], view.seeds[g.white]
            assert {a[0], b[0]} == {"A", "B"} and a[1:] == b[1:]  # A_k against B_k
    # Players below the final's top places sit out: said in one line, not one line each.
    sit_out = [line for line in view.info[view.rounds[0].group] if line.startswith("本轮不参赛")]
    playing = {p for g in view.rounds[0].games for p in (g.black, g.white) if p}
    expected = len(view.seeds) - len(playing)
    assert len(sit_out) == (1 if expected else 0)
    if expected:
        assert sit_out[0].startswith(f"本轮不参赛({expected}人): ")


def test_the_final_is_labelled_and_each_place_says_why(final: tuple[Context, int]) -> None:
    """Round 10 pairs A_k–B_k on board k for places 2k−1 and 2k (规程); both groups have more
    than 16 players, so the final (top 16 of each group) decides places 1–32 and place 33 is
    the better group-place-17 player by the stated interleaving rule."""
    from yisai.services.rounds import round_view

    ctx, event_id = final
    with ctx.work() as w:
        view = round_view(w, event_id, "公开组", 10)
        rows = reports.event_standings(w, event_id, "open").standings.rows
    boards = sorted((g for g in view.rounds[0].games if g.white), key=lambda g: g.board)
    assert len(boards) == 16 and min(Counter(g for g, _k in view.seats.values()).values()) > 16
    for g in boards:
        k = g.board
        assert sorted((view.seats[g.black], view.seats[g.white or ""])) == [("A", k), ("B", k)]
        assert view.matchup(g.black, g.white) == f"A组第{k}名 — B组第{k}名 (争第{2 * k - 1}–{2 * k}名)"
        assert view.matchup(g.white or "", g.black) == view.matchup(g.black, g.white)  # A first
    one = boards[0]
    winner, loser = (one.black, one.white) if one.outcome_for(one.black) == "W" else (one.white, one.black)
    assert winner and loser
    (wg, _), (lg, _) = view.seats[winner], view.seats[loser]
    first = rows[0].player.id
    assert first == winner
    assert f"同名次决赛 {wg}组第1名胜{lg}组第1名, 获第1名" in next(
        ln for ln in reports_explain(ctx, event_id, first) if ln.startswith("  高于"))
    assert f"同名次决赛 {lg}组第1名负于{wg}组第1名, 获第2名" in next(
        ln for ln in reports_explain(ctx, event_id, loser) if ln.startswith("  低于"))
    below = "\n".join(reports_explain(ctx, event_id, rows[32].player.id))
    assert "同名次决赛只决定第1–32名" in below and "组第17名获第33名" in below
    assert {r.player.tags["group"] for r in rows} == {"A", "B"}


def reports_explain(ctx: Context, event_id: int, pid: str) -> list[str]:
    with ctx.work() as w:
        return reports.event_standings(w, event_id, "open").standings.explain(pid).text().splitlines()

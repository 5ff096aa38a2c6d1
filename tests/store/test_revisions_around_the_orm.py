"""Caches valid by construction (issue 42 item 5): a write that goes around the ORM — raw SQL,
a Core ``update()``/``delete()``, an ``ON DELETE CASCADE`` — moves the round's revision, the
event's roster revision and the public pages' stamp as surely as a write through it (database
triggers, migration 0022), so every cached read equals a read of the rows, on SQLite and
PostgreSQL (the ``ctx`` fixture runs each test on both)."""

from __future__ import annotations

from sqlalchemy import delete, select, text, update

from tests.store.test_games_cache import _cached, _full
from tests.store.test_repository import _event, _players
from tests.store.test_roster_cache import _check, _rows
from yisai.record import Game, Result
from yisai.services.context import Context
from yisai.services.publishing import event_stamp
from yisai.store import round_rows
from yisai.store.models import EventRow, GameRow, RoundRow


def _round_revision(ctx: Context, round_id: int) -> int | None:
    with ctx.work() as w:
        return w.session.scalar(select(RoundRow.revision).where(RoundRow.id == round_id))


def _roster_revision(ctx: Context, event_id: int) -> int:
    with ctx.work() as w:
        return int(w.session.scalar(select(EventRow.roster_revision).where(EventRow.id == event_id)) or 0)


def _stamp(ctx: Context, event_id: int) -> int:
    with ctx.work() as w:
        return event_stamp(w, event_id)


def _paired(ctx: Context) -> tuple[int, int, list[str]]:
    """An event with one round of two boards, read once so the caches hold it."""
    event = _event(ctx)
    ids = [p.id for p in _players(ctx, event.id, 4)]
    with ctx.work() as w:
        saved = round_rows.save_round(w.session, w.stamp, event.id, "d", 1, [Game(1, ids[0], ids[1], board=1),
                                                   Game(1, ids[2], ids[3], board=2)])
    assert [g.result for g in _cached(ctx, event.id)] == [Result.UNKNOWN, Result.UNKNOWN]
    return event.id, saved.id, ids


def test_a_raw_sql_result_moves_the_round_and_the_stamp(ctx: Context) -> None:
    event_id, round_id, _ = _paired(ctx)
    before, stamp = _round_revision(ctx, round_id), _stamp(ctx, event_id)
    with ctx.work() as w:  # no ORM object, no audit line: only the database sees it
        w.session.execute(text("UPDATE games SET result = 'B+' WHERE round_id = :r AND board = 2"),
                          {"r": round_id})
    assert _round_revision(ctx, round_id) != before
    assert _stamp(ctx, event_id) > stamp
    assert [g.result for g in _cached(ctx, event_id)] == [Result.UNKNOWN, Result.BLACK_WINS]
    assert _cached(ctx, event_id) == _full(ctx, event_id)


def test_a_core_update_and_delete_move_the_round(ctx: Context) -> None:
    event_id, round_id, _ = _paired(ctx)
    before = _round_revision(ctx, round_id)
    with ctx.work() as w:
        w.session.execute(update(GameRow).where(GameRow.round_id == round_id, GameRow.board == 1)
                          .values(result="W+"))
    moved = _round_revision(ctx, round_id)
    assert moved != before
    assert [g.result for g in _cached(ctx, event_id)] == [Result.WHITE_WINS, Result.UNKNOWN]
    with ctx.work() as w:
        w.session.execute(delete(GameRow).where(GameRow.round_id == round_id, GameRow.board == 2))
    assert _round_revision(ctx, round_id) not in (before, moved)
    assert [g.board for g in _cached(ctx, event_id)] == [1]  # the deleted board is gone from the cache too
    assert _cached(ctx, event_id) == _full(ctx, event_id)


def test_a_cascade_moves_the_stamp_and_a_new_round_is_read_afresh(ctx: Context) -> None:
    event_id, round_id, ids = _paired(ctx)
    stamp = _stamp(ctx, event_id)
    with ctx.work() as w:  # the games go by ON DELETE CASCADE, not by the ORM
        w.session.execute(text("DELETE FROM rounds WHERE id = :r"), {"r": round_id})
    after_delete = _stamp(ctx, event_id)
    assert after_delete > stamp
    assert _cached(ctx, event_id) == _full(ctx, event_id) == []
    with ctx.work() as w:  # paired again: SQLite may reuse the round's id, never its revision
        round_rows.save_round(w.session, w.stamp, event_id, "d", 1, [Game(1, ids[1], ids[0], board=1)])
    assert _stamp(ctx, event_id) > after_delete
    assert [(g.black, g.white) for g in _cached(ctx, event_id)] == [(ids[1], ids[0])]
    assert _cached(ctx, event_id) == _full(ctx, event_id)


def test_raw_sql_on_players_and_entries_moves_the_roster(ctx: Context) -> None:
    event = _event(ctx)
    players = _players(ctx, event.id, 3)
    _check(ctx, event.id)  # the caches now hold the roster
    revision, stamp = _roster_revision(ctx, event.id), _stamp(ctx, event.id)
    with ctx.work() as w:
        w.session.execute(text("UPDATE players SET name = '改名' WHERE event_id = :e AND name = :n"),
                          {"e": event.id, "n": players[0].name})
    assert _roster_revision(ctx, event.id) != revision
    assert _stamp(ctx, event.id) > stamp
    assert "改名" in [p.name for p in _rows(ctx, event.id)[0]]
    _check(ctx, event.id)
    revision = _roster_revision(ctx, event.id)
    with ctx.work() as w:
        w.session.execute(text("DELETE FROM players WHERE event_id = :e AND name = '改名'"), {"e": event.id})
    assert _roster_revision(ctx, event.id) != revision
    assert len(_rows(ctx, event.id)[0]) == 2
    _check(ctx, event.id)


def test_a_raw_change_to_the_event_row_moves_the_stamp(ctx: Context) -> None:
    event = _event(ctx)
    stamp = _stamp(ctx, event.id)
    with ctx.work() as w:
        w.session.execute(text("UPDATE events SET name = '改名的比赛' WHERE id = :e"), {"e": event.id})
    assert _stamp(ctx, event.id) > stamp

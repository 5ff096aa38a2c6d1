"""The games cache (store.revisions, read by ``repo.games`` and ``list_rounds``) is an optimisation, never the source of truth: after any
sequence of writes — results entered and corrected, rounds paired, re-paired and deleted with
reused ids, writes from another process — the cached read equals a full read of the rows, on
SQLite and PostgreSQL."""

from __future__ import annotations

import random
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from tests.store.test_repository import _event, _players
from yisai.record import Game, Result
from yisai.services.context import Context
from yisai.store import round_rows
from yisai.store.models import RoundRow
from yisai.store.round_rows import _round, list_rounds

RESULTS = [Result.BLACK_WINS, Result.WHITE_WINS, Result.DRAW, Result.BOTH_LOSE, Result.UNKNOWN]
OPS = st.lists(st.tuples(st.sampled_from(["result", "pair", "repair", "drop"]), st.integers(0, 10**6)),
               min_size=1, max_size=25)


def _full(ctx: Context, event_id: int) -> list[Game]:
    """Every game read from the rows themselves (no cache)."""
    with ctx.work() as w:
        q = (select(RoundRow).where(RoundRow.event_id == event_id).options(selectinload(RoundRow.games))
             .order_by(RoundRow.stage, RoundRow.group_name, RoundRow.number))
        return [g for row in w.session.scalars(q) for g in _round(row).games]


def _full_versions(ctx: Context, event_id: int) -> list[dict[int, int]]:
    with ctx.work() as w:
        q = (select(RoundRow).where(RoundRow.event_id == event_id).options(selectinload(RoundRow.games))
             .order_by(RoundRow.number))
        return [{g.board: g.version for g in row.games} for row in w.session.scalars(q)]


def _listed(ctx: Context, event_id: int) -> tuple[list[Game], list[dict[int, int]]]:
    """What ``list_rounds`` (through the cache) gives: games and board versions."""
    with ctx.work() as w:
        rounds = list_rounds(w.session, event_id, "d")
        return [g for r in rounds for g in r.games], [r.versions for r in rounds]


def _cached(ctx: Context, event_id: int) -> list[Game]:
    with ctx.work() as w:
        return round_rows.games(w.session, event_id, "d")


def _pairs(ids: list[str], rnd: random.Random, number: int) -> list[Game]:
    order = ids[:]
    rnd.shuffle(order)
    return [Game(number, order[k], order[k + 1], board=k // 2 + 1) for k in range(0, len(order) - 1, 2)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_cached_games_equal_a_full_read_after_any_writes(ctx: Context, ops: list[tuple[str, int]]) -> None:
    event = _event(ctx)
    ids = [p.id for p in _players(ctx, event.id, 6)]
    with ctx.work() as w:
        round_rows.save_round(w.session, w.stamp, event.id, "d", 1, _pairs(ids, random.Random(0), 1))
    assert _cached(ctx, event.id) == _full(ctx, event.id)
    for op, n in ops:
        rnd = random.Random(n)
        with ctx.work() as w:
            rounds = round_rows.list_rounds(w.session, event.id, "d")
            last = rounds[-1] if rounds else None
            if op == "result" and last is not None:
                round_rows.record_result(w.session, w.stamp, last.id, rnd.randint(1, len(last.games)), rnd.choice(RESULTS))
            elif op == "pair":
                number = (last.number + 1) if last else 1
                round_rows.save_round(w.session, w.stamp, event.id, "d", number, _pairs(ids, rnd, number))
            elif op == "repair" and last is not None and all(g.result == Result.UNKNOWN for g in last.games):
                round_rows.save_round(w.session, w.stamp, event.id, "d", last.number, _pairs(ids, rnd, last.number), replace=True)
            elif op == "drop" and last is not None:  # the newest rows go: SQLite reuses their ids
                w.session.delete(w.session.get(RoundRow, last.id))
        # every step: the cached reads are the rows as they are now
        assert _cached(ctx, event.id) == _full(ctx, event.id)
        assert _listed(ctx, event.id) == (_full(ctx, event.id), _full_versions(ctx, event.id))


def test_a_write_by_another_process_is_seen_at_once(ctx: Context, db_url: str) -> None:
    """Another worker (a separate process, its own cache) enters a result: this process's next
    read has it, though it had the round cached."""
    event = _event(ctx)
    ids = [p.id for p in _players(ctx, event.id, 4)]
    with ctx.work() as w:
        saved = round_rows.save_round(w.session, w.stamp, event.id, "d", 1, [Game(1, ids[0], ids[1], board=1), Game(1, ids[2], ids[3], board=2)])
    assert [g.result for g in _cached(ctx, event.id)] == [Result.UNKNOWN, Result.UNKNOWN]
    script = (
        "import sys; from yisai.services.context import open_context; from yisai.record import Result\n"
        "from yisai.store import round_rows\n"
        "with open_context(sys.argv[1], actor='另一进程') as c, c.work() as w:\n"
        "    round_rows.record_result(w.session, w.stamp, int(sys.argv[2]), 2, Result.WHITE_WINS)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, db_url, str(saved.id)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert [g.result for g in _cached(ctx, event.id)] == [Result.UNKNOWN, Result.WHITE_WINS]
    assert _cached(ctx, event.id) == _full(ctx, event.id)
    assert _listed(ctx, event.id)[1] == [{1: 1, 2: 2}]  # the board's version moved with it


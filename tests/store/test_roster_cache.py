"""The roster cache (store.revisions, read by ``repo.list_players``/``players_by_id``/
``list_entries``) is an optimisation, never the source of truth: after any sequence of
registration writes — players added, corrected and deleted (SQLite reuses their ids), entries
added and moved through their statuses, reasons in either language — and a write by another
process, every cached read equals a read of the rows themselves, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from tests.store.test_repository import _event, _players
from yisai.i18n import Text, use_language
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services.context import Context
from yisai.store import entry_rows, player_rows, roster_rows
from yisai.store.entry_rows import entry_value
from yisai.store.models import EntryRow, PlayerRow
from yisai.store.player_rows import player_value
from yisai.vocabulary.rank import Rank

OPS = st.lists(st.tuples(st.sampled_from(["add", "rename", "drop", "enter", "status", "reasons", "other"]),
                         st.integers(0, 10**6)), min_size=1, max_size=25)
STATUSES = list(EntryStatus)


def _rows(ctx: Context, event_id: int) -> tuple[list[Player], list[Entry]]:
    """Players and entries read from the rows themselves (no cache)."""
    with ctx.work() as w:
        players = [player_value(r) for r in w.session.scalars(
            select(PlayerRow).where(PlayerRow.event_id == event_id).order_by(PlayerRow.id))]
        entries = [entry_value(r) for r in w.session.scalars(
            select(EntryRow).where(EntryRow.event_id == event_id).order_by(EntryRow.id))]
        return players, entries


def _check(ctx: Context, event_id: int) -> None:
    for lang in ("zh", "en"):  # reasons are rendered in the reader's language
        with use_language(lang):
            players, entries = _rows(ctx, event_id)
            with ctx.work() as w:
                assert roster_rows.list_players(w.session, event_id) == players
                assert roster_rows.players_by_id(w.session, event_id) == {p.id: p for p in players}
                assert roster_rows.list_entries(w.session, event_id) == entries
                for division in ("d", "e"):
                    assert roster_rows.list_entries(w.session, event_id, division=division) == [
                        e for e in entries if e.division == division]
                approved = [e for e in entries if e.status == EntryStatus.APPROVED]
                assert roster_rows.list_entries(w.session, event_id, status=EntryStatus.APPROVED) == approved
                left = (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED)
                assert roster_rows.list_entries(w.session, event_id, division="d", stage="", status=left) == [
                    e for e in entries if e.division == "d" and e.stage == "" and e.status in left]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_cached_roster_equals_the_rows_after_any_writes(ctx: Context, ops: list[tuple[str, int]]) -> None:
    event = _event(ctx)
    other = _event(ctx)  # another event's writes must not disturb this one's reads, nor leak in
    _players(ctx, event.id, 3)
    _check(ctx, event.id)
    for op, n in ops:
        rnd = random.Random(n)
        with ctx.work() as w:
            players = roster_rows.list_players(w.session, event.id)
            entries = roster_rows.list_entries(w.session, event.id)
            if op == "add":
                player_rows.add_player(w.session, w.stamp, event.id, Player(id="", name=f"新棋手{n}", gender=Gender.FEMALE,
                                                   birth_date=date(2010, 1, 1 + n % 28), rank=Rank.kyu(1 + n % 9)))
            elif op == "rename" and players:
                p = rnd.choice(players)
                player_rows.update_player(w.session, w.stamp, p.model_copy(update={"name": f"改名{n}", "rating": n % 3000}))
            elif op == "drop" and players:  # the newest row goes (its entries with it): ids are reused
                w.session.delete(w.session.get(PlayerRow, int(players[-1].id)))
            elif op == "enter" and players:
                p = rnd.choice(players)
                division = rnd.choice(["d", "e"])
                if not any(e.player_id == p.id and e.division == division for e in entries):
                    entry_rows.add_entry(w.session, w.stamp, event.id, Entry(player_id=p.id, division=division))
            elif op == "status" and entries:
                e = rnd.choice(entries)
                entry_rows.update_entry(w.session, w.stamp, e.model_copy(update={"status": rnd.choice(STATUSES), "fee_paid": not e.fee_paid}))
            elif op == "reasons" and entries:
                e = rnd.choice(entries)
                entry_rows.update_entry(w.session, w.stamp, e.model_copy(update={"reasons": (Text(f"理由{n}", f"reason {n}"),)}))
            elif op == "other":
                player_rows.add_player(w.session, w.stamp, other.id, Player(id="", name=f"别的赛事{n}", gender=Gender.MALE,
                                                   birth_date=date(2011, 2, 1 + n % 28)))
        _check(ctx, event.id)


def test_a_registration_by_another_process_is_seen_at_once(ctx: Context, db_url: str) -> None:
    """Another worker (a separate process, its own cache) approves an entry and corrects a
    name: this process's next read has both, though it had the roster cached."""
    event = _event(ctx)
    p = _players(ctx, event.id, 2)[0]
    with ctx.work() as w:
        entry = entry_rows.add_entry(w.session, w.stamp, event.id, Entry(player_id=p.id, division="d"))
        assert [e.status for e in roster_rows.list_entries(w.session, event.id)] == [EntryStatus.PENDING]
        assert roster_rows.players_by_id(w.session, event.id)[p.id].name == p.name
    script = (
        "import sys; from yisai.services.context import open_context\n"
        "from yisai.registry.entry import EntryStatus\n"
        "from yisai.store import entry_rows, player_rows\n"
        "with open_context(sys.argv[1], actor='另一进程') as c, c.work() as w:\n"
        "    e = entry_rows.get_entry(w.session, sys.argv[2])\n"
        "    entry_rows.update_entry(w.session, w.stamp, e.model_copy(update={'status': EntryStatus.APPROVED}))\n"
        "    q = player_rows.get_player(w.session, sys.argv[3])\n"
        "    player_rows.update_player(w.session, w.stamp, q.model_copy(update={'name': '更正后的名字'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, db_url, entry.id, p.id], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with ctx.work() as w:
        assert [e.status for e in roster_rows.list_entries(w.session, event.id)] == [EntryStatus.APPROVED]
        assert roster_rows.players_by_id(w.session, event.id)[p.id].name == "更正后的名字"
    _check(ctx, event.id)

"""Standings from the kept per-round ledger columns (``standings.ledger.COLUMNS``, keyed by the
store's round revisions) and the kept scores of a round's pairings page equal a full recompute
with every cache emptied, after any sequence of what a real round does — results entered and
corrected, rounds paired, players withdrawn, disqualified (their games then count as losses)
and reinstated — and after a write by another process, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.services.test_withdrawal import REGULATION
from yisai.registry.person import Gender, Player
from yisai.services.context import Context, ServiceError
from yisai.services.entries import register_player
from yisai.services.events import create_event, resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.paired import SCORES
from yisai.services.results import division_standings
from yisai.services.round_results import record_result
from yisai.services.rounds import pair, round_view
from yisai.services.withdrawal import disqualify_entry, reinstate_entry, withdraw_entry
from yisai.standings.ledger import COLUMNS
from yisai.store import roster_rows, round_rows
from yisai.store.revisions import GAMES, ROSTERS
from yisai.vocabulary.rank import Rank

CHIEF = Actor.cli("裁判长", Role.CHIEF_REFEREE)
WORDS = ["黑胜", "白胜", "和棋", "白弃权", "双方弃权", "黑超时负"]
OPS = st.lists(st.tuples(st.sampled_from(["result", "result", "correct", "pair", "withdraw", "disqualify",
                                          "reinstate"]), st.integers(0, 10**6)), min_size=1, max_size=20)


def _event(ctx: Context, tmp: Path) -> int:
    reg = tmp / "reg.toml"
    reg.write_text(REGULATION + '[withdrawal]\ndisqualified_games = "forfeit"\n', encoding="utf-8")
    with ctx.work(actor=CHIEF) as w:
        event = create_event(w, reg, seed=5)
        for i in range(1, 10):  # nine players: a bye every round
            register_player(w, event, Player(id="", name=f"P{i}", gender=Gender.MALE,
                                             birth_date=date(2000, 1, i), rank=Rank.dan(1 + i % 7)),
                            division="open", fee_paid=True)
        pair(w, str(event.id), "open", 1)
        return event.id


def _view(ctx: Context, event_id: int) -> tuple[Any, ...]:
    """What the standings and the latest round's pairings page show."""
    with ctx.work(actor=CHIEF) as w:
        event = resolve_event(w, str(event_id))
        s = division_standings(w, event, "open")
        latest = max(r.number for r in round_rows.list_rounds(w.session, event_id, "open"))
        scores = round_view(w, str(event_id), "open", latest).scores
        return ([(r.place, r.player.id, r.player.status, dict(r.values), r.shared) for r in s.rows],
                [(r.player.id, dict(r.values)) for r in s.unranked], scores)


def _check(ctx: Context, event_id: int) -> None:
    kept = _view(ctx, event_id)
    for cache in (COLUMNS, SCORES, GAMES, ROSTERS):
        cache.clear()
    assert kept == _view(ctx, event_id)  # the full recompute, every row read again


def _step(ctx: Context, event_id: int, op: str, n: int) -> None:
    rnd = random.Random(n)
    ref = str(event_id)
    with ctx.work(actor=CHIEF) as w:
        rounds = round_rows.list_rounds(w.session, event_id, "open")
        last = rounds[-1]
        boards = [g for g in last.games if g.white is not None]
        entries = roster_rows.list_entries(w.session, event_id, division="open")
        if op in ("result", "correct") and boards:
            g = rnd.choice(boards)
            if op == "result" and g.result.value != "?":
                return
            record_result(w, ref, "open", last.number, g.board, rnd.choice(WORDS), change=True, note="更正")
        elif op == "pair" and last.number < 4 and all(g.result.value != "?" for g in boards):
            pair(w, ref, "open", last.number + 1)
        elif op in ("withdraw", "disqualify", "reinstate"):
            e = rnd.choice(entries)
            action = {"withdraw": lambda: withdraw_entry(w, e.id, "身体不适"),
                      "disqualify": lambda: disqualify_entry(w, e.id, "违纪"),
                      "reinstate": lambda: reinstate_entry(w, e.id, "申诉成立")}[op]
            try:
                action()
            except ServiceError:  # not allowed from this status: nothing changed
                return


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_kept_standings_equal_a_full_recompute_after_any_round(ctx: Context, tmp_path: Path,
                                                             ops: list[tuple[str, int]]) -> None:
    event_id = _event(ctx, tmp_path)
    _check(ctx, event_id)
    for op, n in ops:
        _step(ctx, event_id, op, n)
        _view(ctx, event_id)  # fill the caches at this state, as a polling page does
        _check(ctx, event_id)


def test_a_result_entered_by_another_process_changes_the_kept_standings(ctx: Context, db_url: str,
                                                                      tmp_path: Path) -> None:
    """Another worker enters a result: this process, which kept every round's column and the
    scores, shows it on its next computation."""
    event_id = _event(ctx, tmp_path)
    with ctx.work(actor=CHIEF) as w:
        for g in round_rows.list_rounds(w.session, event_id, "open")[0].games:
            if g.white is not None and g.board != 1:
                record_result(w, str(event_id), "open", 1, g.board, "黑胜")
    before = _view(ctx, event_id)
    script = (
        "import sys; from yisai.services.context import open_context\n"
        "from yisai.services.identity import Actor, Role\n"
        "from yisai.services.round_results import record_result\n"
        "with open_context(sys.argv[1]) as c, c.work(actor=Actor.cli('另一进程', Role.REFEREE)) as w:\n"
        "    record_result(w, sys.argv[2], 'open', 1, 1, '白胜')\n"
    )
    done = subprocess.run([sys.executable, "-c", script, db_url, str(event_id)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    after = _view(ctx, event_id)
    assert after != before
    with ctx.work() as w:
        g = round_rows.list_rounds(w.session, event_id, "open")[0].games[0]
    points = {pid: vals["score"] for _pl, pid, _s, vals, _sh in after[0]}
    assert points[g.white] > points[g.black]  # White's win is in the kept standings
    _check(ctx, event_id)

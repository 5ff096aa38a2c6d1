"""Two referees, two real sessions, one board at the same moment: never a silent overwrite.

Runs on SQLite and PostgreSQL (``db_url``). Each thread opens its own store connection, as two
CLI processes or two web workers would.
"""

from __future__ import annotations

import threading
import time
from datetime import date
from itertools import pairwise

import pytest

from tests.conftest import REGULATIONS
from yisai.registry.person import Gender, Player
from yisai.services.approvals import approve_entry
from yisai.services.context import Context, open_context
from yisai.services.entries import register_player
from yisai.services.errors import Conflict, Refused
from yisai.services.events import create_event, resolve_event
from yisai.services.round_results import record_result
from yisai.services.rounds import pair, round_view
from yisai.store import audit_rows, round_rows
from yisai.vocabulary.rank import Rank

from .conftest import NOW


def _event_with_round(db_url: str) -> None:
    with open_context(db_url, actor="裁判长", now=NOW) as ctx, ctx.work() as w:
        create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=11)
        for i in range(1, 5):
            p = Player(id="", name=f"选手{i}", gender=Gender.MALE, birth_date=date(2013, i, 1),
                       rank=Rank.parse(f"{i}段"), certificate_no=f"C{i}", region="中国大陆",
                       province="浙江")
            reg = register_player(w, resolve_event(w, None), p, division="jia")
            if reg.entry.status.value != "approved":
                approve_entry(w, reg.entry.id, force=True, note="测试")
        pair(w, None, "jia", 1)


def _attempt(db_url: str, word: str, change: bool, start: threading.Barrier,
             outcome: dict[str, object], hold: float) -> None:
    with open_context(db_url, actor=f"裁判{word}", now=NOW) as ctx:
        try:
            with ctx.work() as w:
                start.wait(timeout=10)
                record_result(w, None, "jia", 1, 1, word, change=change, note=word)
                time.sleep(hold)  # keep the transaction open so the other writer overlaps it
            outcome[word] = "saved"
        except (Conflict, Refused) as exc:
            outcome[word] = exc.code


def _race(db_url: str, change: bool, holds: tuple[float, float]) -> dict[str, object]:
    start = threading.Barrier(2)
    outcome: dict[str, object] = {}
    threads = [
        threading.Thread(target=_attempt, args=(db_url, w, change, start, outcome, h))
        for w, h in zip(("黑胜", "白胜"), holds, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcome


def _board(ctx: Context) -> tuple[str, int, list[tuple[str, str]]]:
    with ctx.work() as w:
        view = round_view(w, None, "jia", 1)
        rnd = view.rounds[0]
        game = next(g for g in rnd.games if g.board == 1)
        history = round_rows.result_history(w.session, rnd.id, 1)
        return game.result.value, rnd.version_of(1), [(h.previous.value, h.result.value) for h in history]


@pytest.mark.parametrize("holds", [(0.0, 0.0), (0.3, 0.0), (0.0, 0.3)])
def test_two_first_entries_at_once_one_wins_one_is_told(db_url: str, holds: tuple[float, float]) -> None:
    _event_with_round(db_url)
    outcome = _race(db_url, change=False, holds=holds)
    assert sorted(map(str, outcome.values())) in (
        ["result_conflict", "saved"], ["result_exists", "saved"],
    ), outcome
    winner = next(w for w, o in outcome.items() if o == "saved")
    with open_context(db_url, now=NOW) as ctx:
        result, version, history = _board(ctx)
    assert result == {"黑胜": "B+", "白胜": "W+"}[winner]
    assert version == 2 and len(history) == 1


def test_two_corrections_at_once_keep_an_honest_audit(db_url: str) -> None:
    """Overlapping corrections: one wins and the other is told; if the machine happens to run
    them one after the other, both are saved as a chain. Either way no "before" is stale."""
    _event_with_round(db_url)
    with open_context(db_url, actor="裁判", now=NOW) as ctx, ctx.work() as w:
        record_result(w, None, "jia", 1, 1, "和")
    outcome = _race(db_url, change=True, holds=(0.2, 0.0))
    assert set(map(str, outcome.values())) <= {"saved", "result_conflict"}, outcome
    saved = sum(1 for o in outcome.values() if o == "saved")
    assert saved >= 1
    with open_context(db_url, now=NOW) as ctx:
        result, version, history = _board(ctx)
        with ctx.work() as w:
            audit = list(audit_rows.audit_log(w.session, resolve_event(w, None).id, "game"))
    assert audit[0].before["result"] == "?"
    for earlier, later in pairwise(audit):
        assert later.before["result"] == earlier.after["result"]  # never a stale "before"
    assert len(history) == 1 + saved and version == 2 + saved
    assert history[-1][1] == result and history[0] == ("?", "=")


def test_a_stale_version_from_a_form_is_refused(db_url: str) -> None:
    _event_with_round(db_url)
    with open_context(db_url, actor="甲", now=NOW) as ctx:
        with ctx.work() as w:
            seen = round_view(w, None, "jia", 1).rounds[0].version_of(1)
            record_result(w, None, "jia", 1, 1, "黑胜", expected_version=seen)
        with pytest.raises(Conflict) as info, ctx.work() as w:
            record_result(w, None, "jia", 1, 1, "白胜", change=True, expected_version=seen)
        assert info.value.params["current"] == "黑胜"
        assert "已被他人" in info.value.render("zh") and "someone else" in info.value.render("en")
        result, version, _ = _board(ctx)
    assert result == "B+" and version == 2


def test_pairing_the_same_round_twice_at_once_is_refused(db_url: str) -> None:
    with open_context(db_url, actor="裁判长", now=NOW) as ctx, ctx.work() as w:
        create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=5)
        for i in range(1, 7):
            p = Player(id="", name=f"棋手{i}", gender=Gender.FEMALE, birth_date=date(2013, i, 2),
                       rank=Rank.parse("1段"), certificate_no=f"D{i}", region="中国大陆",
                       province="江苏")
            reg = register_player(w, resolve_event(w, None), p, division="jia")
            if reg.entry.status.value != "approved":
                approve_entry(w, reg.entry.id, force=True, note="t")
    start = threading.Barrier(2)
    outcome: list[str] = []

    def go() -> None:
        with open_context(db_url, actor="裁判长", now=NOW) as ctx:
            try:
                with ctx.work() as w:
                    start.wait(timeout=10)
                    pair(w, None, "jia", 1)
                    time.sleep(0.2)
                outcome.append("saved")
            except (Conflict, Refused) as exc:
                outcome.append(exc.code)

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcome)[-1] == "saved" and len(outcome) == 2
    assert sorted(outcome)[0] in ("pairing_conflict", "refused"), outcome

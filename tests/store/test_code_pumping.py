"""#44 item 3: sign-in codes cannot be pumped, nor the site's sign-in taken down on demand —
on SQLite and PostgreSQL, with two workers (two contexts, each with its own connections, as
separate processes have) on one database.

* an IPv6 client is one client for its whole /64;
* the site's hourly cap counts codes to numbers with no account, so spending it does not lock
  out a player who signed in before;
* an event has a daily budget unless the organiser lifts it, and new numbers get only their
  share of it;
* two workers racing for the last place (of the budget, of a number's minute) give it to one:
  the other is refused, never told "sent" of a message that will not go.
"""

from __future__ import annotations

import contextlib
import re
import threading
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from tests.conftest import REGULATIONS
from yisai.qualifier.notices import FEE_DUE, NoticeLimits
from yisai.qualifier.otp import client_key
from yisai.services import live, notices
from yisai.services.context import Context, open_context
from yisai.services.errors import Refused
from yisai.services.events import create_event
from yisai.services.settings import Settings
from yisai.store import live_rows

START = datetime(2025, 5, 6, 10, 0)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _ctx(db_url: str, clock: Clock, limits: NoticeLimits) -> Context:
    return open_context(replace(Settings(database=db_url), notice_limits=limits), actor="运营", now=clock)


def _event(ctx: Context) -> int:
    with ctx.work() as w:
        return create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3).id


def _ask(ctx: Context, phone: str, client: str, event_id: int | None = None) -> str:
    """Request a code: "sent", or the refusal's code."""
    try:
        with ctx.work() as w:
            live.request_code(w, phone, client=client, event_id=event_id)
    except Refused as exc:
        return exc.code
    return "sent"


def _sign_up(ctx: Context, clock: Clock, phone: str) -> None:
    """A player's first sign-in with a code (no event: it costs no event's budget)."""
    with ctx.work() as w:
        out = live.request_code(w, phone, client="192.0.2.200")
    found = re.search(r"\d{6}", out.text.zh)
    assert found
    with ctx.work() as w:
        assert live.sign_in_with_code(w, phone, found.group(0)) is not None
    clock.now += timedelta(minutes=2)


def test_the_client_key_of_an_address() -> None:
    """IPv4 as it is; IPv6 by its first 64 bits; an IPv4-mapped IPv6 address as its IPv4."""
    assert client_key("203.0.113.7") == "203.0.113.7"
    assert client_key("2001:db8:44:7:aaaa::1") == "2001:db8:44:7::/64"
    assert client_key("2001:0db8:0044:0007:ffff:1:2:3") == "2001:db8:44:7::/64"
    assert client_key("2001:db8:44:8::1") == "2001:db8:44:8::/64"
    assert client_key("::ffff:198.51.100.9") == "198.51.100.9"
    assert client_key("testclient") == "testclient"


def test_an_ipv6_64_spread_of_addresses_is_one_client(db_url: str) -> None:
    """Eight addresses of one /64 (a new one per request, as an attacker would) share the
    per-address limit of 5 an hour; the neighbouring /64 is another client."""
    clock = Clock()
    ctx = _ctx(db_url, clock, NoticeLimits(event_daily_budget=0))
    try:
        outcomes = [_ask(ctx, f"1390000{i:04d}", f"2001:db8:44:7:{i + 1:x}::{i + 9:x}") for i in range(8)]
        assert outcomes == ["sent"] * 5 + ["code_client_limit"] * 3
        assert _ask(ctx, "13900000100", "2001:db8:44:8::1") == "sent"
    finally:
        ctx.close()


def test_new_numbers_spending_the_site_cap_do_not_lock_out_a_known_player(db_url: str) -> None:
    """The issue's probe: codes to made-up numbers from many addresses use up the site's hourly
    cap (3 here); the next new number waits, but a player who signed in before still gets a code."""
    clock = Clock()
    ctx = _ctx(db_url, clock, NoticeLimits(site_hour=3, event_daily_budget=0))
    try:
        _sign_up(ctx, clock, "13811112222")  # one code to a new number: 1 of the 3
        pumped = [_ask(ctx, f"1770000{i:04d}", f"198.51.100.{i + 1}") for i in range(4)]
        assert pumped == ["sent", "sent", "code_site_limit", "code_site_limit"]
        assert _ask(ctx, "13811112222", "203.0.113.50") == "sent"
    finally:
        ctx.close()


def test_an_event_has_a_daily_budget_by_default_and_new_numbers_get_their_share(db_url: str) -> None:
    """Out of the box an event's budget is not unlimited. With a budget of 4 and new numbers'
    share of 50 %, new numbers get 2 codes, known players the remaining 2, then nobody."""
    assert NoticeLimits().event_daily_budget > 0
    clock = Clock()
    ctx = _ctx(db_url, clock, NoticeLimits(event_daily_budget=4, fresh_budget_percent=50))
    try:
        event = _event(ctx)
        for phone in ("13811110001", "13811110002", "13811110003"):
            _sign_up(ctx, clock, phone)
        new = [_ask(ctx, f"1770000{i:04d}", f"198.51.100.{i + 1}", event) for i in range(3)]
        assert new == ["sent", "sent", "sms_budget_new"]
        known = [_ask(ctx, phone, f"203.0.113.{i + 1}", event)
                 for i, phone in enumerate(("13811110001", "13811110002", "13811110003"))]  # fmt: skip
        assert known == ["sent", "sent", "sms_budget"]
        with ctx.work() as w:
            assert notices.notice_summary(w, event).used_today == 4
    finally:
        ctx.close()


@pytest.fixture
def meeting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold each request just before it stores its code until the other one gets there too (or
    2 s pass): without one lock over the checks, both have passed them by then."""
    barrier = threading.Barrier(2, timeout=2)
    real = live_rows.add_code

    def add_code(*args: object, **kwargs: object) -> None:
        with contextlib.suppress(threading.BrokenBarrierError):  # the other waits for this one's commit
            barrier.wait()
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(live_rows, "add_code", add_code)


def _race(workers: list[Context], asks: list[tuple[str, str]], event_id: int | None) -> list[str]:
    outcomes: list[str] = ["", ""]

    def run(i: int) -> None:
        outcomes[i] = _ask(workers[i], asks[i][0], asks[i][1], event_id)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return sorted(outcomes)


def test_two_workers_racing_for_the_last_budget_message(db_url: str, meeting: None) -> None:
    """The issue's race: with one message of the day's budget left, two players asking at once
    on two workers get one "sent" and one refusal, and exactly the budget is queued."""
    clock = Clock()
    limits = NoticeLimits(event_daily_budget=3, fresh_budget_percent=100)
    first, second = _ctx(db_url, clock, limits), _ctx(db_url, clock, limits)
    try:
        event = _event(first)
        with first.work() as w:  # two of the three used by the event's own notices
            for i in range(2):
                notices.enqueue(w, FEE_DUE, f"1360000{i:04d}", {"event": "小棋王", "amount": "100"},
                                key=f"fee:{event}:{i}", event_id=event)  # fmt: skip
        outcomes = _race([first, second], [("13911110001", "198.51.100.1"), ("13911110002", "198.51.100.2")], event)
        assert outcomes == ["sent", "sms_budget"]
        with first.work() as w:
            assert notices.notice_summary(w, event).used_today == 3
    finally:
        first.close()
        second.close()


def test_two_workers_racing_for_one_numbers_minute(db_url: str, meeting: None) -> None:
    """Two requests for one number at once on two workers: one code (a minute apart), not two."""
    clock = Clock()
    limits = NoticeLimits(event_daily_budget=0)
    first, second = _ctx(db_url, clock, limits), _ctx(db_url, clock, limits)
    try:
        outcomes = _race([first, second], [("13922220000", "198.51.100.1"), ("13922220000", "198.51.100.2")], None)
        assert outcomes == ["code_too_soon", "sent"]
        with first.work() as w:
            assert live_rows.codes_since(w.session, "13922220000", START - timedelta(hours=1)) == 1
    finally:
        first.close()
        second.close()

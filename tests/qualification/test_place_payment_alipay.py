"""Issue 46 item 4 through Alipay's official SDK against the local gateway (alipay_gateway.py): a
qualified player submits the final's details and pays the place's 260元 by 手机网站支付 (wap) in one
flow; the signed async notification confirms the place. SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.payments.alipay_gateway import AlipayGateway, Keys
from tests.payments.test_alipay import Site, _open_cashier
from tests.qualification.conftest import closed, fields, player
from yisai.registry.ledger import PLACE
from yisai.services import fees, live
from yisai.services import qualification as q
from yisai.services.context import Context, open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.payments import flow
from yisai.services.payments.base import H5
from yisai.services.payments.registry import providers_from_environment
from yisai.services.settings import Settings
from yisai.services.simulation import SimClock

__all__ = ["closed"]

KEYS = Keys()


@pytest.fixture
def gateway() -> Iterator[AlipayGateway]:
    with AlipayGateway(KEYS) as g:
        yield g


@pytest.fixture
def site() -> Iterator[Site]:
    s = Site()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def world(db_url: str, gateway: AlipayGateway, site: Site, tmp_path: Path) -> Iterator[tuple[Context, SimClock]]:
    """The qualification fixture's world with Alipay configured (overrides conftest's)."""
    clock = SimClock(datetime(2025, 5, 6, 10, 0))
    env = KEYS.environment(tmp_path, gateway.url, site.url)
    ctx = open_context(Settings(database=db_url, clock=clock, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE),
                                payments=providers_from_environment(env)))
    site.ctx = ctx
    with ctx.work() as work:
        create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
    try:
        yield ctx, clock
    finally:
        ctx.close()


def test_a_qualifier_pays_the_place_by_alipay_wap(closed: tuple[Context, SimClock, live.LiveConfig],
                                                  gateway: AlipayGateway, site: Site) -> None:
    ctx, clock, _ = closed
    with ctx.work(player("T01")) as work:
        (mine,) = q.my_places(work, None)
    clock.now = datetime(2025, 6, 10, 23, 45)
    checkout = q.confirm_and_pay(ctx, player("T01"), None, mine.id, fields("张三", date(1990, 3, 1), 1), "alipay",
                                 H5, "203.0.113.5")
    order = checkout.order
    assert "支付宝收银台" in _open_cashier(checkout.target.url)  # the player's phone opens the wap cashier
    trade = gateway.trades[order.out_trade_no]
    # 260元 as Alipay's "260.00"; the link dies with the place at 24:00 (23:45 + 30 min would pass it)
    assert (trade["total"], trade["kind"], trade["time_expire"]) == (26_000, "QUICK_WAP_WAY", "2025-06-11 00:00:00")
    with ctx.work(player("T01")) as work:
        assert q.my_places(work, None)[0].status == "unpaid"
    gateway.pay(order.out_trade_no)
    assert gateway.deliver(order.out_trade_no, gateway.notification(order.out_trade_no)) == (200, "success")
    assert site.outcomes == [flow.APPLIED]
    with ctx.work(player("T01")) as work:
        assert q.my_places(work, None)[0].status == "confirmed"
    with ctx.work() as work:
        (line,) = [ln for ln in fees.fee_ledger(work, None).of(PLACE) if ln.id == mine.id]
    assert (line.due, line.paid, line.balance) == (26_000, 26_000, 0)

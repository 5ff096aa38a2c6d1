"""Alipay over HTTP: a team leader pays his team's fees by 电脑网站支付 (the SDK against the local
gateway), the browser opens the signed cashier link, Alipay's form-encoded notification to
``/pay/alipay/notify`` is answered ``success`` and books the team once; a forged one is answered
``fail`` and books nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest
from fastapi.testclient import TestClient

from tests.payments.alipay_gateway import AlipayGateway, Keys, new_key
from tests.web.test_fees_web import Site, _build, _csrf
from yisai.services.payments.registry import providers_from_environment

KEYS = Keys()  # generated per run, never written to the repository
FORM = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Site, AlipayGateway]]:
    with AlipayGateway(KEYS) as gateway:
        env = KEYS.environment(tmp_path, gateway.url, "https://yisai.example/pay/alipay/notify")
        for built in _build(tmp_path, providers_from_environment(env), None):
            yield built, gateway


def test_a_team_leader_pays_by_alipay_and_the_notification_marks_the_team_paid(
        site: tuple[Site, AlipayGateway]) -> None:
    web, gateway = site
    ln = web.login("ln")
    fees_url = f"/console/events/{web.event_id}/fees"
    page = ln.get(fees_url).text
    assert "支付宝" in page and "电脑网页支付" in page
    r = ln.post(f"{fees_url}/pay/team/{web.teams['辽宁队']}", data={"csrf": _csrf(ln, fees_url), "provider": "alipay",
                                                                   "mode": "page"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    order_page = ln.get(r.headers["location"]).text
    assert "打开支付页面" in order_page and "<svg" not in order_page  # a link to Alipay's cashier, no QR of ours
    link = order_page.split('class="button" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert link.startswith(gateway.url)
    with urlopen(link, timeout=30) as cashier:  # the payer's browser opens it: the trade exists at Alipay
        assert "支付宝收银台" in cashier.read().decode("utf-8")
    (trade_no,) = gateway.trades
    # 报名费600元 + 6 × 赛事服务费260元 = 2160元 = 216000 分
    assert gateway.trades[trade_no]["total"] == 216_000 and gateway.refused == []
    gateway.pay(trade_no)
    anyone = TestClient(web.app_client.app)  # Alipay has no session and no CSRF token
    forged = urlencode(gateway.notification(trade_no, signer=new_key()))
    r = anyone.post("/pay/alipay/notify", content=forged, headers=FORM)
    assert (r.status_code, r.text) == (400, "fail")
    assert "已支付" not in ln.get(fees_url).text
    body = urlencode(gateway.notification(trade_no))
    for _ in range(2):  # delivered again: answered success, booked once
        r = anyone.post("/pay/alipay/notify", content=body, headers=FORM)
        assert (r.status_code, r.text) == (200, "success")
    page = ln.get(fees_url).text
    assert "已支付" in page and "2160.00" in page
    entries = web.login("director").get(f"/console/events/{web.event_id}/entries").text
    assert entries.count("260元 已缴") == 6

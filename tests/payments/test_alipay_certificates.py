"""Alipay's 公钥证书模式 against the local gateway: the SNs computed as Alipay specifies and sent,
signed, with every request; a certificate the gateway does not know refused by it and the refusal
shown in words; an answer signed under another Alipay certificate refused; the three files'
settings missing, contradictory or wrong named. Every payment flow in this mode runs in
``test_alipay.py`` (its fixture is parametrised by mode)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit
from urllib.request import urlopen

import pytest

from tests.payments.alipay_gateway import (
    ALIPAY_SUBJECT,
    CERTIFICATE,
    PUBLIC_KEY,
    AlipayGateway,
    Chain,
    Keys,
    new_key,
)
from tests.payments.certs import issue
from tests.services.fee_event import NOW, fee_event
from yisai.registry.ledger import ENTRY
from yisai.services import fees
from yisai.services.context import Context, open_context
from yisai.services.errors import InputError
from yisai.services.identity import Actor, Role
from yisai.services.payments import flow, refunds
from yisai.services.payments.alipay import alipay_from_environment
from yisai.services.payments.base import PAGE, ProviderError
from yisai.services.payments.registry import providers_from_environment
from yisai.services.settings import Settings
from yisai.store import team_rows

KEYS = Keys(mode=CERTIFICATE)
NOTIFY = "https://yisai.example/pay/alipay/notify"
CHIEF = Actor.cli("裁判长", Role.CHIEF_REFEREE)
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


@pytest.fixture
def gateway() -> Iterator[AlipayGateway]:
    with AlipayGateway(KEYS) as running:
        yield running


def test_the_sns_are_alipays_and_every_request_carries_them_signed(gateway: AlipayGateway, tmp_path: Path) -> None:
    provider = alipay_from_environment(KEYS.environment(tmp_path, gateway.url, NOTIFY))
    # issuer (most specific part first, as Java's X500Principal.getName() writes it) + serial in decimal, MD5 hex
    app_sn = md5("CN=Ant Financial Certification Authority Class 2 R1,OU=Certification Authority,O=Ant Financial,C=CN"
                 "2021041300001")
    # the root chain: its two RSA roots in the file's order, the elliptic-curve root left out, joined by "_"
    root_sn = (md5("CN=Ant Financial Certification Authority R1,OU=Certification Authority,O=Ant Financial,C=CN101")
               + "_" + md5("CN=iTrusChina Class 2 Root CA - G3,OU=China Trust Network,O=iTrusChina,C=CN202"))
    with open_context(Settings(database=str(tmp_path / "f.sqlite"), clock=lambda: NOW, actor=CHIEF,
                               payments=providers_from_environment(KEYS.environment(tmp_path, gateway.url, NOTIFY)))) as ctx:
        event = fee_event(ctx, tmp_path)
        checkout = flow.pay_team(ctx, None, str(event.id), 1, "alipay", PAGE)
    query = dict(parse_qsl(urlsplit(checkout.target.url).query))
    assert (query["app_cert_sn"], query["alipay_root_cert_sn"]) == (app_sn, root_sn)
    with urlopen(checkout.target.url, timeout=30) as page:  # the gateway checked them and the signature over them
        assert "支付宝收银台" in page.read().decode()
    assert provider.query(checkout.order.out_trade_no).trade_state == "WAIT_BUYER_PAY"  # an API call: the same
    assert gateway.refused == [] and gateway.calls == ["alipay.trade.page.pay", "alipay.trade.query"]


def _team(ctx: Context, event_id: int, name: str) -> int:
    with ctx.work() as work:
        return int(next(t for t in team_rows.list_teams(work.session, event_id) if t.name == name).id)


def test_an_app_certificate_alipay_does_not_know_is_refused_and_said_in_words(gateway: AlipayGateway,
                                                                              tmp_path: Path) -> None:
    """The app's certificate was renewed at the open platform; the server still has the old one."""
    good = Settings(database=str(tmp_path / "f.sqlite"), clock=lambda: NOW, actor=CHIEF,
                    payments=providers_from_environment(KEYS.environment(tmp_path, gateway.url, NOTIFY)))
    with open_context(good) as ctx:  # 辽宁队 paid while the certificate was the one Alipay knows
        event = fee_event(ctx, tmp_path)
        checkout = flow.pay_team(ctx, None, str(event.id), _team(ctx, event.id, "辽宁队"), "alipay", PAGE)
        urlopen(checkout.target.url, timeout=30).close()  # the payer opens the cashier, and pays
        order = checkout.order
        gateway.pay(order.out_trade_no)
        with ctx.work(actor=NOTIFIER) as work:
            body = urlencode(gateway.notification(order.out_trade_no)).encode()
            assert flow.apply_callback(work, "alipay", {}, body) == flow.APPLIED
    (tmp_path / "old").mkdir()
    stale = KEYS.other_app_cert().environment(tmp_path / "old", gateway.url, NOTIFY)  # the same key, another SN
    with open_context(Settings(database=good.database, clock=lambda: NOW, actor=CHIEF,
                               payments=providers_from_environment(stale))) as ctx:
        shandong = flow.pay_team(ctx, None, str(event.id), _team(ctx, event.id, "山东队"), "alipay", PAGE)
        with urlopen(shandong.target.url, timeout=30) as page:  # what the payer's browser shows
            assert "isv.app-cert-not-exist 应用公钥证书不存在" in page.read().decode()
        second = [sid for kind, sid, _ in order.items if kind == ENTRY][1]
        with ctx.work() as work:  # the chief referee gives one player's 260元 back: written, then sent
            fees.refund_fee(work, str(event.id), ENTRY, second, None, "组委会同意退赛退费")
        (failed,) = refunds.send_requested_refunds(ctx, None, str(event.id))
        with ctx.work() as work:  # refused by Alipay: failed, with its words, and nothing counted as refunded
            (row,) = fees.fee_ledger(work, str(event.id)).refunds
            line = fees.subject_line(work, event, ENTRY, second)
    assert (failed.status, row.status, line.refunded) == ("failed", "failed", 0)
    said = refunds.summary([failed]).zh + " " + row.message
    assert "失败" in said and "isv.app-cert-not-exist" in row.message and "应用公钥证书不存在" in row.message
    assert gateway.refused == ["isv.app-cert-not-exist"] * 2 and gateway.refunds == {}


def test_an_answer_signed_under_another_alipay_certificate_is_refused(tmp_path: Path) -> None:
    keys = Keys(mode=CERTIFICATE)
    with AlipayGateway(keys) as gateway:
        provider = alipay_from_environment(keys.environment(tmp_path, gateway.url, NOTIFY))
        assert provider.query("YS1T1ABCDEF").trade_state == "NOTPAY"  # not opened yet: ACQ.TRADE_NOT_EXIST
        keys.renew_alipay_cert()  # Alipay now signs with a new key under a new certificate
        with pytest.raises(ProviderError) as info:
            provider.query("YS1T1ABCDEF")
    assert "支付宝已更换证书" in info.value.text.zh and "支付宝公钥证书" in info.value.text.zh


def test_the_certificate_settings_missing_contradictory_or_wrong_are_named(tmp_path: Path) -> None:
    env = KEYS.environment(tmp_path, "https://openapi.alipay.com/gateway.do", NOTIFY)
    assert "YISAI_ALIPAY_PUBLIC_KEY_FILE" not in env and alipay_from_environment(env).merchant_id
    (tmp_path / "pk").mkdir()
    public_key = Keys(mode=PUBLIC_KEY).environment(tmp_path / "pk", "https://openapi.alipay.com/gateway.do", NOTIFY)
    chain = KEYS.chain
    assert chain is not None
    (tmp_path / "not_a_cert.crt").write_text("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
    (tmp_path / "ec_only.crt").write_text(chain.roots[1].pem)  # the elliptic-curve root alone
    (tmp_path / "expired.crt").write_text(issue(ALIPAY_SUBJECT, KEYS.alipay, chain.ca, ago=400, days=-30).pem)
    other_key = Chain.issued(new_key(), KEYS.alipay).app  # an app certificate for another key
    (tmp_path / "other_app.crt").write_text(other_key.pem)
    cases = {
        "both modes": (env | {"YISAI_ALIPAY_PUBLIC_KEY_FILE": public_key["YISAI_ALIPAY_PUBLIC_KEY_FILE"]},
                       ["YISAI_ALIPAY_PUBLIC_KEY_FILE", "YISAI_ALIPAY_APP_CERT_FILE", "只能设置一种"]),
        "neither": ({k: v for k, v in env.items() if "CERT" not in k},
                    ["YISAI_ALIPAY_PUBLIC_KEY_FILE", "YISAI_ALIPAY_ROOT_CERT_FILE", "未设置"]),
        "no root file": ({k: v for k, v in env.items() if k != "YISAI_ALIPAY_ROOT_CERT_FILE"},
                         ["YISAI_ALIPAY_ROOT_CERT_FILE", "未设置"]),
        "not a certificate": (env | {"YISAI_ALIPAY_PUBLIC_CERT_FILE": str(tmp_path / "not_a_cert.crt")},
                              ["YISAI_ALIPAY_PUBLIC_CERT_FILE", "证书文件"]),
        "no RSA root": (env | {"YISAI_ALIPAY_ROOT_CERT_FILE": str(tmp_path / "ec_only.crt")},
                        ["YISAI_ALIPAY_ROOT_CERT_FILE", "RSA"]),
        "expired": (env | {"YISAI_ALIPAY_PUBLIC_CERT_FILE": str(tmp_path / "expired.crt")},
                    ["YISAI_ALIPAY_PUBLIC_CERT_FILE", "有效期"]),
        "another key's certificate": (env | {"YISAI_ALIPAY_APP_CERT_FILE": str(tmp_path / "other_app.crt")},
                                      ["YISAI_ALIPAY_APP_CERT_FILE", "YISAI_ALIPAY_PRIVATE_KEY_FILE", "不是一对"]),
    }
    for case, (settings, named) in cases.items():
        with pytest.raises(InputError) as info:
            providers_from_environment(settings)
        text = info.value.render("zh")
        assert text.startswith("支付设置") and all(n in text for n in named), (case, text)

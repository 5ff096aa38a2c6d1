"""WeChat Pay's platform-certificate mode (平台证书) against the local server: the certificates are
downloaded from ``GET /v3/certificates`` at start (decrypted with the APIv3 key) and kept in
``YISAI_WECHATPAY_CERT_DIR``; a rotated certificate is fetched when its serial first appears; a
callback under a serial WeChat Pay never issued is refused and changes nothing; settings that name
no mode, or both, are refused naming them. Every payment flow in this mode runs in
``test_wechat_pay.py`` (its fixture is parametrised by mode)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.payments.wechat_server import (
    CERTIFICATE,
    PUBLIC_KEY,
    Keys,
    WeChatPayServer,
    new_key,
    serial_of,
)
from tests.services.fee_event import NOW, fee_event
from yisai.services import fees
from yisai.services.context import open_context
from yisai.services.errors import InputError
from yisai.services.identity import Actor, Role
from yisai.services.payments import flow
from yisai.services.payments.registry import providers_from_environment
from yisai.services.settings import Settings
from yisai.store import team_rows

KEYS = Keys(mode=CERTIFICATE)
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)


def _downloads(server: WeChatPayServer) -> int:
    return server.requests.count(("GET", "/v3/certificates"))


@pytest.fixture
def server() -> Iterator[WeChatPayServer]:
    keys = Keys(mode=CERTIFICATE)  # its own certificates: a test here rotates them
    with WeChatPayServer(keys) as running:
        yield running


def test_the_certificates_are_downloaded_once_and_kept_in_the_directory(server: WeChatPayServer,
                                                                          tmp_path: Path) -> None:
    env = server.keys.environment(tmp_path, server.gateway)
    assert "YISAI_WECHATPAY_PUBLIC_KEY_FILE" not in env
    provider = providers_from_environment(env).get("wechat")
    assert provider is not None and _downloads(server) == 1
    (platform,) = server.keys.platform_certs
    saved = Path(env["YISAI_WECHATPAY_CERT_DIR"]) / f"{serial_of(platform)}.pem"
    assert saved.read_text() == platform.pem  # decrypted with the APIv3 key, as issued
    providers_from_environment(env)  # the server starts again: read from the directory, not downloaded
    assert _downloads(server) == 1 and server.refused == []


def test_a_rotated_certificate_is_fetched_when_its_serial_first_signs(server: WeChatPayServer,
                                                                      tmp_path: Path) -> None:
    settings = Settings(database=str(tmp_path / "f.sqlite"), clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE),
                        payments=providers_from_environment(server.keys.environment(tmp_path, server.gateway)))
    with open_context(settings) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as work:
            team = int(next(t for t in team_rows.list_teams(work.session, event.id) if t.name == "辽宁队").id)
        order = flow.pay_team(ctx, None, str(event.id), team, "wechat", "native").order
        server.pay(order.out_trade_no)
        newer = server.keys.rotate()  # WeChat Pay issues a new platform certificate and signs with it
        headers, body = server.notification(order.out_trade_no)
        assert headers["Wechatpay-Serial"] == serial_of(newer) != serial_of(server.keys.platform_certs[0])
        with ctx.work(actor=NOTIFIER) as work:
            assert flow.apply_callback(work, "wechat", headers, body) == flow.APPLIED
        assert _downloads(server) == 2  # the unknown serial made the SDK fetch the list again
        assert (tmp_path / "wechatpay_certs" / f"{serial_of(newer)}.pem").read_text() == newer.pem
        with ctx.work() as work:  # 报名费600元 + 6 × 赛事服务费260元 = 2160元 = 216000 分, booked
            assert fees.fee_ledger(work, str(event.id)).totals.paid == 216_000


def test_a_callback_under_an_unknown_serial_is_refused_and_changes_nothing(server: WeChatPayServer,
                                                                           tmp_path: Path) -> None:
    settings = Settings(database=str(tmp_path / "f.sqlite"), clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE),
                        payments=providers_from_environment(server.keys.environment(tmp_path, server.gateway)))
    with open_context(settings) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as work:
            team = int(next(t for t in team_rows.list_teams(work.session, event.id) if t.name == "辽宁队").id)
        order = flow.pay_team(ctx, None, str(event.id), team, "wechat", "native").order
        server.pay(order.out_trade_no)
        forged = [server.notification(order.out_trade_no, signer=new_key(), serial="5F3E1A0B9C8D7E6F5A4B3C2D1E0F9A8B7C6D5E4F"),
                  server.notification(order.out_trade_no, serial="not-hex")]
        for headers, body in forged:
            with pytest.raises(InputError) as info, ctx.work(actor=NOTIFIER) as work:
                flow.apply_callback(work, "wechat", headers, body)
            assert info.value.code == "bad_callback"
        assert _downloads(server) == 2  # the SDK looked once more for a new certificate; there was none
        with ctx.work() as work:
            assert fees.fee_ledger(work, str(event.id)).payments == []
            assert flow.order_for(work, str(event.id), order.out_trade_no).status == "open"
        # the real one still goes through: the certificates were not lost by the look-up
        with ctx.work(actor=NOTIFIER) as work:
            assert flow.apply_callback(work, "wechat", *server.notification(order.out_trade_no)) == flow.APPLIED


def test_no_certificate_can_be_had_the_start_is_refused_naming_the_settings(tmp_path: Path) -> None:
    with WeChatPayServer(KEYS) as server:
        for change in ({"merchant": new_key()}, {}):  # a merchant key WeChat Pay does not know; a wrong APIv3 key
            folder = tmp_path / str(len(change))
            folder.mkdir()
            env = KEYS.environment(folder, server.gateway, **change)
            if not change:
                (folder / "apiv3.key").write_text("0" * 32)
            with pytest.raises(InputError) as info:
                providers_from_environment(env)
            text = info.value.render("zh")
            assert "平台证书" in text and "YISAI_WECHATPAY_APIV3_KEY_FILE" in text and "YISAI_WECHATPAY_PRIVATE_KEY_FILE" in text
            assert list((folder / "wechatpay_certs").iterdir()) == []
        assert server.refused == ["signature"]  # the first one's download was refused; the second's could not be read


def test_the_mode_settings_missing_or_contradictory_are_named(tmp_path: Path) -> None:
    certificate = KEYS.environment(tmp_path, "http://127.0.0.1:9")
    public_key = Keys(mode=PUBLIC_KEY).environment(tmp_path, "http://127.0.0.1:9")
    cases = {
        "neither": ({k: v for k, v in certificate.items() if k != "YISAI_WECHATPAY_CERT_DIR"},
                    ["YISAI_WECHATPAY_PUBLIC_KEY_FILE", "YISAI_WECHATPAY_PUBLIC_KEY_ID", "YISAI_WECHATPAY_CERT_DIR"]),
        "both": (public_key | {"YISAI_WECHATPAY_CERT_DIR": certificate["YISAI_WECHATPAY_CERT_DIR"]},
                 ["YISAI_WECHATPAY_CERT_DIR", "YISAI_WECHATPAY_PUBLIC_KEY_FILE", "只能设置一种"]),
        "an id without its key": ({k: v for k, v in public_key.items() if k != "YISAI_WECHATPAY_PUBLIC_KEY_FILE"},
                                  ["YISAI_WECHATPAY_PUBLIC_KEY_FILE", "未设置"]),
        "a key without its id": ({k: v for k, v in public_key.items() if k != "YISAI_WECHATPAY_PUBLIC_KEY_ID"},
                                 ["YISAI_WECHATPAY_PUBLIC_KEY_ID", "未设置"]),
        "not a directory": (certificate | {"YISAI_WECHATPAY_CERT_DIR": str(tmp_path / "apiv3.key")},
                            ["YISAI_WECHATPAY_CERT_DIR", "目录"]),
    }
    for case, (env, named) in cases.items():
        with pytest.raises(InputError) as info:
            providers_from_environment(env)
        text = info.value.render("zh")
        assert text.startswith("支付设置") and all(n in text for n in named), (case, text)

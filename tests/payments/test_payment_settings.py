"""A merchant's settings read at the entry point (docs/fees.md): nothing configured offers
nothing; a half-made setting stops the start naming the setting; keys never show in a repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.payments.wechat_server import MCHID, Keys, pem_private
from yisai.services.errors import InputError
from yisai.services.payments.registry import providers_from_environment


def test_nothing_configured_offers_nothing() -> None:
    assert not providers_from_environment({})


def test_a_missing_or_unreadable_setting_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        providers_from_environment({"YISAI_WECHATPAY_MCHID": MCHID})
    assert "YISAI_WECHATPAY_APPID" in info.value.render("zh")
    env = Keys().environment(tmp_path, "http://127.0.0.1:9")
    env["YISAI_WECHATPAY_PRIVATE_KEY_FILE"] = str(tmp_path / "absent.pem")
    with pytest.raises(InputError) as info:
        providers_from_environment(env)
    assert "YISAI_WECHATPAY_PRIVATE_KEY_FILE" in info.value.render("zh") and "无法读取" in info.value.render("zh")
    env = Keys().environment(tmp_path, "http://127.0.0.1:9")
    env["YISAI_WECHATPAY_ORDER_MINUTES"] = "3"
    with pytest.raises(InputError) as info:
        providers_from_environment(env)
    assert "ORDER_MINUTES" in info.value.render("zh")


def test_the_keys_never_show(tmp_path: Path) -> None:
    keys = Keys()
    providers = providers_from_environment(keys.environment(tmp_path, "http://127.0.0.1:9"))
    shown = repr(providers) + repr(list(providers))
    assert MCHID in shown and keys.apiv3_key not in shown
    assert pem_private(keys.merchant).splitlines()[1] not in shown

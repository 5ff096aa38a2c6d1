"""The SMS configuration read at the entry point: the outbox without one; a provider with its
templates and limits; keys only from the environment or the credentials file, never the main
file; every mistake named by file and field, in Chinese first."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from yisai.cli.app import app
from yisai.qualifier.notices import NoticeLimits
from yisai.reach.config import build_sender, load_sms_config
from yisai.reach.senders import AlibabaCloudSms, OutboxSms, TencentCloudSms
from yisai.services.errors import InputError

GOOD = '''provider = "tencent"
sign_name = "弈赛"
app_id = 1400000001
[templates]
sign_in_code = 1900001
[limits]
per_client_hour = 3
event_daily_budget = 700
'''


def test_no_configuration_means_the_outbox_with_the_default_limits() -> None:
    config = load_sms_config({})
    assert config.provider == "outbox" and config.limits == NoticeLimits()
    assert isinstance(build_sender(config), OutboxSms)


def test_a_provider_with_keys_from_the_environment_or_a_file(tmp_path: Path) -> None:
    path = tmp_path / "sms.toml"
    path.write_text(GOOD, encoding="utf-8")
    env = {"YISAI_SMS_CONFIG": str(path), "YISAI_SMS_SECRET_ID": "AKIDx", "YISAI_SMS_SECRET_KEY": "k3y"}
    config = load_sms_config(env)
    assert config.account is not None and config.account.templates == {"sign_in_code": "1900001"}
    assert config.account.app_id == "1400000001" and config.limits == NoticeLimits(per_client_hour=3,
                                                                                     event_daily_budget=700)
    assert "k3y" not in repr(config) and "AKIDx" not in repr(config)  # never in a log line
    assert isinstance(build_sender(config), TencentCloudSms)
    (tmp_path / "keys.toml").write_text('secret_id = "LTAIx"\nsecret_key = "s3cret"\n', encoding="utf-8")
    path.write_text(GOOD.replace('provider = "tencent"', 'provider = "aliyun"\ncredentials_file = "keys.toml"'),
                    encoding="utf-8")
    from_file = load_sms_config({"YISAI_SMS_CONFIG": str(path)})
    assert from_file.account is not None and from_file.account.secret_key == "s3cret"
    assert isinstance(build_sender(from_file), AlibabaCloudSms)


@pytest.mark.parametrize(("text", "field", "words"), [
    ('provider = "smsbao"', "provider", "应为 outbox / tencent / aliyun"),
    ('provider = "tencent"\nsign_name = "弈赛"', "app_id", "SmsSdkAppId"),
    ('provider = "aliyun"\napp_id = "1"', "sign_name", "短信签名"),
    ('provider = "aliyun"\nsign_name = "弈赛"\nsecret_key = "x"', "secret_key", "密钥不能写在主配置中"),
    ('provider = "aliyun"\nsign_name = "弈赛"', "credentials_file", "没有密钥"),
    ('provider = "aliyun"\nsign_name = "弈赛"\n[templates]\nhello = "1"', "templates.hello", "未知的通知类型"),
    ('[limits]\nsite_hour = -1', "limits.site_hour", "不小于0的整数"),
    ('[limits]\nper_ip = 3', "limits.per_ip", "未知的限制"),
    ('provider = ', "YISAI_SMS_CONFIG", "不是有效的 UTF-8 TOML"),
])
def test_mistakes_are_named_by_file_and_field(tmp_path: Path, text: str, field: str, words: str) -> None:
    path = tmp_path / "sms.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as bad:
        load_sms_config({"YISAI_SMS_CONFIG": str(path)})
    message = bad.value.render("zh")
    assert str(path) in message and field in message and words in message
    assert bad.value.params == {"file": str(path), "field": field}


def test_a_huge_or_missing_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (64 * 1024 + 1))
    with pytest.raises(InputError) as big:
        load_sms_config({"YISAI_SMS_CONFIG": str(path)})
    assert "文件过大" in big.value.render("zh")
    with pytest.raises(InputError) as gone:
        load_sms_config({"YISAI_SMS_CONFIG": str(tmp_path / "none.toml")})
    assert "无法读取" in gone.value.render("zh")


@pytest.mark.parametrize(("provider", "blocked", "package"), [
    ("tencent", "tencentcloud", "tencentcloud-sdk-python-sms"),
    ("aliyun", "alibabacloud_dysmsapi20170525", "alibabacloud-dysmsapi20170525"),
])
def test_a_provider_without_its_sdk_stops_the_start_naming_the_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str, blocked: str, package: str) -> None:
    """Issue 43: a configured provider on a machine without its SDK stopped ``yisai serve`` with
    a bare ImportError; now the configuration check says, in Chinese, what to install."""
    for name in [blocked, *(m for m in sys.modules if m.startswith(blocked + "."))]:
        monkeypatch.setitem(sys.modules, name, None)  # as if the package were not installed
    path = tmp_path / "sms.toml"
    path.write_text(GOOD.replace('provider = "tencent"', f'provider = "{provider}"'), encoding="utf-8")
    env = {"YISAI_SMS_CONFIG": str(path), "YISAI_SMS_SECRET_ID": "AKIDx", "YISAI_SMS_SECRET_KEY": "k3y"}
    with pytest.raises(InputError) as bad:
        load_sms_config(env)
    message = bad.value.render("zh")
    assert f"pip install {package}" in message and "未安装" in message and str(path) in message
    # `yisai serve` checks the file before any worker starts: the same words, no traceback
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(app, ["--lang", "zh", "serve", "--db", str(tmp_path / "s.sqlite"), "--port", "1"])
    assert result.exit_code != 0 and not isinstance(result.exception, ImportError)
    out = result.stdout + (result.stderr or "")
    assert f"pip install {package}" in out and "Traceback" not in out

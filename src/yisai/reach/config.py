"""The site's SMS configuration, read at an entry point only (``yisai serve``, ``yisai notices``).

``YISAI_SMS_CONFIG`` names a TOML file (provider, signature, template ids, limits; safe to keep
with the deployment's other settings). The key pair comes from ``YISAI_SMS_SECRET_ID`` and
``YISAI_SMS_SECRET_KEY`` or from the file that ``credentials_file`` names (``secret_id`` and
``secret_key``, readable by the server's user only) — never from the database, never logged.
Without ``YISAI_SMS_CONFIG`` the developer outbox is the sender and the limits are the defaults.
"""

from __future__ import annotations

import importlib.util
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from yisai.i18n import Text
from yisai.qualifier.notices import KINDS, NoticeLimits, Sender
from yisai.qualifier.otp import OutboxSender
from yisai.reach.senders import AlibabaCloudSms, OutboxSms, ProviderAccount, TencentCloudSms
from yisai.services.errors import InputError

CONFIG_ENV = "YISAI_SMS_CONFIG"
ID_ENV, KEY_ENV = "YISAI_SMS_SECRET_ID", "YISAI_SMS_SECRET_KEY"
PROVIDERS = ("outbox", "tencent", "aliyun")
MAX_FILE_BYTES = 64 * 1024  # a configuration is a few hundred bytes; refuse anything odd before parsing


@dataclass(frozen=True)
class SmsConfig:
    provider: str = "outbox"
    account: ProviderAccount | None = None
    limits: NoticeLimits = field(default_factory=NoticeLimits)


def _bad(path: Path, field: str, zh: str, en: str) -> InputError:
    return InputError(Text(f"短信配置 {path} 的 {field}: {zh}", f"SMS configuration {path}, {field}: {en}"),
                      code="bad_sms_config", params={"file": str(path), "field": field})


def _read_toml(path: Path, what: str) -> dict[str, Any]:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _bad(path, what, f"无法读取 ({exc.strerror})", f"cannot be read ({exc.strerror})") from None
    if size > MAX_FILE_BYTES:
        raise _bad(path, what, f"文件过大 ({size} 字节, 上限 {MAX_FILE_BYTES})",
                   f"too large ({size} bytes, limit {MAX_FILE_BYTES})")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _bad(path, what, f"不是有效的 UTF-8 TOML: {exc}", f"not valid UTF-8 TOML: {exc}") from None


def _text_field(path: Path, data: Mapping[str, Any], key: str, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise _bad(path, key, "应为文字", "must be text")
    return str(value).strip()


def _limits(path: Path, data: Any) -> NoticeLimits:
    if data is None:
        return NoticeLimits()
    if not isinstance(data, dict):
        raise _bad(path, "[limits]", "应为表", "must be a table")
    known = {f.name for f in fields(NoticeLimits)}
    values: dict[str, int] = {}
    for key, value in data.items():
        if key not in known:
            raise _bad(path, f"limits.{key}", f"未知的限制 (可用: {', '.join(sorted(known))})",
                       f"unknown limit (known: {', '.join(sorted(known))})")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _bad(path, f"limits.{key}", "应为不小于0的整数", "must be a whole number, 0 or more")
        values[key] = value
    return NoticeLimits(**values)


def _credentials(path: Path, data: Mapping[str, Any], env: Mapping[str, str]) -> tuple[str, str]:
    if env.get(ID_ENV) and env.get(KEY_ENV):
        return env[ID_ENV].strip(), env[KEY_ENV].strip()
    if "secret_key" in data or "secret_id" in data:
        raise _bad(path, "secret_key", "密钥不能写在主配置中, 请用环境变量或 credentials_file",
                   "keys do not belong in this file: use the environment or credentials_file")
    name = _text_field(path, data, "credentials_file")
    if not name:
        raise _bad(path, "credentials_file", f"没有密钥: 请设置 {ID_ENV} 和 {KEY_ENV}, 或 credentials_file",
                   f"no key pair: set {ID_ENV} and {KEY_ENV}, or credentials_file")
    file = (path.parent / name).expanduser()
    creds = _read_toml(file, "credentials_file")
    sid, key = _text_field(file, creds, "secret_id"), _text_field(file, creds, "secret_key")
    if not sid or not key:
        raise _bad(file, "secret_id/secret_key", "缺少", "missing")
    return sid, key


# The SDK each provider sends through: (a module it imports, the package that provides it).
SDKS: dict[str, tuple[str, str]] = {
    "tencent": ("tencentcloud.sms.v20210111", "tencentcloud-sdk-python-sms"),
    "aliyun": ("alibabacloud_dysmsapi20170525", "alibabacloud-dysmsapi20170525"),
}


def _require_sdk(path: Path, provider: str) -> None:
    """A configured provider whose SDK is not installed stops the start with the package to
    install (``yisai serve`` checks the file before it starts any worker), not an ImportError."""
    module, package = SDKS[provider]
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:  # a missing parent package (``tencentcloud``) raises here
        found = False
    if not found:
        raise _bad(path, "provider",
                   f"服务商 {provider} 所需的软件包 {package} 未安装: 请运行 pip install {package} "
                   "(或安装 yisai 的 sms 附加依赖), 或改用 provider = \"outbox\"",
                   f"the package {package} that provider {provider} needs is not installed: run "
                   f"pip install {package} (or install yisai's sms extra), or use provider = \"outbox\"")


def load_sms_config(env: Mapping[str, str]) -> SmsConfig:
    """The configuration an entry point runs with (the outbox when ``YISAI_SMS_CONFIG`` is unset)."""
    name = env.get(CONFIG_ENV, "").strip()
    if not name:
        return SmsConfig()
    path = Path(name).expanduser()
    data = _read_toml(path, CONFIG_ENV)
    provider = _text_field(path, data, "provider", "outbox")
    if provider not in PROVIDERS:
        raise _bad(path, "provider", f"应为 {' / '.join(PROVIDERS)}", f"must be one of {', '.join(PROVIDERS)}")
    limits = _limits(path, data.get("limits"))
    if provider == "outbox":
        return SmsConfig(limits=limits)
    templates = data.get("templates", {})
    if not isinstance(templates, dict):
        raise _bad(path, "[templates]", "应为表", "must be a table")
    unknown = sorted(set(templates) - set(KINDS))
    if unknown:
        raise _bad(path, f"templates.{unknown[0]}", f"未知的通知类型 (可用: {', '.join(KINDS)})",
                   f"unknown notice kind (known: {', '.join(KINDS)})")
    sign_name = _text_field(path, data, "sign_name")
    if not sign_name:
        raise _bad(path, "sign_name", "须填写服务商审核通过的短信签名", "the approved SMS signature is required")
    app_id = _text_field(path, data, "app_id")
    if provider == "tencent" and not app_id:
        raise _bad(path, "app_id", "腾讯云须填写 SmsSdkAppId", "Tencent Cloud needs the SmsSdkAppId")
    scheme = _text_field(path, data, "scheme", "https")
    if scheme not in ("https", "http"):
        raise _bad(path, "scheme", "应为 https 或 http", "must be https or http")
    _require_sdk(path, provider)
    sid, key = _credentials(path, data, env)
    account = ProviderAccount(
        secret_id=sid, secret_key=key, sign_name=sign_name,
        templates={k: _text_field(path, templates, k) for k in templates},
        region=_text_field(path, data, "region"), app_id=app_id,
        endpoint=_text_field(path, data, "endpoint"), scheme=scheme,
    )  # fmt: skip
    return SmsConfig(provider, account, limits)


def build_sender(config: SmsConfig, outbox: OutboxSender | None = None) -> Sender:
    """The sender the configuration names; ``outbox`` is the developer outbox page's store."""
    if config.provider == "tencent" and config.account is not None:
        return TencentCloudSms(config.account)
    if config.provider == "aliyun" and config.account is not None:
        return AlibabaCloudSms(config.account)
    return OutboxSms(outbox)


__all__ = ["CONFIG_ENV", "ID_ENV", "KEY_ENV", "SmsConfig", "build_sender", "load_sms_config"]

"""Reading a provider's secrets at an entry point: a key from the file a setting names, refused
with the setting's name (never the key) when it is missing, unreadable or too large."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from yisai.i18n import Text
from yisai.services.errors import InputError

MAX_KEY_FILE = 64 * 1024  # a PEM key or a 32-character APIv3 key; anything larger is not one


def config_error(var: str, zh: str, en: str) -> InputError:
    """A payment setting refused, named first (Chinese, then English)."""
    return InputError(Text(f"支付设置 {var}: {zh}", f"payment setting {var}: {en}"), code="bad_payment_config",
                      params={"setting": var})


def secret_file(env: Mapping[str, str], var: str) -> str:
    """The text of the file ``env[var]`` names (a key): refused with the setting's name when it is
    missing, unreadable or too large."""
    name = env.get(var, "").strip()
    if not name:
        raise config_error(var, "未设置 (应为密钥文件的路径)", "not set (the path of the key file)")
    path = Path(name)
    try:
        size = path.stat().st_size
        if size > MAX_KEY_FILE:
            raise config_error(var, f"文件过大 ({size} 字节)", f"the file is too large ({size} bytes)")
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise config_error(var, f"无法读取文件 ({type(exc).__name__})", f"the file cannot be read ({type(exc).__name__})") from None


def required(env: Mapping[str, str], var: str) -> str:
    """A setting that must be given (an id, a URL): its value, or refused with its name."""
    value = env.get(var, "").strip()
    if not value:
        raise config_error(var, "未设置", "not set")
    return value


def order_minutes(env: Mapping[str, str], prefix: str) -> int:
    """How long an order stays open (``<prefix>ORDER_MINUTES``, 30 by default, 5 to 1440)."""
    var = prefix + "ORDER_MINUTES"
    minutes = env.get(var, "30").strip()
    if not minutes.isdigit() or not 5 <= int(minutes) <= 1440:
        raise config_error(var, "应为 5 到 1440 之间的分钟数", "must be a number of minutes from 5 to 1440")
    return int(minutes)

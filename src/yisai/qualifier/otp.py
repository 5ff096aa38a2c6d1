"""One-time sign-in codes by mobile number: the code itself, its message, and the developer
outbox. A code is delivered as an SMS notice (``yisai.qualifier.notices``) by the notice worker;
with no SMS provider configured, ``OutboxSender`` keeps the messages for a developer outbox page
and writes them to the log, so the qualifier runs without one.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import re
import secrets
from collections import deque
from dataclasses import dataclass
from datetime import datetime

from yisai.i18n import Text
from yisai.qualifier.notices import KINDS, SIGN_IN_CODE, signed

log = logging.getLogger("yisai.qualifier.otp")

CODE_DIGITS = 6
PHONE_RE = re.compile(r"^1[3-9]\d{9}$")  # mainland China mobile numbers


def normalise_phone(text: str) -> str | None:
    """``+86 138-0013-8000`` → ``13800138000``; None when it is not a mobile number."""
    digits = re.sub(r"[\s\-()]", "", text or "")
    if digits.startswith("+86"):
        digits = digits[3:]
    elif digits.startswith("0086"):
        digits = digits[4:]
    return digits if PHONE_RE.match(digits) else None


IPV6_PREFIX = 64  # one IPv6 subscriber gets at least a /64: its addresses are one client


def client_key(address: str) -> str:
    """The key the per-address limit counts by: an IPv4 address as it is, an IPv6 address by its
    /64 (``2001:db8:0:1::/64``; a home or a cloud host is given a whole /64, so counting single
    addresses would give one attacker 2^64 of them), an IPv4-mapped IPv6 address as its IPv4.
    Anything else (a test client's name, a Unix socket) is kept, cut to 64 characters."""
    text = (address or "").strip()
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return text[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def new_code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


def digest(salt: str, phone: str, code: str) -> str:
    return hmac.new(salt.encode(), f"{phone}:{code}".encode(), hashlib.sha256).hexdigest()


def matches(salt: str, phone: str, code: str, expected: str) -> bool:
    return hmac.compare_digest(digest(salt, phone, code.strip()), expected)


def code_message(code: str, minutes: int) -> Text:
    """The sign-in code's SMS as the player receives it (the wording is the notice kind's)."""
    return signed(KINDS[SIGN_IN_CODE].render({"code": code, "minutes": str(minutes)}))


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    phone: str
    text: str
    at: datetime


class OutboxSender:
    """The developer outbox: the last ``keep`` messages in memory, each also logged."""

    def __init__(self, keep: int = 200, clock: type[datetime] = datetime) -> None:
        self.messages: deque[OutboxMessage] = deque(maxlen=keep)
        self._clock = clock

    def send(self, phone: str, text: str) -> None:
        self.messages.append(OutboxMessage(phone, text, self._clock.now()))
        log.warning("developer outbox (no SMS sent): to %s: %s", phone, text)

    def latest(self, phone: str) -> OutboxMessage | None:
        return next((m for m in reversed(self.messages) if m.phone == phone), None)


__all__ = ["CODE_DIGITS", "IPV6_PREFIX", "OutboxMessage", "OutboxSender", "client_key", "code_message", "digest",
           "matches", "new_code", "normalise_phone"]  # fmt: skip

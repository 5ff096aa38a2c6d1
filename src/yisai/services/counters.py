"""Counters with a window that every worker process shares: failed logins and used sign-in
proofs are counted here, so two workers give an attacker the same allowance as one.

Two stores, one interface: Redis when the site names one (one Lua script a hit: ``INCR`` and,
on the first, ``PEXPIRE``; ``SET NX`` for single use), else the database (``rate_counters``:
one ``UPDATE`` of the key's row under its lock). Keys are built by the callers from digests, so
a key is at most 80 characters whatever a client sends.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from typing import Any, ParamSpec, Protocol, TypeVar

from yisai.i18n import Text
from yisai.services.context import Context
from yisai.services.errors import ServiceError
from yisai.services.identity import Actor
from yisai.store import counter_rows as rows

REDIS_PREFIX = "yisai"  # the deployment's keys begin so (YISAI_REDIS_PREFIX); the counters' with "<prefix>:count:"
KEY_CHARS = 80
P = ParamSpec("P")
R = TypeVar("R")

_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); left = tonumber(ARGV[1]) end
return {n, left}
"""


def digest(text: str) -> str:
    """A bounded key part for any text a client sends (32 hex characters)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class Counters(Protocol):
    """What the limits need from a shared store (times in seconds)."""

    def hit(self, key: str, window: float) -> tuple[int, float]:
        """Count one more; the count in the open window and the seconds until it ends."""
        ...

    def peek(self, key: str) -> tuple[int, float]:
        """The count in the open window and the seconds until it ends (0, 0 without one)."""
        ...

    def once(self, key: str, ttl: float) -> bool:
        """True for the first caller only, within ``ttl`` seconds (single use)."""
        ...

    def forget(self, key: str) -> None:
        """Forget one key (a success ends its failures' window)."""
        ...

    def clear(self, prefix: str) -> None:
        """Forget every key starting with ``prefix`` (a scan: for the operator's rare unlock)."""
        ...


def _checked(key: str) -> str:
    if len(key) > KEY_CHARS:
        raise ValueError(f"counter key longer than {KEY_CHARS} characters")
    return key


class DatabaseCounters:
    """The counters in the site's database (SQLite or PostgreSQL), for sites without Redis."""

    def __init__(self, ctx: Context, clock: Callable[[], float] = time.time) -> None:
        self.ctx, self.clock = ctx, clock

    def hit(self, key: str, window: float) -> tuple[int, float]:
        now = self.clock()
        with self.ctx.work(Actor.system()) as work:
            count, ends = rows.hit(work.session, _checked(key), now, window)
        return count, max(0.0, ends - now)

    def peek(self, key: str) -> tuple[int, float]:
        now = self.clock()
        with self.ctx.work(Actor.system()) as work:
            count, ends = rows.peek(work.session, _checked(key), now)
        return count, max(0.0, ends - now)

    def once(self, key: str, ttl: float) -> bool:
        return self.hit(key, ttl)[0] == 1

    def forget(self, key: str) -> None:
        with self.ctx.work(Actor.system()) as work:
            rows.forget(work.session, _checked(key))

    def clear(self, prefix: str) -> None:
        with self.ctx.work(Actor.system()) as work:
            rows.clear(work.session, prefix)


class CountersDown(ServiceError):
    """Redis did not answer: the request that needed a count is refused for now, in words."""

    status = 503
    default_code = "counters_unavailable"


DOWN = Text("服务暂时繁忙, 请稍后再试", "the service is busy for a moment; try again shortly")


def _guarded(method: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        import redis

        try:
            return method(*args, **kwargs)
        except redis.RedisError:
            raise CountersDown(DOWN) from None

    return call


class RedisCounters:
    """The counters in Redis (the live games' server), each hit one atomic script; Redis not
    answering is a 503 in words (``CountersDown``), never a count skipped."""

    def __init__(self, url: str, prefix: str = REDIS_PREFIX) -> None:
        import redis

        self.prefix = f"{prefix}:count:"
        self.redis: Any = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        self._hit = self.redis.register_script(_HIT)

    @_guarded
    def hit(self, key: str, window: float) -> tuple[int, float]:
        count, left = self._hit(keys=[self.prefix + _checked(key)], args=[max(1, int(window * 1000))])
        return int(count), max(0.0, int(left) / 1000)

    @_guarded
    def peek(self, key: str) -> tuple[int, float]:
        name = self.prefix + _checked(key)
        pipe = self.redis.pipeline(transaction=True)
        pipe.get(name)
        pipe.pttl(name)
        raw, left = pipe.execute()
        return (int(raw), max(0.0, int(left) / 1000)) if raw is not None else (0, 0.0)

    @_guarded
    def once(self, key: str, ttl: float) -> bool:
        return bool(self.redis.set(self.prefix + _checked(key), 1, nx=True, px=max(1, int(ttl * 1000))))

    @_guarded
    def forget(self, key: str) -> None:
        self.redis.delete(self.prefix + _checked(key))

    @_guarded
    def clear(self, prefix: str) -> None:
        names = list(self.redis.scan_iter(match=self.prefix + _checked(prefix) + "*", count=1000))
        if names:
            self.redis.delete(*names)


def shared_counters(ctx: Context, redis_url: str | None, prefix: str = REDIS_PREFIX) -> Counters:
    """Redis when the site has one, else the database."""
    return RedisCounters(redis_url, prefix) if redis_url else DatabaseCounters(ctx)


__all__ = ["REDIS_PREFIX", "Counters", "CountersDown", "DatabaseCounters", "RedisCounters", "digest", "shared_counters"]

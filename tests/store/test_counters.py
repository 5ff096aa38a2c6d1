"""The shared counters (``services.counters``): the database's on SQLite and PostgreSQL, and
Redis's, count alike, end their windows, use a key once, and never lose a hit between threads
with connections of their own (as two workers would)."""

from __future__ import annotations

import os
import socket
import threading
import uuid
from collections.abc import Iterator

import pytest

from yisai.services.context import open_context
from yisai.services.counters import Counters, CountersDown, DatabaseCounters, RedisCounters, digest


class Ticks:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _redis_up() -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", 6379)) == 0


@pytest.fixture
def redis_counters() -> Iterator[RedisCounters]:
    if not _redis_up():
        if os.environ.get("CI"):
            pytest.fail("CI is set but Redis is not answering on 127.0.0.1:6379")
        pytest.skip("Redis not running on 127.0.0.1:6379")
    counters = RedisCounters("redis://127.0.0.1:6379/0", prefix=f"yisai-test:{uuid.uuid4().hex[:10]}")
    yield counters
    counters.clear("")
    counters.redis.close()


def _counts_and_once(counters: Counters) -> None:
    # three hits in a window of 60 s: 1, 2, 3; another key is its own
    assert [counters.hit("login:a:b", 60)[0] for _ in range(3)] == [1, 2, 3]
    count, left = counters.peek("login:a:b")
    assert count == 3 and 0 < left <= 60
    assert counters.peek("login:a:c") == (0, 0.0)
    counters.hit("login:a:c", 60)
    counters.forget("login:a:b")  # one key only
    assert counters.peek("login:a:b")[0] == 0 and counters.peek("login:a:c")[0] == 1
    counters.hit("login:a:b", 60)
    counters.clear("login:a:")  # every key of the prefix
    assert counters.peek("login:a:b")[0] == 0 and counters.peek("login:a:c")[0] == 0
    assert counters.once("proof:n1", 60) and not counters.once("proof:n1", 60)
    with pytest.raises(ValueError):  # a key is bounded: callers build it from digests
        counters.hit("x" * 81, 60)
    assert len(f"login:{digest('x' * 1_000_000)}:{digest('10.0.0.1')}") == 71


def test_database_counters(db_url: str) -> None:
    ticks = Ticks()
    with open_context(db_url) as ctx:
        counters = DatabaseCounters(ctx, clock=ticks)
        _counts_and_once(counters)
        counters.hit("w", 10)
        ticks.now += 10  # the window of 10 s has ended: the count starts again, the old row is gone
        assert counters.peek("w") == (0, 0.0)
        assert counters.hit("w", 10) == (1, 10.0)


def test_redis_counters(redis_counters: RedisCounters) -> None:
    _counts_and_once(redis_counters)


def test_hits_from_two_connections_at_once_are_all_counted(db_url: str) -> None:
    """Two contexts (two connection pools, as two workers) hit one key 20 times each at once:
    the count is 40, and of 40 tries to use one key once exactly one succeeds."""
    with open_context(db_url) as one, open_context(db_url) as two:
        results: list[bool] = []

        def work(counters: DatabaseCounters) -> None:
            for _ in range(20):
                counters.hit("race", 600)
                results.append(counters.once("race-once", 600))

        threads = [threading.Thread(target=work, args=(DatabaseCounters(c),)) for c in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert DatabaseCounters(one).peek("race")[0] == 40
        assert results.count(True) == 1 and len(results) == 40


def test_redis_not_answering_is_a_refusal_in_words_not_a_crash() -> None:
    counters = RedisCounters("redis://127.0.0.1:1/0")  # nothing listens on port 1
    with pytest.raises(CountersDown) as refused:
        counters.hit("login:a:b", 60)
    assert refused.value.status == 503 and "请稍后再试" in refused.value.render("zh")

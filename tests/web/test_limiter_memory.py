"""The in-memory limiter and caches are bounded in entries, age and key length (issue 44, item 2).

On the code before this change 100 failed logins with 1 MB names added 197 MB that stayed after
the 5-minute window: every key was the raw name, kept for ever. Memory is measured here with
tracemalloc (every Python allocation the process still holds), so the figure is the limiter's
own, not the allocator's.
"""

from __future__ import annotations

import gc
import tracemalloc

from tests.web.conftest import Site
from yisai.web.core import MAX_KEY_CHARS, LoginLimiter, PageCache, StampCache

KB = 1024


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# Only what the request's own code path allocated and still holds: a trace counts when any frame of
# its stack is in yisai or the web framework. Other threads a test worker still runs (a server or
# timer left by an earlier test in the same process) allocate elsewhere and are not this figure.
FRAMES = 12
OURS = [tracemalloc.Filter(True, pattern, all_frames=True) for pattern in ("*/yisai/*", "*/starlette/*", "*/fastapi/*")]


def _held() -> int:
    gc.collect()
    return sum(stat.size for stat in tracemalloc.take_snapshot().filter_traces(OURS).statistics("filename"))


def test_failed_logins_with_huge_names_cost_little_and_are_given_back(site: Site) -> None:
    ticks = Ticks()
    limiter = LoginLimiter(clock=ticks)
    site.client.app.state.web.limiter = limiter  # type: ignore[attr-defined]
    attacks = 40
    name = 512 * KB  # under the 1 MB body limit with the JSON around it
    tracemalloc.start(FRAMES)
    try:
        r = site.client.post("/api/token", json={"login": "warm-up", "password": "wrong-password"})
        assert r.status_code == 401
        before = _held()
        for i in range(attacks):
            r = site.client.post("/api/token", json={"login": f"{i:03d}" + "x" * name, "password": "wrong"})
            assert r.status_code == 401
        del r  # the last response holds its request, and that request the last 512 KB name
        during = _held()
        assert len(limiter) == attacks + 1  # every failure is counted ...
        # ... under a key of at most MAX_KEY_CHARS + 1 characters, not the 512 KB name: the
        # names alone were 40 × 512 KB = 20 MB; what is held is far below one of them
        assert during - before < name // 2
        ticks.now += limiter.window + 1  # the window passes; the next call drops every expired key
        r = site.client.post("/api/token", json={"login": "after", "password": "wrong-password"})
        assert r.status_code == 401
        assert len(limiter) == 1
        after = _held()
        assert after - before < name // 2  # back to the level before the attack (one name is 512 KB)
    finally:
        tracemalloc.stop()


def test_a_huge_name_is_still_limited_after_five_failures(site: Site) -> None:
    login = "y" * (200 * KB)
    for _ in range(5):
        assert site.client.post("/api/token", json={"login": login, "password": "wrong"}).status_code == 401
    r = site.client.post("/api/token", json={"login": login, "password": "wrong"})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"


def test_the_limiter_keeps_at_most_max_keys_and_the_newest() -> None:
    ticks = Ticks()
    limiter = LoginLimiter(limit=2, max_keys=100, clock=ticks)
    for i in range(1000):
        limiter.failed("10.0.0.1", f"login{i}")
        ticks.now += 0.01
    assert len(limiter) == 100
    limiter.failed("10.0.0.1", "login999")  # the newest key's count survived the evictions
    try:
        limiter.check("10.0.0.1", "login999")
        raise AssertionError("the second failure must lock login999")
    except Exception as exc:  # RateLimited
        assert getattr(exc, "code", "") == "rate_limited"
    limiter.check("10.0.0.1", "login0")  # evicted: counted afresh


def test_long_keys_are_digests_and_distinct() -> None:
    limiter = LoginLimiter(limit=1)
    a, b = "a" * 1000, "a" * 999 + "b"
    limiter.failed("c" * 5000, a)
    limiter.check("c" * 5000, b)  # a different long name is not locked by the first one's failure
    keys = list(limiter._failures)  # the stored keys themselves
    assert all(len(part) <= MAX_KEY_CHARS + 1 for key in keys for part in key)
    try:
        limiter.check("c" * 5000, a)
        raise AssertionError("the same long name must be locked")
    except Exception as exc:
        assert getattr(exc, "code", "") == "rate_limited"


def test_the_stamp_cache_is_bounded_in_entries() -> None:
    stamps = StampCache(ttl=0.5, size=50)
    for event_id in range(1, 10_001):
        stamps.put(event_id, 1)
    assert len(stamps) == 50
    assert stamps.last(10_000) == 1 and stamps.last(1) is None


def test_the_page_cache_drops_renderings_past_their_age() -> None:
    cache = PageCache(size=512, min_age=0.0, max_age=0.0)
    cache.put(("a",), 1, b"x" * 2000)
    cache.put(("b",), 1, b"y")  # each put drops what is older than max_age (here: everything before)
    assert cache.previous(("a",)) is None

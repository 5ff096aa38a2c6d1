"""The lag allowance comes from what the server measured (its own ping, echoed once), never from
a timestamp the client chose: a forged or replayed ``at`` changes nothing, and one slow pong
cannot raise the delay credited to the next move."""

from __future__ import annotations

from typing import Any, cast

from yisai.live.sockets import TRIPS_KEPT, Client


def _client() -> Client:
    return Client(ws=cast(Any, None), conn="c1", player="p", name="p", division="", lang="zh")


def test_a_forged_ping_time_claims_nothing() -> None:
    c = _client()
    c.pinged(100.0)
    c.ponged(99.0, 100.2)  # "you pinged me a second earlier": not the ping the server sent
    assert c.delay == 0.0
    c.ponged(100.0, 100.2)  # the real echo: 0.2 s round trip, 0.1 s one way
    assert round(c.delay, 6) == 0.1
    c.ponged(100.0, 101.2)  # the same ping replayed later counts once only
    assert round(c.delay, 6) == 0.1


def test_the_least_recent_half_round_trip_is_credited() -> None:
    c = _client()
    for k, trip in enumerate([0.2, 1.0, 0.3]):  # one pong held back by the client (1.0 s)
        c.pinged(10.0 * k)
        c.ponged(10.0 * k, 10.0 * k + trip)
    assert round(c.delay, 6) == 0.1  # not 0.5: the slow pong does not raise it
    for k in range(3, 3 + TRIPS_KEPT):  # only the last few count: a lasting slower network shows
        c.pinged(10.0 * k)
        c.ponged(10.0 * k, 10.0 * k + 0.6)
    assert round(c.delay, 6) == 0.3


def test_a_pong_without_a_ping_or_with_junk_is_ignored() -> None:
    c = _client()
    c.ponged(5.0, 5.1)
    c.pinged(5.0)
    c.ponged("5.0", 5.1)
    c.ponged(None, 5.1)
    assert c.delay == 0.0 and c.pinged_at == 5.0

"""Prometheus metrics (``prometheus-client``): what an operator watches on the day.

Labels never carry personal data: a request is counted by its route *template*
(``/events/{event_id}/standings``, not the path a client typed), its method and status; notices
by outcome; live games and sockets as plain numbers; pairing by its duration only.

Several worker processes: ``yisai serve --workers N`` (N > 1) runs prometheus-client's
multiprocess mode: it names a fresh folder in ``PROMETHEUS_MULTIPROC_DIR`` before the workers
start, each worker writes its samples there, and ``/metrics`` (answered by whichever worker)
adds them up; gauges of live games and sockets count the live processes only (``livesum``).
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"

REQUESTS = Counter("yisai_http_requests_total", "HTTP requests answered, by route template, method and status",
                   ["route", "method", "status"])
LATENCY = Histogram("yisai_http_request_duration_seconds", "Time to answer an HTTP request, by route template",
                    ["route", "method"],
                    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
NOTICES = Counter("yisai_notices_total", "SMS notices handled by the worker of this process, by outcome "
                  "(sent, queued = to retry, failed)", ["outcome"])
NOTICES_QUEUED = Gauge("yisai_notices_queued", "SMS notices waiting in the queue (read from the database at "
                       "each scrape)", multiprocess_mode="max")
LIVE_GAMES = Gauge("yisai_live_games", "Live games owned by the live server processes",
                   multiprocess_mode="livesum")
LIVE_SOCKETS = Gauge("yisai_live_sockets", "Open live-server WebSocket connections", multiprocess_mode="livesum")
PAIRING = Histogram("yisai_pairing_seconds", "Time to pair one round (services.rounds.pair)",
                    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0))

for _outcome in ("sent", "queued", "failed"):  # each outcome shown from the start, at 0
    NOTICES.labels(_outcome)

P = ParamSpec("P")
R = TypeVar("R")


def timed_pairing(fn: Callable[P, R]) -> Callable[P, R]:
    """Observe every call's duration (failed pairings too) in ``yisai_pairing_seconds``."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        began = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            PAIRING.observe(time.perf_counter() - began)

    return wrapper


def exposition() -> tuple[bytes, str]:
    """The text format of every metric: this process's, or all workers' in multiprocess mode."""
    if os.environ.get(MULTIPROCESS_ENV):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST


def worker_gone(pid: int) -> None:
    """Drop a dead worker's live gauges (multiprocess mode)."""
    if os.environ.get(MULTIPROCESS_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)

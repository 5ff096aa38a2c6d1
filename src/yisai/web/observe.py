"""Watching a running site: ``/healthz``, Prometheus ``/metrics``, and one log line per request.

``/healthz`` answers 200 with JSON when the database answers and its schema is this program's
(and Redis answers, when the live games use it), else 503 naming what failed: what a load
balancer or ``systemd``'s watchdog script polls. ``/metrics`` (``services.metrics``) answers
the loopback address only, unless ``YISAI_METRICS_TOKEN`` is set: then any address with
``Authorization: Bearer <token>``. The deployment's Caddyfile does not pass it on either.

Request lines (logger ``yisai.access``) carry the method, the route template, the status, the
duration and the acting account's id: never a path's ids of players, a query string, a client
address, a phone number or a name. ``--log-format json`` makes every ``yisai`` log line one
JSON object (what journald and Loki/Vector read as fields).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import sys
import time
from collections.abc import MutableMapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from yisai.services import metrics
from yisai.services.maintenance import health, queued_notices
from yisai.web.core import state

LOG_FORMAT_ENV = "YISAI_LOG_FORMAT"  # text | json
METRICS_TOKEN_ENV = "YISAI_METRICS_TOKEN"
access_log = logging.getLogger("yisai.access")
LOOPBACK = {"127.0.0.1", "::1", "localhost"}
FIELDS = ("method", "route", "status", "ms", "actor", "action", "entity", "entity_id", "event")

router = APIRouter(include_in_schema=False)


def route_of(scope: Scope) -> str:
    """The route template that answered (``unmatched`` for a path no route has: a probe's path
    never becomes a label)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


def actor_of(scope: Scope) -> str:
    """The signed-in account's id (``-`` for the public): an id, not a name."""
    actor = scope.get("state", {}).get("actor")
    return str(getattr(actor, "id", "-")) if actor is not None else "-"


class ObserveMiddleware:
    """Counts and times every HTTP request by route template and status, and logs one line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 500

        async def send_status(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            elapsed = time.perf_counter() - began
            route, method = route_of(scope), scope.get("method", "")
            metrics.REQUESTS.labels(route, method, str(status)).inc()
            metrics.LATENCY.labels(route, method).observe(elapsed)
            access_log.info("%s %s %s %.1fms actor=%s", method, route, status, elapsed * 1000, actor_of(scope),
                            extra={"method": method, "route": route, "status": status,
                                   "ms": round(elapsed * 1000, 1), "actor": actor_of(scope)})


@router.get("/healthz")
def healthz(request: Request) -> Response:
    report = health(state(request).ctx, getattr(request.app.state, "redis_url", None))
    return JSONResponse(report, status_code=200 if report["status"] == "ok" else 503,
                        headers={"cache-control": "no-store"})


def _may_scrape(request: Request) -> bool:
    token = os.environ.get(METRICS_TOKEN_ENV, "")
    if token:
        given = request.headers.get("authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    return (request.client.host if request.client else "") in LOOPBACK


@router.get("/metrics")
def prometheus(request: Request) -> Response:
    if not _may_scrape(request):
        return JSONResponse({"code": "forbidden", "message": "指标只对本机开放 (或设置 YISAI_METRICS_TOKEN)"},
                            status_code=403)
    queued = queued_notices(state(request).ctx)
    if queued is not None:
        metrics.NOTICES_QUEUED.set(queued)
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type, headers={"cache-control": "no-store"})


class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the known fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"), "level": record.levelname,
                                "logger": record.name, "message": record.getMessage()}
        line.update({k: getattr(record, k) for k in FIELDS if hasattr(record, k)})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(fmt: str | None = None) -> None:
    """The ``yisai`` loggers to standard error (the journal under systemd), plain text or JSON
    lines; called once per server process."""
    chosen = (fmt or os.environ.get(LOG_FORMAT_ENV) or "text").lower()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if chosen == "json" else
                         logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger("yisai")
    for old in list(root.handlers):
        if getattr(old, "yisai_handler", False):
            root.removeHandler(old)
    handler.yisai_handler = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    root.propagate = False

"""/healthz, /metrics and the request/write log lines: scraped from a real `yisai serve` with two
workers (prometheus multiprocess mode), and the failing cases on an app in process."""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from tests.idnumbers import make_id_number
from tests.web.server import Server
from yisai.cli.app import app as cli
from yisai.registry.person import Gender
from yisai.services.context import open_context
from yisai.services.settings import Settings
from yisai.store import audit_rows, roster_rows
from yisai.store.database import SCHEMA_HEAD
from yisai.web.app import create_app
from yisai.web.observe import JsonLines

runner = CliRunner()
PHONE, BIRTH = "13912345678", "2013-01-01"
ID_NUMBER = make_id_number("110101", date(2013, 1, 1), 123, Gender.MALE)
SECOND_ID = make_id_number("110101", date(2014, 2, 2), 112, Gender.FEMALE)


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _samples(body: bytes) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(body.decode()) for s in family.samples}


def _requests(samples: dict, route: str, status: str) -> float:
    return samples.get(("yisai_http_requests_total", frozenset({("route", route), ("method", "GET"),
                                                                ("status", status)})), 0.0)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An event with one player whose phone, ID number and birth date must never be shown."""
    path = tmp_path / "site.sqlite"
    monkeypatch.setenv("YISAI_DB", str(path))
    r = runner.invoke(cli, ["event", "create", "--regulation", str(REGULATIONS / "2025-xiaoqiwang.toml"),
                            "--seed", "3"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["player", "add", "--name", "李小明", "--gender", "男", "--birth", BIRTH,
                            "--rank", "2段", "--cert", "C1", "--region", "中国大陆", "--province", "浙江",
                            "--division", "jia", "--phone", PHONE, "--id-number", ID_NUMBER],
                      env={"YISAI_NOW": "2025-04-10T09:00"})  # seed 002 takes entries until 2025-04-18
    assert r.exit_code == 0, r.output
    return path


def test_health_metrics_and_json_logs_from_a_real_server(db: Path) -> None:
    server = Server(db, workers=2, args=("--log-format", "json"))
    try:
        status, body = _get(server.url + "/healthz")
        assert status == 200
        report = json.loads(body)
        assert report["status"] == "ok" and report["schema"] == SCHEMA_HEAD and report["database"] == "ok"
        assert report["redis"] == "not configured"

        status, first = _get(server.url + "/metrics")
        assert status == 200
        before = _samples(first)
        for _ in range(3):
            assert _get(server.url + "/api/events")[0] == 200
        assert _get(server.url + "/api/events/1/entries")[0] == 200  # the player's public fields
        assert _get(server.url + "/no/such/page")[0] == 404
        status, second = _get(server.url + "/metrics")
        after = _samples(second)
        # three answers to /api/events, whichever worker gave them: the workers' counts are added up
        assert _requests(after, "/api/events", "200") - _requests(before, "/api/events", "200") == 3
        assert _requests(after, "unmatched", "404") - _requests(before, "unmatched", "404") == 1
        names = {name for name, _ in after}
        for wanted in ("yisai_http_request_duration_seconds_bucket", "yisai_live_games", "yisai_live_sockets",
                       "yisai_notices_queued"):
            assert wanted in names, wanted
        families = {f.name for f in text_string_to_metric_families(second.decode())}
        assert {"yisai_pairing_seconds", "yisai_notices"} <= families
        for secret in (PHONE, ID_NUMBER, BIRTH, "李小明"):
            assert secret not in second.decode()
    finally:
        server.stop()
    out = server.proc.stdout.read() if server.proc.stdout else ""
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    access = [x for x in lines if x["logger"] == "yisai.access" and x["route"] == "/api/events"]
    assert len(access) >= 3 and {x["status"] for x in access} == {200} and access[0]["actor"] == "-"
    for secret in (PHONE, ID_NUMBER, BIRTH):
        assert secret not in out


def test_health_fails_with_503_on_an_old_schema_or_an_unreachable_redis(db: Path) -> None:
    settings = Settings(database=str(db))
    with TestClient(create_app(settings, redis_url="redis://127.0.0.1:1/0")) as client:
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json()["redis"].startswith("error") and answer.json()["database"] == "ok"
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        engine = create_engine(f"sqlite:///{db}")
        with engine.begin() as conn:  # as if another program version had moved the schema on
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        engine.dispose()
        answer = client.get("/healthz")
        assert answer.status_code == 503 and answer.json()["schema"] == "9999"


def test_metrics_answer_loopback_or_a_token_only(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(Settings(database=str(db)))) as client:  # its client is "testclient"
        assert client.get("/metrics").status_code == 403
        monkeypatch.setenv("YISAI_METRICS_TOKEN", "s3cret-token")
        assert client.get("/metrics").status_code == 403
        assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
        assert client.get("/metrics", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200


def test_one_log_line_per_committed_write_naming_the_actor_by_id(
        db: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    from yisai.services.events import resolve_event

    caplog.set_level(logging.INFO, logger="yisai.writes")
    monkeypatch.setenv("YISAI_ACTOR", "ref1")
    r = runner.invoke(cli, ["player", "add", "--name", "王小红", "--gender", "女", "--birth", "2014-02-02",
                            "--rank", "1段", "--cert", "C2", "--region", "中国大陆", "--province", "浙江",
                            "--division", "jia", "--phone", "13800000000", "--id-number", SECOND_ID],
                      env={"YISAI_NOW": "2025-04-10T09:00"})
    assert r.exit_code == 0, r.output
    with open_context(str(db)) as ctx, ctx.work() as work:
        event = resolve_event(work, None)
        added = next(p for p in roster_rows.list_players(work.session, event.id) if p.name == "王小红")
        audited = [a for a in audit_rows.audit_log(work.session, event.id) if a.actor == "ref1"]
    writes = [r for r in caplog.records if r.name == "yisai.writes"]
    assert len(writes) == len(audited) >= 1  # one line per audited write of that command
    assert {w.actor for w in writes} == {"cli:ref1"}  # type: ignore[attr-defined]
    assert ("player", str(added.id)) in {(w.entity, w.entity_id) for w in writes}  # type: ignore[attr-defined]
    for line in writes:
        shown = JsonLines().format(line)
        assert json.loads(shown)["actor"] == "cli:ref1"
        for secret in ("13800000000", SECOND_ID, "2014-02-02", "王小红"):
            assert secret not in shown


def test_live_sockets_are_counted_while_open(tmp_path: Path) -> None:
    from prometheus_client import REGISTRY

    from yisai.services.events import create_event

    db = str(tmp_path / "w.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    app = create_app(Settings(database=db), qualifier_event=str(event.id))

    def sockets() -> float:
        return REGISTRY.get_sample_value("yisai_live_sockets") or 0.0

    with TestClient(app) as client:
        before = sockets()
        with client.websocket_connect("/live/ws") as ws, client.websocket_connect("/live/ws") as other:
            ws.receive_json()
            other.receive_json()
            assert sockets() == before + 2
        deadline = time.monotonic() + 10
        while sockets() != before and time.monotonic() < deadline:  # the server sees the close a moment later
            time.sleep(0.05)
        assert sockets() == before

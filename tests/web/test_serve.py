"""`yisai serve`: refuses an out-of-date schema with the upgrade command; serves several workers."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine

from tests.web.server import ROOT, Server
from yisai.store.database import _alembic_config


def test_an_old_schema_is_refused_with_the_upgrade_command(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    engine = create_engine(f"sqlite:///{db}")
    cfg = _alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    engine.dispose()
    r = subprocess.run([sys.executable, "-m", "yisai.cli.app", "serve", "--db", str(db), "--port", "1"],
                       env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "0002" in r.stderr and "yisai db upgrade" in r.stderr


def test_two_workers_serve_the_same_database(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    with Server(db, workers=2) as server:
        for _ in range(6):
            with urllib.request.urlopen(server.url + "/api/events", timeout=5) as r:
                assert json.loads(r.read()) == []


def test_ctrl_c_stops_the_server_cleanly(tmp_path: Path) -> None:
    import os
    import signal

    server = Server(tmp_path / "c.sqlite")
    os.kill(server.proc.pid, signal.SIGINT)
    assert server.proc.wait(timeout=15) == 0


def test_first_start_on_an_empty_database_says_how_to_make_the_first_account(tmp_path: Path) -> None:
    server = Server(tmp_path / "fresh.sqlite")
    server.stop()
    out = server.proc.stdout.read() if server.proc.stdout else ""
    assert "数据库中还没有任何账号" in out
    assert f"yisai account add admin --role operator --password-stdin --db {tmp_path / 'fresh.sqlite'}" in out

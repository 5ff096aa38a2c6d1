"""The backup drill of docs/deploy.md against a real served site, on SQLite and on PostgreSQL.

Two clients enter round-2 results through the API of a running `yisai serve`; `yisai db backup`
(the command the timer runs, in its own process) is taken while they write; the server is then
killed with SIGKILL by its pid (no clean stop) while the clients are still writing; the backup is
restored into a new database. Checked: every result acknowledged (HTTP 200 seen by a client)
before the backup started is in the restored database, the schema is the program's, and the
standings equal those computed from the same event with the results the clients sent for the
boards the snapshot holds. Bounded: 40 players, 20 boards, two clients.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hangs import no_hang
from tests.web.server import ROOT, Server
from yisai.bench.web import build_event
from yisai.services.context import unit_of_work
from yisai.services.reports import event_standings
from yisai.services.round_results import record_result
from yisai.store import round_rows
from yisai.store.backup import backups_in, restore_backup
from yisai.store.database import SCHEMA_HEAD, current_revision, make_engine, resolve_url

PLAYERS, SEED = 60, 7  # round 1 played by build_event, round 2 paired: 30 boards for the clients
BOARDS = list(range(1, PLAYERS // 2 + 1))
FIRST, LAST = 3, 3  # each client writes FIRST boards before the backup starts, LAST after it ends
PACE = 0.1
WAIT = 120  # only catches a hang


def _word(board: int) -> str:
    return "黑胜" if board % 3 else "白胜"


def _results(db: str, number: int) -> dict[int, str]:
    with unit_of_work(db) as work:
        rounds = round_rows.list_rounds(work.session, 1, "jia")
        return {g.board: g.result.value for r in rounds if r.number == number for g in r.games
                if g.result.value != "?"}


def _table(db: str) -> list[tuple[int, str, str]]:
    """Place, name and every shown value of 甲组's standings."""
    with unit_of_work(db) as work:
        s = event_standings(work, None, "jia").standings
        return [(row.place, row.player.name, repr(sorted(row.values.items()))) for row in s.listed]


def _token(base: str) -> str:
    body = json.dumps({"login": "bench-referee", "password": "bench-referee-pw"}).encode()
    req = urllib.request.Request(base + "/api/token", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return str(json.loads(r.read())["token"])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("YISAI_DB", None)
    return subprocess.run([sys.executable, "-m", "yisai.cli.app", *args], env=env, capture_output=True,
                          text=True, timeout=WAIT)


def _drill(source: str, target: str, scratch: Path) -> None:
    folder = scratch / "backups"
    build_event(source, PLAYERS, 1, SEED)
    server = Server(source)
    try:
        base = server.url
        token = _token(base)
        acknowledged: list[int] = []
        lock = threading.Lock()
        ready = threading.Semaphore(0)
        started, finished = threading.Event(), threading.Event()
        errors: list[BaseException] = []

        def client(mine: list[int]) -> None:
            for k, board in enumerate(mine):
                if k == FIRST:  # the first boards are in: let the backup start
                    ready.release()
                    started.wait(WAIT)
                elif k == len(mine) - LAST:  # the last boards come after the backup
                    finished.wait(WAIT)
                elif k > FIRST:
                    time.sleep(PACE)  # a pace, so that the stream lasts through the backup
                body = json.dumps({"board": board, "result": _word(board), "version": 1}).encode()
                req = urllib.request.Request(base + "/api/events/1/rounds/jia/2/results", data=body,
                                             headers={"Content-Type": "application/json",
                                                      "Authorization": f"Bearer {token}"})
                try:
                    with urllib.request.urlopen(req, timeout=30) as r:
                        if r.status == 200:
                            with lock:
                                acknowledged.append(board)
                except (urllib.error.URLError, ConnectionError, OSError):
                    return  # the server was killed: this result was never acknowledged
                except BaseException as exc:  # reported by the main thread
                    errors.append(exc)
                    return

        halves = [BOARDS[0::2], BOARDS[1::2]]
        clients = [threading.Thread(target=client, args=(h,)) for h in halves]
        for c in clients:
            c.start()
        for _ in clients:
            assert ready.acquire(timeout=WAIT)
        with lock:
            before = list(acknowledged)
        assert len(before) == 2 * FIRST
        started.set()  # the clients go on writing while the backup runs
        done = _cli("db", "backup", "--db", source, "--to", str(folder), "--keep", "3")
        assert done.returncode == 0, done.stdout + done.stderr
        with lock:
            at_backup_end = len(acknowledged)
        finished.set()
        while True:  # kill -9 once a result written after the backup is acknowledged
            with lock:
                if len(acknowledged) > at_backup_end:
                    break
            assert any(c.is_alive() for c in clients), "the clients stopped before the kill"
            time.sleep(0.01)
        os.kill(server.proc.pid, signal.SIGKILL)  # kill -9: no clean stop
        server.proc.wait(WAIT)
        for c in clients:
            c.join(WAIT)
        assert not errors, errors
        assert server.proc.returncode == -signal.SIGKILL
    finally:
        server.stop()

    # What the clients saw acknowledged survived the kill in the original database too.
    assert set(acknowledged) <= set(_results(source, 2))
    [archive] = backups_in(folder)
    back = restore_backup(archive, target, None)
    assert back.schema == SCHEMA_HEAD
    engine = make_engine(resolve_url(target))
    assert current_revision(engine) == SCHEMA_HEAD
    engine.dispose()
    got = _results(target, 2)
    print(f"acknowledged before the backup {len(before)}, in the backup {len(got)}, "
          f"acknowledged when it ended {at_backup_end}, before the kill {len(acknowledged)} of {len(BOARDS)}")
    assert len(got) < len(BOARDS)  # the snapshot was taken mid-stream
    assert set(before) <= set(got)  # every result acknowledged before the backup started
    assert all(got[b] == _results(source, 2)[b] for b in got)
    # The original at the point of the backup: the same event (same seed, so the same pairing and
    # round 1) with the results the clients sent for exactly the boards the snapshot holds.
    reference = str(scratch / "reference.sqlite")
    build_event(reference, PLAYERS, 1, SEED)
    with unit_of_work(reference) as work:
        for board in sorted(got):
            record_result(work, None, "jia", 2, board, _word(board))
    assert _results(reference, 2) == got
    assert _results(reference, 1) == _results(target, 1)
    assert _table(reference) == _table(target)


def test_drill_on_sqlite(tmp_path: Path) -> None:
    with no_hang():
        _drill(str(tmp_path / "venue.sqlite"), str(tmp_path / "restored.sqlite"), tmp_path)


@pytest.fixture
def two_databases() -> Iterator[tuple[str, str]]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.store.conftest import postgres_base_url
    from yisai.store import upgrade_database

    base = make_url(postgres_base_url())
    names = [f"yisai_drill_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    source, target = (base.set(database=n).render_as_string(hide_password=False) for n in names)
    try:
        upgrade_database(source)
        yield source, target
    finally:
        with admin.connect() as conn:
            for name in names:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_drill_on_postgresql(two_databases: tuple[str, str], tmp_path: Path) -> None:
    source, target = two_databases
    # pg_dump refuses a server newer than itself: Debian's postgresql-client is the server's 15
    engine = make_engine(resolve_url(source))
    with engine.connect() as conn:
        server = str(conn.exec_driver_sql("SHOW server_version").scalar())
    engine.dispose()
    client = subprocess.run(["pg_dump", "--version"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"\(PostgreSQL\) (\d+)", client)
    assert found and int(found.group(1)) >= int(server.split(".")[0]), (client, server)
    with no_hang():
        _drill(source, target, tmp_path)

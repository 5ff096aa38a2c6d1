"""`yisai db backup` / `yisai db restore`: an online backup taken while two clients write results,
restored into a new database; and the refusals (not a backup, a newer schema, a non-empty target)."""

from __future__ import annotations

import json
import sqlite3
import tarfile
import threading
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.services.context import open_context, unit_of_work
from yisai.services.events import resolve_event
from yisai.services.reports import event_standings
from yisai.services.round_results import record_result
from yisai.store import roster_rows, round_rows
from yisai.store.backup import backups_in, make_backup, read_manifest, restore_backup
from yisai.store.database import SCHEMA_HEAD, StoreError, current_revision, make_engine, resolve_url

runner = CliRunner()
PLAYERS = 24  # twelve boards in round 1
RESULTS = {b: ("黑胜" if b % 3 else "白胜") for b in range(1, PLAYERS // 2 + 1)}


def _event(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event with round 1 paired and no result: the same seed and players give the same
    pairing every time (the reference database is built the same way)."""
    _event_at(str(path), monkeypatch)


def _event_at(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YISAI_DB", db)
    r = runner.invoke(app, ["event", "create", "--regulation", str(REGULATIONS / "2025-xiaoqiwang.toml"),
                            "--seed", "11"])
    assert r.exit_code == 0, r.output
    for i in range(1, PLAYERS + 1):
        r = runner.invoke(app, ["player", "add", "--name", f"选手{i}", "--gender", "男",
                                "--birth", f"2013-{(i % 12) + 1:02d}-01", "--rank", f"{i % 9 + 1}段",
                                "--cert", f"C{i}", "--region", "中国大陆", "--province", "浙江",
                                "--division", "jia"],
                          env={"YISAI_NOW": "2025-04-10T09:00"})  # seed 002 takes entries until 2025-04-18
        assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["pair", "-d", "jia", "-r", "1"])
    assert r.exit_code == 0, r.output


def _results(db: str) -> dict[int, str]:
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        return {g.board: g.result.value for r in round_rows.list_rounds(work.session, event.id, "jia") for g in r.games
                if g.result.value != "?"}


def _pairing(db: str) -> dict[int, tuple[str, str]]:
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
        return {g.board: (names[g.black], names.get(g.white, "")) for r in round_rows.list_rounds(work.session, event.id, "jia")
                for g in r.games}


def _table(db: str) -> list[tuple[int, str, str]]:
    """Place, name and every shown value of the standings after round 1."""
    with unit_of_work(db) as work:
        s = event_standings(work, None, "jia").standings
        return [(row.place, row.player.name, repr(sorted(row.values.items()))) for row in s.listed]


def test_drill_backup_while_two_clients_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = tmp_path / "venue.sqlite"
    _event(original, monkeypatch)
    boards = sorted(RESULTS)
    acknowledged: list[int] = []
    lock = threading.Lock()
    enough = threading.Event()
    errors: list[BaseException] = []

    def client(mine: list[int]) -> None:
        try:
            with open_context(str(original), actor="记录台") as ctx:  # its own connection
                for board in mine:
                    with ctx.work() as work:
                        record_result(work, None, "jia", 1, board, RESULTS[board])
                    with lock:  # acknowledged: the transaction committed
                        acknowledged.append(board)
                        if len(acknowledged) >= 4:
                            enough.set()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
            enough.set()

    odd, even = boards[0::2], boards[1::2]
    clients = [threading.Thread(target=client, args=(odd,)), threading.Thread(target=client, args=(even,))]
    for c in clients:
        c.start()
    assert enough.wait(120)
    with lock:
        before = list(acknowledged)
    folder = tmp_path / "backups"
    archive, manifest, _ = make_backup(str(original), None, folder, keep=3)  # mid-stream
    for c in clients:
        c.join(120)
    assert not errors, errors
    assert sorted(acknowledged) == boards  # the clients went on while the backup ran

    restored = tmp_path / "server.sqlite"
    back = restore_backup(archive, str(restored), None)
    assert back.schema == manifest.schema == SCHEMA_HEAD
    engine = make_engine(resolve_url(str(restored)))
    assert current_revision(engine) == SCHEMA_HEAD
    engine.dispose()
    got = _results(str(restored))
    assert set(before) <= set(got)  # every result acknowledged before the backup is there
    for mine in (odd, even):  # each client wrote in order: the snapshot holds a prefix of its boards
        present = [b for b in mine if b in got]
        assert present == mine[: len(present)]
    assert manifest.counts["games"] == len(boards)
    # The original at that point: the same event with exactly the results the snapshot holds.
    reference = tmp_path / "reference.sqlite"
    _event(reference, monkeypatch)
    assert _pairing(str(reference)) == _pairing(str(restored))
    with unit_of_work(str(reference)) as work:
        for board in sorted(got):
            record_result(work, None, "jia", 1, board, RESULTS[board])
    assert _results(str(reference)) == got
    assert _table(str(restored)) == _table(str(reference))


def test_retention_files_and_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "a.sqlite"
    _event(db, monkeypatch)
    files = tmp_path / "a.files"
    (files / "1" / "报名表").mkdir(parents=True)
    (files / "1" / "报名表" / "选手1.pdf").write_bytes(b"%PDF-1.4 paper")
    folder = tmp_path / "b"
    made = [make_backup(str(db), files, folder, keep=2)[0] for _ in range(3)]
    assert backups_in(folder) == made[1:]  # keep 2: the oldest removed
    assert read_manifest(made[-1]).files == 1

    # through the CLI, as the timer runs it; restore into a new database with a new files folder
    r = runner.invoke(app, ["db", "backup", "--to", str(folder), "--keep", "2", "--files", str(files)])
    assert r.exit_code == 0, r.output
    newest = backups_in(folder)[-1]
    target = tmp_path / "restored.sqlite"
    r = runner.invoke(app, ["db", "restore", str(newest), "--db", str(target), "--files", str(tmp_path / "r.files")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r.files" / "1" / "报名表" / "选手1.pdf").read_bytes() == b"%PDF-1.4 paper"
    assert _pairing(str(target)) == _pairing(str(db))

    # a target that already holds tables is refused
    r = runner.invoke(app, ["db", "restore", str(newest), "--db", str(target), "--files", str(tmp_path / "x")])
    assert r.exit_code != 0 and "空数据库" in r.output

    # a file that is not a backup: named in the message
    bogus = tmp_path / "比赛.tar.gz"
    bogus.write_bytes(b"not an archive")
    r = runner.invoke(app, ["db", "restore", str(bogus), "--db", str(tmp_path / "n1.sqlite")])
    assert r.exit_code != 0 and "比赛.tar.gz" in r.output and "不是可用的 yisai 备份" in r.output

    # a backup of a newer schema than this program's
    newer = tmp_path / "newer.tar.gz"
    with tarfile.open(newest) as src, tarfile.open(newer, "w:gz") as dst:
        for member in src:
            fh = src.extractfile(member)
            if member.name == "manifest.json":
                assert fh is not None
                data = json.loads(fh.read())
                data["schema"] = f"{int(SCHEMA_HEAD) + 1:04d}"
                raw = json.dumps(data).encode()
                member.size = len(raw)
                import io
                dst.addfile(member, io.BytesIO(raw))
            else:
                dst.addfile(member, fh)
    r = runner.invoke(app, ["db", "restore", str(newer), "--db", str(tmp_path / "n2.sqlite")])
    assert r.exit_code != 0 and "newer.tar.gz" in r.output and "比本程序" in r.output
    assert not (tmp_path / "n2.sqlite").exists() or not sqlite3.connect(tmp_path / "n2.sqlite").execute(
        "SELECT name FROM sqlite_master").fetchall()


def test_postgresql_backup_and_restore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pg_dump from one new database, pg_restore into another (both made for the test)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.store.conftest import postgres_base_url
    from yisai.store import upgrade_database

    base = make_url(postgres_base_url())
    names = [f"yisai_bk_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    source, target = (base.set(database=n).render_as_string(hide_password=False) for n in names)
    try:
        upgrade_database(source)
        _event_at(source, monkeypatch)
        with unit_of_work(source) as work:
            record_result(work, None, "jia", 1, 1, "黑胜")
        archive, manifest, _ = make_backup(source, None, tmp_path / "pg", keep=1)
        assert manifest.backend == "postgresql" and manifest.counts["games"] == PLAYERS // 2
        restore_backup(archive, target, None)
        assert _pairing(target) == _pairing(source)
        assert _results(target) == {1: "B+"}
        with pytest.raises(StoreError, match="空数据库"):
            restore_backup(archive, target, None)
    finally:
        with admin.connect() as conn:
            for name in names:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

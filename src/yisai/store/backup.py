"""Whole-store backups: one archive holding the database, the uploaded papers and a manifest.

SQLite is copied with its online backup API (a read snapshot under WAL: writers go on while it
runs); PostgreSQL with ``pg_dump`` in its custom format, run on a snapshot exported from the
transaction that counted the rows, so manifest and dump agree. The manifest (format, schema
revision, time, row counts, SHA-256 of the database part) is what makes a file recognisable as a
yisai backup; ``restore_backup`` refuses anything else, a newer schema, or a non-empty target.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, make_url

from yisai.i18n import Text
from yisai.record.text import shown
from yisai.store.database import (
    StoreError,
    current_revision,
    head_revision,
    make_engine,
    migrate,
    resolve_url,
)

FORMAT = "yisai-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
PREFIX = "yisai-backup-"
SUFFIX = ".tar.gz"
COUNTED = ("events", "players", "entries", "rounds", "games", "audit", "papers", "users")


@dataclass(frozen=True)
class Manifest:
    """What a backup holds; ``counts`` are rows per table at the moment of the snapshot."""

    schema: str
    created: str  # ISO time, UTC
    backend: str  # sqlite | postgresql
    database: str  # the archive member holding the database
    sha256: str
    counts: dict[str, int]
    files: int  # uploaded files included

    def as_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "schema": self.schema,
                           "created": self.created, "backend": self.backend, "database": self.database,
                           "sha256": self.sha256, "counts": self.counts, "files": self.files},
                          ensure_ascii=False, indent=2)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq address (no driver, no password) and the environment carrying the password, so
    the password never shows in the process list."""
    parsed = make_url(url)
    if parsed.query.get("options"):
        raise StoreError(Text("备份与恢复须用指向整个数据库的 PostgreSQL 地址 (不能带 options/search_path)",
                            "backup and restore need a PostgreSQL address of a whole database "
                            "(without options/search_path)"))
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    plain = URL.create("postgresql", username=parsed.username, host=parsed.host or "127.0.0.1",
                       port=parsed.port, database=parsed.database)
    return plain.render_as_string(hide_password=True), env


def _argv(**options: object) -> list[str]:
    """A PostgreSQL tool's long options (``no_owner=None`` → a bare switch)."""
    dash = "-" * 2
    return [f"{dash}{k.replace('_', '-')}" + ("" if v is None else f"={v}") for k, v in options.items()]


def _tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        raise StoreError(Text(f"找不到 {name}: 请安装 PostgreSQL 客户端 (Debian: apt-get install postgresql-client)",
                            f"{name} not found: install the PostgreSQL client (Debian: postgresql-client)"))
    return found


def _counts(conn: Any, tables: set[str]) -> dict[str, int]:
    return {t: int(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar() or 0)
            for t in COUNTED if t in tables}


def _snapshot_sqlite(url: str, into: Path) -> tuple[str | None, dict[str, int]]:
    """Copy the live SQLite file into ``into`` in one step of the online backup API."""
    path = make_url(url).database
    if not path or path == ":memory:" or not Path(path).is_file():
        raise StoreError(Text(f"数据库文件不存在: {shown(str(path), None)}",
                            f"the database file does not exist: {shown(str(path), None)}"))
    source = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True, timeout=30)
    target = sqlite3.connect(into)
    try:
        source.backup(target)  # pages=-1: the whole file from one read snapshot
    finally:
        source.close()
    try:
        tables = {r[0] for r in target.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        revision = (target.execute("SELECT version_num FROM alembic_version").fetchone()[0]
                    if "alembic_version" in tables else None)
        counts = _counts_sqlite(target, tables)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file in the archive
    finally:
        target.close()
    return revision, counts


def _counts_sqlite(conn: sqlite3.Connection, tables: set[str]) -> dict[str, int]:
    return {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in COUNTED if t in tables}


def _snapshot_postgres(url: str, into: Path) -> tuple[str | None, dict[str, int]]:
    address, env = _libpq(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                snapshot = conn.execute(text("SELECT pg_export_snapshot()")).scalar()
                tables = set(inspect(conn).get_table_names())
                revision = (conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
                            if "alembic_version" in tables else None)
                counts = _counts(conn, tables)
                done = subprocess.run(
                    [_tool("pg_dump"), *_argv(format="custom", no_owner=None, no_privileges=None,
                                              snapshot=snapshot, file=into), address],
                    env=env, capture_output=True, text=True)
    finally:
        engine.dispose()
    if done.returncode != 0:
        raise StoreError(Text(f"pg_dump 失败: {done.stderr.strip()}", f"pg_dump failed: {done.stderr.strip()}"))
    return revision, counts


def _name_for(folder: Path, moment: datetime) -> Path:
    stamp = moment.strftime("%Y%m%dT%H%M%SZ")
    path = folder / f"{PREFIX}{stamp}{SUFFIX}"
    n = 2
    while path.exists():  # two backups in one second keep both
        path = folder / f"{PREFIX}{stamp}-{n}{SUFFIX}"
        n += 1
    return path


def backups_in(folder: Path) -> list[Path]:
    """The backups this module wrote into ``folder``, oldest first: by the time in the name,
    then by the number a second backup within the same second carries."""

    def when(p: Path) -> tuple[str, int]:
        stamp, _, n = p.name[len(PREFIX):-len(SUFFIX)].partition("-")
        return stamp, int(n) if n.isdigit() else 1

    return sorted((p for p in folder.glob(f"{PREFIX}*{SUFFIX}") if p.is_file()), key=when)


def make_backup(db: str, files_dir: Path | None, folder: Path, keep: int) -> tuple[Path, Manifest, list[Path]]:
    """Write one backup of the store ``db`` (and the uploaded files under ``files_dir``) into
    ``folder``; then keep only the newest ``keep`` backups there. Returns the archive, its
    manifest and the older archives removed."""
    if keep < 1:
        raise StoreError(Text("保留份数至少为 1", "keep at least one backup"))
    url = resolve_url(db)
    backend = make_url(url).get_backend_name()
    folder.mkdir(parents=True, exist_ok=True)
    moment = datetime.now(UTC).replace(microsecond=0)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".yisai-backup-") as tmp:
        member = "database.sqlite" if backend == "sqlite" else "database.pgdump"
        dbfile = Path(tmp) / member
        revision, counts = (_snapshot_sqlite if backend == "sqlite" else _snapshot_postgres)(url, dbfile)
        if revision is None:
            raise StoreError(Text("这个数据库是空的 (没有 yisai 的表), 无需备份",
                                "this database is empty (no yisai tables); nothing to back up"))
        papers = sorted(p for p in files_dir.rglob("*") if p.is_file() and not p.name.endswith(".part")) \
            if files_dir and files_dir.is_dir() else []
        manifest = Manifest(revision, moment.isoformat().replace("+00:00", "Z"), backend, member,
                            _sha256(dbfile), counts, len(papers))
        partial = Path(tmp) / "archive.part"
        with tarfile.open(partial, "w:gz") as tar:
            data = manifest.as_json().encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime = len(data), int(moment.timestamp())
            tar.addfile(info, io.BytesIO(data))  # first, so a reader finds it without unpacking
            tar.add(dbfile, arcname=member)
            for p in papers:
                assert files_dir is not None
                tar.add(p, arcname=str(PurePosixPath("files", *p.relative_to(files_dir).parts)))
        target = _name_for(folder, moment)
        os.replace(partial, target)
    removed = backups_in(folder)[:-keep]
    for old in removed:
        old.unlink()
    return target, manifest, removed


def _refuse(path: Path, why_zh: str, why_en: str) -> StoreError:
    where = shown(str(path), None)
    return StoreError(Text(f"{where} 不是可用的 yisai 备份: {why_zh}", f"{where} is not a usable yisai backup: {why_en}"))


def read_manifest(path: Path) -> Manifest:
    """The manifest of the backup at ``path``; refused (naming the file) when it is not one."""
    if not path.is_file():
        raise _refuse(path, "文件不存在", "no such file")
    try:
        with tarfile.open(path, "r:*") as tar:
            member = tar.next()
            if member is None or member.name != MANIFEST or not member.isfile():
                raise _refuse(path, "缺少 manifest.json (备份清单)", "it has no manifest.json")
            fh = tar.extractfile(member)
            assert fh is not None
            raw = json.loads(fh.read(1 << 20).decode("utf-8"))
    except (tarfile.TarError, OSError, EOFError):
        raise _refuse(path, "不是 yisai 备份归档 (tar.gz)", "it is not a yisai archive (tar.gz)") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _refuse(path, "备份清单无法读取", "its manifest cannot be read") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise _refuse(path, "备份清单不是 yisai 的格式", "the manifest is not yisai's")
    try:
        counts = {str(k): int(v) for k, v in dict(raw["counts"]).items()}
        manifest = Manifest(str(raw["schema"]), str(raw["created"]), str(raw["backend"]), str(raw["database"]),
                            str(raw["sha256"]), counts, int(raw["files"]))
    except (KeyError, TypeError, ValueError):
        raise _refuse(path, "备份清单缺少字段", "the manifest lacks fields") from None
    if manifest.backend not in ("sqlite", "postgresql") or manifest.database not in (
            "database.sqlite", "database.pgdump"):
        raise _refuse(path, f"未知的数据库类型 {manifest.backend}", f"unknown backend {manifest.backend}")
    head = head_revision()
    if not manifest.schema.isdigit() or int(manifest.schema) > int(head):
        raise _refuse(path, f"备份的数据库结构版本 {manifest.schema} 比本程序 ({head}) 新, 请先升级 yisai",
                      f"its schema {manifest.schema} is newer than this program's ({head}); update yisai first")
    return manifest


def _unpack(path: Path, manifest: Manifest, into: Path) -> tuple[Path, Path]:
    """The database part (checksum verified) and the files folder, unpacked under ``into``;
    only regular files under the names a backup writes are taken."""
    files = into / "files"
    dbfile = into / manifest.database
    with tarfile.open(path, "r:*") as tar:
        for member in tar:
            parts = PurePosixPath(member.name).parts
            if not member.isfile() or ".." in parts or PurePosixPath(member.name).is_absolute():
                continue
            if member.name == manifest.database:
                target = dbfile
            elif parts and parts[0] == "files" and len(parts) > 1:
                target = files.joinpath(*parts[1:])
            else:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            fh = tar.extractfile(member)
            assert fh is not None
            with target.open("wb") as out:
                shutil.copyfileobj(fh, out)
    if not dbfile.is_file():
        raise _refuse(path, "缺少数据库部分", "the database part is missing")
    if _sha256(dbfile) != manifest.sha256:
        raise _refuse(path, "数据库部分的校验和不符 (文件已损坏)", "the database part's checksum differs (damaged)")
    return dbfile, files


def restore_backup(path: Path, db: str, files_dir: Path | None) -> Manifest:
    """Restore the backup at ``path`` into the empty database ``db`` (and its files into the
    empty or new ``files_dir``), then migrate it to this program's schema."""
    manifest = read_manifest(path)
    url = resolve_url(db)
    backend = make_url(url).get_backend_name()
    if backend != manifest.backend:
        raise StoreError(Text(f"{shown(str(path), None)} 是 {manifest.backend} 的备份, 只能恢复到同类数据库 (目标是 {backend})",
                            f"{shown(str(path), None)} is a {manifest.backend} backup; restore it into the same "
                            f"kind of database (the target is {backend})"))
    if files_dir is not None and files_dir.exists() and any(files_dir.iterdir()) and manifest.files:
        raise StoreError(Text(f"文件目录不是空的: {shown(str(files_dir), None)}; 请指定新的目录",
                            f"the files folder is not empty: {shown(str(files_dir), None)}; name a new one"))
    engine = make_engine(url)
    try:
        if inspect(engine).get_table_names():
            raise StoreError(Text("只能恢复到空数据库: 目标数据库已有表 (请新建一个数据库)",
                                "restore only into an empty database: the target has tables (make a new one)"))
        with tempfile.TemporaryDirectory(prefix="yisai-restore-") as tmp:
            dbfile, files = _unpack(path, manifest, Path(tmp))
            if backend == "sqlite":
                engine.dispose()
                source = sqlite3.connect(dbfile)
                target = sqlite3.connect(str(make_url(url).database))
                try:
                    source.backup(target)
                finally:
                    source.close()
                    target.close()
            else:
                address, env = _libpq(url)
                done = subprocess.run([_tool("pg_restore"), *_argv(no_owner=None, no_privileges=None,
                                                                    exit_on_error=None, dbname=address),
                                       str(dbfile)], env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    raise StoreError(Text(f"pg_restore 失败: {done.stderr.strip()}",
                                        f"pg_restore failed: {done.stderr.strip()}"))
            if files_dir is not None and files.is_dir():
                shutil.copytree(files, files_dir, dirs_exist_ok=True)
        engine = make_engine(url)
        if current_revision(engine) != manifest.schema:
            raise _refuse(path, "恢复后的数据库结构版本与备份清单不符", "the restored schema differs from the manifest")
        migrate(engine)  # an older backup comes back at this program's schema
    finally:
        engine.dispose()
    return manifest

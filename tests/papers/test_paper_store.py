"""The papers tables as migrated match the models; the file store stays inside its root."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from yisai.store import (
    open_database,
    side_models,  # noqa: F401 (puts papers and check_ins on Base)
)
from yisai.store.files import FileStore, default_files_dir, safe_part
from yisai.store.models import Base


def test_migration_0005_creates_the_tables_the_models_describe(tmp_path: Path) -> None:
    db = open_database(str(tmp_path / "m.sqlite"))
    try:
        with db.engine.connect() as conn:
            diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        db.dispose()
    mine = [d for d in diffs if "papers" in repr(d) or "check_ins" in repr(d)]
    assert mine == []


def test_files_live_next_to_the_sqlite_file_unless_a_directory_is_named(tmp_path: Path) -> None:
    assert default_files_dir(str(tmp_path / "event.sqlite")) == tmp_path / "event.files"
    assert default_files_dir("postgresql+psycopg://u@h/db") == Path("yisai-files")


def test_keys_cannot_leave_the_store_and_names_lose_separators(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "root")
    with pytest.raises(ValueError):
        store.put("../outside.pdf", b"%PDF-")
    assert not (tmp_path / "outside.pdf").exists()
    assert safe_part("../浙江队/报名表:1.pdf") == "_浙江队_报名表_1.pdf"
    store.put("a/b.pdf", b"%PDF-x")
    assert store.get("a/b.pdf") == b"%PDF-x" and store.delete("a/b.pdf") and not store.exists("a/b.pdf")

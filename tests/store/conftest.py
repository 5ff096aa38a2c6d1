"""Run every store test on SQLite and on PostgreSQL (a fresh schema per test, dropped after).

PostgreSQL comes from ``YISAI_TEST_POSTGRES_URL`` (scripts/test.sh sets it); without it the
PostgreSQL half is skipped locally and fails in CI, where it must run.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError

from yisai.services.context import Context, open_context
from yisai.store import upgrade_database

NOW = datetime(2025, 4, 10, 9, 30)


def postgres_base_url() -> str:
    url = os.environ.get("YISAI_TEST_POSTGRES_URL")
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail("CI is set but YISAI_TEST_POSTGRES_URL is not: the PostgreSQL half must run")
    pytest.skip("YISAI_TEST_POSTGRES_URL not set; PostgreSQL store tests skipped")
    raise AssertionError


_checked: set[str] = set()


def ensure_database(base: str) -> None:
    """Create the test database on a fresh server (a new machine has only ``postgres``)."""
    if base in _checked:
        return
    url = make_url(base)
    maintenance = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with maintenance.connect() as conn:
            found = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": url.database}
            ).scalar()
            if not found:
                try:
                    conn.execute(text(f'CREATE DATABASE "{url.database}"'))
                except ProgrammingError as exc:  # another test worker created it meanwhile
                    if "already exists" not in str(exc):
                        raise
    except Exception as exc:
        pytest.fail(f"PostgreSQL at {url.render_as_string()} not usable: {exc}")
    finally:
        maintenance.dispose()
    _checked.add(base)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite'}"
        return
    base = postgres_base_url()
    ensure_database(base)
    schema = f"yisai_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # server down: say so plainly
        admin.dispose()
        pytest.fail(f"PostgreSQL at {base} not usable: {exc}")
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    rendered = url.render_as_string(hide_password=False)
    upgrade_database(rendered)  # PostgreSQL is never migrated implicitly
    try:
        yield rendered
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def ctx(db_url: str) -> Iterator[Context]:
    context = open_context(db_url, actor="测试裁判", now=lambda: NOW)
    try:
        yield context
    finally:
        context.close()

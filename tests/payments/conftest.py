"""The payment tests run on SQLite and, with YISAI_TEST_POSTGRES_URL (required in CI), on
PostgreSQL: the ``db_url`` fixture of the store tests (a fresh schema per test)."""

from tests.store.conftest import db_url  # noqa: F401 (the fixture)

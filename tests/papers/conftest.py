"""The store tests' database fixture (SQLite and PostgreSQL, a fresh schema per test)."""

from tests.store.conftest import db_url  # noqa: F401  (a fixture, used by name)

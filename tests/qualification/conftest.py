"""Qualification tests run on SQLite and PostgreSQL (the store tests' ``db_url`` fixture)."""

from __future__ import annotations

from tests.store.conftest import db_url

__all__ = ["db_url"]

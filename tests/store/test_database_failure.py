"""A database error leaves a unit of work as the services' own ``StoreFailed`` (issue 42 item 8:
the front ends catch a services error, never ``sqlalchemy.exc``), and nothing of it is saved."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from tests.store.test_repository import _event
from yisai.services.context import Context
from yisai.services.errors import ServiceError, StoreFailed
from yisai.store import event_rows


def test_a_database_error_is_store_failed_and_saves_nothing(ctx: Context) -> None:
    event = _event(ctx)
    with pytest.raises(StoreFailed) as info, ctx.work() as w:
        w.session.execute(text("UPDATE events SET name = '不该保存' WHERE id = :e"), {"e": event.id})
        w.session.execute(text("SELECT * FROM no_such_table"))
    assert not isinstance(info.value, ServiceError)  # no verdict on the request: the web's 500
    assert info.value.exit_code == 1
    assert info.value.kind in ("OperationalError", "ProgrammingError")  # SQLite's, PostgreSQL's words
    assert "no_such_table" in info.value.detail and "no_such_table" in info.value.full
    with ctx.work() as w:
        assert event_rows.get_event(w.session, event.id).name == "测试赛"

"""A public page follows a write that goes around the services and the ORM (issue 42 item 5):
raw SQL on the database file moves the event's stamp through the database's own triggers, so
the next request renders the changed table instead of the one cached before."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.conftest import NOW, Clock
from yisai.services.settings import Settings
from yisai.web.app import create_app

URL = "/events/1/rounds/jia/1/fragment"


def test_a_raw_sql_result_reaches_the_public_table(template_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "site.sqlite"
    shutil.copy(template_db, db)
    # --refresh 0: every answer is the table at the stamp read now (no stale-while-revalidate)
    app = create_app(replace(Settings(database=str(db)), clock=Clock(NOW)), secret="s", refresh_seconds=0)
    with TestClient(app) as client:
        first = client.get(URL)
        assert first.status_code == 200 and "黑胜" not in first.text
        assert client.get(URL).headers["etag"] == first.headers["etag"]  # cached: nothing changed
        with sqlite3.connect(db) as conn:  # another program, no audit line, no ORM
            conn.execute("UPDATE games SET result = 'B+' WHERE board = 4 AND round_id = "
                         "(SELECT id FROM rounds WHERE event_id = 1 AND division = 'jia' AND number = 1)")
        conn.close()
        after = client.get(URL)
        assert after.status_code == 200
        assert "黑胜" in after.text and after.headers["etag"] != first.headers["etag"]

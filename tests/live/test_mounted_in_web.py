"""`yisai serve --qualifier EVENT` mounts the live games' WebSocket in the web app itself."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.settings import Settings
from yisai.web.app import create_app


def test_the_web_app_serves_live_games_for_the_qualifier_event(tmp_path: Path) -> None:
    db = str(tmp_path / "w.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    app = create_app(Settings(database=db), qualifier_event=str(event.id))
    with TestClient(app) as client:
        with client.websocket_connect("/live/ws") as ws:  # a spectator: no ticket
            assert ws.receive_json() == {"t": "welcome", "player": None, "games": []}
        assert client.get("/").status_code == 200
    plain = create_app(Settings(database=db))
    assert not any(getattr(r, "path", "") == "/live/ws" for r in plain.routes)

"""The public 网络海选 page: each period's table with who qualifies, ties qualifying together
(seed 000: top 38 open per period; equal points → more wins; still equal → all qualify)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS
from yisai.qualifier.ladder import Delta
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.live import live_config
from yisai.services.qualification import close_period
from yisai.services.settings import Settings
from yisai.store.live_rows import ladder_add
from yisai.web.app import create_app

AT = datetime(2025, 5, 10, 12)


def test_the_public_qualifier_list_marks_the_tie_at_the_quota(tmp_path: Path) -> None:
    db = str(tmp_path / "q.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
        stage = live_config(w, event.id).stage.id
        # 40 open players: p01..p36 with 10 points; p37..p40 with 6 points and 3 wins each, so
        # places 37–40 are tied on points and wins: with a quota of 38 all four qualify.
        for i in range(1, 41):
            wins, points = (5, 10) if i <= 36 else (3, 6)
            for _ in range(wins):
                ladder_add(w.session, event_id=event.id, stage=stage, period=1, pool="open",
                           player=f"p{i:02d}", name=f"棋手{i:02d}", delta=Delta(2, True, False, False),
                           at=AT)
            if points < wins * 2:
                ladder_add(w.session, event_id=event.id, stage=stage, period=1, pool="open",
                           player=f"p{i:02d}", name=f"棋手{i:02d}",
                           delta=Delta(points - wins * 2, False, True, False), at=AT)
        ladder_add(w.session, event_id=event.id, stage=stage, period=1, pool="open", player="p41",
                   name="<script>x</script>", delta=Delta(-2, False, True, True), at=AT)
    client = TestClient(create_app(Settings(database=db)))
    page = client.get(f"/events/{event.id}/qualifier").text
    assert "第1期" in page and "录取38名" in page and "少年组、幼儿组" in page  # the youth pool named by its divisions
    # While period 1 is not closed, nobody has qualified yet: the rows inside the places read
    # as provisional (暂列线内), never as a ✓ that a player would take for final.
    assert '<tr class="qualified">' not in page and "✓" not in page
    assert len(page.split('<tr class="inside">')) - 1 == 40  # 36 + the four tied at places 37–40
    assert "名次为暂定" in page and page.count("<td>暂列线内") == 40
    # The chief referee closes the period after its end (2025-05-25, midnight): now they qualify.
    with open_context(db, actor="裁判长", now=datetime(2025, 5, 26, 9)) as ctx, ctx.work() as w:
        close_period(w, event.id, 1)
    client = TestClient(create_app(Settings(database=db)))  # a server started after the close
    page = client.get(f"/events/{event.id}/qualifier").text
    rows = page.split('<tr class="qualified">')
    assert len(rows) - 1 == 40 and page.count("✓") == 40 and "暂列线内" not in page
    assert "并列" in page
    assert "<script>x</script>" not in page and "&lt;script&gt;" in page
    assert f'href="/events/{event.id}/qualifier"' in client.get(f"/events/{event.id}").text

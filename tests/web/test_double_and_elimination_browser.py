"""The double round robin's crosstable and a round page with eliminated players (issue 41) in a
real browser on a desktop (1280) and a phone (390): nothing but the tables' own scrollers is wider
than the phone; screenshots are written for review (``YISAI_SCREENS``, else out/screens)."""

from __future__ import annotations

from pathlib import Path

from tests.services.rrko_event import NOW, approve_all
from tests.services.test_elimination_swiss import _text
from tests.web.server import Server
from tests.web.test_accounts_browser import (  # noqa: F401  (browser is a fixture)
    DESKTOP,
    PHONE,
    _shot,
    browser,
    pytestmark,
)
from tests.web.test_double_round_robin_pages import _play as play_double
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.publishing import publish_round
from yisai.services.round_results import record_result
from yisai.services.rounds import pair


def _elimination(db: Path, tmp: Path) -> int:
    from datetime import date

    path = tmp / "elimination.toml"
    path.write_text(_text(), encoding="utf-8")
    with open_context(str(db), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, path, seed=2026)
            for i in range(1, 9):
                approve_all(w, [register_player(w, ev, Player(
                    id="", name=f"选手{i:02d}", gender=Gender.MALE, birth_date=date(1990, 1, 1), rank="5段",
                    rating=2800 - 10 * i, region="中国大陆", province="浙江", city="杭州"), division="open")])
        for r in (1, 2, 3):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                for _g, pairing in paired.parts:
                    for b in pairing.boards:
                        black, white = paired.names[b.black], paired.names[b.white]
                        record_result(w, ev.id, "open", r, b.board, "黑胜" if black < white else "白胜")
                publish_round(w, str(ev.id), "open", r)
        return ev.id


def test_crosstable_and_eliminated_on_desktop_and_phone(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "pages.sqlite"
    double = play_double(db, tmp_path, 6)
    eliminated = _elimination(db, tmp_path)
    with Server(db, now=NOW.isoformat(timespec="minutes")) as server:
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = browser.new_context(viewport=size).new_page()
            page.goto(f"{server.url}/events/{double}/brackets/open")
            assert "双循环交叉表" in page.inner_text("main") and "最终" in page.inner_text("main")
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"] + 1
            _shot(page, f"double-round-robin-crosstable-{label}")
            page.goto(f"{server.url}/events/{eliminated}/rounds/open/3")
            assert "淘汰 / 不再编排 (6)" in page.inner_text("main")
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"] + 1
            _shot(page, f"elimination-round-{label}")

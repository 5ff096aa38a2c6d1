"""The public 循环赛·淘汰赛 page: every group's crosstable (places by the regulation's ranking,
小循环 included) and the knockout bracket, from the example event played through the services;
unpublished rounds stay hidden. A real browser renders it on a desktop and a phone."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.services.rrko_event import NOW, play_example
from yisai.services.context import open_context
from yisai.services.publishing import publish_round
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.web.app import create_app


def _site(db: Path, last_round: int) -> int:
    with open_context(str(db), actor="裁判长", now=NOW) as ctx:
        event_id, _views = play_example(ctx, publish=True, last_round=last_round)
    return event_id


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, int, Path]]:
    db = tmp_path_factory.mktemp("rrko-web") / "w.sqlite"
    event_id = _site(db, 8)
    app = create_app(replace(Settings(database=str(db)), clock=lambda: NOW), secret="t", refresh_seconds=0)
    with TestClient(app) as client:
        yield client, event_id, db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_crosstables_and_bracket_are_public(finished: tuple[TestClient, int, Path]) -> None:
    client, event_id, _db = finished
    page = client.get(f"/events/{event_id}/brackets/open")
    assert page.status_code == 200
    assert f'href="/events/{event_id}/brackets/open"' in page.text  # linked from the event's tabs
    text = _text(page.text)
    for group in "ABCD":
        assert f"{group}组" in text
    # Group A's places: 选手16 first, then 01, 08, 09 (小循环), 选手17 last — each row ends
    # with score and place.
    rows = re.findall(r"<tr><td>(\d)</td><td class=\"name\">(选手\d\d)</td>(.*?)</tr>", page.text)
    a_places = {name: re.findall(r"<td>([^<]*)</td>", rest)[-1] for _seat, name, rest in rows
                if name in ("选手16", "选手01", "选手08", "选手09", "选手17")}
    assert a_places == {"选手16": "1", "选手01": "2", "选手08": "3", "选手09": "4", "选手17": "5"}
    # The bracket: quarter-finals to the final and third-place match, origins A1, B2 …
    for word in ("1/4决赛", "半决赛", "决赛", "季军赛", "A1", "B2", "C1", "D2"):
        assert word in text
    assert "第1名 选手01" in text and "第2名 选手03" in text and "第3名 选手06" in text
    assert "第5名(并列) 选手07" in text
    # The forfeit shows as such.
    assert "弃权" in text
    # The standings page gives the same final order and says why, e.g. a group's 3rd place.
    standings = client.get(f"/events/{event_id}/standings/open")
    assert standings.status_code == 200
    ids = re.findall(r'href="\?explain=([^"]+)"', standings.text)
    why = _text(client.get(f"/events/{event_id}/standings/open?explain={ids[8]}").text)
    assert "小组第3名" in why


def test_the_json_api_gives_the_same_view(finished: tuple[TestClient, int, Path]) -> None:
    client, event_id, _db = finished
    data = client.get(f"/api/events/{event_id}/brackets/open").json()
    assert [g["group"] for g in data["groups"]] == ["A", "B", "C", "D"]
    assert [c["name"] for c in data["bracket"]] == ["1/4决赛", "半决赛", "决赛"]
    assert data["bracket"][-1]["third"]["winner_name"] == "选手06"
    assert data["places"][0] == {"place": 1, "shared": False, "name": "选手01"}
    unknown = client.get("/api/events/999/brackets/open")
    assert unknown.status_code == 404 and unknown.json()["code"]


def test_unpublished_rounds_stay_hidden(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    event_id = _site(db, 5)  # the groups are over; the bracket is paired but not published
    with open_context(str(db), actor="裁判长", now=NOW) as ctx, ctx.work() as w:
        pair(w, event_id, "open", 6)
    app = create_app(replace(Settings(database=str(db)), clock=lambda: NOW), secret="t", refresh_seconds=0)
    with TestClient(app) as client:
        text = _text(client.get(f"/events/{event_id}/brackets/open").text)
        assert "A组" in text and "1/4决赛" not in text
        with open_context(str(db), actor="裁判长", now=NOW) as ctx, ctx.work() as w:
            publish_round(w, str(event_id), "open", 6)
        page = client.get(f"/events/{event_id}/brackets/open").text
    # Published: the quarter-finals, and the rounds to come with who will meet there.
    text = _text(page)
    assert "1/4决赛 第6轮" in text
    assert "1/4决赛第1场胜者" in text and "半决赛第2场胜者" in text and "半决赛第1场负者" in text
    assert page.count('class="bround tocome"') == 2  # semi-finals, final (with the third place)


CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(os.environ.get("YISAI_SHOTS", "/tmp/rrko-shots"))


@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason="chromium is installed by scripts/setup.sh")
def test_the_page_on_a_desktop_and_a_phone(finished: tuple[TestClient, int, Path]) -> None:
    from playwright.sync_api import sync_playwright

    from tests.web.server import Server

    _client, event_id, db = finished
    server = Server(db)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for name, size in (("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})):
                page = browser.new_page(viewport=size)
                page.goto(f"{server.url}/events/{event_id}/brackets/open")
                assert page.locator("table.crosstable").count() == 4
                assert page.locator(".bracket .match").count() == 4 + 2 + 2
                # On a phone nothing but the tables' own scrollers is wider than the screen.
                assert page.evaluate("document.documentElement.scrollWidth") <= size["width"] + 1
                page.screenshot(path=str(SHOTS / f"brackets-{name}.png"), full_page=True)
                page.close()
            browser.close()
    finally:
        server.stop()

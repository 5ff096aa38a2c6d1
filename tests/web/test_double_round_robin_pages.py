"""双循环 on the web (issue 41): the individual double round robin's crosstable on the public page
(linked from the console), each pair's two games with the colour the row's player had, one table
over both cycles titled 最终 after the last round (暂定 before it).

Four players 选手01 … 选手04 seated by seeding (seat k = 选手0k). The Berger table for four (FIDE
Handbook C.05, Annex 1), the seat named first Black: R1 1-4 2-3 · R2 4-3 1-2 · R3 2-4 3-1; rounds
4–6 the same pairs, colours swapped: R4 4-1 3-2 · R5 3-4 2-1 · R6 4-2 1-3. The lower number wins
every game but one: 选手04 (Black) beats 选手01 in round 4. By hand (2 points a win):
  选手01: vs 04 黑胜 (R1) / 白负 (R4); vs 02 黑胜 (R2) / 白胜 (R5); vs 03 白胜 (R3) / 黑胜 (R6) → 5 wins, 10
  选手02: vs 03 黑胜 / 白胜; vs 01 白负 / 黑负; vs 04 黑胜 (R3) / 白胜 (R6) → 4 wins, 8
  选手03: vs 04 白胜 (R2) / 黑胜 (R5); the other four lost → 2 wins, 4
  选手04: vs 01 白负 / 黑胜 → 1 win, 2      (5 + 4 + 2 + 1 = 12 wins = 6 rounds × 2 games)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.services.rrko_event import EXAMPLE, NOW, approve_all
from tests.web.conftest import Site
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.publishing import publish_round
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.web.app import create_app

FORMAT = '[stages.format]\nkind = "double_round_robin"\nseats = "seeding"\n'


def _regulation(tmp: Path) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    start, end = text.index("[stages.format]"), text.index("[stages.time_control]")
    path = tmp / "double4.toml"
    path.write_text(text[:start] + FORMAT + text[end:], encoding="utf-8")
    return path


def _play(db: Path, tmp: Path, last: int) -> int:
    with open_context(str(db), actor="裁判长", now=NOW) as ctx:
        with ctx.work() as w:
            ev = create_event(w, _regulation(tmp), seed=2026)
            for i in range(1, 5):
                done = register_player(w, ev, Player(
                    id="", name=f"选手{i:02d}", gender=Gender.MALE, birth_date=date(1990, 1, 1), rank="5段",
                    rating=2800 - 10 * i, region="中国大陆", province="浙江", city="杭州"), division="open")
                approve_all(w, [done])
        for r in range(1, last + 1):
            with ctx.work() as w:
                paired = pair(w, ev.id, "open", r)
                for _group, pairing in paired.parts:
                    for b in pairing.boards:
                        black, white = paired.names[b.black], paired.names[b.white]
                        upset = r == 4 and black == "选手04"
                        record_result(w, ev.id, "open", r, b.board,
                                      "黑胜" if upset or (black < white and not upset) else "白胜")
                publish_round(w, str(ev.id), "open", r)
        return ev.id


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, tuple[TestClient, int]]]:
    out = {}
    clients = []
    for last in (3, 6):
        tmp = tmp_path_factory.mktemp(f"drr-web-{last}")
        event_id = _play(tmp / "w.sqlite", tmp, last)
        app = create_app(replace(Settings(database=str(tmp / "w.sqlite")), clock=lambda: NOW), secret="t",
                         refresh_seconds=0)
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        out[last] = (client, event_id)
    yield out
    for c in clients:
        c.__exit__(None, None, None)


def _rows(html: str) -> dict[str, list[str]]:
    """name → the row's cells after the name (the four seats, points, place)."""
    rows = re.findall(r'<tr><td>\d</td><td class="name">(选手\d\d)</td>(.*?)</tr>', html, re.S)
    return {name: re.findall(r"<td[^>]*>([^<]*)</td>", rest) for name, rest in rows}


def test_the_crosstable_shows_both_games_with_colours_and_is_final_after_round_6(sites) -> None:
    client, event_id = sites[6]
    page = client.get(f"/events/{event_id}/brackets/open")
    assert page.status_code == 200, page.text
    assert "双循环交叉表" in page.text and "— 最终" in page.text and "暂定" not in page.text
    rows = _rows(page.text)
    assert rows["选手01"] == ["—", "黑胜 / 白胜", "白胜 / 黑胜", "黑胜 / 白负", "10", "1"]
    assert rows["选手02"] == ["白负 / 黑负", "—", "黑胜 / 白胜", "黑胜 / 白胜", "8", "2"]
    assert rows["选手03"] == ["黑负 / 白负", "白负 / 黑负", "—", "白胜 / 黑胜", "4", "3"]
    assert rows["选手04"] == ["白负 / 黑胜", "白负 / 黑负", "黑负 / 白负", "—", "2", "4"]
    assert page.text.count('<table class="crosstable') == 1  # one table for both cycles
    # the tab and the heading name the format: a double round robin has no groups nor bracket
    assert f'href="/events/{event_id}/brackets/open">' in page.text
    assert "· 双循环</h2>" in page.text and "<title>双循环 ·" in page.text and "淘汰赛" not in page.text


def test_before_the_last_round_the_table_is_provisional(sites) -> None:
    client, event_id = sites[3]
    page = client.get(f"/events/{event_id}/brackets/open")
    assert "暂定 (第3轮后)" in page.text and "— 最终" not in page.text
    rows = _rows(page.text)
    # the first cycle only: one game a pair, the second still to come
    assert rows["选手01"][:4] == ["—", "黑胜", "白胜", "黑胜"]


def test_the_console_links_the_crosstable_and_lists_all_six_rounds(site: Site, tmp_path: Path) -> None:
    event_id = _play(Path(site.db), tmp_path, 6)
    director = site.login("director")
    page = director.get(f"/console/events/{event_id}").text
    assert f'href="/events/{event_id}/brackets/open"' in page
    assert f'href="/console/events/{event_id}/print/brackets.pdf"' in page
    for r in range(1, 7):  # both cycles reachable from the page, not from a typed URL
        assert f'href="/console/events/{event_id}/rounds/open/{r}"' in page
    pdf = director.get(f"/console/events/{event_id}/print/brackets.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")

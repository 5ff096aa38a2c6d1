"""The console's 规程 drafter (#32 item 5) through the web app: upload a 规程 text, the draft is
shown beside the source with open points first; a corrected draft creates the event (the same
checks as `regulation check`); a broken one comes back with its line-numbered problems and the
director's edits; the draft downloads as TOML; only those who may create events may use it."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from tests.web.conftest import Site
from tests.web.test_console import token_of

TEXTS = Path(__file__).resolve().parents[1] / "regulation" / "draft" / "texts"
LEAGUE = (TEXTS / "team-league.txt").read_bytes()


def _toml_of(html: str) -> str:
    m = re.search(r'<textarea name="toml"[^>]*>(.*?)</textarea>', html, re.S)
    assert m
    return unescape(m.group(1))


def _source_of(html: str) -> str:
    m = re.search(r'<textarea name="source_text" hidden>(.*?)</textarea>', html, re.S)
    assert m
    return unescape(m.group(1))


def test_upload_shows_the_draft_beside_the_text_with_open_points_first(site: Site) -> None:
    director = site.login("director")
    r = director.post("/console/drafts", data={"csrf": token_of(director)},
                      files={"source": ("联赛规程.txt", LEAGUE)})
    assert r.status_code == 200, r.text
    page = r.text
    assert page.index("请先确认") < page.index("规程原文")  # open points before the texts
    assert "规程没有写明组别" in page  # the division question (the text names none)
    # the recognised time-control sentence is highlighted and names the field it set
    assert re.search(r'class="read" data-sentence="[^"]*"><span class="section">六、\(三\)</span> 比赛用时：每方４５分钟后.*?'
                     r'<button type="button" class="field"[^>]*>stages\.main\.time_control</button>', page, re.S)
    toml = _toml_of(page)
    assert "boards = 3" in toml or "boards = 3," in toml
    assert "每队报名费400元" in _source_of(page)


def test_corrected_draft_creates_the_event_and_a_broken_one_comes_back(site: Site) -> None:
    director = site.login("director")
    token = token_of(director)
    page = director.post("/console/drafts", data={"csrf": token}, files={"source": ("联赛规程.txt", LEAGUE)}).text
    toml, source = _toml_of(page), _source_of(page)
    broken = toml.replace("boards = 3", "boards = 0", 1)
    r = director.post("/console/drafts/event", data={"csrf": token, "toml": broken, "source_text": source,
                                                      "source_name": "联赛规程.txt", "action": "create"})
    assert r.status_code == 422
    assert re.search(r"draft\.toml:\d+: stages\.0\.format\.team_match\.boards: 数值超出范围: 0", unescape(r.text))
    assert "boards = 0" in _toml_of(r.text)  # the edit is kept
    assert "规程原文" in r.text and "每队报名费400元" in r.text  # and the source column
    events_before = len(site.client.get("/api/events").json())
    fixed = toml.replace('id = "2026-event"', 'id = "2026-jiangcheng"')
    r = director.post("/console/drafts/event", data={"csrf": token, "toml": fixed, "source_text": source,
                                                      "source_name": "联赛规程.txt", "action": "create",
                                                      "name": "江城联赛"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    events = site.client.get("/api/events").json()
    assert len(events) == events_before + 1 and events[-1]["name"] == "江城联赛"


def test_draft_downloads_as_toml(site: Site) -> None:
    director = site.login("director")
    token = token_of(director)
    r = director.post("/console/drafts/event", data={"csrf": token, "toml": 'name = "改过的"', "source_text": "",
                                                      "source_name": "联赛规程.txt", "action": "download"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/toml")
    assert "filename*=UTF-8''%E8%81%94%E8%B5%9B%E8%A7%84%E7%A8%8B.toml" in r.headers["content-disposition"]
    assert r.text == 'name = "改过的"\n'


def test_a_scan_is_refused_and_a_referee_may_not_draft(site: Site) -> None:
    director = site.login("director")
    r = director.post("/console/drafts", data={"csrf": token_of(director)},
                      files={"source": ("照片.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 64)})
    assert r.status_code == 400 and "这是一张图片" in r.text
    referee = site.login("referee")
    r = referee.post("/console/drafts", data={"csrf": token_of(referee)}, files={"source": ("a.txt", LEAGUE)})
    assert r.status_code == 403

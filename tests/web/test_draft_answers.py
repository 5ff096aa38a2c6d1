"""#40 item 4 through the web app: each open point of a draft is a small form by its field's type
(a date, a number, a choice, text); the answers are written into the file by the drafter's TOML
writer and re-checked, every problem listed at once; a refused answer names its field in Chinese
and keeps everything else entered; a file edited by hand is never overwritten; the header counts
are the lengths of the lists below them; then the finished draft creates the event."""

from __future__ import annotations

import re
import tomllib
from html import unescape

from tests.web.conftest import Site
from tests.web.test_console import token_of

# A short 规程 of our own: no year, no date, no rule for 全局同形 — so the draft asks for them.
MINI = """青溪镇围棋公开赛竞赛规程
一、主办单位：青溪镇文化站
二、比赛办法
1、比赛采用积分编排制，共进行5轮。
2、每方用时30分钟，超时判负。
三、录取名次
录取前6名，颁发奖杯和证书。
""".encode()

YEAR, ON, CYCLE, ID = "year||比赛年份", "issued.on||发布日期", "rules.cycle_result||全局同形与循环劫", "id||比赛标识"


def _toml_of(html: str) -> str:
    m = re.search(r'<textarea name="toml"[^>]*>(.*?)</textarea>', html, re.S)
    assert m
    return unescape(m.group(1))


def _hidden(html: str, name: str) -> str:
    m = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)">', html)
    assert m
    return unescape(m.group(1))


def _source_of(html: str) -> str:
    m = re.search(r'<textarea name="source_text" hidden>(.*?)</textarea>', html, re.S)
    assert m
    return unescape(m.group(1))


def _keys(html: str) -> list[str]:
    """The point keys of the open-points list, in order."""
    block = html.split('<ol class="open-points">', 1)[1].split("</ol>", 1)[0] if "open-points" in html else ""
    return [unescape(k) for k in re.findall(r'name="k:([^"]*)"', block)]


def _count(html: str, name: str) -> int:
    m = re.search(rf'data-count="{name}">(\d+)<', html)
    assert m
    return int(m.group(1))


def _form(page: str, token: str, action: str, **answers: str) -> dict[str, str]:
    return {"csrf": token, "toml": _toml_of(page), "base": _hidden(page, "base"), "source_text": _source_of(page),
            "source_name": "青溪.txt", "action": action, **answers}


def test_each_open_point_is_a_form_of_its_field_type_and_the_header_counts_the_lists(site: Site) -> None:
    director = site.login("director")
    page = director.post("/console/drafts", data={"csrf": token_of(director)},
                         files={"source": ("青溪.txt", MINI)}).text
    assert re.search(r'<input type="date" name="a:issued\.on\|\|发布日期"', page)  # a date
    assert re.search(r'<input type="number" name="a:year\|\|比赛年份"[^>]* step="1" min="1900" max="2200"', page)
    select = re.search(r'<select name="a:rules\.superko\|\|全局同形与循环劫".*?</select>', page, re.S)
    assert select and 'value="positional"' in select.group(0) and 'value="simple_ko"' in select.group(0)  # an enum
    assert re.search(r'<input type="text" name="a:id\|\|比赛标识"', page)  # text
    # the header's figures are the lengths of the lists on the page
    assert _count(page, "open") == len(_keys(page)) == len(re.findall(r'<li id="p\d+"', page))
    assert _count(page, "answered") == 0
    assert _count(page, "read") == len(re.findall(r'<p id="s\d+" class="read"', page))
    tags = set(re.findall(r'<button type="button" class="field"[^>]*>([^<]+)</button>', page))
    assert _count(page, "drafted") == len(tags)


def test_answers_go_into_the_file_and_a_bad_one_names_its_field_keeping_the_rest(site: Site) -> None:
    director = site.login("director")
    token = token_of(director)
    page = director.post("/console/drafts", data={"csrf": token}, files={"source": ("青溪.txt", MINI)}).text
    open_before = _count(page, "open")
    r = director.post("/console/drafts/event", data={**_form(
        page, token, "apply", **{f"a:{YEAR}": "-3", f"a:{ON}": "2025-13-40", f"a:{CYCLE}": "draw",
                                  f"a:{ID}": "2025-qingxi"}), "name": "青溪<b>杯</b>"})
    assert r.status_code == 422
    assert 'name="name" value="青溪&lt;b&gt;杯&lt;/b&gt;"' in r.text  # the event name kept, escaped
    text = unescape(r.text)
    # both refusals at once, in Chinese, each naming its field; year's lower bound is 1900
    assert "比赛年份 (year): -3 太小, 不能小于 1900" in text
    assert "发布日期 (issued.on): “2025-13-40”不是有效的日期" in text
    assert re.search(r'name="a:year\|\|比赛年份" value="-3"', r.text)  # what was typed is kept
    toml = tomllib.loads(_toml_of(r.text))
    assert toml["rules"]["cycle_result"] == "draw" and toml["id"] == "2025-qingxi"  # the good answers written
    assert _count(r.text, "answered") == 2 and _count(r.text, "open") == open_before - 2
    assert CYCLE not in _keys(r.text) and YEAR in _keys(r.text)

    # correct the two, keep every other default: all answered, the file passes the check
    keys = _keys(r.text)
    answers = {f"a:{YEAR}": "2025", f"a:{ON}": "2025-05-02", f"a:{CYCLE}": "draw", f"a:{ID}": "2025-qingxi",
               **{f"k:{k}": "1" for k in keys if k not in (YEAR, ON)}}
    r = director.post("/console/drafts/event", data=_form(r.text, token, "apply", **answers))
    assert r.status_code == 200, unescape(r.text)[:3000]
    assert "检查通过" in r.text and _count(r.text, "open") == 0 and _keys(r.text) == []
    assert _count(r.text, "answered") == open_before
    toml_text = _toml_of(r.text)
    toml = tomllib.loads(toml_text)
    assert toml["year"] == 2025 and str(toml["issued"]["on"]) == "2025-05-02"
    assert "open_points" not in toml  # nothing left to answer in the file either
    assert "# 主办单位" in toml_text or "青溪镇文化站" in toml_text  # still the drafter's readable file

    events_before = len(site.client.get("/api/events").json())
    r = director.post("/console/drafts/event", data={**_form(r.text, token, "create", **answers), "name": "青溪杯"},
                      follow_redirects=False)
    assert r.status_code == 303, unescape(r.text)[:2000]
    events = site.client.get("/api/events").json()
    assert len(events) == events_before + 1 and events[-1]["name"] == "青溪杯"


def test_a_file_edited_by_hand_is_not_overwritten_by_answers(site: Site) -> None:
    director = site.login("director")
    token = token_of(director)
    page = director.post("/console/drafts", data={"csrf": token}, files={"source": ("青溪.txt", MINI)}).text
    form = _form(page, token, "apply", **{f"a:{CYCLE}": "draw"})
    form["toml"] = form["toml"].replace('id = "2000-event"', 'id = "2025-by-hand"')
    r = director.post("/console/drafts/event", data=form)
    assert r.status_code == 422
    assert "文件已手工修改, 回答没有写入" in unescape(r.text)
    toml = tomllib.loads(_toml_of(r.text))
    assert toml["id"] == "2025-by-hand" and toml["rules"]["cycle_result"] == "void"  # the edit kept, untouched


def test_only_those_who_create_events_may_answer(site: Site) -> None:
    director = site.login("director")
    page = director.post("/console/drafts", data={"csrf": token_of(director)},
                         files={"source": ("青溪.txt", MINI)}).text
    referee = site.login("referee")
    r = referee.post("/console/drafts/event", data=_form(page, token_of(referee), "apply",
                                                         **{f"a:{CYCLE}": "draw"}))
    assert r.status_code == 403
    r = site.client.post("/console/drafts/event", data={"action": "apply", "source_text": "x"})
    assert r.status_code in (401, 403)  # no session, no CSRF token


def test_each_question_is_asked_in_the_reader_s_language(site: Site) -> None:
    """The drafter writes a question as "中文 / English" into the file; the page asks it in one."""
    director = site.login("director")
    zh = director.post("/console/drafts", data={"csrf": token_of(director)}, files={"source": ("青溪.txt", MINI)}).text
    points = zh.split('<ol class="open-points">', 1)[1].split("</ol>", 1)[0]
    assert "规程没有写明比赛年份：是哪一年？" in points and "Which year?" not in points
    assert "Which year?" in _toml_of(zh)  # the file keeps both languages
    director.get("/?lang=en")
    en = director.post("/console/drafts", data={"csrf": token_of(director)}, files={"source": ("青溪.txt", MINI)}).text
    points = en.split('<ol class="open-points">', 1)[1].split("</ol>", 1)[0]
    assert "Which year? (the text does not say)" in points and "是哪一年" not in points

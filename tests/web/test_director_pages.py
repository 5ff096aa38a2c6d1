"""What a director reads (#31 item 7): the audit page in words and pages, the grid's short
refusals and "already there", and round counters that follow the entries."""

from __future__ import annotations

import html
import re

from tests.web.conftest import Site
from tests.web.test_console import grid_post, token_of
from yisai.services.context import open_context
from yisai.services.identity import Actor
from yisai.services.publishing import audit_log


def _board(site: Site, board: int) -> dict:
    boards = site.client.get("/api/events/1/rounds/jia/1").json()["groups"][0]["boards"]
    return next(b for b in boards if b["board"] == board)


def _rows(page: str) -> list[str]:
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr>(.*?)</tr>", body, re.S)


def _cells(row: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_audit_page_names_the_game_and_shows_old_to_new_in_chinese(site: Site) -> None:
    referee = site.login("referee")
    b3 = _board(site, 3)
    assert grid_post(referee, 3, "1", b3["version"])[0] == 200
    assert grid_post(referee, 3, "2", b3["version"] + 1, note="记录员写错")[0] == 200
    page = site.login("director").get("/console/events/1/audit").text
    newest = _cells(_rows(page)[0])
    # when, who, action, what, change, note
    assert newest[1] == "测试referee (referee)"
    assert newest[2] == "录入成绩"
    assert newest[3] == f"第1轮第3台 {b3['black']['name']} — {b3['white']['name']}"
    assert newest[4] == "成绩: 黑胜 → 白胜"
    assert newest[5] == "记录员写错"
    assert _cells(_rows(page)[1])[4] == "成绩: (未录入) → 黑胜"
    assert '"result"' not in page and "{&#34;" not in page and '{"' not in page  # no raw JSON
    publish = [_cells(r) for r in _rows(page) if "已编排 → 已公布" in r]
    assert publish and publish[0][2:5] == ["修改", "甲组第1轮", "状态: 已编排 → 已公布"]


def test_audit_page_never_shows_personal_data_and_labels_fields(site: Site) -> None:
    page = site.login("director").get("/console/events/1/audit?page=99").text  # past the end: oldest page
    rows = [_cells(r) for r in _rows(page)]
    players = [r for r in rows if r[3].startswith("棋手 ")]
    assert players, rows
    text = " ".join(players[0])
    assert "身份证号: 已登记" in text and "手机: 已登记" in text and "出生日期: 已登记" in text
    assert "330106" not in page and "1390000" not in page  # ID numbers, phones of conftest.people()
    assert "id_number" not in page and "birth_date" not in page


def test_audit_pages_are_fifty_lines_newest_first(site: Site) -> None:
    referee = site.login("referee")
    version = _board(site, 1)["version"]
    assert grid_post(referee, 1, "1", version)[0] == 200
    for i in range(55):  # 55 corrections: enough for a second page whatever the set-up wrote
        code, body = grid_post(referee, 1, "2" if i % 2 == 0 else "1", version + 1 + i, note=f"第{i}次")
        assert code == 200, body
    with open_context(site.db) as ctx, ctx.work(actor=Actor.system()) as work:
        total = len(audit_log(work, "1"))
    director = site.login("director")
    first = director.get("/console/events/1/audit").text
    assert len(_rows(first)) == 50
    assert _cells(_rows(first)[0])[5] == "第54次"
    assert f"共 {total} 条, 第 1 / {-(-total // 50)} 页" in first
    assert 'href="?page=2"' in first
    last_no = -(-total // 50)
    last = director.get(f"/console/events/1/audit?page={last_no}").text
    assert len(_rows(last)) == total - 50 * (last_no - 1)
    oldest = _cells(_rows(last)[-1])
    assert oldest[2:4] == ["新建", "比赛 1"]  # the event's creation is the first line ever written
    assert director.get("/console/events/1/audit?page=0").status_code in (400, 404, 422)


def test_the_result_already_there_is_said_not_refused(site: Site) -> None:
    first, second = site.login("referee"), site.login("director")
    b2 = _board(site, 2)
    assert grid_post(first, 2, "白胜", b2["version"])[0] == 200
    code, body = grid_post(second, 2, "2", b2["version"])  # the same result from a stale page
    assert code == 200 and body.get("unchanged") is True
    assert body["message"] == "第2台已是 白胜, 无需重录" and "未保存" not in body["message"]
    code, body = grid_post(first, 2, "白胜", b2["version"] + 1)  # again, current version, no note
    assert code == 200 and body.get("unchanged") is True
    assert _board(site, 2)["version"] == b2["version"] + 1  # nothing written
    code, body = grid_post(second, 2, "黑胜", b2["version"])  # a different result: still a conflict
    assert code == 409 and body["code"] == "result_conflict"


def test_grid_refusals_are_short_and_say_what_is_accepted(site: Site) -> None:
    referee = site.login("referee")
    b4 = _board(site, 4)
    code, body = grid_post(referee, 4, "黑胜了", b4["version"])
    assert code == 400 and body["code"] == "bad_result"
    assert body["message"] == "第4台: 无法识别“黑胜了”。可输入 1 黑胜、2 白胜、= 和、0 双方弃权, 或 黑超时负、白弃权、B+R 等"
    assert grid_post(referee, 4, "1", b4["version"])[0] == 200
    code, body = grid_post(referee, 4, "2", b4["version"] + 1)
    assert code == 400 and body["code"] == "note_required"
    assert body["message"] == "第4台已有成绩 黑胜; 更正请先在“理由”栏写明理由, 再输入新成绩"
    script = referee.get("/static/grid.js").text
    assert 'data.code !== "result_conflict"' in script and 'input.value = ""' in script


def test_round_counters_follow_the_entries(site: Site) -> None:
    referee = site.login("referee")
    page = referee.get("/console/events/1/rounds/jia/1").text
    assert 'data-poll="/console/events/1/rounds-nav"' in page
    before = referee.get("/console/events/1/rounds-nav").text
    assert re.search(r"第1轮 <span class=\"count\">0/4</span>", before), before
    assert grid_post(referee, 1, "1", _board(site, 1)["version"])[0] == 200
    assert token_of(referee)
    after = referee.get("/console/events/1/rounds-nav").text
    assert re.search(r"第1轮 <span class=\"count\">1/4</span>", after), after
    assert "甲组" in after and 'class="division-rounds"' in after
    assert site.new_client().get("/console/events/1/rounds-nav", follow_redirects=False).status_code in (303, 401)


def test_pairing_too_early_names_the_boards_and_links_the_grid(site: Site) -> None:
    director = site.login("director")
    boards = site.client.get("/api/events/1/rounds/jia/1").json()["groups"][0]["boards"]
    assert grid_post(director, 1, "1", boards[0]["version"])[0] == 200  # board 1 done, 2–4 open
    r = director.post("/console/events/1/pair", data={"csrf": token_of(director), "division": "jia", "round": "2"})
    assert r.status_code == 409
    text = html.unescape(r.text)
    assert "第1轮还有3台没有成绩, 不能编排第2轮" in text
    for b in boards[1:]:
        assert f"第{b['board']}台 {b['black']['name']} — {b['white']['name']}" in text
    assert f"第1台 {boards[0]['black']['name']}" not in text
    assert 'href="/console/events/1/rounds/jia/1"' in r.text and "去录入第1轮成绩" in text


def test_no_fee_is_not_shown_as_unpaid(site: Site) -> None:
    """Seed 002 charges no entry fee: the entry list says so instead of "0元 未缴"."""
    page = site.login("director").get("/console/events/1/entries").text
    assert "0元" not in page and "未缴</td>" not in page
    assert page.count("无需缴费") == 8


def test_the_public_regulation_page_has_no_field_names(site: Site) -> None:
    page = html.unescape(site.client.get("/events/1").text)
    for raw in ("suicide_allowed", "both_forfeit", "分档 jia", "(jia)", "未定 至", "tier_group"):
        assert raw not in page, raw
    assert "报名时间: 截止 2025-04-18 17:00" in page  # the file gives only the closing moment
    assert "（其中自杀规则为默认）" in page  # the file leaves suicide to the default, said in words
    assert "(以下按人数分档: 只适用条件成立的第一档)" in page


def test_the_awards_page_mid_event_says_provisional(site: Site) -> None:
    referee = site.login("referee")
    assert "暂定 (尚未赛完一轮)" in html.unescape(site.client.get("/events/1/awards").text)
    for b in site.client.get("/api/events/1/rounds/jia/1").json()["groups"][0]["boards"]:
        assert grid_post(referee, b["board"], "1", b["version"])[0] == 200
    page = html.unescape(site.client.get("/events/1/awards").text)
    assert "暂定 (第1轮后)" in page  # seed 002 plays 7 rounds: one is complete

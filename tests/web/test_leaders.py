"""A team leader in the console (#31 item 6): the tabs he can use and no others, what comes
after registering on the web, and the own team's check-in."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

from tests.web.conftest import Site
from tests.web.test_console import token_of
from tests.web.test_registration import _team_002


def _tabs(page: str) -> list[str]:
    nav = page.split('<nav class="tabs">', 1)[1].split("</nav>", 1)[0]
    return [html.unescape(t).strip() for t in re.findall(r">([^<]+)</a>", nav)]


def _register_four_of_six(site: Site):  # type: ignore[no-untyped-def]
    leader = site.login("leader")
    data = _team_002(token_of(leader))
    for k in (1, 2):  # 甲组女 and 乙组男 left empty: 4 of 6
        for key in ("name", "birth", "id", "rank", "cert", "province", "city"):
            data[f"m{k}_{key}"] = ""
    r = leader.post("/console/events/1/register/team", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return leader, unquote(r.headers["location"])


def test_a_leader_sees_only_the_tabs_he_can_use(site: Site) -> None:
    leader = site.login("leader")
    assert _tabs(leader.get("/console/events/1").text) == ["概览", "报名名单", "报名", "申诉", "公开页面"]
    leader, _ = _register_four_of_six(site)  # now bound to 江苏队: its papers and its check-in
    assert _tabs(leader.get("/console/events/1").text) == ["概览", "报名名单", "报名", "报名附件", "报到", "费用",
                                                           "申诉", "公开页面"]  # 费用: his own team's fees (issue 46)
    assert leader.get("/console/events/1/appeals").status_code == 200
    director = site.login("director")
    assert _tabs(director.get("/console/events/1").text) == ["概览与编排", "报名审核", "报名", "队伍", "报名附件",
                                                             "报到", "费用", "申诉", "奖金裁定", "短信通知",
                                                             "操作记录", "公开页面"]


def test_after_registering_the_page_says_what_comes_next(site: Site) -> None:
    _leader, location = _register_four_of_six(site)
    assert "队伍“江苏队”已登记4名队员" in location
    assert ("下一步: 在“报名附件”页上传 统一下发的报名表（按要求填写，加盖公章），盖章后扫描的PDF版或拍照的图片版; "
            "参赛棋手的身份证明") in location
    # 规程: 报满6人的参赛队计算团体成绩 — 4 of 6 is said before the event, not found out after
    assert "本队团体只报4人, 不足6人: 不计团体成绩 (规程: 只计报满人数的队); 队员个人成绩照常" in location


def test_a_full_team_is_not_told_it_is_short(site: Site) -> None:
    leader = site.login("leader")
    r = leader.post("/console/events/1/register/team", data=_team_002(token_of(leader)), follow_redirects=False)
    assert r.status_code == 303, r.text
    location = unquote(r.headers["location"])
    assert "已登记6名队员" in location and "不足" not in location and "下一步" in location


def test_a_bound_leader_checks_in_the_own_team_and_no_other(site: Site) -> None:
    leader, _ = _register_four_of_six(site)
    page = leader.get("/console/events/1/checkin").text
    assert "江苏队" in page and "棋手1" not in page
    assert page.count('value="arrive"') == 4  # a tick button per player of the own team
    ids = re.findall(r'data-player="(\d+)"', page)
    token = token_of(leader)
    r = leader.post("/console/events/1/checkin", data={"csrf": token, "player": ids[0], "action": "arrive"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert f'id="p{ids[0]}" data-player="{ids[0]}" data-arrived="1"' in leader.get("/console/events/1/checkin").text
    # player 1 is the fixture's 棋手1, entered in no team: not his to tick
    r = leader.post("/console/events/1/checkin", data={"csrf": token, "player": "1", "action": "arrive"})
    assert r.status_code == 403 and "领队只能为本队棋手办理报到" in html.unescape(r.text)

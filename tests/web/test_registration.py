"""Team leaders register through the web.

Seed 002 (规程 十三(三)): 各队负责人 register by 2025-04-18 17:00; a province team has at most 6
players in the slots 甲组男 甲组女 乙组男 乙组女 丙组男 丙组女 (甲组 born 2013–2014, 乙组
2015–2017, 丙组 2018–2019), one leader and one coach.
Seed 000: city teams of 3 men + 2 women register 2025-06-01 to 2025-10-08; 中老年组 (born
1955–1980) enter directly and wait for the organisers' approval.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from tests.conftest import REGULATIONS
from tests.web.conftest import Site, id_number
from tests.web.test_console import token_of

SLOTS_002 = [("jia", "M", date(2013, 3, 1)), ("jia", "F", date(2014, 4, 2)), ("yi", "M", date(2015, 5, 3)),
             ("yi", "F", date(2016, 6, 4)), ("bing", "M", date(2018, 7, 5)), ("bing", "F", date(2019, 8, 6))]


def _member(k: int, born: date, gender: str, name: str) -> dict[str, str]:
    return {f"m{k}_name": name, f"m{k}_birth": born.isoformat(),
            f"m{k}_id": id_number(born, 201 + 2 * k + (0 if gender == "M" else 1)),
            f"m{k}_rank": "1段", f"m{k}_cert": f"Z-{k}", f"m{k}_province": "江苏", f"m{k}_city": "南京"}


def _team_002(token: str, births: list[date] | None = None) -> dict[str, str]:
    data = {"csrf": token, "team": "江苏队", "province": "江苏", "leader": "王领队", "coach": "李教练"}
    for k, (_d, g, born) in enumerate(SLOTS_002):
        data.update(_member(k, (births or [])[k] if births else born, g, f"江苏{k + 1}号"))
    return data


def test_province_team_before_the_deadline_and_refused_after(site: Site) -> None:
    leader = site.login("leader")
    page = leader.get("/console/events/1/register").text
    assert all(label in page for label in ("甲组男", "甲组女", "乙组男", "乙组女", "丙组男", "丙组女"))
    token = token_of(leader)
    # a 乙组 boy born in 2013 is not eligible: checked as typed, and nothing is saved
    r = leader.post("/console/events/1/register/check", headers={"X-CSRF-Token": token},
                    json={"division": "yi", "姓名": "小明", "性别": "男", "出生日期": "2013-01-05", "段位": "1段",
                          "证书编号": "X", "地区": "中国大陆"})
    assert r.status_code == 200 and any("2015" in x for x in r.json()["reasons"])
    wrong = [b for _d, _g, b in SLOTS_002]
    wrong[2] = date(2013, 1, 5)
    r = leader.post("/console/events/1/register/team", data=_team_002(token, wrong))
    assert r.status_code == 409 and "未登记任何队员" in r.text and "乙组男" in r.text
    assert "江苏1号" not in site.client.get("/events/1/entries").text
    # the right team on 2025-04-18 16:59 is registered
    site.clock.moment = datetime(2025, 4, 18, 16, 59)
    r = leader.post("/console/events/1/register/team", data=_team_002(token), follow_redirects=False)
    assert r.status_code == 303, r.text
    teams = site.client.get("/api/events/1/entries").json()["teams"]
    assert [(m["slot"], m["name"]) for m in teams[0]["members"]] == [
        ("甲组男", "江苏1号"), ("甲组女", "江苏2号"), ("乙组男", "江苏3号"), ("乙组女", "江苏4号"),
        ("丙组男", "江苏5号"), ("丙组女", "江苏6号")]
    assert teams[0]["leaders"] == ["王领队"] and teams[0]["coaches"] == ["李教练"]
    # The leader's account now stands for 江苏队: a second team from it is refused.
    second = _team_002(token)
    second.update(team="浙江队", province="浙江")
    for k in range(6):
        second[f"m{k}_name"] = f"浙江{k + 1}号"
        second[f"m{k}_id"] = id_number(SLOTS_002[k][2], 501 + 2 * k + (0 if SLOTS_002[k][1] == "M" else 1))
    r = leader.post("/console/events/1/register/team", data=second)
    assert r.status_code == 409 and "每个领队账号对应一支队伍" in r.text
    director = site.login("director")
    assert "江苏3号" in director.get("/console/events/1/entries").text  # the chief referee sees them
    # one minute after 17:00 another province is refused in the regulation's words
    site.clock.moment = datetime(2025, 4, 18, 17, 1)
    assert "报名已截止" in leader.get("/console/events/1/register").text
    data = _team_002(token)
    data.update(team="安徽队", province="安徽")
    for k in range(6):
        data[f"m{k}_name"] = f"安徽{k + 1}号"
        data[f"m{k}_id"] = id_number(SLOTS_002[k][2], 301 + 2 * k + (0 if SLOTS_002[k][1] == "M" else 1))
    r = leader.post("/console/events/1/register/team", data=data)
    assert r.status_code == 409
    assert "报名已截止" in r.text and "各队负责人" in r.text and "2025-04-18 17:00" in r.text
    assert "安徽1号" not in site.client.get("/events/1/entries").text


def _shanhai_event(site: Site) -> int:
    director = site.login("director")
    r = director.post("/console/events", data={"csrf": token_of(director)}, follow_redirects=False,
                      files={"regulation": ("s.toml", (REGULATIONS / "2025-shanhai-cup.toml").read_bytes())})
    assert r.status_code == 303
    return int(re.search(r"/console/events/(\d+)", r.headers["location"]).group(1))  # type: ignore[union-attr]


def _city_team(token: str, name: str) -> dict[str, str]:
    data = {"csrf": token, "team": name, "province": "浙江", "city": "嘉兴", "leader": "赵领队"}
    for k in range(5):  # rows 0-2: men, 3-4: women (3 men + 2 women)
        born = date(1990 + k, 1, 1)
        data.update(_member(k, born, "M" if k < 3 else "F", f"{name}{k + 1}"))
        data.update({f"m{k}_province": "浙江", f"m{k}_city": "嘉兴"})
    return data


def test_city_team_inside_the_window_and_seniors_await_approval(site: Site) -> None:
    site.clock.moment = datetime(2025, 9, 1, 10, 0)
    event = _shanhai_event(site)
    director = site.login("director")
    token = token_of(director)
    r = director.post(f"/console/events/{event}/register/team", data=_city_team(token, "嘉兴队"),
                      follow_redirects=False)
    assert r.status_code == 303, r.text
    body = site.client.get(f"/api/events/{event}/entries").json()
    assert [len(t["members"]) for t in body["teams"]] == [5]
    # a senior's individual entry waits for approval
    r = director.post(f"/console/events/{event}/register/individual", follow_redirects=False, data={
        "csrf": token, "division": "senior", "p_gender": "M", "p_name": "老棋手", "p_birth": "1960-02-02",
        "p_rank": "3段", "p_cert": "S-1", "p_province": "浙江", "p_city": "杭州"})
    assert r.status_code == 303 and "%E7%AD%89%E5%BE%85" in r.headers["location"]  # "等待" (awaiting)
    seniors = [e for e in site.client.get(f"/api/events/{event}/entries").json()["entries"] if e["division"] == "senior"]
    assert [(e["name"], e["status"]) for e in seniors] == [("老棋手", "pending")]
    # after 10-08 the city teams' registration is closed
    site.clock.moment = datetime(2025, 10, 9, 0, 1)
    r = director.post(f"/console/events/{event}/register/team", data=_city_team(token, "湖州队"))
    assert r.status_code == 409 and "报名已截止" in r.text and "2025-10-08" in r.text


def test_a_team_leader_may_not_register_for_another_event(site: Site) -> None:
    leader = site.login("leader")  # bound to event 1
    site.clock.moment = datetime(2025, 9, 1, 10, 0)
    event = _shanhai_event(site)
    assert leader.get(f"/console/events/{event}/register").status_code == 403
    r = leader.post(f"/console/events/{event}/register/team", data=_city_team(token_of(leader), "嘉兴队"))
    assert r.status_code == 403


def test_a_province_team_with_empty_slots_is_registered_with_the_players_it_has(site: Site) -> None:
    """Seed 002 lets a province send fewer than six: the empty rows of the form are empty slots
    (not "找不到表头行" once per empty row); a row typed in part names its slot and field."""
    leader = site.login("leader")
    token = token_of(leader)
    data = _team_002(token)
    for k in (1, 2):  # 甲组女 and 乙组男 left empty
        for key in ("name", "birth", "id", "rank", "cert", "province", "city"):
            data[f"m{k}_{key}"] = ""
    partial = {**data, "m2_birth": "2015-05-03"}  # 乙组男: a birth date and nothing else
    r = leader.post("/console/events/1/register/team", data=partial)
    assert r.status_code == 409 and "表头" not in r.text
    assert "第3名队员(乙组男): 姓名: 姓名不能为空" in r.text
    r = leader.post("/console/events/1/register/team", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    teams = site.client.get("/api/events/1/entries").json()["teams"]
    assert teams[0]["name"] == "江苏队"
    assert [(m["slot"], m["name"]) for m in teams[0]["members"]] == [
        ("甲组男", "江苏1号"), ("乙组女", "江苏4号"), ("丙组男", "江苏5号"), ("丙组女", "江苏6号")]

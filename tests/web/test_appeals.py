"""Appeals (申诉), seed 002: "应在该轮比赛结束20分钟内以书面形式递交，申诉费1000元，胜诉退还，
败诉则不予退还" (规程 十三(二)). The round ends when its last result is entered."""

from __future__ import annotations

from datetime import datetime

from tests.web.conftest import Site
from tests.web.test_console import grid_post, token_of
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.publishing import audit_log


def _file(client, token: str, appellant: str, round_: str = "1"):  # type: ignore[no-untyped-def]
    return client.post("/console/events/1/appeals", data={
        "csrf": token, "division": "jia", "round": round_, "board": "2", "appellant": appellant,
        "subject": "对第2台判罚有异议"}, follow_redirects=False)


def test_appeal_window_fee_decision_and_refund(site: Site) -> None:
    referee = site.login("referee")
    site.clock.moment = datetime(2025, 5, 1, 9, 50)
    leader = site.login("leader")
    token, rtoken = token_of(leader), token_of(referee)
    r = _file(leader, token, "浙江队")  # a team leader appeals on his own team's boards only
    assert r.status_code == 403 and "领队只能为本队的对局申诉" in r.text
    r = _file(referee, rtoken, "浙江队")  # the written appeal, recorded by the referee: window open
    assert r.status_code == 303
    site.clock.moment = datetime(2025, 5, 1, 10, 0)
    for board in range(1, 5):
        assert grid_post(referee, board, "黑胜", 1)[0] == 200  # the last result at 10:00 ends round 1
    site.clock.moment = datetime(2025, 5, 1, 10, 20)
    assert _file(referee, rtoken, "江苏队").status_code == 303  # 20 minutes: still in time
    site.clock.moment = datetime(2025, 5, 1, 10, 21)
    r = _file(referee, rtoken, "广东队")
    assert r.status_code == 409
    assert "2025-05-01 10:00" in r.text and "2025-05-01 10:20" in r.text and "2025-05-01 10:21" in r.text
    page = leader.get("/console/events/1/appeals").text
    assert "1000元" in page and "浙江队" in page and "江苏队" in page and "广东队" not in page
    # the division by its name, round and board in words (issue 22: it showed "jia / 1 / 2")
    assert "<td>甲组 第1轮 第2台</td>" in page and "jia /" not in page
    r = leader.post("/console/events/1/appeals/1", data={"csrf": token, "outcome": "upheld", "decision": "x"})
    assert r.status_code == 403  # only the chief referee decides
    director = site.login("director")
    dtoken = token_of(director)
    r = director.post("/console/events/1/appeals/1", data={"csrf": dtoken, "outcome": "upheld", "decision": "裁判误判"},
                      follow_redirects=False)
    assert r.status_code == 303
    r = director.post("/console/events/1/appeals/2", data={"csrf": dtoken, "outcome": "dismissed",
                                                           "decision": "判罚正确"}, follow_redirects=False)
    assert r.status_code == 303
    page = director.get("/console/events/1/appeals").text
    assert "申诉成立" in page and "已退还" in page and "申诉驳回" in page and "不予退还" in page
    r = director.post("/console/events/1/appeals/1", data={"csrf": dtoken, "outcome": "dismissed", "decision": "再议"})
    assert r.status_code == 409  # decided once
    with open_context(site.db) as ctx, ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as work:
        lines = [(a.action, a.after) for a in audit_log(work, "1") if a.entity == "appeal"]
    assert [a for a, _ in lines] == ["appeal_filed", "appeal_filed", "appeal_decided", "appeal_decided"]
    assert lines[0][1] is not None and lines[0][1]["fee"] == 1000
    assert lines[2][1] is not None and lines[2][1]["refunded"] is True
    assert lines[3][1] is not None and lines[3][1]["refunded"] is False

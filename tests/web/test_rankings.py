"""Seed 002 ranks boys and girls apart (规程: 男女分别录取个人名次; each division has the lists
甲组男子, 甲组女子 and 甲组男女混合排名): the public standings page has one tab per list, the
printed 成绩表 one section per list, both with a 性别 column and no personal data.

A small field worked out by hand: four 甲组 players, three rounds (every pair meets once), the
stronger always wins, strength 女一 > 男一 > 女二 > 男二. Wins 3, 2, 1, 0 (积分 6, 4, 2, 0 at 2 a
win), so the mixed list is 女一 1, 男一 2, 女二 3, 男二 4; the boys' list renumbers it to
男一 1, 男二 2 and the girls' to 女一 1, 女二 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from tests.web.conftest import SEED_002, Site, id_number
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.printing import PrintOptions, build_document
from yisai.services.publishing import publish_round
from yisai.services.results import ranking_lists
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.store import event_rows
from yisai.vocabulary.rank import Rank

STRENGTH = ["女一", "男一", "女二", "男二"]  # best first
BORN = {"女一": date(2013, 2, 3), "男一": date(2013, 5, 6), "女二": date(2014, 7, 8), "男二": date(2014, 9, 10)}


def _field(db: str, clock: Callable[[], datetime]) -> int:
    """A second seed-002 event with the four players, rounds 1–3 played and published."""
    director = Actor.cli("tester", Role.CHIEF_REFEREE)
    with open_context(Settings(database=db, clock=clock)) as ctx:
        with ctx.work(actor=director) as work:
            event = create_event(work, SEED_002, seed=11)
            ids = {}
            for k, name in enumerate(STRENGTH):
                gender = Gender.FEMALE if name.startswith("女") else Gender.MALE
                born = BORN[name]
                saved = register_player(work, event, Player(
                    id="", name=name, gender=gender, birth_date=born,
                    id_number=id_number(born, 401 + 2 * k + (0 if gender is Gender.MALE else 1)),
                    rank=Rank.parse("1段"), certificate_no=f"CERT-77{k}", region="中国大陆",
                    province="江苏", city="苏州", phone=f"1380000{2000 + k}"), division="jia", fee_paid=True)
                ids[saved.player.id] = name
        for n in (1, 2, 3):
            with ctx.work(actor=director) as work:
                paired = pair(work, str(event.id), "jia", n)
                for group, pairing in paired.parts:
                    for b in pairing.boards:
                        black_wins = STRENGTH.index(ids[b.black]) < STRENGTH.index(ids[b.white])
                        record_result(work, str(event.id), "jia", n, b.board, "黑胜" if black_wins else "白胜",
                                      group=group)
                publish_round(work, str(event.id), "jia", n)
    return event.id


def _cells(html: str) -> list[list[str]]:
    rows = re.findall(r"<tr>(.*?)</tr>", html.split('<table class="standings keep-name">', 1)[1].split("</table>")[0], re.S)
    return [[re.sub(r"<.*?>", "", c).strip() for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", r, re.S)] for r in rows]


def test_each_ranking_list_renumbers_the_division_order(site: Site) -> None:
    event_id = _field(site.db, site.clock)
    with open_context(Settings(database=site.db)) as ctx, ctx.work(actor=Actor.system()) as work:
        lists = ranking_lists(work, event_rows.get_event(work.session, event_id), "jia")
    shown = {r.id: [(row.place, row.player.name) for row in r.standings.rows] for r in lists}
    assert [r.id for r in lists] == ["boys", "girls", "mixed"]  # the regulation's order
    assert shown == {"boys": [(1, "男一"), (2, "男二")], "girls": [(1, "女一"), (2, "女二")],
                     "mixed": [(1, "女一"), (2, "男一"), (3, "女二"), (4, "男二")]}
    boys = lists[0].standings
    # 男一 and 男二 are not neighbours in the mixed list: the criterion that parted them there is
    # said. By hand: 总得分 = 积分 + 对手分; 男一 4 + (6 + 2 + 0) = 12, 男二 0 + (6 + 4 + 2) = 12,
    # equal; then 积分 4 against 0.
    assert "低于 第1名 男一: 总得分都相同, 由积分决定: 0 对 4 (高者列前)" in boys.explain("男二").text()


def test_the_standings_page_has_one_tab_per_list_with_gender_and_no_personal_data(site: Site) -> None:
    event_id = _field(site.db, site.clock)
    url = f"/events/{event_id}/standings/jia"
    page = site.client.get(url).text
    for rid, name in (("boys", "甲组男子"), ("girls", "甲组女子"), ("mixed", "甲组男女混合排名（段位授予）")):
        assert f'<a href="?ranking={rid}"' in page and name in page
    # 男女分别录取: the page opens on the regulation's first list, not on the mixed one
    assert 'href="?ranking=boys" aria-current="page"' in page
    head, *rows = _cells(page)
    assert head[:5] == ["名次", "姓名", "性别", "单位", "段位"]
    assert [r[:3] for r in rows] == [["1", "男一", "男"], ["2", "男二", "男"]]
    mixed = site.client.get(url + "?ranking=mixed").text
    assert [r[:3] for r in _cells(mixed)[1:]] == [["1", "女一", "女"], ["2", "男一", "男"], ["3", "女二", "女"],
                                                  ["4", "男二", "男"]]
    girls = site.client.get(url + "?ranking=girls").text
    assert [r[:3] for r in _cells(girls)[1:]] == [["1", "女一", "女"], ["2", "女二", "女"]]
    assert 'href="?ranking=girls&amp;explain=' in girls  # "why" stays in the chosen list
    boys = site.client.get(url + "/fragment?ranking=boys").text  # what the page polls
    assert [r[:3] for r in _cells(boys)[1:]] == [["1", "男一", "男"], ["2", "男二", "男"]]
    why = site.client.get(url + "?ranking=boys&explain=男二").text
    assert "总得分都相同, 由积分决定: 0 对 4 (高者列前)" in why
    api = site.client.get(f"/api/events/{event_id}/standings/jia", params={"ranking": "girls"}).json()
    assert api["ranking"] == "girls" and [r["id"] for r in api["rankings"]] == ["boys", "girls", "mixed"]
    assert [(r["place"], r["name"], r["gender"]) for r in api["rows"]] == [(1, "女一", "F"), (2, "女二", "F")]
    for text in (page, girls, boys, why, str(api)):
        for name, born in BORN.items():
            assert born.isoformat() not in text and born.strftime("%Y%m%d") not in text, name
        assert "CERT-77" not in text and "1380000" not in text


def test_the_printed_standings_have_one_section_per_list(site: Site) -> None:
    event_id = _field(site.db, site.clock)
    with open_context(Settings(database=site.db)) as ctx, ctx.work(actor=Actor.system()) as work:
        doc = build_document(work, event_id, "standings", PrintOptions(division="jia"))
    tables = [t for s in doc.sections for t in s.tables]
    assert [t.title for t in tables] == ["甲组男子 第3轮后成绩", "甲组女子 第3轮后成绩",
                                         "甲组男女混合排名（段位授予） 第3轮后成绩"]
    assert all(s.new_page for s in doc.sections)
    assert [c.title for c in tables[0].columns][:5] == ["名次", "姓名", "性别", "单位", "段位"]
    assert [r[:3] for r in tables[0].rows] == [("1", "男一", "男"), ("2", "男二", "男")]
    assert [r[:3] for r in tables[1].rows] == [("1", "女一", "女"), ("2", "女二", "女")]
    assert [r[:3] for r in tables[2].rows] == [("1", "女一", "女"), ("2", "男一", "男"), ("3", "女二", "女"),
                                                ("4", "男二", "男")]


def test_the_api_refuses_an_unknown_ranking_list_and_names_the_lists(site: Site) -> None:
    event_id = _field(site.db, site.clock)
    r = site.client.get(f"/api/events/{event_id}/standings/jia", params={"ranking": "gilrs"})
    assert r.status_code == 404
    body = str(r.json())
    assert "gilrs" in body and all(rid in body for rid in ("boys", "girls", "mixed"))
    assert "甲组女子" in body


def test_the_registration_page_shows_the_places_taken(site: Site, tmp_path: Path) -> None:
    from tests.services.test_capacity import _regulation

    with open_context(Settings(database=site.db, clock=lambda: datetime(2026, 3, 1, 9, 0))) as ctx, \
            ctx.work(actor=Actor.cli("tester", Role.CHIEF_REFEREE)) as work:
        event = create_event(work, _regulation(tmp_path), seed=2)
        born = date(2014, 3, 1)
        register_player(work, event, Player(
            id="", name="王一", gender=Gender.MALE, birth_date=born, rank=Rank.parse("2段"),
            id_number=id_number(born, 501), certificate_no="C1"), division="dan")
    page = site.login("director").get(f"/console/events/{event.id}/register").text
    # one 段位组 entry of 2; one of 3 in all divisions
    assert "段位组名额: 已报 1 / 2" in page and "全部组别名额: 已报 1 / 3" in page

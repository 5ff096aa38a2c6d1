"""An entry's eligibility reasons on the console's 报名审核 page, in the reader's language: the
store reads them as data in both languages (one cached roster for every reader) and the page
words them (issue 42 item 6)."""

from __future__ import annotations

from datetime import date

from markupsafe import escape

from tests.web.conftest import Site, id_number
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings

# seed 002: 甲组 is born 2013-01-01 … 2014-12-31, so a boy born 2010 is in no division's range
BORN = date(2010, 5, 5)


def test_the_entries_page_words_the_stored_reasons_in_each_language(site: Site) -> None:
    with open_context(Settings(database=site.db, clock=site.clock)) as ctx, \
            ctx.work(actor=Actor.cli("tester", Role.CHIEF_REFEREE)) as w:
        kid = Player(id="", name="超龄棋手", gender=Gender.MALE, birth_date=BORN,
                     id_number=id_number(BORN, 301), certificate_no="CERT-1", region="中国大陆",
                     province="浙江", city="杭州")
        entry = register_player(w, resolve_event(w, "1"), kid, division="jia").entry
        assert entry is not None and entry.reasons
        zh, en = entry.reasons[0].zh, entry.reasons[0].en
    assert "2010-05-05" in zh and "2010-05-05" in en and zh != en
    director = site.login("director")
    page_zh = director.get("/console/events/1/entries?lang=zh").text
    assert escape(zh) in page_zh and escape(en) not in page_zh
    page_en = director.get("/console/events/1/entries?lang=en").text
    assert escape(en) in page_en and escape(zh) not in page_en

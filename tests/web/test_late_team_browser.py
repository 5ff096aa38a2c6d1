"""Issue 43 in a real browser (Debian's chromium through Playwright) at 1280 and 390 px: after
the team deadline the chief referee registers a team late on the web (逾期报名 with a reason),
then replaces one of its members (递补) on the console's team page; a team leader meanwhile
sees the registration page closed instead of a form that would be refused. Run on today's
date, as the README's walkthrough is; screenshots go to the test's tmp dir."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.web.conftest import SEED_002, id_number
from tests.web.server import Server
from tests.web.test_browser import CHROMIUM, DESKTOP, PHONE, _accounts, _login, browser  # noqa: F401
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event, resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import roster_rows
from yisai.vocabulary.rank import Rank

BIRTHS = [date(2013, 3, 1), date(2014, 4, 2), date(2015, 5, 3), date(2016, 6, 4), date(2018, 7, 5),
          date(2019, 8, 6)]
GENDERS = ["M", "F", "M", "F", "M", "F"]
REASON = "因航班取消晚到, 组委会同意"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is installed by scripts/setup.sh")


def _event(db: Path) -> str:
    """Seed 002's event and one 乙组 girl in no team (the incoming player), entered today: late,
    by the chief referee, as the README's `yisai player add … --late --note` does."""
    with open_context(Settings(database=str(db))) as ctx, \
            ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as work:
        event = create_event(work, SEED_002, seed=3)
        born = date(2016, 9, 9)
        saved = register_player(work, resolve_event(work, str(event.id)), Player(
            id="", name="递补小红", gender=Gender.FEMALE, birth_date=born, id_number=id_number(born, 613),
            rank=Rank.parse("1段"), certificate_no="Y-613", region="中国大陆", province="江苏"), division="yi",
            late=True, note="原队员因病退出递补")
    _accounts(db, event_id=1)
    return saved.player.id


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_late_team_and_substitution_in_the_browser(browser, tmp_path: Path, viewport: dict) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "late.sqlite"
    incoming = _event(db)
    width = viewport["width"]

    def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
        page.screenshot(path=str(tmp_path / f"{name}-{width}.png"), full_page=True)

    with Server(db) as server:  # today, long after seed 002's deadline (2025-04-18 17:00)
        base = server.url
        leader = browser.new_context(viewport=viewport).new_page()
        _login(leader, base, "leader")
        leader.goto(f"{base}/console/events/1/register")
        assert "报名已截止" in leader.inner_text("p.error") and "2025-04-18 17:00" in leader.inner_text("p.error")
        assert leader.locator("#teamform").count() == 0 and leader.locator("text=提交报名").count() == 0
        assert "只有裁判长可以逾期报名" in leader.inner_text("#closed-note")
        shot(leader, "register-closed-leader")

        page = browser.new_context(viewport=viewport).new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        _login(page, base, "director")
        page.goto(f"{base}/console/events/1/register")
        assert "报名已截止" in page.inner_text("p.error")
        page.fill("input[name=team]", "江苏队")
        page.fill("input[name=province]", "江苏")
        page.fill("input[name=leader]", "王领队")
        for k, born in enumerate(BIRTHS):
            page.fill(f"input[name=m{k}_name]", f"江苏{k + 1}号")
            page.fill(f"input[name=m{k}_birth]", born.isoformat())
            page.fill(f"input[name=m{k}_id]", id_number(born, 201 + 2 * k + (0 if GENDERS[k] == "M" else 1)))
            page.fill(f"input[name=m{k}_rank]", "1段")
            page.fill(f"input[name=m{k}_cert]", f"Z-{k}")
            page.fill(f"input[name=m{k}_province]", "江苏")
        page.wait_for_function("document.querySelector('tr[data-prefix=m5_] td.state').textContent === '✓'")
        page.check("#late input[name=late]")
        page.fill("#late input[name=note]", REASON)
        shot(page, "register-late-filled")
        page.click("#teamform button[type=submit]")
        page.wait_for_selector("p.ok")
        assert "江苏队" in page.inner_text("p.ok") and "6名队员" in page.inner_text("p.ok")
        shot(page, "register-late-done")

        page.goto(f"{base}/console/events/1/entries")
        row = page.locator("tr", has_text="江苏4号")
        assert f"逾期报名 (裁判长批准: {REASON})" in row.inner_text()

        page.goto(f"{base}/console/events/1/teams")
        page.click("a:text('江苏队')")
        page.wait_for_selector("#replace")
        assert "须先有该席位组别的报名" in page.inner_text("#replace")
        page.select_option("select[name=out]", label="乙组女 江苏4号")
        page.select_option("select[name=in]", incoming)
        page.fill("#replace input[name=note]", "江苏4号发烧退赛")
        shot(page, "replace-filled")
        page.click("#replace button[type=submit]")
        page.wait_for_selector("p.ok")
        assert "递补小红接替江苏4号" in page.inner_text("p.ok")
        seat = page.locator("table.members tr", has_text="乙组女")
        assert "递补小红" in seat.inner_text() and page.locator("table.members", has_text="江苏4号").count() == 0
        shot(page, "replace-done")
        # nothing overflows the viewport sideways on the team page (the table scrolls in its box)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert dialogs == []

        public = browser.new_context(viewport=viewport).new_page()
        public.goto(f"{base}/events/1/entries")
        text = public.inner_text("main")
        assert "递补小红" in text and "江苏4号" not in text
    with open_context(Settings(database=str(db))) as ctx, ctx.work(actor=Actor.system()) as work:
        players = roster_rows.players_by_id(work.session, "1")
        status = {players[e.player_id].name: e.status for e in roster_rows.list_entries(work.session, "1")}
    assert status["江苏4号"] is EntryStatus.WITHDRAWN and status["递补小红"] is EntryStatus.APPROVED

"""#31 item 8 in a real browser at 390×844: a wide standings table scrolls under a fixed place
and name column and says it scrolls; the team registration form fits the phone (one card per
seat). Screenshots go to /tmp/phone-shots/ for review."""

from __future__ import annotations

from pathlib import Path

from tests.web.conftest import NOW, Clock, build
from tests.web.server import Server
from tests.web.test_browser import PHONE, _login, browser, pytestmark  # noqa: F401  (browser: the fixture)
from tests.web.test_rankings import _field

SHOTS = Path("/tmp/phone-shots")



def test_standings_scroll_under_the_place_and_name(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "s.sqlite"
    build(str(db))
    event_id = _field(str(db), Clock(NOW))
    with Server(db) as server:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{server.url}/events/{event_id}/standings/jia?ranking=mixed")
        box = page.locator("#standings .scroll")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # the table is wider than the phone
        assert page.locator("#standings .scroll-hint").is_visible()
        assert "左右滑动" in page.inner_text("#standings .scroll-hint")
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        page.wait_for_timeout(100)
        name = page.locator("#standings tbody tr:first-child td:nth-child(2)")
        place = page.locator("#standings tbody tr:first-child td:nth-child(1)")
        shown = name.bounding_box()
        assert shown is not None and 0 <= shown["x"] < 390 / 2  # still on the left after scrolling
        assert name.inner_text() == "女一" and place.inner_text() == "1"
        assert place.bounding_box()["x"] >= 0  # type: ignore[index]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "standings-scrolled.png"))


def test_the_team_form_fits_a_phone(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "r.sqlite"
    build(str(db))
    with Server(db, now="2025-04-10T09:30:00") as server:
        page = browser.new_context(viewport=PHONE).new_page()
        _login(page, server.url, "director")
        page.goto(f"{server.url}/console/events/1/register")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing off-screen sideways
        first = page.locator("table.register tbody tr").first
        field = first.locator("input[name=m0_name]")
        box = field.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["width"] > 150  # a field a thumb can type in, not a 9-character sliver
        assert "姓名" in first.inner_text() or first.locator("td[data-label=姓名]").count() == 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "register-phone.png"), full_page=True)


def test_my_games_and_sign_out_on_a_phone(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """我的对局 at 390 px: the SGF link of a finished game is on the screen, and 退出登录 is not
    white on white."""
    import json

    from tests.conftest import REGULATIONS
    from tests.web.test_play_browser import sign_up
    from yisai.live.server import read_ticket
    from yisai.qualifier.session import Kind
    from yisai.services.context import open_context
    from yisai.services.events import create_event
    from yisai.services.live import finish_game, live_config, start_game

    db = tmp_path / "q.sqlite"
    with open_context(str(db)) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    with Server(db, now="2025-05-10T12:00", args=("--qualifier", str(event.id), "--dev-outbox")) as srv:
        page = browser.new_context(viewport=PHONE).new_page()
        sign_up(page, srv.url, "13700003333", {"name": "张三丰", "gender": "M", "birth": "1990-03-04",
                                               "region": "浙江杭州", "rank": "3段"})
        ticket = json.loads(page.get_attribute("#play", "data-setup") or "{}").get("ticket", "")
        who = read_ticket("browser-test", ticket)
        assert who
        with open_context(str(db)) as ctx, ctx.work() as w:
            cfg = live_config(w, event.id)
            info, game = start_game(w, cfg, period=1, pool="open", black=(who.player, "张三丰"),
                                    white=("999", "对手名字较长"), start=0.0)
            action = game.act(1, Kind.RESIGN, game.version, 5.0).action
            finish_game(w, cfg, info.id, game, action)
        page.goto(srv.url + "/play/games")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        sgf = page.locator(f'a[href="/play/games/{info.id}.sgf"]')
        box = sgf.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390  # on the screen, no sideways scroll
        out = page.locator(".play-nav button.link")
        colour, background = out.evaluate(
            "b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
        assert colour != "rgb(255, 255, 255)" and colour != background
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "my-games-phone.png"), full_page=True)


def test_round_buttons_and_award_tables_on_a_phone(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Issue 43 item 8 at 390×844: with 21 rounds a division's round buttons stay one line that
    scrolls sideways (the standings table starts on the first screen), and no table whose first
    columns are a group's label (段位申报: 授予) cuts them to the place column's width."""
    db = tmp_path / "p.sqlite"
    build(str(db))
    event_id = _field(str(db), Clock(NOW))
    with Server(db) as server:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{server.url}/events/{event_id}/standings/jia")
        line = page.locator("nav.rounds .division-rounds").first
        one_button = line.locator("a").first.bounding_box()["height"]  # type: ignore[index]
        # the event has 3 published rounds; a 21-round event has 18 more of the same buttons
        line.evaluate("""l => { const a = l.querySelector('a');
            for (let n = 4; n <= 21; n++) { const b = a.cloneNode(true); b.textContent = '第' + n + '轮'; l.appendChild(b); } }""")
        page.wait_for_timeout(100)
        assert line.bounding_box()["height"] < 2 * one_button  # type: ignore[index]  # one line
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page itself does not scroll sideways
        table = page.locator("#standings table").bounding_box()
        assert table is not None and table["y"] < 844 - 200  # its first rows on the first screen
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "standings-21-rounds.png"))
        page.goto(f"{server.url}/events/{event_id}/awards")
        grants = page.locator("main h2:has-text('段位申报') ~ div.scroll table tbody tr td:first-child")
        assert grants.count() > 0
        for cell in grants.all():  # 授予: "个人第1名可申报…" whole, not cut to "个人第"
            assert cell.evaluate("c => c.scrollWidth <= c.clientWidth + 1"), cell.inner_text()
        page.screenshot(path=str(SHOTS / "awards-phone.png"), full_page=True)

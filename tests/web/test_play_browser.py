"""The online qualifier in real browsers (Debian's chromium through Playwright) against the real
`yisai serve --qualifier EVENT --dev-outbox` on a free loopback port.

Two players sign up by mobile number (the code read from the developer outbox), fill in their
profiles, queue and are matched. Game 1 ends by resignation; game 2 by a count: one stone each,
pass, pass, the dead-stone proposal accepted — Chinese area counting (the 359 empty points touch
both colours, so each side gets half of them) gives Black 1 + 179.5 = 180.5 子 of the
361/2 + 3¾ = 184¼ needed with komi 7.5: White wins by 3¾ 子 = 7.5 points. Marking the white stone dead in between shows
Black owning all 361 points (B+353.5). Both players' ladder tabs update by themselves, a third
browser watches game 2 read-only, one player's socket is dropped (automatic reconnection with
resync) and the other's page is closed (the opponent-away notice) and reopened (resync).
The period is injected with YISAI_NOW (2025-05-10 12:00, seed 000's period 1).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from tests.conftest import REGULATIONS
from tests.web.server import Server
from tests.web.test_browser import (
    ARGS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    _shot,
    browser,
    playwright_api,
    pytestmark,
)
from yisai.live.server import TICKET_SECONDS, issue_ticket, read_ticket
from yisai.services.context import open_context
from yisai.services.events import create_event

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

BUNDLE = Path(__file__).resolve().parents[2] / "src/yisai/web/static/build/play.js"
A_PHONE, B_PHONE = "13700001111", "13900002222"
LETTERS = "ABCDEFGHJKLMNOPQRST"
WAIT = 20_000


def vertex(point: str) -> str:
    """The Shudan vertex of a GTP point on 19×19 (y = 0 at the top)."""
    return f'.shudan-vertex[data-x="{LETTERS.index(point[0])}"][data-y="{19 - int(point[1:])}"]'


def sign_up(page: Any, base: str, phone: str, profile: dict[str, str]) -> None:
    page.goto(base + "/play")
    assert page.url.endswith("/play/signin")
    page.fill("#code-form input[name=phone]", phone)
    page.click("#code-form button[type=submit]")
    page.wait_for_selector("p.ok")
    outbox = page.context.new_page()
    outbox.goto(base + "/play/dev/outbox")
    row = outbox.locator("tr", has=outbox.locator(f"td.phone:text-is('{phone}')")).first
    code = re.search(r"验证码为 ?(\d{6})", row.inner_text())
    assert code, row.inner_text()
    outbox.close()
    page.fill("#signin-form input[name=code]", code.group(1))
    page.click("#signin-form button[type=submit]")
    page.wait_for_url(base + "/play/profile")
    page.fill("input[name=name]", profile["name"])
    page.select_option("select[name=gender]", profile["gender"])
    page.fill("input[name=birth]", profile["birth"])
    page.fill("input[name=region]", profile["region"])
    page.fill("input[name=rank]", profile["rank"])
    page.click("form.profile button[type=submit]")
    page.wait_for_url(base + "/play")
    page.wait_for_selector(".play-app[data-conn=open]")


def game(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("window.yisaiPlay.state.game")
    return found


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"window.yisaiPlay && window.yisaiPlay.state.game && window.yisaiPlay.state.game.version >= {version}",
                           timeout=WAIT)


def play_move(page: Any, point: str, *, touch: bool) -> None:
    """A desktop click plays at once; on a touch screen the first tap shows a ghost stone and
    the confirm button sends it."""
    if touch:
        page.tap(vertex(point))
        page.wait_for_selector(".shudan-ghost")
        _shot(page, "play-phone-ghost-stone")
        page.tap("#confirm-move")
    else:
        page.click(vertex(point))


def queue_both(a: Any, b: Any, previous: int | None) -> None:
    a.click("#queue")
    a.wait_for_selector(".side .queued", timeout=WAIT)  # 匹配中: period and waiting time
    assert "匹配中" in a.inner_text(".side .queued") and "第1期" in a.inner_text(".side .queued")
    if previous is None:
        _shot(a, "play-desktop-queued")
    b.click("#queue")
    for p in (a, b):
        p.wait_for_function(f"window.yisaiPlay.state.game && window.yisaiPlay.state.game.id !== {previous or 0} "
                            "&& !window.yisaiPlay.state.game.result", timeout=WAIT)  # fmt: skip


def ladder_row(page: Any, name: str) -> list[str]:
    row = page.locator("#qualifier-lists tr", has=page.locator(f"td:text-is('{name}')")).first
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def test_sign_up_match_play_to_resignation_and_to_a_count_with_a_spectator(browser: Any, tmp_path: Path) -> None:
    assert BUNDLE.exists(), "the board client is built by scripts/setup.sh (npm install, esbuild)"
    db = tmp_path / "qualifier.sqlite"
    with open_context(str(db)) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    # spectators live here (the delay has its own tests in tests/live/test_cluster.py)
    with Server(db, now="2025-05-10T12:00", args=("--qualifier", str(event.id), "--dev-outbox",
                                                  "--spectator-delay", "0")) as srv:
        base = srv.url
        desk = browser.new_context(viewport=DESKTOP)
        phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
        a, b = desk.new_page(), phone.new_page()

        # profile validation, on the phone: every problem named by its field, in Chinese
        b.goto(base + "/play/signin")
        _shot(b, "play-phone-signin")
        sign_up(a, base, A_PHONE, {"name": "王大力", "gender": "M", "birth": "1988-07-01", "region": "浙江杭州", "rank": "3段"})
        sign_up(b, base, B_PHONE, {"name": "李小雪", "gender": "F", "birth": "1999-12-31", "region": "江苏南京", "rank": "1级"})
        b.goto(base + "/play/profile")
        b.fill("input[name=birth]", "2014-03-02")  # now under 18: a guardian's phone is needed
        b.click("form.profile button[type=submit]")
        assert "未满18周岁须填写监护人手机号" in b.inner_text("[data-field=guardian_phone]")
        _shot(b, "play-phone-profile-errors")
        b.goto(base + "/play")
        b.wait_for_selector(".play-app[data-conn=open]")
        assert "公开组" in b.inner_text(".play-head")  # the stored profile (born 1999) is unchanged

        # ---- game 1: matched, Black plays, White resigns (with the confirmation step)
        queue_both(a, b, None)
        g1 = game(a)
        assert game(b)["id"] == g1["id"] and {game(a)["you"], game(b)["you"]} == {"B", "W"}
        black, white = (a, b) if game(a)["you"] == "B" else (b, a)
        names = {"B": game(a)["black"], "W": game(a)["white"]}
        assert set(names.values()) == {"王大力", "李小雪"}
        assert "30:00" in black.inner_text(".clock.black .time") or "29:" in black.inner_text(".clock.black .time")
        assert "3×20" in a.inner_text(".clock.white .time")  # main time + byo-yomi periods shown
        play_move(black, "D4", touch=black is b)
        for p in (a, b):
            wait_version(p, 1)
        assert a.locator(vertex("D4") + " .shudan-stone").count() == 1
        _shot(a, "play-desktop-game")
        _shot(b, "play-phone-game")
        white.click("#resign")
        white.wait_for_selector(".confirm")
        white.click("#resign-yes")
        for p in (a, b):
            p.wait_for_selector(".side .result", timeout=WAIT)
            assert "黑胜" in p.inner_text(".side .result") and "中盘认输" in p.inner_text(".side .result")

        # the ladder tab of each player, left open: it must update by itself
        tabs = [desk.new_page(), phone.new_page()]
        for t in tabs:
            t.goto(f"{base}/events/{event.id}/qualifier")
        first = {names["B"]: 2, names["W"]: -2}
        for t in tabs:
            for name, points in first.items():
                cells = ladder_row(t, name)
                assert cells[2:6] == [str(points), "1" if points > 0 else "0", "1", "0"], cells

        # ---- game 2, with a spectator
        queue_both(a, b, g1["id"])
        g2 = game(a)
        black, white = (a, b) if g2["you"] == "B" else (b, a)
        names2 = {"B": g2["black"], "W": g2["white"]}
        watcher_ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        watcher = watcher_ctx.new_page()
        watcher.goto(base + "/play/watch")
        watcher.click(f"a[href='/play/watch/{g2['id']}']")
        watcher.wait_for_function("window.yisaiPlay && window.yisaiPlay.state.game", timeout=WAIT)
        play_move(black, "D4", touch=black is b)
        wait_version(white, 1)
        play_move(white, "Q16", touch=white is b)
        for p in (a, b, watcher):
            wait_version(p, 2)
        assert watcher.locator("#pass, #resign, #accept, #queue").count() == 0  # read-only
        assert watcher.locator(vertex("Q16") + " .shudan-stone").count() == 1
        _shot(watcher, "play-phone-spectator")

        # a dropped socket reconnects and resyncs by itself
        a.evaluate("window.yisaiPlay.conn.drop()")
        a.wait_for_selector(".play-app[data-conn=lost], .play-app[data-conn=reconnecting]", timeout=WAIT)
        a.wait_for_selector(".play-app[data-conn=open]", timeout=WAIT)
        assert game(a)["version"] == 2 and game(a)["you"] == g2["you"]

        # an expired ticket (they last TICKET_SECONDS): the page fetches a fresh one and reconnects
        ticket = a.evaluate("JSON.parse(document.getElementById('play').dataset.setup).ticket")
        who = read_ticket("browser-test", ticket)
        assert who is not None
        expired = issue_ticket("browser-test", who.player, who.name, who.division, now=time.time() - TICKET_SECONDS - 1)
        with a.expect_response(lambda r: r.url.endswith("/play/ticket") and r.status == 200):
            a.evaluate("([old, expired]) => { const c = window.yisaiPlay.conn; c.url = c.url.replace(old, expired); c.drop(); }",
                       [ticket, expired])  # fmt: skip
        a.wait_for_selector(".play-app[data-conn=open]", timeout=WAIT)
        assert game(a)["version"] == 2 and expired not in a.evaluate("window.yisaiPlay.conn.url")

        # the phone player's page closes: the opponent is told how long they have before an escape
        b.close()
        a.wait_for_selector(".clock .away", timeout=WAIT)
        away = a.inner_text(".clock .away")
        assert "对手已离线" in away and "秒后判逃跑" in away, away
        _shot(a, "play-desktop-opponent-away")
        b = phone.new_page()
        b.goto(base + "/play")
        wait_version(b, 2)  # the reopened page finds its game and resyncs from the full state
        assert game(b)["id"] == g2["id"] and game(b)["you"] == ("W" if g2["you"] == "B" else "B")
        a.wait_for_selector(".clock .away", state="detached", timeout=WAIT)
        black, white = (a, b) if g2["you"] == "B" else (b, a)

        # pass, pass → the scoring phase with the automatic proposal (no stone dead): 1 + 359 / 2
        black.click("#pass")
        wait_version(white, 3)
        white.click("#pass")
        for p in (a, b, watcher):
            p.wait_for_selector(".board-wrap[data-phase=scoring]", timeout=WAIT)
        count = a.inner_text(".scoring .count")
        assert "黑方 180.5 子" in count and "贴 3¾ 子" in count and "黑需 184.25 子" in count and "白胜 7.5目" in count, count
        # marking the white stone dead gives Black all 361 points; unmarking restores the proposal
        black.click(vertex("Q16"))
        a.wait_for_function("document.querySelector('.scoring .count').innerText.includes('黑方 361 子')", timeout=WAIT)
        assert "黑胜 353.5目" in a.inner_text(".scoring .count")
        _shot(a, "play-desktop-scoring")
        _shot(b, "play-phone-scoring")
        black.click(vertex("Q16"))
        a.wait_for_function("document.querySelector('.scoring .count').innerText.includes('黑方 180.5 子')", timeout=WAIT)
        for p in (black, white):
            p.click("#accept")
            if p is black:
                white.wait_for_function("window.yisaiPlay.state.game.accepted && window.yisaiPlay.state.game.accepted.includes('B')",
                                        timeout=WAIT)  # fmt: skip
        for p in (a, b, watcher):
            p.wait_for_selector(".side .result", timeout=WAIT)
            assert "白胜 7.5目" in p.inner_text(".side .result") and "数子" in p.inner_text(".side .result")

        # both ladder tabs show the second game without a reload (polled)
        totals = dict(first)
        totals[names2["W"]] += 2
        totals[names2["B"]] -= 2
        for t in tabs:
            t.wait_for_function("document.querySelectorAll('#qualifier-lists tbody tr td:nth-child(5)').length == 2 && "
                                "[...document.querySelectorAll('#qualifier-lists tbody tr td:nth-child(5)')].every(td => td.innerText == '2')",
                                timeout=WAIT)  # fmt: skip
            for name, points in totals.items():
                assert ladder_row(t, name)[2] == str(points), (name, ladder_row(t, name))
        _shot(tabs[1], "play-phone-ladder")

        # the player's own games with SGF records
        a.goto(base + "/play/games")
        assert a.locator("table.mygames tbody tr").count() == 2
        _shot(a, "play-desktop-my-games")
        sgf2 = desk.request.get(f"{base}/play/games/{g2['id']}.sgf").text()
        assert "RE[W+7.5]" in sgf2 and ";B[dp]" in sgf2 and ";W[pd]" in sgf2 and "KM[7.5]" in sgf2
        assert "RE[B+R]" in desk.request.get(f"{base}/play/games/{g1['id']}.sgf").text()
        assert watcher_ctx.request.get(f"{base}/play/games/{g1['id']}.sgf", max_redirects=0).status == 303
        a.goto(base + "/play?lang=en")
        a.wait_for_selector(".play-app[data-conn=open]")
        assert a.inner_text("#queue") in ("Find a game", "Play again")
        _shot(a, "play-desktop-english")
        for ctx in (desk, phone, watcher_ctx):
            ctx.close()

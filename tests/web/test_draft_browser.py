"""The console's 规程 drafter in a real browser (#32 item 5): an operator uploads a 规程 text on the
console page, reads the open points first and the source beside the draft, corrects a value in the
page and creates the event; desktop and phone (390×844) screenshots are written for review
(``YISAI_SCREENS``, else out/screens)."""

from __future__ import annotations

from pathlib import Path

from tests.web.server import Server
from tests.web.test_accounts_browser import (  # noqa: F401  (browser is a fixture)
    DESKTOP,
    PHONE,
    _login,
    _shot,
    browser,
    pytestmark,
    yisai,
)

TEXT = Path(__file__).resolve().parents[1] / "regulation" / "draft" / "texts" / "team-league.txt"


def test_operator_drafts_corrects_and_creates_an_event(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "fresh.sqlite"
    yisai(db, "account", "add", "admin", "--role", "operator", "--password-stdin", stdin="Admin-pw-2025\n")
    with Server(db, now="2026-03-10T09:00") as server:
        base = server.url
        page = browser.new_context(viewport=DESKTOP).new_page()
        _login(page, base, "admin", "Admin-pw-2025")
        page.set_input_files("form[action='/console/drafts'] input[name=source]", str(TEXT))
        page.click("form[action='/console/drafts'] button[type=submit]")
        page.wait_for_selector(".draft-cols")
        assert "请先确认" in page.inner_text(".draft-open")
        assert "规程没有写明组别" in page.inner_text(".draft-open")
        read = page.locator(".draft-source p.read", has_text="比赛用时")
        assert "stages.main.time_control" in read.inner_text()
        # its tag selects, in the file beside it, that field's own value (#40 item 4)
        read.locator("button.field", has_text="stages.main.time_control").click()
        selected = page.evaluate("() => { const b = document.querySelector('textarea.toml');"
                                 " return b.value.slice(b.selectionStart, b.selectionEnd); }")
        assert selected.startswith("time_control = ") and "main_minutes = 45" in selected, selected
        _shot(page, "draft-desktop")
        # the director answers the id question in the page and creates the event
        toml = page.input_value("textarea[name=toml]")
        page.fill("textarea[name=toml]", toml.replace('id = "2026-event"', 'id = "2026-jiangcheng"'))
        page.fill("form[action='/console/drafts/event'] input[name=name]", "江城联赛")
        page.click("button[value=create]")
        page.wait_for_url(base + "/console/events/1*")
        assert "比赛已从规程草稿创建" in page.inner_text("main")
        assert "江城联赛" in page.inner_text("main")

        phone = browser.new_context(viewport=PHONE).new_page()
        _login(phone, base, "admin", "Admin-pw-2025")
        _shot(phone, "draft-upload-phone")  # the upload panel on the 工作台 page
        phone.set_input_files("form[action='/console/drafts'] input[name=source]", str(TEXT))
        phone.click("form[action='/console/drafts'] button[type=submit]")
        phone.wait_for_selector(".draft-cols")
        _shot(phone, "draft-phone")
        wide = phone.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right))""")
        assert wide == [], wide  # nothing wider than the phone

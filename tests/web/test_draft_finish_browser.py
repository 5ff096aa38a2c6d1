"""#40 item 4 in a real browser: a director uploads two real published 规程 of different shapes
(an individual Swiss for children, a team event) from ``../shared/testdata/regulations-real``,
answers every open point through its small form — never touching the TOML — sees the check pass,
creates the event and opens its public page. A field tag selects its own value in the file.
Desktop (1280) and phone (390) screenshots are written for review (``YISAI_SCREENS``, else
out/screens). The corpus is read where it lies, never copied; without it the test skips unless
``CI`` is set."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.web.server import Server
from tests.web.test_accounts_browser import (  # noqa: F401  (browser is a fixture)
    DESKTOP,
    PHONE,
    ROOT,
    SCREENS,
    _login,
    _shot,
    browser,
    pytestmark,
    yisai,
)

TEXTS = ("03-huaxi-shaoer-chizi-jiwei.txt", "13-shanghai-gaoxiao-jiaoshi-team-2013.txt")


def corpus() -> Path:
    path = Path(os.environ.get("YISAI_CORPUS_DIR") or ROOT.parent / "shared" / "testdata" / "regulations-real")
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {path} is missing")
        pytest.skip(f"{path} is absent (clone without ../shared)")
    return path


def _answer_every_point(page, event_id: str) -> int:  # type: ignore[no-untyped-def]
    """Fill each open point's form as a director would: a date, a number within its bounds, the
    choice the default names, a text (the event id in its pattern); a table keeps its default."""
    points = page.locator("ol.open-points > li")
    n = points.count()
    for i in range(n):
        li = points.nth(i)
        default = li.locator(".muted").first.inner_text()
        if li.locator("input[type=date]").count():
            li.locator("input[type=date]").fill("2025-05-02")
        elif li.locator("input[type=number]").count():
            box = li.locator("input[type=number]")
            low = box.get_attribute("min")
            found = re.search(r"默认 (-?\d+(?:\.\d+)?)", default)
            box.fill("2025" if "(year)" in (box.get_attribute("aria-label") or "") else
                     (found.group(1) if found else (low or "1")))
        elif li.locator("select").count():
            select = li.locator("select")
            values = [v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)") if v]
            chosen = next((v for v in values if v in default), values[0])
            select.select_option(chosen)
        elif li.locator("input[type=text]").count():
            box = li.locator("input[type=text]")
            label = box.get_attribute("aria-label") or ""
            text = re.sub(r"^默认 ", "", default.split(" · ")[0]).strip()
            box.fill(event_id if "(id)" in label else ("测试" if not text or text.startswith("（") else text))
        else:
            li.locator("input[type=checkbox]").check()
    return n


@pytest.mark.parametrize("name", TEXTS)
def test_director_finishes_a_real_draft_in_the_browser(browser, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    source = corpus() / name
    db = tmp_path / "fresh.sqlite"
    yisai(db, "account", "add", "admin", "--role", "operator", "--password-stdin", stdin="Admin-pw-2025\n")
    stem = name.split("-")[0]
    with Server(db, now="2026-03-10T09:00") as server:
        base = server.url
        page = browser.new_context(viewport=DESKTOP).new_page()
        _login(page, base, "admin", "Admin-pw-2025")
        page.set_input_files("form[action='/console/drafts'] input[name=source]", str(source))
        page.click("form[action='/console/drafts'] button[type=submit]")
        page.wait_for_selector(".draft-cols")
        # the header counts what the lists show
        shown = page.locator("ol.open-points > li").count()
        assert int(page.inner_text("[data-count=open]")) == shown > 0
        read = page.locator(".draft-source p.read").count()
        assert int(page.inner_text("[data-count=read]")) == read
        # a field tag selects its own value: the line that sets that key (or its table)
        tag = page.locator(".draft-source p.read button.field[data-line]").first
        field = tag.inner_text().strip()
        tag.click()
        selected = page.evaluate("() => { const b = document.querySelector('textarea.toml');"
                                 " return b.value.slice(b.selectionStart, b.selectionEnd); }")
        last = field.split(".")[-1]
        assert re.match(rf"\s*(\[\[?[\w.]*{last}\]\]?|{last}\s*=)", selected) or selected.startswith("[["), (field, selected)
        _shot(page, f"draft-{stem}-open-desktop")

        before = page.input_value("textarea[name=toml]")
        event_id = f"2025-corpus-{stem}"
        answered = _answer_every_point(page, event_id)
        page.locator("ol.open-points ~ button[value=apply]").click()
        page.wait_for_selector(".draft-ok")  # the check passed: every point answered
        assert page.locator("ol.open-points").count() == 0
        assert int(page.inner_text("[data-count=open]")) == 0
        assert int(page.inner_text("[data-count=answered]")) == answered == shown
        toml = page.input_value("textarea[name=toml]")
        assert toml != before and f'id = "{event_id}"' in toml and "\n[[open_points]]" not in toml
        _shot(page, f"draft-{stem}-answered-desktop")

        page.fill("form[action='/console/drafts/event'] input[name=name]", f"语料{stem}")
        page.click("button[value=create]")
        page.wait_for_url(re.compile(re.escape(base) + r"/console/events/\d+"))
        assert "比赛已从规程草稿创建" in page.inner_text("main")
        number = re.search(r"/console/events/(\d+)", page.url)
        assert number
        public = browser.new_context(viewport=DESKTOP).new_page()
        public.goto(f"{base}/events/{number.group(1)}")
        assert f"语料{stem}" in public.inner_text("main")
        _shot(public, f"draft-{stem}-public-desktop")

        phone = browser.new_context(viewport=PHONE).new_page()
        _login(phone, base, "admin", "Admin-pw-2025")
        phone.set_input_files("form[action='/console/drafts'] input[name=source]", str(source))
        phone.click("form[action='/console/drafts'] button[type=submit]")
        phone.wait_for_selector(".draft-cols")
        _shot(phone, f"draft-{stem}-open-phone")
        phone.screenshot(path=str(SCREENS / f"draft-{stem}-open-phone-top.png"))  # the forms at a readable size
        wide = phone.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right))""")
        assert wide == [], wide  # nothing wider than the phone
        public_phone = browser.new_context(viewport=PHONE).new_page()
        public_phone.goto(f"{base}/events/{number.group(1)}")
        _shot(public_phone, f"draft-{stem}-public-phone")

"""From an empty database in a real browser: the first account is made on the command line (as
the README says), then the operator makes the others on the accounts page, binds a team
leader to a team imported from a roster file, and disables an account; desktop and phone
(390×844) screenshots of the page are written for review (``YISAI_SCREENS``, else out/screens)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.formats.roster_files import write_xlsx, xqw_rows
from tests.web.server import ROOT, Server
from tests.web.test_browser import DESKTOP, PHONE, browser, pytestmark  # noqa: F401  (browser: the fixture)

SCREENS = Path(os.environ.get("YISAI_SCREENS") or ROOT / "out" / "screens")
SEED_002 = ROOT / "regulations" / "2025-xiaoqiwang.toml"



def yisai(db: Path, *args: str, stdin: str | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "YISAI_DB": str(db), "YISAI_RESIDENT": "0",
           "YISAI_NOW": "2025-04-10T09:00"}
    done = subprocess.run([sys.executable, "-m", "yisai.cli.app", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _login(page, base: str, login: str, password: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/console/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/console")


def test_operator_manages_accounts_in_the_browser(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "fresh.sqlite"
    yisai(db, "event", "create", "--regulation", str(SEED_002))
    yisai(db, "team", "import", str(write_xlsx(tmp_path / "浙江队.xlsx", xqw_rows())))
    assert "已建立账号 admin (运营)" in yisai(db, "account", "add", "admin", "--role", "operator",
                                          "--password-stdin", stdin="Admin-pw-2025\n")
    with Server(db, now="2025-04-10T09:00") as server:
        base = server.url
        ctx = browser.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        _login(page, base, "admin", "Admin-pw-2025")
        page.click("text=账号管理")
        page.wait_for_url(base + "/console/accounts")
        # a referee
        page.fill("form[action='/console/accounts'] input[name=login]", "li")
        page.fill("form[action='/console/accounts'] input[name=name]", "李裁判")
        page.select_option("form[action='/console/accounts'] select[name=role]", "referee")
        page.fill("form[action='/console/accounts'] input[name=password]", "Li-pw-2025")
        page.click("form[action='/console/accounts'] button[type=submit]")
        page.wait_for_selector("p.ok")
        assert page.inner_text("p.ok") == "已建立账号 li"
        # a team leader bound to the team imported from the roster file
        page.fill("form[action='/console/accounts'] input[name=login]", "zhejiang")
        page.fill("form[action='/console/accounts'] input[name=name]", "周领队")
        page.select_option("form[action='/console/accounts'] select[name=role]", "team_leader")
        page.select_option("form[action='/console/accounts'] select[name=team]", label="浙江队 (#1) · 2025“银边庙山杯”首届中国围棋小棋王大赛")
        page.fill("form[action='/console/accounts'] input[name=password]", "Zj-pw-2025")
        page.click("form[action='/console/accounts'] button[type=submit]")
        page.wait_for_selector("p.ok")
        card = page.locator("li[data-login=zhejiang]")
        assert "浙江队" in card.inner_text() and "领队" in card.inner_text()
        # disable the referee: the card says so and the account can no longer sign in
        page.locator("li[data-login=li] button.warn").click()
        page.wait_for_selector("li[data-login=li].disabled")
        assert "已停用" in page.locator("li[data-login=li]").inner_text()
        page.locator("li[data-login=zhejiang] summary", has_text="重设密码").click()
        _shot(page, "accounts-desktop")
        phone = browser.new_context(viewport=PHONE).new_page()
        _login(phone, base, "admin", "Admin-pw-2025")
        phone.goto(base + "/console/accounts")
        _shot(phone, "accounts-phone")
        wide = phone.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right))""")
        assert wide == [], wide  # nothing wider than the phone
        # the bound leader sees their team's papers at once
        leader = browser.new_context(viewport=PHONE).new_page()
        _login(leader, base, "zhejiang", "Zj-pw-2025")
        leader.goto(base + "/console/events/1/papers")
        assert "陈浩然" in leader.inner_text("main")
        _shot(leader, "accounts-bound-leader-papers-phone")
        refused = browser.new_context(viewport=DESKTOP).new_page()
        refused.goto(base + "/console/login")
        refused.fill("input[name=login]", "li")
        refused.fill("input[name=password]", "Li-pw-2025")
        refused.click("button[type=submit]")
        assert "账号或密码错误" in refused.inner_text("main")

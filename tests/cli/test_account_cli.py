"""`yisai account …` and `yisai round publish|unpublish` through typer's CliRunner on SQLite:
a fresh database gets its first accounts, passwords come only from standard input, a disabled
account cannot sign in, a 领队 is bound to a team registered from a roster file, and a round
paired on the command line is published (and withdrawn) without the web console."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.cli_runner import run_cli as run
from tests.conftest import REGULATIONS
from tests.formats.roster_files import write_xlsx, xqw_rows
from yisai.cli.app import hoist_root_options
from yisai.cli.startup_bench import _prepare
from yisai.services.accounts import authenticate
from yisai.services.context import open_context
from yisai.services.errors import ServiceError
from yisai.services.papers import check_team_access
from yisai.services.publishing import rounds_index

SEED_002 = str(REGULATIONS / "2025-xiaoqiwang.toml")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "y.sqlite"
    monkeypatch.setenv("YISAI_DB", str(path))
    monkeypatch.setenv("YISAI_NOW", "2025-04-10T09:00")
    monkeypatch.delenv("YISAI_DATABASE_URL", raising=False)
    monkeypatch.delenv("YISAI_EVENT", raising=False)
    monkeypatch.delenv("YISAI_ROLE", raising=False)
    monkeypatch.chdir(tmp_path)
    return path


def signs_in(db: Path, login: str, password: str) -> bool:
    with open_context(str(db)) as ctx, ctx.work() as work:
        try:
            authenticate(work, login, password)
        except ServiceError:
            return False
    return True


def test_first_accounts_on_an_empty_database(db: Path) -> None:
    assert "还没有账号" in run("account", "list")
    # the password never comes from the command line: without --password-stdin nothing is made
    assert "请用 --password-stdin" in run("account", "add", "admin", "--role", "operator", code=2)
    assert "密码至少8个字符" in run("account", "add", "admin", "--role", "operator", "--password-stdin",
                                 stdin="short\n", code=2)
    assert "未知角色: boss" in run("account", "add", "x", "--role", "boss", "--password-stdin",
                                 stdin="long-enough\n", code=2)
    out = run("account", "add", "admin", "--role", "operator", "--password-stdin", stdin="Admin-pw-1\n")
    assert "已建立账号 admin (运营)" in out
    # the role may be given in Chinese; the line end is not part of the password
    assert "(裁判长)" in run("account", "add", "wang", "--role", "裁判长", "--name", "王裁判",
                           "--password-stdin", stdin="Wang-pw-12\r\n")
    assert "账号 wang 已存在" in run("account", "add", "wang", "--role", "referee", "--password-stdin",
                                  stdin="Other-pw-1\n", code=1)
    listed = run("account", "list")
    assert "admin" in listed and "王裁判" in listed and "运营" in listed and "可用" in listed
    assert signs_in(db, "wang", "Wang-pw-12") and not signs_in(db, "wang", "Wang-pw-12\r")

    assert "已停用账号 wang" in run("account", "disable", "wang")
    assert not signs_in(db, "wang", "Wang-pw-12")
    assert "已停用" in run("account", "list")
    assert "已恢复账号 wang" in run("account", "enable", "wang")
    assert signs_in(db, "wang", "Wang-pw-12")

    assert "已重设账号 wang 的密码" in run("account", "passwd", "wang", "--password-stdin", stdin="New-pw-123\n")
    assert signs_in(db, "wang", "New-pw-123") and not signs_in(db, "wang", "Wang-pw-12")
    assert "没有账号 nobody" in run("account", "disable", "nobody", code=2)


def test_a_referee_may_not_manage_accounts(db: Path) -> None:
    run("account", "add", "admin", "--role", "operator", "--password-stdin", stdin="Admin-pw-1\n")
    out = run("--role", "referee", "account", "disable", "admin", code=1)
    assert "裁判员无权管理账号" in out


def test_role_after_account_add_is_the_new_accounts_role(db: Path) -> None:
    """The root's --role is hoisted from anywhere, except after `account`, where it is its own."""
    assert hoist_root_options(["account", "add", "li", "--role", "referee", "--lang", "en"]) == [
        "--lang", "en", "account", "add", "li", "--role", "referee"]
    assert hoist_root_options(["--role", "operator", "account", "list"]) == ["--role", "operator", "account", "list"]
    assert hoist_root_options(["pair", "-d", "jia", "--role", "referee"]) == ["--role", "referee", "pair", "-d", "jia"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "YISAI_DB": str(db), "YISAI_RESIDENT": "0"}
    done = subprocess.run([sys.executable, "-m", "yisai.cli.app", "account", "add", "li", "--role", "referee",
                           "--password-stdin"], input="Li-pw-1234\n", env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "已建立账号 li (裁判员)" in done.stdout


def test_a_team_leader_is_bound_to_a_team_from_a_roster_file(db: Path, tmp_path: Path) -> None:
    run("event", "create", "--regulation", SEED_002)
    run("team", "import", str(write_xlsx(tmp_path / "浙江队.xlsx", xqw_rows())))
    assert "浙江队" in run("team", "list")
    out = run("account", "add", "zj", "--role", "team_leader", "--team", "浙江队", "--password-stdin",
              stdin="Leader-pw-1\n")
    assert "已建立账号 zj (领队, 队伍 #1)" in out
    assert "浙江队 (#1)" in run("account", "list")
    with open_context(str(db)) as ctx, ctx.work() as work:
        actor = authenticate(work, "zj", "Leader-pw-1")
        assert (actor.team, actor.event) == ("1", 1)
    with open_context(str(db)) as ctx, ctx.work(actor=actor) as work:
        check_team_access(work, 1, "1")  # what a leader of a team registered in the console may do
    # an account made before the team existed is bound later
    run("account", "add", "late", "--role", "team_leader", "--password-stdin", stdin="Leader-pw-2\n")
    with open_context(str(db)) as ctx:
        with ctx.work() as work:
            unbound = authenticate(work, "late", "Leader-pw-2")
        with pytest.raises(ServiceError, match="只能查看和上传本队的报名附件"), ctx.work(actor=unbound) as w:
            check_team_access(w, 1, "1")
    assert "已绑定 " in run("account", "bind", "late", "--team", "1")
    with open_context(str(db)) as ctx, ctx.work() as work:
        assert authenticate(work, "late", "Leader-pw-2").team == "1"
    assert "只有领队账号可以绑定队伍" in run("account", "add", "r", "--role", "referee", "--team", "1",
                                      "--password-stdin", stdin="Referee-pw1\n", code=2)
    assert "没有队伍“江苏队”" in run("account", "bind", "late", "--team", "江苏队", code=2)


def test_round_publish_and_unpublish_from_the_cli(db: Path) -> None:
    _prepare(db)  # seed 002, four players in 甲组, round 1 paired (not published)

    def published() -> bool:
        with open_context(str(db), now=datetime(2025, 4, 10, 9)) as ctx, ctx.work() as work:
            return rounds_index(work, 1)[0].published

    assert not published()
    assert "裁判员无权发布" in run("--role", "referee", "round", "publish", "-d", "jia", "-r", "1", code=1)
    assert "已公布 甲组 第1轮对阵" in run("round", "publish", "-d", "jia", "-r", "1")
    assert published()
    assert "已撤回 甲组 第1轮对阵的公布" in run("round", "unpublish", "-d", "甲组", "-r", "1", "--note", "编排有误")
    assert not published()
    assert "第2轮尚未编排" in run("round", "publish", "-d", "jia", "-r", "2", code=2)
    run("round", "publish", "-d", "jia", "-r", "1")
    run("result", "黑胜", "-d", "jia", "-r", "1", "-b", "1")
    out = run("round", "unpublish", "-d", "jia", "-r", "1", code=1)
    assert "已录入1台成绩, 不能撤回公布" in out and published()

"""The registration commands end to end through typer's CliRunner (SQLite in a temp dir)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS
from tests.formats.roster_files import write_xlsx, xqw_rows

SEED_002 = str(REGULATIONS / "2025-xiaoqiwang.toml")
SEED_000 = str(REGULATIONS / "2025-shanhai-cup.toml")


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    as_director(monkeypatch, tmp_path / "y.sqlite", "2025-04-10T09:00")
    return run_cli


def test_event_create_list_show(run) -> None:  # type: ignore[no-untyped-def]
    out = run("event", "create", "--regulation", SEED_002, "--seed", "12345")
    assert "已建立比赛 1" in out and "抽签种子: 12345" in out
    assert "2025-xiaoqiwang" in run("event", "list")
    shown = run("event", "show", "1")
    assert "抽签种子: 12345" in shown
    assert "2013-01-01至2014-12-31" in shown and "2018-01-01至2019-12-31" in shown


def test_bad_regulation_exits_2_with_lines(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "x"\nyear = "二〇二五"\n', encoding="utf-8")
    out = run("event", "create", "--regulation", str(bad), code=2)
    assert f"{bad}:2:" in out
    assert "还没有比赛" in run("event", "list")


def test_player_add_entry_refused_then_forced(run) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_000)
    out = run("player", "add", "--name", "王小川", "--gender", "男", "--birth", "2010-08-31",
              "--cert", "ZW1", "--province", "浙江", "--division", "少年组")  # fmt: skip
    assert "#1 少年组:待审核" in out
    assert "出生日期2010-08-31不在少年组范围(2011-09-01至2019-08-31)" in out
    refused = run("entry", "approve", "1", code=1)
    assert "不符合参赛资格, 未批准" in refused and "2010-08-31" in refused
    assert "须写明理由 (请用 --note 写明理由)" in run("entry", "approve", "1", "--force", code=2)
    assert "(裁判长可用 --force --note 说明理由后强制批准)" in refused  # the CLI words the hint with its flags
    assert "已批准报名 #1 (强制)" in run("entry", "approve", "1", "--force", "--note", "特邀外卡")
    listed = run("entry", "list")
    assert "已通过" in listed and "特邀外卡" in listed


def test_player_add_bad_input_names_the_option(run) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_002)
    out = run("player", "add", "--name", "甲", "--gender", "未知", "--birth", "2013-02-30",
              "--id-number", "123", "--division", "丁组", code=2)  # fmt: skip
    assert "--gender: 无法识别的性别“未知”" in out
    assert "--birth: 2013-02-30不是存在的日期" in out
    assert "--id-number: 身份证号应为18位" in out
    assert "--division: 没有名为“丁组”的组别" in out
    assert "0人" in run("player", "list")


def test_reject_withdraw_and_pay(run) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_000)
    run("player", "add", "--name", "周老", "--gender", "男", "--birth", "1960-03-03", "--cert", "Z9",
        "--province", "浙江", "--division", "中老年组")  # fmt: skip
    assert "260元未缴" in run("entry", "list", "--status", "pending")
    assert "已缴费" in run("entry", "pay", "1")
    assert "须写明理由" in run("entry", "reject", "1", "--reason", " ", code=2)
    assert "不予批准: 证书待核" in run("entry", "reject", "1", "--reason", "证书待核")
    assert "已退赛" in run("entry", "withdraw", "1")
    assert "不能改为已通过" in run("entry", "approve", "1", code=2)
    assert "没有编号为9的报名" in run("entry", "approve", "9", code=2)
    assert "--status bogus" in run("entry", "list", "--status", "bogus", code=2)


def test_roster_import_twice_and_team_list(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_002)
    path = str(write_xlsx(tmp_path / "浙江队.xlsx", xqw_rows()))
    first = run("team", "import", path)
    assert "新棋手6人" in first and "新队伍1支" in first
    second = run("player", "import", path)
    assert "新棋手0人" in second and "新报名0项" in second
    teams = run("team", "list")
    assert "甲组男 陈浩然(男)" in teams and "周领队" in teams
    assert "6人" in run("player", "list")


def test_bad_roster_imports_nothing(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_002)
    rows = xqw_rows()
    rows[3][2] = "?"
    out = run("player", "import", str(write_xlsx(tmp_path / "r.xlsx", rows)), code=2)
    assert "未导入任何数据" in out and "报名表 第5行 C列(性别)" in out
    assert "0人" in run("player", "list")


def test_team_add_refused_and_forced(run) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_002)
    run("player", "add", "--name", "甲男", "--gender", "男", "--birth", "2013-05-05", "--cert", "C1",
        "--province", "江苏", "--division", "甲组")  # fmt: skip
    out = run("team", "add", "--name", "江苏队", "--province", "江苏", "--leader", "甲", "--leader", "乙",
              "-m", "1", code=1)  # fmt: skip
    assert "领队2人(甲、乙), 超过限报1人" in out
    assert "找不到棋手“7”" in run("team", "add", "--name", "江苏队", "--province", "江苏", "-m", "7", code=2)
    ok = run("team", "add", "--name", "江苏队", "--province", "江苏", "--leader", "甲", "-m", "1")
    assert "已登记队伍 #1 江苏队, 队员1人" in ok
    assert "甲组男 甲男(男)" in run("team", "list")


def test_template_roster(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = run("template", "roster", "--regulation", SEED_002, "--output", str(tmp_path / "t.xlsx"))
    assert "已生成报名表模板" in out and (tmp_path / "t.xlsx").is_file()
    run("template", "roster", "--regulation", SEED_000)
    assert (tmp_path / "2025-shanhai-cup-报名表.xlsx").is_file()
    assert "须为 .xlsx" in run("template", "roster", "--regulation", SEED_000, "-o", "x.csv", code=2)


def test_db_option_overrides_env(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "other.sqlite"
    run("event", "create", "--regulation", SEED_002, "--db", str(other))
    assert other.is_file()
    assert "还没有比赛" in run("event", "list")
    assert "2025-xiaoqiwang" in run("event", "list", "--db", str(other))


def test_player_add_without_gender_names_the_options_not_sheet_columns(run) -> None:  # type: ignore[no-untyped-def]
    run("event", "create", "--regulation", SEED_002)
    out = run("player", "add", "--name", "张三", "--division", "甲组", "--birth", "2013-05-01", code=2)
    assert "须给出 --gender 或 --id-number" in out
    assert "列" not in out  # the typist has no spreadsheet
    out = run("--lang", "en", "player", "add", "--name", "张三", "--division", "甲组", "--birth", "2013-05-01",
              code=2)
    assert "give --gender or --id-number" in out

"""Every case of issue 16 through the CLI: a clear Chinese (or, with --lang en, English) error
naming the place, exit code 2, no traceback, nothing saved; or correct success."""

from __future__ import annotations

import csv
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.formats import hostile_workbooks as hw
from tests.fuzz.conftest import IN_TIME, assert_clean_exit, player_names, round_games, run
from yisai.formats.sheets import MAX_ROWS
from yisai.record import Result
from yisai.record.parse import parse_result

# ------------------------------------------------------------------ 1. database addresses


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("mysql://u:secret@h/db", "不支持的数据库地址 mysql://…; 支持的数据库: SQLite 文件路径"),
        ("mysql+pymysql://u@h/db", "不支持的数据库地址 mysql+pymysql://…"),
        ("postgresql+nosuchdriver://u@h/db", "不支持的数据库地址 postgresql+nosuchdriver://…"),
        ("postgresql+asyncpg://u@h/db", "不支持的数据库地址 postgresql+asyncpg://…"),  # async: not for the store
        ("postgres://u@h/db", "不支持的数据库地址 postgres://…"),
        ("SQLITE:///x.sqlite", "不支持的数据库地址 SQLITE://…"),
        ("\x1b[31m://x", "不支持的数据库地址 \\x1b[31m://…"),
        ("postgresql://u@h:port/db", "数据库地址无法识别: postgresql://…"),
        ("sqlite://host/x.sqlite", "SQLite 地址不能有主机或用户"),
    ],
)
def test_unsupported_database_addresses(address: str, expected: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for out in (run("event", "list", db=address), run("event", "list", "--db", address)):
        assert_clean_exit(out, (2,))
        assert expected in out.output
        assert "secret" not in out.output
    assert list(tmp_path.iterdir()) == []  # nothing created


def test_uninstalled_driver_is_named_before_sqlalchemy_loads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pg8000" else real(name, *a))
    out = run("event", "list", db="postgresql+pg8000://u@127.0.0.1/db")
    assert_clean_exit(out, (2,))
    assert "数据库驱动 pg8000 未安装 (地址 postgresql+pg8000://…); 支持的数据库" in out.output
    out = run("event", "list", db="postgresql+pg8000://u@127.0.0.1/db", lang="en")
    assert "the database driver pg8000 is not installed" in out.output and "supported databases" in out.output


def test_supported_addresses_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for address in ("plain.sqlite", "sqlite:///url.sqlite", "sqlite+pysqlite:///driver.sqlite"):
        out = run("event", "list", db=address)
        assert_clean_exit(out, (0,))
        assert "还没有比赛" in out.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".sqlite") == [
        "driver.sqlite", "plain.sqlite", "url.sqlite"]


def test_english_refusal() -> None:
    out = run("event", "list", db="mysql://u@h/db", lang="en")
    assert_clean_exit(out, (2,))
    assert "unsupported database address mysql://…; supported databases: an SQLite file path" in out.output


# ------------------------------------------------------------------ sheets: 2, 5, 7


def _roster(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["姓名", "性别", "出生日期", "段位", "证书编号", "地区", "组别"], *rows])
    return path


def _player(i: int) -> list[str]:
    return [f"新选手{i}", "男", "2013-05-01", "1段", f"N{i}", "中国大陆", "甲组"]


def _sheet(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["台次", "结果"], *rows])
    return path


def test_ten_megabyte_cell(paired_db: str, tmp_path: Path) -> None:
    huge = "x" * (10 * 1024 * 1024)
    roster = _roster(tmp_path / "p.csv", [_player(1), [huge, "男", "2013-05-01", "1段", "N2", "中国大陆", "甲组"]])
    out = run("player", "import", str(roster), db=paired_db)
    assert_clean_exit(out, (2,))
    assert "p.csv: 第3行: 有一格超过 131072 个字符" in out.output
    sheet = _sheet(tmp_path / "r.csv", [["1", "黑胜"], ["2", huge]])
    out = run("result", "import", str(sheet), "-d", "jia", "-r", "1", db=paired_db)
    assert_clean_exit(out, (2,))
    assert "r.csv: 第3行: 有一格超过 131072 个字符" in out.output
    assert len(player_names(paired_db)) == 5
    assert all(g.result is Result.UNKNOWN for g in round_games(paired_db) if not g.is_bye)


def test_hundred_thousand_rows_refused_at_once(paired_db: str, tmp_path: Path) -> None:
    roster = _roster(tmp_path / "p.csv", [_player(i) for i in range(100_000)])
    out = run("player", "import", str(roster), db=paired_db)
    assert_clean_exit(out, (2,))
    assert f"p.csv: 第{MAX_ROWS + 1}行: 文件超过 {MAX_ROWS} 行 (含表头) 的上限, 未读取" in out.output
    sheet = _sheet(tmp_path / "r.csv", [[str(i), "黑胜"] for i in range(1, 100_001)])
    out = run("result", "import", str(sheet), "-d", "jia", "-r", "1", db=paired_db, lang="en")
    assert_clean_exit(out, (2,))
    assert f"r.csv: line {MAX_ROWS + 1}: the file has more than {MAX_ROWS} rows" in out.output
    assert len(player_names(paired_db)) == 5
    assert all(g.result is Result.UNKNOWN for g in round_games(paired_db) if not g.is_bye)


def test_unclosed_quote(paired_db: str, tmp_path: Path) -> None:
    roster = tmp_path / "p.csv"
    roster.write_text("姓名,性别,出生日期,组别\n新选手1,男,2013-05-01,甲组\n\"新选手2,男,2013-05-01,甲组\n"
                      "新选手3,男,2013-05-01,甲组\n", encoding="utf-8")
    out = run("player", "import", str(roster), db=paired_db)
    assert_clean_exit(out, (2,))
    assert "p.csv: 第3行: 引号没有闭合" in out.output
    sheet = tmp_path / "r.csv"
    sheet.write_text('台次,结果\n1,黑胜\n2,"白胜\n', encoding="utf-8")
    out = run("result", "import", str(sheet), "-d", "jia", "-r", "1", db=paired_db)
    assert_clean_exit(out, (2,))
    assert "r.csv: 第3行: 引号没有闭合" in out.output
    assert len(player_names(paired_db)) == 5
    assert all(g.result is Result.UNKNOWN for g in round_games(paired_db) if not g.is_bye)


# ------------------------------------------------------------------ SGF: 3, 4


@pytest.mark.parametrize("sz", ["c2b2", "19:19:19", " 19", "１９", "²", "19:x", "-5"])
def test_malformed_sz(sz: str, tmp_path: Path) -> None:
    path = tmp_path / "g.sgf"
    path.write_bytes(f"(;FF[4]SZ[{sz}];B[aa])".encode())
    for args in (("sgf", "check", str(path)), ("sgf", "score", str(path))):
        out = run(*args)
        assert_clean_exit(out, (2,))
        assert f"字节 7: SZ[{sz}] 格式不对" in out.output


def test_million_deep_variations(tmp_path: Path) -> None:
    n = 1_000_000
    path = tmp_path / "deep.sgf"
    path.write_bytes(b"(;FF[4]SZ[19]" + b"(;C[x]" * n + b")" * n + b")")
    out = run("sgf", "check", str(path))
    assert_clean_exit(out, (2,))
    assert "deep.sgf: 格式错误: 字节 60007: 变化图嵌套超过 10000 层" in out.output


# ------------------------------------------------------------------ 6. result words and names

HOSTILE_RESULTS = ["黑胜白胜", "白胜黑胜", "黑方胜负", "黑胜abc", "黑胜-5", "黑胜<b>x</b>", "黑胜\x1b[31m",
                   "黑胜\u202e", "黑胜\U0001f600", "黑中盘胜了"]  # fmt: skip


@pytest.mark.parametrize("word", HOSTILE_RESULTS)
def test_single_result_junk_refused(word: str, paired_db: str) -> None:
    out = run("result", "enter", "-d", "jia", "-r", "1", "-b", "1", "--", word, db=paired_db)
    assert_clean_exit(out, (2,))
    assert "无法识别的成绩" in out.output and "(允许: 黑胜/白胜" in out.output
    assert "\x1b" not in out.output and "\u202e" not in out.output
    assert [g.result for g in round_games(paired_db) if g.board == 1] == [Result.UNKNOWN]


def test_result_sheet_junk_refused_with_row_and_column(paired_db: str, tmp_path: Path) -> None:
    sheet = _sheet(tmp_path / "r.csv", [["1", "黑胜白胜"], ["2", "白胜\x1b[2J"]])
    out = run("result", "import", str(sheet), "-d", "jia", "-r", "1", db=paired_db)
    assert_clean_exit(out, (2,))
    assert "r.csv:r.csv:2:B(结果): 无法识别的成绩\u201c黑胜白胜\u201d (允许: 黑胜/白胜" in out.output
    assert "r.csv:r.csv:3:B(结果): 无法识别的成绩\u201c白胜\\x1b[2J\u201d" in out.output
    assert "\x1b" not in out.output
    assert all(g.result is Result.UNKNOWN for g in round_games(paired_db) if not g.is_bye)


def test_bye_for_a_paired_board_refused(paired_db: str, tmp_path: Path) -> None:
    out = run("result", "enter", "-d", "jia", "-r", "1", "-b", "1", "--", "bye", db=paired_db)
    assert_clean_exit(out, (2,))
    assert "轮空只能用于轮空的台次" in out.output
    sheet = _sheet(tmp_path / "r.csv", [["1", "轮空"]])
    out = run("result", "import", str(sheet), "-d", "jia", "-r", "1", db=paired_db)
    assert_clean_exit(out, (2,))
    assert "r.csv:r.csv:2:B(结果): 轮空只能用于轮空的台次" in out.output and "(允许: 黑胜/白胜" in out.output
    assert all(g.result is Result.UNKNOWN for g in round_games(paired_db) if not g.is_bye)


def test_documented_word_with_spaces_is_saved(paired_db: str) -> None:
    out = run("result", "enter", "-d", "jia", "-r", "1", "-b", "1", "--", " 白 中盘胜\t", db=paired_db)
    assert_clean_exit(out, (0,))
    [game] = [g for g in round_games(paired_db) if g.board == 1]
    assert (game.result, game.played, game.reason) == (Result.WHITE_WINS, True, "中盘胜")
    assert parse_result("白中盘胜").reason == game.reason


def test_names_are_stored_and_shown_without_control_characters(paired_db: str) -> None:
    out = run("player", "add", "--name", "\u202e王\x1b[31m小\x07川\u200b", "--gender", "男", "--birth",
              "2013-05-01", "--division", "jia", db=paired_db, now=IN_TIME)  # fmt: skip
    assert_clean_exit(out, (0,))
    assert "已登记 棋手 #6 王[31m小川" in out.output
    assert "王[31m小川" in player_names(paired_db)
    out = run("player", "list", db=paired_db)
    assert_clean_exit(out, (0,))
    assert not any(ch in out.output for ch in "\x1b\x07\u202e\u200b")


@pytest.mark.parametrize("komi", ["nan", "inf", "-inf", "1e308"])
def test_score_komi_option_must_be_a_komi(komi: str, tmp_path: Path) -> None:
    path = tmp_path / "g.sgf"
    path.write_bytes(b"(;FF[4]SZ[9];B[ee])")
    out = run("sgf", "score", str(path), "--komi", komi)
    assert_clean_exit(out, (2,))
    assert "无效: 贴目须在 -1000 到 1000 之间" in out.output


def test_huge_sgf_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "big.sgf"
    with path.open("wb") as f:
        f.write(b"(;C[")
        f.truncate(30 * 1024 * 1024)  # sparse: 30 MB of NUL bytes after the comment opens
    out = run("sgf", "check", str(path))
    assert_clean_exit(out, (2,))
    assert "big.sgf: 格式错误: 文件有 31457280 字节, 超过上限 20971520 字节 (20 MB)" in out.output


# ------------------------------------------------------------------ issue 30, item 1: workbooks that exhaust calamine


def _cli(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command in a process of its own: on main the probe's file aborted it (SIGABRT)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "YISAI_DB": db, "YISAI_RESIDENT": "0"}
    env.pop("YISAI_DATABASE_URL", None)
    return subprocess.run([sys.executable, "-m", "yisai.cli.app", *args], env=env, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize("ref", ["XFD1048576", "GR1000000"])
def test_the_probes_workbook_is_refused_by_team_and_result_import(paired_db: str, tmp_path: Path, ref: str) -> None:
    path = hw.one_cell_at(tmp_path / "probe.xlsx", ref)
    for args in (("team", "import", str(path)), ("player", "import", str(path)),
                 ("result", "import", str(path), "-d", "jia", "-r", "1")):
        done = _cli(paired_db, *args)
        out = done.stdout + done.stderr
        assert done.returncode == 2, out
        assert f"工作表\u201c成绩\u201d有内容的单元格 {ref}, 超过上限 (最多 200 列、第 100000 行" in out
        assert "Traceback" not in out
    assert len(player_names(paired_db)) == 5
    assert all(g.result is Result.UNKNOWN for g in round_games(paired_db) if not g.is_bye)


def test_a_gigabyte_xls_is_refused_by_the_cli(paired_db: str, tmp_path: Path) -> None:
    done = _cli(paired_db, "--lang", "en", "result", "import", str(hw.xls_corner(tmp_path / "c.xls")),
                "-d", "jia", "-r", "1")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "reading this file needs more than 1024 MB of memory or 60 seconds; refused" in done.stdout + done.stderr

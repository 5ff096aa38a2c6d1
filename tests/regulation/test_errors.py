"""Broken regulation files: every problem reported at once, with the right line, exit code 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.regulation import RegulationError, load, loads

runner = CliRunner()
SHANHAI_TEXT = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
XIAO_TEXT = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<rest>.+)$")


def _issues(text: str) -> list[str]:
    with pytest.raises(RegulationError) as info:
        loads(text, "f.toml")
    return [str(i) for i in info.value.issues]


def _line_of(text: str, needle: str, nth: int = 1) -> int:
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(needle)


def test_wrong_type_names_line_and_field() -> None:
    text = SHANHAI_TEXT.replace("group_rounds = 9", 'group_rounds = "nine"')
    issues = _issues(text)
    assert issues == [f"f.toml:{_line_of(text, 'group_rounds')}: stages.3.format.group_rounds: 应为整数 (如 38)"]


def test_unknown_tiebreak_lists_allowed_names() -> None:
    text = XIAO_TEXT.replace('"sodos", "direct"', '"sodos", "zhisheng"')
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'zhisheng')}: ranking.criteria.3")
    assert "'zhisheng'" in issue and "'direct'" in issue and "'sos_cut'" in issue


def test_impossible_date_is_a_syntax_error_on_its_line() -> None:
    text = XIAO_TEXT.replace("born_to = 2014-12-31", "born_to = 2014-02-30")
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, '2014-02-30')}: TOML 语法错误")


def test_inverted_and_overlapping_age_windows() -> None:
    text = XIAO_TEXT.replace("born_from = 2015-01-01", "born_from = 2014-06-01")  # 乙组 overlaps 甲组
    text = text.replace("born_to = 2019-12-31", "born_to = 2017-12-31")  # 丙组 inverted
    issues = _issues(text)
    assert any("divisions.1.eligibility.born_from: 年龄段与甲组重叠: 2014-06-01 至 2014-12-31" in i for i in issues)
    assert any("divisions.2.eligibility.born_to: 出生日期范围颠倒" in i for i in issues)
    line = _line_of(text, "born_from = 2014-06-01")
    assert any(i.startswith(f"f.toml:{line}:") for i in issues)


def test_prize_table_places_must_match() -> None:
    text = SHANHAI_TEXT.replace("{ from = 9, to = 32, amount = 1000 }", "{ from = 9, to = 30, amount = 1000 }")
    (issue,) = _issues(text)
    assert "prizes.lists.0.places: 奖金表覆盖前30名, 但录取前32名" in issue


def test_missing_field_and_many_errors_at_once() -> None:
    text = SHANHAI_TEXT.replace('name = "公开组"\n', "", 1)
    text = text.replace("komi = 7.5", "komi = 99")
    text = text.replace('divisions = ["open"]', 'divisions = ["open", "nobody"]', 1)
    text = text.replace("kind = \"online_ladder\"", "kind = \"ladder\"")
    issues = _issues(text)
    joined = "\n".join(issues)
    assert "divisions.0.name: 缺少必填项" in joined
    assert "rules.komi: 数值超出范围: 99 (应 ≤ 50.0)" in joined
    assert "未知类型: 'ladder'" in joined
    assert len(issues) >= 3
    for i in issues:
        assert LINE.match(i), i


def test_unknown_reference_lists_allowed_values() -> None:
    text = SHANHAI_TEXT.replace('ranking = "women"\nplaces = 6', 'ranking = "ladies"\nplaces = 6')
    (issue,) = _issues(text)
    assert "prizes.lists.1.ranking: 组别 open 没有名次表: ladies (允许: mixed, women)" in issue
    line = _line_of(text, 'ranking = "ladies"')
    assert issue.startswith(f"f.toml:{line}:")


def test_misspelt_key_is_rejected() -> None:
    text = SHANHAI_TEXT.replace("undefeated_champion = false", "undefeated_champoin = false")
    (issue,) = _issues(text)
    assert "ranking.undefeated_champoin: 未知字段" in issue
    assert issue.startswith(f"f.toml:{_line_of(text, 'undefeated_champoin')}:")


def test_not_utf8_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "gbk.toml"
    bad.write_bytes('name = "围棋"\n'.encode("gbk"))
    with pytest.raises(RegulationError) as info:
        load(bad)
    assert "UTF-8" in str(info.value)
    with pytest.raises(RegulationError) as info:
        load(tmp_path / "nope.toml")
    assert "无法读取文件" in str(info.value)


def test_cli_check_exit_code_and_format(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(SHANHAI_TEXT.replace("komi = 7.5", 'komi = "seven"'), encoding="utf-8")
    result = runner.invoke(app, ["regulation", "check", str(f)])
    assert result.exit_code == 2
    first = result.output.strip().splitlines()[0]
    m = LINE.match(first)
    assert m and m.group("file") == str(f) and "rules.komi" in m.group("rest")
    result = runner.invoke(app, ["regulation", "show", str(f)])
    assert result.exit_code == 2

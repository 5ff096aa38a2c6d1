"""Broken regulation files: every problem reported at once, with the right line, exit code 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of as _issues
from tests.regulation_text import line_of as _line_of
from yisai.cli.app import app
from yisai.formats.regulation_file import load
from yisai.regulation import RegulationError, loads
from yisai.regulation.loader import MAX_REGULATION_BYTES

runner = CliRunner()
SHANHAI_TEXT = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
XIAO_TEXT = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<rest>.+)$")




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
    # the reason is Chinese and says what to check, not the system's "No such file or directory"
    assert "无法读取文件: 文件不存在, 请检查路径" in str(info.value)
    assert "No such file" not in str(info.value)
    with pytest.raises(RegulationError) as info:
        load(tmp_path)  # a folder given for a file
    assert "这是一个文件夹" in str(info.value)


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


def test_deeply_nested_arrays_are_a_located_error_not_a_crash() -> None:
    # 5,000 nested arrays made tomllib recurse past Python's limit (RecursionError traceback).
    deep = "[" * 5000 + "]" * 5000
    text = XIAO_TEXT.replace("events = [", f"events = [{deep},", 1)
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'events = ')}: ")
    assert "嵌套过深" in issue
    # Same for inline tables, and through the CLI: exit 2 with the located message.
    text = XIAO_TEXT.replace('disputes = "', "x = " + "{a=" * 3000 + "1" + "}" * 3000 + '\ndisputes = "', 1)
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'x = ')}: ") and "嵌套过深" in issue


def test_brackets_inside_strings_and_comments_do_not_count_as_nesting() -> None:
    text = XIAO_TEXT.replace('disputes = "', 'disputes = "' + "[" * 40, 1) + "\n# " + "{" * 40 + "\n"
    reg = loads(text, "f.toml")
    assert reg.disputes is not None and reg.disputes.startswith("[" * 40)


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        # points for a loss greater than for a win
        ("loss = 0\n", "loss = 3\n", "scoring.loss", "负局得分 3 不低于胜局得分 2"),
        ("draw = 1\n", "draw = 2\n", "scoring.draw", "和棋得分 2 不低于胜局得分 2"),
        ("forfeit_loss = 0\n", "forfeit_loss = 2\n", "scoring.forfeit_loss", "弃权方得分 2"),
        # a byo-yomi period of 0 seconds
        ("byoyomi_seconds = 20", "byoyomi_seconds = 0", "stages.0.time_control.byoyomi_seconds", "每次读秒为0秒"),
        ("byoyomi_periods = 3", "byoyomi_periods = 0", "stages.0.time_control.byoyomi_periods", "读秒次数为0"),
        ("total_score = { score = 1, sos = 1 }", "total_score = { score = 1, sos = -3 }",
         "ranking.total_score.sos", "应 ≥ 1"),
        ("komi = 7.5", "komi = nan", "rules.komi", "不能是 nan"),
        ("amount = 500", "amount = -5", "prizes.participation.0.amount", "应 ≥ 0"),
        ("max_men = 3", "max_men = 7", "teams.max_men", "超过每队人数上限 6"),
        ("size = 6\n", "size = 7\n", "teams.competitions.0.size", "超过每队人数上限 6"),
        ("{ from = 4, to = 8, amount = 1000 }", "{ from = 4, to = 8, amount = 1000000000 }",
         "prizes.lists.1.rows.3.amount", "应 ≤ 100000000"),
    ],
)
def test_numbers_out_of_their_range_are_refused_on_their_line(old: str, new: str, field: str, words: str) -> None:
    assert old in XIAO_TEXT
    text = XIAO_TEXT.replace(old, new, 1)
    issues = _issues(text)
    hits = [i for i in issues if f": {field}: " in i]
    assert hits, issues
    assert words in hits[0]
    assert hits[0].startswith(f"f.toml:{_line_of(text, new.strip())}:")


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        ("loss = -2", "loss = 2", "stages.0.format.loss", "负局得分 2 不低于胜局得分 2"),
        ("escape = -2", "escape = 0", "stages.0.format.escape", "逃跑方得分 0 高于负局得分 -2"),
        ("open = 38", "open = 0", "stages.0.format.qualifiers.open", "应 ≥ 1"),
        ("round = 10", "round = 12", "stages.3.format.placement_final.round", "应为第10轮"),
    ],
)
def test_ladder_and_final_numbers_are_checked(old: str, new: str, field: str, words: str) -> None:
    assert old in SHANHAI_TEXT, old
    text = SHANHAI_TEXT.replace(old, new, 1)
    issues = _issues(text)
    hits = [i for i in issues if f": {field}: " in i]
    assert hits and words in hits[0], issues


_NO_TEAMS = """\
schema_version = 1
id = "club-open"
name = "俱乐部公开赛"
year = 2025
[issued]
by = "某围棋协会"
on = 2025-03-01
[organisers]
hosts = ["某围棋协会"]
[pairing]
avoid_same = "team"
avoid_rounds = 2
[[divisions]]
id = "open"
name = "公开组"
[[divisions.rankings]]
id = "open"
name = "公开组个人"
[[stages]]
id = "main"
name = "比赛"
kind = "main"
divisions = ["open"]
[stages.format]
kind = "swiss"
rounds = 5
"""


def test_team_avoidance_without_teams_is_refused_with_a_reason() -> None:
    (issue,) = _issues(_NO_TEAMS)
    assert issue.startswith(f"f.toml:{_line_of(_NO_TEAMS, 'avoid_same')}: pairing.avoid_same: ")
    assert "本赛事没有参赛队" in issue and '"club"' in issue
    # avoiding the same club needs no [teams]: accepted
    assert loads(_NO_TEAMS.replace('"team"', '"club"'), "f.toml").pairing.avoid_in(2) == "club"


def test_avoidance_that_would_do_nothing_is_refused() -> None:
    text = XIAO_TEXT.replace('avoid_rounds = "all"', "avoid_rounds = 0")
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'avoid_rounds = 0')}: pairing.avoid_rounds: ")
    assert "不起作用" in issue
    text = XIAO_TEXT.replace('avoid_same = "team"\n', "")
    (issue,) = _issues(text)
    assert "没有设置回避什么" in issue
    text = XIAO_TEXT.replace('avoid_rounds = "all"', 'avoid_rounds = "always"')
    assert any('回避轮数须在0到50之间或为 "all": always' in i for i in _issues(text))


def test_seed_002_avoids_teammates_every_round() -> None:
    reg = loads(XIAO_TEXT, "f.toml")
    assert reg.pairing.avoid_in(1) == reg.pairing.avoid_in(7) == "team"
    assert any(p.topic == "同队回避" for p in reg.open_points)


def test_an_age_band_ranking_without_its_reference_day_is_refused() -> None:
    """中老年组60岁以上 ranks nobody without the day ages are computed on: refused, not ignored."""
    text = SHANHAI_TEXT.replace("min_age = 60\nage_reference = 2025-11-07\n", "min_age = 60\n", 1)
    assert text != SHANHAI_TEXT
    issues = _issues(text)
    assert any("divisions.3.rankings.2.age_reference: 名次表“中老年组60岁以上”限60岁以上, 但未给出计算年龄的日期" in i
               for i in issues), issues


# Issue 30, item 8: tomllib reads integers of any size, and past 4,300 digits Python's int()
# raises ValueError (a traceback in `yisai regulation check`, a 500 on the web's event creation).


@pytest.mark.parametrize(
    "number",
    ["9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000, "1" + "0" * 30, "1_000_000_000_000_000_000_000_000"],
)
def test_a_huge_integer_is_a_located_issue_naming_its_field(number: str) -> None:
    text = XIAO_TEXT.replace("max_mb = 10", f"max_mb = {number}", 1)
    (issue,) = _issues(text)
    assert issue == (f"f.toml:{_line_of(text, 'max_mb = ')}: registration.attachments.max_mb: 数字过大"
                     " (超过24个字符或超出64位整数范围), 未读取 (整数须在 -2^63 到 2^63-1 之间; 数字最多24个字符)")


def test_integers_beyond_64_bits_are_refused_even_when_short() -> None:
    # 2^63 has 19 digits: under the length limit, over TOML's range (found after parsing)
    text = XIAO_TEXT.replace("max_mb = 10", f"max_mb = {2**63}", 1)
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'max_mb = ')}: registration.attachments.max_mb: 数字过大")
    at_edge = XIAO_TEXT.replace("max_mb = 10", f"max_mb = {2**63 - 1}", 1)
    assert "数字过大" not in " ".join(_issues(at_edge))  # within range: the field's own check speaks


def test_long_digit_runs_inside_strings_and_comments_are_text() -> None:
    text = XIAO_TEXT.replace('disputes = "', 'disputes = "' + "9" * 5000, 1) + "\n# " + "9" * 5000 + "\n"
    assert loads(text, "f.toml").disputes.startswith("9" * 5000)  # type: ignore[union-attr]


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(XIAO_TEXT.encode("utf-8") + b"# " + b"x" * MAX_REGULATION_BYTES + b"\n")
    size = big.stat().st_size
    with pytest.raises(RegulationError) as info:
        load(big)
    (issue,) = info.value.issues
    assert str(issue) == (f"{big}:0: 文件有 {size} 字节, 超过规程文件的上限 {MAX_REGULATION_BYTES} 字节 (1 MB), 未读取"
                          " (规程文件通常只有几十 KB; 请检查是否选错了文件)")
    with pytest.raises(RegulationError):
        loads(big.read_bytes(), "big.toml")


def test_cli_reports_the_huge_integer_without_a_traceback(tmp_path: Path) -> None:
    f = tmp_path / "int.toml"
    f.write_text(XIAO_TEXT.replace("max_mb = 10", "max_mb = " + "9" * 5000, 1), encoding="utf-8")
    for args in (["regulation", "check", str(f)], ["event", "create", "--regulation", str(f), "--db",
                                                   str(tmp_path / "e.sqlite")]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "registration.attachments.max_mb: 数字过大" in result.output


def test_toml_syntax_errors_are_worded_in_chinese() -> None:
    # [issued] declared a second time at the end: the line of the second header, and the table named.
    text = XIAO_TEXT + "\n[issued]\n"
    (issue,) = _issues(text)
    assert issue == (f"f.toml:{len(text.splitlines())}: TOML 语法错误: 表 [issued] 写了两次;"
                     " 同一个表只能声明一次, 请把两处的内容合并 (请检查引号、括号与等号)")
    # the same key twice in one table: the second line is the one to delete
    text = XIAO_TEXT.replace("schema_version = 1\n", "schema_version = 1\nschema_version = 1\n", 1)
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'schema_version') + 1}: TOML 语法错误: 这个键已经有值")
    assert "Cannot" not in issue
    # an inline table left open: the brace is named (its words hold braces themselves)
    text = XIAO_TEXT.replace("schema_version = 1\n", "schema_version = 1\nx = { a = 1\n", 1)
    (issue,) = _issues(text)
    assert "TOML 语法错误: 花括号 { 没有闭合; 请补上 }" in issue


@pytest.mark.parametrize(("bad", "words"), [
    ("[issued\n", "表名缺少结尾的 ]"),
    ("[[divisions]\n", "表数组名缺少结尾的 ]]"),
    ('x = "abc\n', "字符串在行尾没有结束"),
    ("x = 2014-02-30\n", "日期或时间无效"),
    ("x = \"a\\qb\"\n", "反斜杠须写成"),
    ("x = '''abc\n", "多行字符串没有结束"),
    ("? = 1\n", "无法识别的语句"),
    ('x = "\\uZZZZ"\n', "十六进制数不是有效的字符"),
    ("x = { a = 1, a = 2 }\n", "花括号 { } 中的键 a 重复"),
    ("x = [1]\nx.y = 1\n", "x 已在行内表 { } 或数组中写定"),
    ("x = \"a\u0001b\"\n", "不允许的控制字符"),
])
def test_every_toml_syntax_error_is_worded_in_chinese(bad: str, words: str) -> None:
    """The parser's reasons (Python's tomllib) each have their Chinese; one it has not is quoted as
    the parser's own words after a Chinese sentence, never bare English inside the message."""
    text = XIAO_TEXT.replace("schema_version = 1\n", "schema_version = 1\n" + bad, 1)
    (issue,) = _issues(text)
    assert "TOML 语法错误: " in issue and words in issue, issue
    head = issue.split("TOML 语法错误: ", 1)[1]
    assert not head[:1].isascii() or head.startswith(("x ", "\\")), issue  # a Chinese sentence leads


def test_a_reason_without_chinese_words_is_marked_as_the_parser_s() -> None:
    from yisai.regulation.loader import _reason_zh

    assert _reason_zh("Something new") == "这一行不符合 TOML 语法 (解析器原文: Something new)"

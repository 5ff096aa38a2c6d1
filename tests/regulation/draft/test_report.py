"""`yisai regulation draft --report`: sentences used / not used, fields drafted / defaulted /
missing. The sentence counts were made by hand from texts/ (one sentence per 。, headings count)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from yisai.cli.app import app

TEXTS = Path(__file__).parent / "texts"


def _report(name: str, *lang: str) -> str:
    result = CliRunner().invoke(app, [*lang, "regulation", "draft", str(TEXTS / name), "--report"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_report_counts_sentences_and_names_the_unused_one() -> None:
    out = _report("round-robin-knockout.txt")
    # 22 lines, the 六 body has two sentences: 23; only 四(一) sets nothing (open entry is the default)
    assert "句子: 共 23 句, 已用 22, 未用 1" in out
    assert "  未用: 四、(一) 杭州市业余围棋爱好者均可报名。" in out
    fields = re.search(r"字段: 起草 (\d+), 默认 (\d+), 缺少 (\d+); 待确认 (\d+) 项", out)
    assert fields is not None
    drafted, defaulted, missing, open_points = map(int, fields.groups())
    # defaults written: the id, rules.superko and cycle_result, the one division's name (the text names none)
    assert (defaulted, missing) == (4, 0)
    assert open_points == 5  # id, 组别, superko, cycle_result, forfeit in SOS
    assert drafted > 40


def test_report_in_english() -> None:
    out = _report("dan-promotion.txt", "--lang", "en")
    assert "sentences: 26 in all, 26 used, 0 not used" in out


def test_a_missing_required_value_is_an_open_point_with_its_default(tmp_path: Path) -> None:
    """A text without an issuing date: the draft writes a default (the first day of play) and an
    open point that says the text gives none, so check accepts the file (issue 40: required values
    the text lacks are open points, not errors)."""
    text = (TEXTS / "dan-promotion.txt").read_text(encoding="utf-8").replace("2026年2月20日", "")
    src = tmp_path / "no-date.txt"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "d.toml"
    result = CliRunner().invoke(app, ["regulation", "draft", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    draft = out.read_text(encoding="utf-8")
    point = draft.split('topic = "发布日期"', 1)[1].split("[[open_points]]", 1)[0]
    assert 'field = "issued.on"' in point and "规程没有落款日期" in point
    check = CliRunner().invoke(app, ["regulation", "check", str(out)])
    assert check.exit_code == 0, check.output
    # the file checks, yet the unanswered questions are not passed over in silence
    asked = draft.count("\nquestion = ")
    assert asked > 0 and f"仍有 {asked} 项待确认" in check.output and "issued.on" in check.output

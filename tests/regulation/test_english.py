"""`--lang en`: the regulation checker and summary speak English with the same layout as Chinese."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.formats.regulation_file import load
from yisai.formats.regulation_summary import summarize
from yisai.i18n import use_language
from yisai.regulation import RegulationError, loads
from yisai.services.errors import InputError
from yisai.services.events import read_regulation_file

runner = CliRunner()
SHANHAI = REGULATIONS / "2025-shanhai-cup.toml"
XIAO = REGULATIONS / "2025-xiaoqiwang.toml"
SHANHAI_TEXT = SHANHAI.read_text(encoding="utf-8")
XIAO_TEXT = XIAO.read_text(encoding="utf-8")
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?:(?P<path>[a-z_]+(?:\.[\w-]+)*): )?(?P<rest>.+)$")
HAN = re.compile(r"[\u3400-\u9fff]")


def _check(args: list[str], env: dict[str, str] | None = None) -> list[re.Match[str]]:
    result = runner.invoke(app, [*args], env=env)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    matches = [LINE.match(line) for line in lines]
    assert all(matches), lines
    return [m for m in matches if m]


# (what is broken, the edit, the field path, English words the director should read)
BROKEN = [
    ("syntax", SHANHAI_TEXT, 'name = "公开组"', 'name = "公开组', "",
     "TOML syntax error: ", "(check quotes, brackets and equals signs)"),
    ("unknown field", SHANHAI_TEXT, "undefeated_champion = false", "undefeated_champoin = false",
     "ranking.undefeated_champoin", "unknown field (check the spelling)", ""),
    ("wrong type", SHANHAI_TEXT, "group_rounds = 9", 'group_rounds = "nine"',
     "stages.3.format.group_rounds", "should be a whole number", "(e.g. 38)"),
    ("out of range", SHANHAI_TEXT, "komi = 7.5", "komi = 99",
     "rules.komi", "out of range: 99", "(must be ≤ 50.0)"),
    ("cross-field: a loss above a win", XIAO_TEXT, "loss = 0\n", "loss = 3\n",
     "scoring.loss", "a loss scores 3, no less than the 2 for a win", "(must be win > draw ≥ loss)"),
    ("cross-field: byo-yomi of 0 s", XIAO_TEXT, "byoyomi_seconds = 20", "byoyomi_seconds = 0",
     "stages.0.time_control.byoyomi_seconds", "3 byo-yomi periods, but each lasts 0 seconds",
     "(must be > 0 seconds)"),
    ("cross-field: unknown ranking", SHANHAI_TEXT, 'ranking = "women"\nplaces = 6', 'ranking = "ladies"\nplaces = 6',
     "prizes.lists.1.ranking", "division open has no ranking: ladies", "(allowed: mixed, women)"),
    ("validator", XIAO_TEXT, "total_score = { score = 1, sos = 1 }", "total_score = { score = 1, direct = 1 }",
     "ranking.total_score", "the total score formula cannot use total_score, direct or lot", ""),
]


@pytest.mark.parametrize(("what", "text", "old", "new", "path", "problem", "allowed"), BROKEN, ids=[b[0] for b in BROKEN])
def test_check_in_english_keeps_file_line_and_path(
    tmp_path: Path, what: str, text: str, old: str, new: str, path: str, problem: str, allowed: str
) -> None:
    assert text.count(old) >= 1, old
    f = tmp_path / "bad.toml"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(n for n, ln in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if new.split("\n")[0] in ln)
    zh = _check(["regulation", "check", str(f)])
    en = _check(["--lang", "en", "regulation", "check", str(f)])
    assert [(m["file"], m["line"], m["path"]) for m in en] == [(m["file"], m["line"], m["path"]) for m in zh]
    hits = [m for m in en if (m["path"] or "") == path]
    assert hits, [m.group(0) for m in en]
    assert hits[0]["file"] == str(f) and int(hits[0]["line"]) == line
    assert hits[0]["rest"].startswith(problem) and hits[0]["rest"].endswith(allowed)
    for m in en:  # no Chinese left in the English words (the edits above bring none in)
        assert not HAN.search(m["rest"].replace(new, "")), m.group(0)
    assert all(HAN.search(m["rest"]) for m in zh), "Chinese stays the default"


def test_chinese_is_still_the_default_word_for_word(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(SHANHAI_TEXT.replace("komi = 7.5", "komi = 99"), encoding="utf-8")
    (m,) = _check(["regulation", "check", str(f)])
    assert m["rest"] == "数值超出范围: 99 (应 ≤ 50.0)"
    (m,) = _check(["regulation", "check", str(f)], env={"YISAI_LANG": "en"})
    assert m["rest"] == "out of range: 99 (must be ≤ 50.0)"


def test_encoding_nesting_and_unreadable_file_in_english(tmp_path: Path) -> None:
    gbk = tmp_path / "gbk.toml"
    gbk.write_bytes('name = "围棋"\n'.encode("gbk"))
    nested = tmp_path / "deep.toml"
    nested.write_text("x = " + "[" * 40 + "]" * 40 + "\n", encoding="utf-8")
    with use_language("en"):
        for path, words in [
            # 围 in GBK (CE A7) happens to be valid UTF-8; 棋 (C6 E5) at byte 10 is not
            (gbk, "not UTF-8 encoded (byte 10) (save the file as UTF-8)"),
            (nested, "arrays or inline tables nested too deep (more than 16 levels)"),
            (tmp_path / "nope.toml", "cannot read the file: "),
        ]:
            with pytest.raises(RegulationError) as info:
                load(path)
            (issue,) = info.value.issues
            assert words in str(issue), str(issue)
            assert not HAN.search(str(issue))


def test_issues_keep_both_languages_for_later_readers(tmp_path: Path) -> None:
    text = SHANHAI_TEXT.replace("komi = 7.5", "komi = 99")
    with pytest.raises(RegulationError) as info:
        loads(text, "f.toml")  # raised in Chinese ...
    (issue,) = info.value.issues
    with use_language("en"):  # ... read in English
        assert str(info.value) == issue.text.en == f"f.toml:{issue.line}: rules.komi: out of range: 99 (must be ≤ 50.0)"
    assert issue.text.zh == f"f.toml:{issue.line}: rules.komi: 数值超出范围: 99 (应 ≤ 50.0)"
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_regulation_file(f)
    assert err.value.render_details("en") == [f"{f}:{issue.line}: rules.komi: out of range: 99 (must be ≤ 50.0)"]
    assert err.value.render_details("zh") == [f"{f}:{issue.line}: rules.komi: 数值超出范围: 99 (应 ≤ 50.0)"]


def _content(path: Path) -> str:
    """Everything the regulation itself says (the file, and the model with its defaults)."""
    reg = load(path)
    return path.read_text(encoding="utf-8") + json.dumps(reg.model_dump(mode="json"), ensure_ascii=False)


CJK_RUN = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3001-\u3003\u3008-\u3011·“”]+")


@pytest.mark.parametrize("path", [SHANHAI, XIAO], ids=["shanhai", "xiaoqiwang"])
def test_show_in_english_translates_the_framing_and_keeps_the_content(path: Path) -> None:
    zh = runner.invoke(app, ["regulation", "show", str(path)])
    en = runner.invoke(app, ["--lang", "en", "regulation", "show", str(path)])
    assert zh.exit_code == en.exit_code == 0
    zh_lines, en_lines = zh.output.splitlines(), en.output.splitlines()
    assert len(en_lines) == len(zh_lines)  # line for line, so both can be ticked off the printed text
    headings = [ln for ln in en_lines if ln.startswith("【")]
    assert len(headings) == len([ln for ln in zh_lines if ln.startswith("【")])
    assert "【Schedule】" in headings and "【Places and prizes】" in headings and "【赛程】" in zh_lines
    content = _content(path)
    for line in en_lines:
        for run in CJK_RUN.findall(line.replace("【", "").replace("】", "")):
            assert run in content, f"untranslated framing text {run!r} in: {line}"


def test_show_in_english_reads_like_the_regulation() -> None:
    reg = load(SHANHAI)
    with use_language("en"):
        lines = summarize(reg)
    final = reg.stage("final")
    assert f"Phase 2 {final.name} [final] 2025-11-07 to 2025-11-11" in lines
    assert "  - place 1: 60000 yuan" in lines
    assert "  - time: 30 min + byo-yomi 3 × 20 s, loss on time" in lines


def test_show_names_every_team_tie_break(tmp_path: Path) -> None:
    # Every allowed tie-break has its words (the summary once failed on one with a KeyError);
    # board_points on a sum of scores is refused now (tests/regulation/test_team_match_checks.py).
    f = tmp_path / "bp.toml"
    f.write_text(SHANHAI_TEXT.replace('tie_breaks = ["sos", "best_place", "next_place"]',
                                      'tie_breaks = ["cumulative", "lot"]'), encoding="utf-8")
    zh = runner.invoke(app, ["regulation", "show", str(f)])
    en = runner.invoke(app, ["--lang", "en", "regulation", "show", str(f)])
    assert zh.exit_code == en.exit_code == 0, zh.output
    assert "相同依次比较累进分之和、抽签(按比赛种子)" in zh.output
    assert "ties broken by sum of cumulative scores, lot (drawn with the event's seed)" in en.output


def test_regulation_help_in_english() -> None:
    result = runner.invoke(app, ["--lang", "en", "regulation", "check", "--help"])
    assert result.exit_code == 0
    assert "FILE:LINE: field: problem (allowed)" in " ".join(result.output.split())
    assert not HAN.search(result.output)

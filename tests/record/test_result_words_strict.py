"""A result is exactly one documented word: nothing is read from a prefix (issue 16, item 6)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from yisai.i18n import set_language
from yisai.record import Result
from yisai.record.parse import ParsedResult, ResultSyntaxError, bye_mismatch, parse_result
from yisai.record.text import clean_text, shown


@pytest.fixture(autouse=True)
def _chinese() -> Iterator[None]:
    set_language("zh")
    yield
    set_language("zh")


HOSTILE = [
    "黑胜白胜",  # contradictory
    "白胜黑胜",
    "黑方胜负",
    "黑胜abc",
    "黑胜-5",
    "黑胜<b>x</b>",
    "黑胜\x1b[31m",  # terminal escape
    "黑胜\x1b]0;title\x07",
    "黑胜\u202e",  # right-to-left override
    "黑胜\u2066x",
    "黑胜\U0001f600",  # emoji
    "黑中盘胜了",
    "黑胜\x00",
    "黑胜\u200b",
    "黑\u202e胜",
    "B+R\x1b[0m",
    "B+Rabc",
    "W+-1",
    "B+0",  # a zero margin is not a win
    "黑胜0目",
    "黑胜1/3子",  # quarters and halves only
    "黑胜²",  # superscript digit: int() would read it
    "黑胜٣子",  # Arabic-Indic digit
    "轮空了",
    "bye bye",
    "和和",
    "黑胜" + "1" * 10,
]


@pytest.mark.parametrize("text", HOSTILE)
def test_junk_after_a_result_word_is_refused_with_the_accepted_words(text: str) -> None:
    with pytest.raises(ResultSyntaxError) as info:
        parse_result(text)
    message = str(info.value)
    assert "允许: 黑胜/白胜" in message and "轮空" in message and "双方弃权" in message
    # The echo never carries a raw control character to the terminal.
    assert not any(ch in message for ch in "\x1b\x00\x07\u202e\u2066\u200b")


def test_a_megabyte_of_text_is_refused_at_once_and_quoted_short() -> None:
    with pytest.raises(ResultSyntaxError) as info:
        parse_result("黑胜" + "x" * 1_000_000)
    assert len(str(info.value)) < 1000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Surrounding and inner spaces, tabs, line breaks, U+3000, U+00A0 are forgiven.
        ("  黑胜\t", ParsedResult(Result.BLACK_WINS, True, "")),
        ("\u3000白 中盘胜\n", ParsedResult(Result.WHITE_WINS, True, "中盘胜")),
        ("黑\u00a0胜", ParsedResult(Result.BLACK_WINS, True, "")),
        # Full-width ASCII as a Chinese input method types it, and Latin case.
        ("Ｂ＋Ｒ", ParsedResult(Result.BLACK_WINS, True, "中盘胜")),
        ("？", ParsedResult(Result.UNKNOWN, True, "")),
        ("w+time", ParsedResult(Result.WHITE_WINS, True, "超时判负")),
        # Margins in stones (quarters, halves, 又) and points.
        ("黑胜1又1/4子", ParsedResult(Result.BLACK_WINS, True, "胜1又1/4子")),
        ("白方胜半子", ParsedResult(Result.WHITE_WINS, True, "胜半子")),
        ("黑胜2目半", ParsedResult(Result.BLACK_WINS, True, "胜2目半")),
        ("B+0.5", ParsedResult(Result.BLACK_WINS, True, "胜0.5目")),
        # The loser named: lost, on time (played), forfeit and lateness (not played).
        ("白负", ParsedResult(Result.BLACK_WINS, True, "")),
        ("黑方超时", ParsedResult(Result.WHITE_WINS, True, "超时判负")),
        ("白缺席", ParsedResult(Result.BLACK_WINS, False, "弃权")),
        ("黑迟到", ParsedResult(Result.WHITE_WINS, False, "迟到判负")),
        ("both forfeit", ParsedResult(Result.BOTH_LOSE, False, "双方弃权")),
    ],
)
def test_documented_words(text: str, expected: ParsedResult) -> None:
    assert parse_result(text) == expected


def test_english_message_lists_the_words() -> None:
    set_language("en")
    with pytest.raises(ResultSyntaxError) as info:
        parse_result("黑胜白胜")
    assert str(info.value).startswith("not a result: \u201c黑胜白胜\u201d (allowed: 黑胜/白胜 (Black/White wins")


def test_bye_word_on_a_paired_board_names_the_accepted_words() -> None:
    bye = parse_result("bye")
    message = bye_mismatch(False, bye, 3)
    assert message is not None and message.startswith("轮空只能用于轮空的台次") and "允许: 黑胜/白胜" in message
    assert bye_mismatch(True, bye, 3) is None
    assert bye_mismatch(True, parse_result("黑胜"), 3) == "第3台是轮空, 不需要录入成绩"
    assert bye_mismatch(False, parse_result("黑胜"), 3) is None


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("张\x1b[31m三", "张[31m三"),  # the escape character goes; printable text stays
        ("\u202e三张", "三张"),  # right-to-left override
        ("李\u2066四\u2069", "李四"),  # bidi isolates
        ("王\u200e五\u200f", "王五"),  # LRM / RLM
        ("赵\x00六\x07\x7f\x85\x9b", "赵六"),  # C0, DEL, C1 (U+0085 counts as a line break: a space, then trimmed)
        ("\ufeff孙七\u200b", "孙七"),  # BOM, zero-width space
        ("  Lee\tSe-dol \n", "Lee Se-dol"),  # whitespace tidied
        ("Kim\u2028Ji-seok", "Kim Ji-seok"),  # line separator → space
        ("周\udcff八", "周\ufffd八"),  # lone surrogate (undecodable argv byte) → U+FFFD
        ("陈\U0001f600", "陈\U0001f600"),  # emoji kept
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # a joined emoji sequence kept whole
        ("Müller Ωμέγα Пётр 김지석 山田太郎", "Müller Ωμέγα Пётр 김지석 山田太郎"),  # any script
    ],
)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


def test_shown_escapes_controls_and_cuts() -> None:
    assert shown("黑胜\x1b[31m\u202e") == "黑胜\\x1b[31m\\u202e"
    assert shown("x" * 50, 10) == "x" * 10 + "…"
    assert shown("a\nb", None) == "a\\x0ab"

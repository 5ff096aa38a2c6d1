"""The words referees write on result sheets map to the ledger's terms."""

from __future__ import annotations

import pytest

from yisai.record import Result
from yisai.record.parse import ResultSyntaxError, parse_result


@pytest.mark.parametrize(
    ("text", "result", "played", "reason"),
    [
        ("黑胜", Result.BLACK_WINS, True, ""),
        ("白胜", Result.WHITE_WINS, True, ""),
        ("白中盘胜", Result.WHITE_WINS, True, "中盘胜"),
        ("黑胜3/4子", Result.BLACK_WINS, True, "胜3/4子"),
        ("B+", Result.BLACK_WINS, True, ""),
        ("B+R", Result.BLACK_WINS, True, "中盘胜"),
        ("b+2.5", Result.BLACK_WINS, True, "胜2.5目"),
        ("W+T", Result.WHITE_WINS, True, "超时判负"),  # loss on time is a played game
        ("白超时负", Result.BLACK_WINS, True, "超时判负"),
        ("黑弃权", Result.WHITE_WINS, False, "弃权"),  # the side that forfeits loses, unplayed
        ("白方弃权", Result.BLACK_WINS, False, "弃权"),
        ("B+F", Result.BLACK_WINS, False, "弃权"),
        ("黑迟到判负", Result.WHITE_WINS, False, "迟到判负"),
        ("双方弃权", Result.BOTH_LOSE, False, "双方弃权"),
        ("0-0", Result.BOTH_LOSE, False, "双方弃权"),
        ("和", Result.DRAW, True, ""),
        ("=", Result.DRAW, True, ""),
        ("?", Result.UNKNOWN, True, ""),
    ],
)
def test_result_words(text: str, result: Result, played: bool, reason: str) -> None:
    parsed = parse_result(text)
    assert (parsed.result, parsed.played, parsed.reason) == (result, played, reason)


def test_bye_is_flagged() -> None:
    assert parse_result("轮空").bye


@pytest.mark.parametrize("text", ["", "黑", "B+X", "赢了", "W+1.2.3"])
def test_unknown_words_name_the_allowed_forms(text: str) -> None:
    with pytest.raises(ResultSyntaxError) as info:
        parse_result(text)
    assert "允许" in str(info.value)

"""Read a result as a referee writes it: 黑胜, 白中盘胜, B+R, W+T, 黑弃权, 双方弃权, 和, 轮空 …

Returns the ledger's terms (result, whether the game was played, the reason) so every front end
(CLI, result sheets, web) accepts the same words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from yisai.record.games import Result


@dataclass(frozen=True, slots=True)
class ParsedResult:
    result: Result
    played: bool
    reason: str
    bye: bool = False


class ResultSyntaxError(ValueError):
    pass


_BLACK = ("黑", "黑方", "b", "black")
_WHITE = ("白", "白方", "w", "white")

ACCEPTED = (
    "黑胜/白胜 (黑中盘胜, 黑胜1/4子), B+ / W+ (B+R, B+2.5, W+T 超时), 和/=, "
    "黑弃权/白弃权 (或 B+F 表示白方弃权), 双方弃权 (0-0), 黑超时负/白超时负, 黑迟到负/白迟到负, 轮空, ? (清除)"
)


def parse_result(text: str) -> ParsedResult:
    t = re.sub(r"\s+", "", text).lower()
    if not t:
        raise ResultSyntaxError(f"成绩为空 (允许: {ACCEPTED})")
    if t in ("?", "未赛", "清除", "unknown"):
        return ParsedResult(Result.UNKNOWN, True, "")
    if t in ("轮空", "bye"):
        return ParsedResult(Result.BLACK_WINS, False, "轮空", bye=True)
    if t in ("双方弃权", "0-0", "bothforfeit", "双方负"):
        return ParsedResult(Result.BOTH_LOSE, False, "双方弃权")
    if t in ("和", "和棋", "=", "draw", "jigo", "0.5-0.5"):
        return ParsedResult(Result.DRAW, True, "")
    m = re.fullmatch(r"([bw])\+(.*)", t)
    if m:
        winner = Result.BLACK_WINS if m.group(1) == "b" else Result.WHITE_WINS
        tail = m.group(2)
        if tail in ("f", "forfeit"):
            return ParsedResult(winner, False, "弃权")
        if tail in ("t", "time"):
            return ParsedResult(winner, True, "超时判负")
        if tail in ("r", "resign"):
            return ParsedResult(winner, True, "中盘胜")
        if tail == "" or re.fullmatch(r"\d+(\.\d+)?", tail):
            return ParsedResult(winner, True, f"胜{tail}目" if tail else "")
        raise ResultSyntaxError(f"无法识别的成绩: {text!r} (允许: {ACCEPTED})")
    for side, words, other in (
        (Result.BLACK_WINS, _BLACK, Result.WHITE_WINS),
        (Result.WHITE_WINS, _WHITE, Result.BLACK_WINS),
    ):
        for w in words:
            if not t.startswith(w):
                continue
            rest = t[len(w):]
            if rest.startswith("中盘胜"):
                return ParsedResult(side, True, "中盘胜")
            if rest.startswith("胜"):
                margin = rest[1:]
                return ParsedResult(side, True, f"胜{margin}" if margin else "")
            if rest in ("弃权", "forfeit", "缺席"):
                return ParsedResult(other, False, "弃权")
            if rest in ("超时负", "超时判负", "超时"):
                return ParsedResult(other, True, "超时判负")
            if rest in ("迟到负", "迟到判负", "迟到"):
                return ParsedResult(other, False, "迟到判负")
            if rest in ("负",):
                return ParsedResult(other, True, "")
    raise ResultSyntaxError(f"无法识别的成绩: {text!r} (允许: {ACCEPTED})")

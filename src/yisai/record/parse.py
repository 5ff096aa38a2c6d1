"""Read a result as a referee writes it: 黑胜, 白中盘胜, B+R, W+T, 黑弃权, 双方弃权, 和, 轮空 …

Returns the ledger's terms (result, whether the game was played, the reason) so every front end
(CLI, result sheets, web) accepts the same words.

A result is exactly one of the words below, nothing more: no prefix is read, so ``黑胜白胜``,
``黑胜abc`` or ``黑胜`` followed by a terminal escape are refused, never taken as ``黑胜``. What is
forgiven: surrounding and inner spaces (also tabs, line breaks, the full-width space U+3000 and
the no-break space U+00A0), full-width ASCII as a Chinese input method types it (``Ｂ＋Ｒ``,
``？``), and the case of Latin letters.

The words (``side`` is 黑, 黑方, 白 or 白方; "other" is the opponent of ``side``), each with the
result, whether the game was played, and the reason stored:

- side胜 → side wins, played, ""; side中盘胜 → side wins, played, 中盘胜;
  side胜 + margin → side wins, played, 胜 + margin (``黑胜3/4子`` → 胜3/4子).
- side负 → other wins, played, "".
- side超时负 / side超时判负 / side超时 → other wins, played, 超时判负 (a loss on time is played).
- side弃权 / side缺席 → other wins, not played, 弃权.
- side迟到负 / side迟到判负 / side迟到 → other wins, not played, 迟到判负 (the referee's decision).
- side迟到N分钟 / side迟到N分 / side迟到N (N: 1–3 digits) → the minutes late (``late_minutes``):
  other wins, not played, 迟到判负 as parsed, but a service decides the result from the
  regulation's ``lateness`` rule before anything is stored (``services.lateness``).
- B+ W+ → that side wins, played, ""; B+R / B+Resign → 中盘胜; B+T / B+Time → 超时判负 (played);
  B+F / B+Forfeit → 弃权 (not played); B+2.5 → played, 胜2.5目.
- 和 和棋 = draw jigo 0.5-0.5 → draw, played.
- 双方弃权 双方负 0-0 "both forfeit" → both lose, not played, 双方弃权.
- 轮空 bye → a bye (only on a bye board; the service checks), not played, 轮空.
- ? 未赛 清除 unknown → not entered yet.

A margin is in stones (子: ``3/4子``, ``1又1/4子``, ``1/2子``, ``2子``, ``2.5子``, ``半子``) or points
(目: ``2.5目``, ``2目半``, ``半目``), greater than zero, at most three whole digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from yisai.i18n import Text, TextError
from yisai.record.games import Result
from yisai.record.text import shown


@dataclass(frozen=True, slots=True)
class ParsedResult:
    result: Result
    played: bool
    reason: str
    bye: bool = False
    late_minutes: int | None = None  # side迟到N分钟: the regulation decides (services.lateness)


class ResultSyntaxError(TextError):
    """Text that is no result word; ``text`` holds the message in both languages."""


ACCEPTED = (
    "黑胜/白胜 (也可写 黑方胜; 黑中盘胜, 黑胜3/4子, 黑胜1又1/4子, 黑胜2.5目), 黑负/白负, "
    "B+ / W+ (B+R 中盘胜, B+T 超时, B+F 弃权, B+2.5 胜2.5目), 和 (=), 黑弃权/白弃权, "
    "双方弃权 (0-0), 黑超时负/白超时负, 黑迟到负/白迟到负, 黑迟到17分钟 (按规程迟到时限判定), 轮空 (仅轮空的台次), ? (清除)"
)
ACCEPTED_EN = (
    "黑胜/白胜 (Black/White wins; also 黑方胜; 黑中盘胜 by resignation, 黑胜3/4子, 黑胜1又1/4子, "
    "黑胜2.5目 with a margin), 黑负/白负, B+ / W+ (B+R resign, B+T on time, B+F forfeit, "
    "B+2.5 points), 和 or = (draw), 黑弃权/白弃权 (forfeit), 双方弃权 or 0-0 (both forfeit), "
    "黑超时负/白超时负 (lost on time), 黑迟到负/白迟到负 (lost by lateness), 黑迟到17分钟 (Black 17 "
    "minutes late: the regulation's lateness rule decides), 轮空 (bye, only for "
    "a bye board), ? (clear)"
)

MAX_LENGTH = 40  # longer than any word above; longer text is refused without further reading

_IGNORED = " \t\r\n\u3000\u00a0"
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}  # ！ … ～ → ! … ~
_SIDES = {"黑": Result.BLACK_WINS, "黑方": Result.BLACK_WINS, "白": Result.WHITE_WINS, "白方": Result.WHITE_WINS}
_OTHER = {Result.BLACK_WINS: Result.WHITE_WINS, Result.WHITE_WINS: Result.BLACK_WINS}

_NUMBER = r"\d{1,3}(?:\.\d{1,2})?"
_STONES = rf"(?:(?:\d{{1,3}}又)?(?:[13]/4|1/2)|{_NUMBER}|半)子"
_MARGIN = re.compile(rf"{_STONES}|{_NUMBER}目|\d{{1,3}}目半|半目", re.ASCII)
_CHINESE = re.compile(r"(黑方|白方|黑|白)(.*)", re.DOTALL)
_LATE = re.compile(r"(黑方|白方|黑|白)迟到(\d{1,3})(?:分钟|分|min|minutes?)?", re.ASCII)
_WESTERN = re.compile(rf"([bw])\+(|r|resign|t|time|f|forfeit|{_NUMBER})", re.ASCII)


def _table() -> dict[str, ParsedResult]:
    words: dict[str, ParsedResult] = {}
    for w in ("?", "未赛", "清除", "unknown"):
        words[w] = ParsedResult(Result.UNKNOWN, True, "")
    for w in ("轮空", "bye"):
        words[w] = ParsedResult(Result.BLACK_WINS, False, "轮空", bye=True)
    for w in ("双方弃权", "双方负", "0-0", "bothforfeit"):
        words[w] = ParsedResult(Result.BOTH_LOSE, False, "双方弃权")
    for w in ("和", "和棋", "=", "draw", "jigo", "0.5-0.5"):
        words[w] = ParsedResult(Result.DRAW, True, "")
    for side, winner in _SIDES.items():
        loser_wins = _OTHER[winner]
        words[side + "胜"] = ParsedResult(winner, True, "")
        words[side + "中盘胜"] = ParsedResult(winner, True, "中盘胜")
        words[side + "负"] = ParsedResult(loser_wins, True, "")
        for w in ("超时负", "超时判负", "超时"):
            words[side + w] = ParsedResult(loser_wins, True, "超时判负")
        for w in ("弃权", "缺席"):
            words[side + w] = ParsedResult(loser_wins, False, "弃权")
        for w in ("迟到负", "迟到判负", "迟到"):
            words[side + w] = ParsedResult(loser_wins, False, "迟到判负")
    return words


_WORDS = _table()


def _normal(text: str) -> str:
    t = text.translate(_FULL_WIDTH)
    for ch in _IGNORED:
        t = t.replace(ch, "")
    return t.lower()


def _positive(margin: str) -> bool:
    """A margin says someone won by something: ``0目`` or ``0.0子`` is not a win."""
    return "半" in margin or any(c in "123456789" for c in margin)


def parse_result(text: str) -> ParsedResult:
    """The result ``text`` names, or ResultSyntaxError listing the accepted words."""
    if len(text) > 4 * MAX_LENGTH:  # never normalise megabytes to refuse them
        raise _unknown(text)
    t = _normal(text)
    if not t:
        raise ResultSyntaxError(Text(f"成绩为空 (允许: {ACCEPTED})", f"the result is empty (allowed: {ACCEPTED_EN})"))
    if len(t) > MAX_LENGTH:
        raise _unknown(text)
    found = _WORDS.get(t)
    if found is not None:
        return found
    m = _LATE.fullmatch(t)
    if m:
        return ParsedResult(_OTHER[_SIDES[m.group(1)]], False, "迟到判负", late_minutes=int(m.group(2)))
    m = _WESTERN.fullmatch(t)
    if m:
        winner = Result.BLACK_WINS if m.group(1) == "b" else Result.WHITE_WINS
        tail = m.group(2)
        if tail in ("f", "forfeit"):
            return ParsedResult(winner, False, "弃权")
        if tail in ("t", "time"):
            return ParsedResult(winner, True, "超时判负")
        if tail in ("r", "resign"):
            return ParsedResult(winner, True, "中盘胜")
        if tail == "":
            return ParsedResult(winner, True, "")
        if _positive(tail):
            return ParsedResult(winner, True, f"胜{tail}目")
        raise _unknown(text)
    m = _CHINESE.fullmatch(t)
    if m and m.group(2).startswith("胜"):
        margin = m.group(2)[1:]
        if _MARGIN.fullmatch(margin) and _positive(margin):
            return ParsedResult(_SIDES[m.group(1)], True, f"胜{margin}")
    raise _unknown(text)


def _unknown(text: str) -> ResultSyntaxError:
    return ResultSyntaxError(
        Text(
            f"无法识别的成绩\u201c{shown(text.strip())}\u201d (允许: {ACCEPTED})",
            f"not a result: \u201c{shown(text.strip())}\u201d (allowed: {ACCEPTED_EN})",
        )
    )


def bye_mismatch(board_is_bye: bool, parsed: ParsedResult, board: int = 0) -> str | None:
    """Why ``parsed`` cannot go on this board, in the caller's language (``bye_mismatch_text``)."""
    text = bye_mismatch_text(board_is_bye, parsed, board)
    return None if text is None else text.render()


def bye_mismatch_text(board_is_bye: bool, parsed: ParsedResult, board: int = 0) -> Text | None:
    """Why ``parsed`` cannot go on this board (轮空 on a paired board, a game result on a bye),
    with the accepted words, in both languages; None when it fits. For every front end that
    enters results."""
    if board_is_bye == parsed.bye:
        return None
    if parsed.bye:
        return Text(
            f"轮空只能用于轮空的台次; 这一台是对局, 请填对局结果 (允许: {ACCEPTED})",
            f"轮空 (bye) is only for a bye board; this board is a game, enter its result (allowed: {ACCEPTED_EN})",
        )
    return Text(
        f"第{board}台是轮空, 不需要录入成绩",
        f"board {board} is a bye; it takes no result",
    )


BOTH_WIN_WORD = "双方胜"  # OpenGotha's 1-1: printed so a sheet shows it, never entered from one


def result_word(result: Result, played: bool, reason: str, bye: bool = False) -> str:
    """The word a referee writes for a stored result, chosen so ``parse_result`` reads back the
    same result, played flag and reason ("" for a result not yet entered)."""
    if bye:
        return "轮空"
    if result is Result.UNKNOWN:
        return ""
    if result is Result.DRAW:
        return "和"
    if result is Result.BOTH_LOSE:
        return "双方弃权"
    if result is Result.BOTH_WIN:
        return BOTH_WIN_WORD
    winner, loser = ("黑", "白") if result is Result.BLACK_WINS else ("白", "黑")
    if not played:
        return f"{loser}迟到负" if reason == "迟到判负" else f"{loser}弃权"
    if reason == "超时判负":
        return f"{loser}超时负"
    if reason == "中盘胜":
        return f"{winner}中盘胜"
    if reason.startswith("胜"):
        return f"{winner}{reason}"
    return f"{winner}胜"

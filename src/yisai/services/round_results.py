"""Entering results into paired rounds, one board at a time: the path a referee pays start-up
time for on every result, so it imports no pairing, standings, roster or sheet code.

``enter_result`` is the one way a result is saved (``record_result`` here, sheet import in
``services.rounds``): every result has its history and audit entry, and none is entered twice
without ``change``.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text, bilingual, failure_text
from yisai.record import Game, Result
from yisai.record.groups import group_id
from yisai.record.parse import (
    ParsedResult,
    ResultSyntaxError,
    bye_mismatch,
    parse_result,
    result_word,
)
from yisai.regulation import Regulation
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Conflict, Hint
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.store import EventRecord, NotFound, RoundRecord, StaleVersion


def rounds_of(work: Work, event_ref: str | int | None, division: str, round_no: int,
              stage_ref: str | None = None) -> tuple[EventRecord, Regulation, list[RoundRecord]]:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    division = resolve_division(reg, division)
    stage = playing_stage(reg, division, stage_ref)
    found = work.repo.list_rounds(event.id, division, stage=stage.id, number=round_no)
    if not found:
        name = reg.division(division).name
        raise InputError(Text(f"{name}第{round_no}轮尚未编排", f"round {round_no} of {name} is not paired yet"),
                         code="round_not_paired")
    return event, reg, found



def record_result(
    work: Work,
    event_ref: str | int | None,
    division: str,
    round_no: int,
    board: int,
    text: str,
    *,
    group: str | None = None,
    stage_ref: str | None = None,
    change: bool = False,
    note: str = "",
    expected_version: int | None = None,
) -> ResultEntry:
    """Enter one board's result. A board that already has a result is changed only with
    ``change`` (audited with the earlier value), so nothing is entered twice by accident.

    ``expected_version`` is the game's version the referee saw (web forms carry it); a stale one,
    or another referee's write landing between our read and our write, is a ``Conflict``.
    """
    try:
        parsed = parse_result(text)
    except ResultSyntaxError as exc:
        raise InputError(failure_text(lambda: parse_result(text), ResultSyntaxError, exc),
                         code="bad_result", params={"text": text}) from None
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no, stage_ref)
    if group is not None:
        group = group_id(group)  # A, A组, 同名次决赛, final: what the sheet printed
        rounds = [r for r in rounds if r.group == group]
    matches = [(r, g) for r in rounds for g in r.games if g.board == board]
    if not matches:
        raise InputError(
            Text(f"第{round_no}轮没有第{board}台" + (f" ({group}组)" if group else ""),
                 f"round {round_no} has no board {board}" + (f" (group {group})" if group else "")),
            code="no_such_board", params={"round": round_no, "board": board, "group": group},
        )
    if len(matches) > 1:
        groups = "、".join(r.group for r, _ in matches)
        raise InputError(
            Text(f"第{round_no}轮有多个第{board}台 (分组: {groups})",
                 f"round {round_no} has more than one board {board} (groups: "
                 f"{', '.join(r.group for r, _ in matches)})"),
            code="board_ambiguous", params={"round": round_no, "board": board}, hint=Hint.GROUP,
        )
    rnd, game = matches[0]
    return enter_result(work, rnd, game, parsed, change=change, note=note,
                  expected_version=expected_version)


@dataclass(frozen=True)
class ResultEntry:
    """What entering one result did: the game as stored, whether anything changed, and
    warnings for the referee (e.g. later rounds were paired on the old result)."""

    game: Game
    changed: bool
    warnings: tuple[Text, ...] = ()


def same_result(game: Game, parsed: ParsedResult) -> bool:
    return (game.result, game.played, game.reason) == (parsed.result, parsed.played, parsed.reason)


def _later_rounds(work: Work, rnd: RoundRecord) -> list[int]:
    """Rounds of the same division and stage paired after ``rnd`` (their pairing used its result)."""
    later = {n for n in work.repo.round_numbers(rnd.event_id, rnd.division, stage=rnd.stage)
             if n > rnd.number}
    return sorted(later)


def entry_problem(game: Game, parsed: ParsedResult) -> Text | None:
    """Why this result word cannot go on this board at all (a bye word on a game or back), with
    the accepted words (``record.parse.bye_mismatch``, in both languages)."""
    if bye_mismatch(game.is_bye, parsed, game.board) is None:
        return None
    return bilingual(lambda: bye_mismatch(game.is_bye, parsed, game.board) or "")


def already_entered(game: Game) -> Text:
    word = result_word(game.result, game.played, game.reason)
    return Text(f"第{game.round}轮第{game.board}台已有成绩 {word}",
                f"round {game.round} board {game.board} already has a result ({word})")


def enter_result(work: Work, rnd: RoundRecord, game: Game, parsed: ParsedResult, *, change: bool,
           note: str, expected_version: int | None = None) -> ResultEntry:
    """The one way a result is saved (``yisai result`` and sheet import): checks, then the
    repository's audited, version-checked write with result history.

    The same result again is no change (nothing written, no ``change`` needed). Changing a result
    after later rounds were paired is allowed but warned about, and the audit note says so.
    """
    work.require(Action.CHANGE_RESULT if game.result != Result.UNKNOWN else Action.RECORD_RESULT)
    problem = entry_problem(game, parsed)
    if problem:
        raise InputError(problem, code="bye_mismatch", params={"round": rnd.number, "board": game.board})
    if game.result != Result.UNKNOWN and same_result(game, parsed):
        if expected_version is not None and expected_version != rnd.version_of(game.board):
            raise _conflict(rnd, game, StaleVersion("", game))
        return ResultEntry(game, False)
    if game.result != Result.UNKNOWN and not change:
        raise Refused(already_entered(game), code="result_exists",
                      params={"board": game.board, "current": game.result.value}, hint=Hint.CHANGE)
    warnings: list[Text] = []
    later = _later_rounds(work, rnd) if game.result != Result.UNKNOWN else []
    if later:
        shown = "、".join(str(n) for n in later)
        warnings.append(Text(
            f"注意: 第{shown}轮已按原成绩编排; 更改第{rnd.number}轮成绩不会重新编排这些轮次",
            f"note: round(s) {', '.join(map(str, later))} were paired on the old result; "
            f"changing round {rnd.number} does not re-pair them"))
        note = (note + "; " if note else "") + f"更改时第{shown}轮已编排"
    version = rnd.version_of(game.board) if expected_version is None else expected_version
    try:
        saved = work.repo.record_result(rnd.id, game.board, parsed.result, played=parsed.played,
                                        reason=parsed.reason, note=note, expected_version=version)
    except StaleVersion as exc:
        raise _conflict(rnd, game, exc) from None
    except NotFound as exc:
        raise InputError(exc.text, code="board_not_found",
                         params={"round": rnd.number, "board": game.board}) from None
    work.emit("result_recorded", rnd.event_id, division=rnd.division, round=rnd.number,
              group=rnd.group, board=game.board, result=saved.result.value,
              version=version + 1, changed=game.result != Result.UNKNOWN)
    return ResultEntry(saved, True, tuple(warnings))


def _conflict(rnd: RoundRecord, game: Game, exc: StaleVersion) -> Conflict:
    now = exc.current
    shown = result_word(now.result, now.played, now.reason) if now is not None else "?"
    return Conflict(
        Text(f"第{rnd.number}轮第{game.board}台的成绩已被他人录入或修改 (现为 {shown}); "
             "本次未保存, 请刷新后核对",
             f"round {rnd.number} board {game.board} was entered or changed by someone else "
             f"(now {shown}); nothing saved, reload and check"),
        code="result_conflict",
        params={"round": rnd.number, "board": game.board, "current": shown},
    )

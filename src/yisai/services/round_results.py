"""Entering results into paired rounds, one board at a time: the path a referee pays start-up
time for on every result, so it imports no pairing, standings, roster or sheet code.

``record_result`` is the one use case for one board, for every front end (``yisai result``, the
console's grid with the version the referee saw); it and the sheet import (``services.rounds``)
both end in ``write_result``: every result has its history and audit entry, and none is entered
twice without ``change``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.record.groups import group_id
from yisai.record.parse import (
    ParsedResult,
    ResultSyntaxError,
    bye_mismatch_text,
    parse_result,
    result_word,
)
from yisai.regulation import Regulation
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Conflict, Hint
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.services.lateness import apply_forfeit_rule, decide_lateness
from yisai.store import EventRecord, NotFound, RoundRecord, StaleVersion, event_rows, round_rows


def rounds_of(work: Work, event_ref: str | int | None, division: str, round_no: int,
              stage_ref: str | None = None) -> tuple[EventRecord, Regulation, list[RoundRecord]]:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    division = resolve_division(reg, division)
    stage = playing_stage(reg, division, stage_ref)
    found = round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=round_no)
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

    ``expected_version`` is the board's version the referee saw (the console's forms carry it).
    A board that moved on since is a ``Conflict`` (``result_conflict``) naming the result and the
    version stored now, and so is another referee's write landing between our read and our
    write; nothing is overwritten. With a version, correcting a result needs no ``change`` (the
    form showed the result it corrects) but a ``note`` (the audit keeps before and after).
    """
    work.require(Action.RECORD_RESULT)
    try:
        parsed = parse_result(text)
    except ResultSyntaxError as exc:
        raise InputError(exc.text,
                         code="bad_result", params={"text": text}) from None
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no, stage_ref)
    parsed, late_note = decide_lateness(_reg, parsed, board)
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
    note = note.strip()
    if game.result != Result.UNKNOWN and same_result(game, parsed) and entry_problem(game, parsed) is None:
        return write_result(work, rnd, game, parsed, change=False, note=note)  # already there: no change
    if expected_version is not None:
        current = rnd.version_of(board)
        if current != expected_version:
            raise conflict(rnd.number, board, game, current)
        if game.result != Result.UNKNOWN:
            work.require(Action.CHANGE_RESULT)
            if not note:
                word = _word(game)
                raise InputError(
                    Text(f"第{board}台已有成绩 {word}, 更正须写明理由",
                         f"board {board} already has {word}; a correction needs a note"),
                    code="note_required", params={"current": word},
                )
            change = True
    if late_note is None:
        return write_result(work, rnd, game, parsed, change=change, note=note, expected_version=expected_version)
    note = "; ".join(n for n in (note, late_note.zh) if n)  # the audit says which rule decided
    entry = write_result(work, rnd, game, parsed, change=change, note=note, expected_version=expected_version)
    return replace(entry, warnings=(late_note, *entry.warnings))


@dataclass(frozen=True)
class ResultEntry:
    """What entering one result did: the game as stored, whether anything changed, and
    warnings for the referee (e.g. later rounds were paired on the old result)."""

    game: Game
    changed: bool
    warnings: tuple[Text, ...] = ()
    version: int = 0  # the board's version after the entry (a form shows it for the next one)


def same_result(game: Game, parsed: ParsedResult) -> bool:
    return (game.result, game.played, game.reason) == (parsed.result, parsed.played, parsed.reason)


def _later_rounds(work: Work, rnd: RoundRecord) -> list[int]:
    """Rounds of the same division and stage paired after ``rnd`` (their pairing used its result)."""
    later = {n for n in round_rows.round_numbers(work.session, rnd.event_id, rnd.division, stage=rnd.stage)
             if n > rnd.number}
    return sorted(later)


def entry_problem(game: Game, parsed: ParsedResult) -> Text | None:
    """Why this result word cannot go on this board at all (a bye word on a game or back), with
    the accepted words (``record.parse.bye_mismatch_text``, in both languages)."""
    return bye_mismatch_text(game.is_bye, parsed, game.board)


def already_entered(game: Game) -> Text:
    word = result_word(game.result, game.played, game.reason)
    return Text(f"第{game.round}轮第{game.board}台已有成绩 {word}",
                f"round {game.round} board {game.board} already has a result ({word})")


def write_result(work: Work, rnd: RoundRecord, game: Game, parsed: ParsedResult, *, change: bool,
                 note: str, expected_version: int | None = None) -> ResultEntry:
    """Where ``record_result`` and the sheet import end, the board already found: checks, then
    the repository's audited, version-checked write with result history.

    The same result again is no change (nothing written, no ``change`` or note needed, even when
    the form's version is stale: what was typed is what is stored). Changing a result
    after later rounds were paired is allowed but warned about, and the audit note says so.
    """
    if parsed.late_minutes is not None:  # 黑迟到17分钟 from a sheet: the regulation decides
        parsed, late_note = decide_lateness(regulation_of(event_rows.get_event(work.session, rnd.event_id)), parsed, game.board)
        note = "; ".join(n for n in (note, late_note.zh if late_note else "") if n)
    problem = entry_problem(game, parsed)
    if problem:
        raise InputError(problem, code="bye_mismatch", params={"round": rnd.number, "board": game.board})
    if game.result != Result.UNKNOWN and same_result(game, parsed):
        # What the referee typed is what is stored, whoever stored it and whatever version the
        # form saw: nothing is lost, so say "already there" instead of a conflict.
        work.require(Action.RECORD_RESULT)
        return ResultEntry(game, False, (), rnd.version_of(game.board))
    work.require(Action.CHANGE_RESULT if game.result != Result.UNKNOWN else Action.RECORD_RESULT)
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
        saved = round_rows.record_result(work.session, work.stamp, rnd.id, game.board, parsed.result, played=parsed.played,
                                         reason=parsed.reason, note=note, expected_version=version)
    except StaleVersion as exc:
        raise conflict(rnd.number, game.board, exc.current, None) from None
    except NotFound as exc:
        raise InputError(exc.text, code="board_not_found",
                         params={"round": rnd.number, "board": game.board}) from None
    warnings += apply_forfeit_rule(work, rnd, saved, game)
    work.emit("result_recorded", rnd.event_id, division=rnd.division, round=rnd.number,
              group=rnd.group, board=game.board, result=saved.result.value,
              version=version + 1, changed=game.result != Result.UNKNOWN)
    return ResultEntry(saved, True, tuple(warnings), version + 1)


def _word(game: Game) -> str:
    if game.result == Result.UNKNOWN:
        return ""
    return result_word(game.result, game.played, game.reason)


def conflict(round_no: int, board: int, game: Game | None, version: int | None) -> Conflict:
    """Someone else entered or changed the board first: what is stored now and its version (None
    when unknown here: ``current_conflict`` reads them in a fresh transaction)."""
    if game is None:
        return Conflict(
            Text(f"第{round_no}轮第{board}台的成绩刚被他人录入, 你的输入未保存",
                 f"round {round_no} board {board} was just entered by someone else; yours was not saved"),
            code="result_conflict", params={"round": round_no, "board": board, "current": None, "version": version},
        )
    word = _word(game) or "—"
    return Conflict(
        Text(f"第{round_no}轮第{board}台的成绩已被他人录入为 {word}, 你的输入未保存; 请核对后再改",
             f"round {round_no} board {board} was just entered by someone else as {word}; "
             "yours was not saved — check and correct if needed"),
        code="result_conflict",
        params={"round": round_no, "board": board, "current": word, "version": version},
    )


def current_conflict(work: Work, event_ref: str | None, division: str, round_no: int, board: int,
                     group: str | None = None) -> Conflict:
    """The conflict answer naming what is stored now on a board and its version."""
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no)
    for r in rounds:
        if group is not None and r.group != group:
            continue
        for g in r.games:
            if g.board == board:
                return conflict(round_no, board, g, r.version_of(board))
    return conflict(round_no, board, None, None)

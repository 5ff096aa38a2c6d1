"""What the web console adds around the round loop: publishing a round, result entry with the
version the referee saw, refused attempts kept in the audit, and the audit view.

Every write checks the actor's role here (``work.require``) even where the underlying service
also does, so a URL called directly by the wrong role is refused whatever page sent it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.record.parse import result_word
from yisai.services.context import Conflict, InputError, Refused, Work
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.services.round_results import record_result, rounds_of
from yisai.store import AuditRecord

PUBLISHED = "published"


def publish_round(work: Work, event_ref: str | None, division: str, round_no: int, note: str = "") -> int:
    """Make a paired round's pairings public (every group of it); returns the number of groups."""
    work.require(Action.PUBLISH)
    event, _reg, rounds = rounds_of(work, event_ref, division, round_no)
    for r in rounds:
        if r.status != PUBLISHED:
            work.repo.set_round_status(r.id, PUBLISHED, note)
    work.emit("round_published", event.id, division=division, round=round_no)
    return len(rounds)


PAIRED = "paired"


def unpublish_round(work: Work, event_ref: str | None, division: str, round_no: int, note: str = "") -> int:
    """Take a published round's pairings off the public pages again (a mistake seen before play:
    re-pair, then publish again). Refused once a game of it has a result: what was played stays
    public. Returns the number of groups."""
    work.require(Action.PUBLISH)
    event, reg, rounds = rounds_of(work, event_ref, division, round_no)
    played = sum(1 for r in rounds for g in r.games if not g.is_bye and g.result != Result.UNKNOWN)
    if played:
        name = reg.division(resolve_division(reg, division)).name
        raise Refused(Text(f"{name}第{round_no}轮已录入{played}台成绩, 不能撤回公布",
                           f"round {round_no} of {name} has {played} result(s) entered; it cannot be unpublished"),
                      code="round_has_results", params={"round": round_no, "division": division, "results": played})
    for r in rounds:
        if r.status == PUBLISHED:
            work.repo.set_round_status(r.id, PAIRED, note)
    work.emit("round_unpublished", event.id, division=division, round=round_no)
    return len(rounds)


def is_published(status: str) -> bool:
    return status == PUBLISHED


def _word(game: Game) -> str:
    if game.result == Result.UNKNOWN:
        return ""
    return result_word(game.result, game.played, game.reason)


@dataclass(frozen=True)
class Entered:
    game: Game
    version: int
    warnings: tuple[Text, ...] = ()


def enter_result(
    work: Work,
    event_ref: str | None,
    division: str,
    round_no: int,
    board: int,
    text: str,
    *,
    expected_version: int,
    group: str | None = None,
    note: str = "",
) -> Entered:
    """Enter or correct one board from a form that showed ``expected_version``.

    If the board moved on since the form was shown (another referee entered it), ``Conflict``
    (code ``result_conflict``) names the result now stored; nothing is overwritten. A board that
    already has a result is corrected only with a note (the audit keeps before and after).
    """
    work.require(Action.RECORD_RESULT)
    event = resolve_event(work, event_ref)
    stage = playing_stage(regulation_of(event), division)
    one = work.repo.get_round(event.id, division, round_no, stage=stage.id, group=group) \
        if group is not None else None
    rounds = [one] if one is not None else rounds_of(work, event_ref, division, round_no)[2]
    if group is not None:
        rounds = [r for r in rounds if r.group == group]
    found = [(r, g) for r in rounds for g in r.games if g.board == board]
    if len(found) != 1:
        raise InputError(Text(f"第{round_no}轮没有第{board}台", f"round {round_no} has no board {board}"),
                         code="no_board")
    rnd, game = found[0]
    current = rnd.version_of(board)
    if current != expected_version:
        raise _conflict(round_no, board, game, current)
    change = game.result != Result.UNKNOWN
    if change:
        work.require(Action.CHANGE_RESULT)
        if not note.strip():
            raise InputError(
                Text(f"第{board}台已有成绩 {_word(game)}, 更正须写明理由",
                     f"board {board} already has {_word(game)}; a correction needs a note"),
                code="note_required", params={"current": _word(game)},
            )
    try:
        saved = record_result(work, event_ref, division, round_no, board, text, group=rnd.group,
                              change=change, note=note.strip(), expected_version=expected_version)
    except Refused as exc:
        if exc.code != "result_exists":
            raise
        # Between our read and the service's own read another referee's entry was committed
        # (READ COMMITTED on PostgreSQL): the same clash as a stale version.
        raise _conflict(round_no, board, None, None) from None
    return Entered(saved.game, expected_version + (1 if saved.changed else 0), saved.warnings)


def _conflict(round_no: int, board: int, game: Game | None, version: int | None) -> Conflict:
    if game is None or version is None:
        return Conflict(
            Text(f"第{round_no}轮第{board}台的成绩刚被他人录入, 你的输入未保存",
                 f"round {round_no} board {board} was just entered by someone else; yours was not saved"),
            code="result_conflict", params={"board": board, "current": None, "version": None},
        )
    word = _word(game) or "—"
    return Conflict(
        Text(f"第{round_no}轮第{board}台的成绩已被他人录入为 {word}, 你的输入未保存; 请核对后再改",
             f"round {round_no} board {board} was just entered by someone else as {word}; "
             "yours was not saved — check and correct if needed"),
        code="result_conflict",
        params={"board": board, "current": word, "version": version},
    )


def current_conflict(work: Work, event_ref: str | None, division: str, round_no: int, board: int,
                     group: str | None = None) -> Conflict:
    """The conflict answer naming what is stored now on a board (read in a fresh transaction)."""
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no)
    for r in rounds:
        if group is not None and r.group != group:
            continue
        for g in r.games:
            if g.board == board:
                return _conflict(round_no, board, g, r.version_of(board))
    return _conflict(round_no, board, None, None)


def record_refused_attempt(
    work: Work, event_ref: str | None, division: str, round_no: int, board: int, text: str,
    reason: dict[str, Any],
) -> None:
    """Keep a refused result entry in the audit (its own transaction: the refused one rolled back)."""
    event = resolve_event(work, event_ref)
    work.repo.audit(event.id, "result_refused", "game", f"{division}/{round_no}/{board}", None,
                    {"division": division, "round": round_no, "board": board, "result": text, **reason},
                    reason.get("code", ""))


def audit_log(work: Work, event_ref: str | None) -> list[AuditRecord]:
    """Who changed what in an event, oldest first (referees and operators)."""
    if not work.actor.may(Action.MANAGE_USERS):
        work.require(Action.RECORD_RESULT)
    event = resolve_event(work, event_ref)
    return work.repo.audit_log(event.id)


def event_stamp(work: Work, event_id: int) -> int:
    """Changes whenever anything of the event changes (for caches and polling)."""
    from yisai.store.web_rows import event_stamp as stamp

    return stamp(work.session, event_id)


@dataclass(frozen=True)
class RoundInfo:
    division: str
    number: int
    published: bool
    games: int
    entered: int


def rounds_index(work: Work, event_id: int) -> list[RoundInfo]:
    """Every paired round of an event: division, number, published, boards and results entered."""
    from yisai.store.web_rows import round_counts

    out: dict[tuple[str, int], RoundInfo] = {}
    for division, number, _group, status, games, entered in round_counts(work.session, event_id):
        key = (division, number)
        prev = out.get(key)
        if prev is not None:
            out[key] = RoundInfo(division, number, prev.published and is_published(status),
                                 prev.games + games, prev.entered + entered)
        else:
            out[key] = RoundInfo(division, number, is_published(status), games, entered)
    return sorted(out.values(), key=lambda i: (i.division, i.number))

"""Row access for rounds and their games (boards), with every result change kept in history.

A round is one division/stage/group's paired round; games go out as ``yisai.record.Game``.
Concurrent writers never overwrite silently: a clash raises ``StaleVersion``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.exc import StaleDataError

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.store.audit_rows import audit
from yisai.store.errors import Conflict, NotFound, StaleVersion
from yisai.store.models import GameRow, ResultChangeRow, RoundRow
from yisai.store.player_rows import player_number, player_row
from yisai.store.records import ResultChange, RoundRecord, Stamp
from yisai.store.revisions import GAMES, GamesRead, RoundGames


def _game(row: GameRow, number: int) -> Game:
    return Game(
        round=number,
        black=str(row.black_id),
        white=str(row.white_id) if row.white_id is not None else None,
        result=Result(row.result),
        played=row.played,
        board=row.board,
        handicap=row.handicap,
        reason=row.reason,
    )


def _round(row: RoundRow, read: RoundGames | None = None) -> RoundRecord:
    """A round as the services see it; ``read`` its games from the cache (else its rows)."""
    if read is None:
        read = RoundGames(tuple(_game(g, row.number) for g in row.games),
                          tuple((g.board, g.version) for g in row.games))
    return RoundRecord(
        id=row.id,
        event_id=row.event_id,
        division=row.division,
        stage=row.stage,
        group=row.group_name,
        number=row.number,
        status=row.status,
        info=dict(row.info or {}),
        created_at=row.created_at,
        games=read.games,
        versions=dict(read.versions),
    )


def _game_json(g: Game) -> dict[str, Any]:
    return {
        "round": g.round, "board": g.board, "black": g.black, "white": g.white,
        "result": g.result.value, "played": g.played, "handicap": g.handicap, "reason": g.reason,
    }  # fmt: skip


def _round_row(
    s: Session, event_id: int, division: str, number: int, stage: str = "", group: str = ""
) -> RoundRow | None:
    q = select(RoundRow).where(
        RoundRow.event_id == event_id,
        RoundRow.division == division,
        RoundRow.stage == stage,
        RoundRow.group_name == group,
        RoundRow.number == number,
    )
    return s.scalars(q.options(selectinload(RoundRow.games))).first()


def _game_row(s: Session, round_id: int, board: int) -> tuple[RoundRow, GameRow]:
    rnd = s.get(RoundRow, round_id)
    if rnd is None:
        raise NotFound(Text(f"没有编号为{round_id}的轮次", f"no round numbered {round_id}"))
    row = s.scalars(select(GameRow).where(GameRow.round_id == round_id, GameRow.board == board)).first()
    if row is None:
        raise NotFound(Text(f"第{rnd.number}轮没有第{board}台", f"round {rnd.number} has no board {board}"))
    return rnd, row


def save_round(
    s: Session,
    by: Stamp,
    event_id: int,
    division: str,
    number: int,
    games: Sequence[Game],
    *,
    stage: str = "",
    group: str = "",
    info: dict[str, Any] | None = None,
    status: str = "paired",
    replace: bool = False,
    note: str = "",
) -> RoundRecord:
    """Store a paired round; ``replace`` re-pairs it (refused once any result is entered)."""
    existing = _round_row(s, event_id, division, number, stage, group)
    before = None
    if existing is not None:
        if not replace:
            raise Conflict(Text(f"{division}第{number}轮已编排",
                                f"round {number} of {division} is already paired"))
        if any(g.result != Result.UNKNOWN.value and g.white_id is not None for g in existing.games):
            raise Conflict(Text(f"{division}第{number}轮已有成绩, 不能重新编排",
                                f"round {number} of {division} has results: it cannot be paired again"))
        before = {"games": [_game_json(_game(g, number)) for g in existing.games]}
        s.delete(existing)
        s.flush()
    boards = [g.board for g in games]
    if len(set(boards)) != len(boards):
        raise Conflict(Text(f"{division}第{number}轮台次重复",
                            f"round {number} of {division} has a board number twice"))
    row = RoundRow(
        event_id=event_id,
        division=division,
        stage=stage,
        group_name=group,
        number=number,
        status=status,
        info=info or {},
        created_at=by.at,
    )
    for g in games:
        for pid in (g.black, g.white):
            if pid is not None and player_row(s, pid).event_id != event_id:
                raise NotFound(Text(f"棋手{pid}不属于本比赛", f"player {pid} is not in this event"))
        row.games.append(
            GameRow(
                board=g.board,
                black_id=player_number(g.black),
                white_id=player_number(g.white) if g.white is not None else None,
                result=g.result.value,
                played=g.played,
                handicap=g.handicap,
                reason=g.reason,
            )
        )
    s.add(row)
    try:
        s.flush()
    except IntegrityError:
        raise StaleVersion(Text(
            f"{division}第{number}轮刚被他人编排, 本次编排未保存",
            f"round {number} of {division} was just paired by someone else; nothing saved")) from None
    except OperationalError as exc:
        if "locked" in str(exc.orig).lower():
            raise StaleVersion(Text(
                f"{division}第{number}轮正被他人编排, 本次编排未保存",
                f"round {number} of {division} is being paired by someone else; nothing saved")) from None
        raise
    saved = _round(row)
    after = {
        "division": division, "stage": stage, "group": group, "number": number,
        "status": status, "games": [_game_json(g) for g in saved.games],
    }  # fmt: skip
    audit(s, by, event_id, "replace" if before else "create", "round", row.id, before, after, note)
    return saved


def get_round(
    s: Session, event_id: int, division: str, number: int, *, stage: str = "", group: str = ""
) -> RoundRecord | None:
    row = _round_row(s, event_id, division, number, stage, group)
    return _round(row) if row else None


def list_rounds(
    s: Session,
    event_id: int,
    division: str | None = None,
    *,
    stage: str | None = None,
    group: str | None = None,
    number: int | None = None,
) -> list[RoundRecord]:
    """Rounds with their games; ``number`` picks one round (its groups) without the rest."""
    q = select(RoundRow).where(RoundRow.event_id == event_id)
    if division is not None:
        q = q.where(RoundRow.division == division)
    if stage is not None:
        q = q.where(RoundRow.stage == stage)
    if group is not None:
        q = q.where(RoundRow.group_name == group)
    if number is not None:
        q = q.where(RoundRow.number == number)
    rows = list(s.scalars(q.order_by(RoundRow.division, RoundRow.stage, RoundRow.group_name, RoundRow.number)))
    read = round_games(s, [(r.id, r.number, r.revision) for r in rows])
    return [_round(r, read[r.id]) for r in rows]


def round_numbers(
    s: Session, event_id: int, division: str, *, stage: str | None = None, group: str | None = None
) -> list[int]:
    """The numbers of the paired rounds (no games loaded), optionally of one group."""
    q = select(RoundRow.number).where(RoundRow.event_id == event_id, RoundRow.division == division)
    if stage is not None:
        q = q.where(RoundRow.stage == stage)
    if group is not None:
        q = q.where(RoundRow.group_name == group)
    return sorted(set(s.scalars(q)))


def games(
    s: Session, event_id: int, division: str, *, stage: str | None = None, group: str | None = None
) -> list[Game]:
    """Every game of a division (optionally one stage/group), round by round, board by board."""
    return games_read(s, event_id, division, stage=stage, group=group).games


def games_read(
    s: Session, event_id: int, division: str, *, stage: str | None = None, group: str | None = None
) -> GamesRead:
    """``games`` with the (round id, number, revision) of every round they came from, read
    together: what a cache of anything computed from the games keys on.

    Reads the rounds' revisions, then only the games of rounds this process has not read at
    that revision (``store.revisions``): one result entered costs one round's rows, not all."""
    q = select(RoundRow.id, RoundRow.number, RoundRow.revision).where(
        RoundRow.event_id == event_id, RoundRow.division == division)
    if stage is not None:
        q = q.where(RoundRow.stage == stage)
    if group is not None:
        q = q.where(RoundRow.group_name == group)
    rounds = [(rid, number, rev) for rid, number, rev in
              s.execute(q.order_by(RoundRow.stage, RoundRow.group_name, RoundRow.number)).all()]
    read = round_games(s, rounds)
    return GamesRead([g for rid, _n, _rev in rounds for g in read[rid].games], database_key(s), tuple(rounds))


def round_games(s: Session, rounds: Sequence[tuple[int, int, int]]) -> dict[int, RoundGames]:
    """round id → its games and board versions, for (id, number, revision) triples: from the
    cache where this process has read that revision, the rest in one bounded read."""
    where = database_key(s)
    held = {rid: GAMES.get((where, rid, rev)) for rid, _n, rev in rounds}
    missing = {rid: (number, rev) for rid, number, rev in rounds if held[rid] is None}
    if missing:
        games: dict[int, list[Game]] = {rid: [] for rid in missing}
        versions: dict[int, list[tuple[int, int]]] = {rid: [] for rid in missing}
        ids = list(missing)
        for k in range(0, len(ids), 500):  # bounded IN lists
            rows = s.scalars(select(GameRow).where(GameRow.round_id.in_(ids[k:k + 500]))
                             .order_by(GameRow.round_id, GameRow.board))
            for row in rows:
                games[row.round_id].append(_game(row, missing[row.round_id][0]))
                versions[row.round_id].append((row.board, row.version))
        fresh = {rid: RoundGames(tuple(games[rid]), tuple(versions[rid])) for rid in missing}
        held.update(fresh)
        GAMES.put_all(((where, rid, missing[rid][1]), got) for rid, got in fresh.items())
    return {rid: got for rid, got in held.items() if got is not None}


def database_key(s: Session) -> str:
    """Which database a session reads (a cache must never mix two)."""
    bind = s.get_bind()
    engine = bind if isinstance(bind, Engine) else bind.engine
    return engine.url.render_as_string(hide_password=True)


def set_round_status(s: Session, by: Stamp, round_id: int, status: str, note: str = "") -> None:
    row = s.get(RoundRow, round_id)
    if row is None:
        raise NotFound(Text(f"没有编号为{round_id}的轮次", f"no round numbered {round_id}"))
    before = {"status": row.status}
    row.status = status
    audit(s, by, row.event_id, "update", "round", row.id, before, {"status": status}, note)


def record_result(
    s: Session,
    by: Stamp,
    round_id: int,
    board: int,
    result: Result,
    *,
    played: bool = True,
    reason: str = "",
    note: str = "",
    expected_version: int | None = None,
) -> Game:
    """Enter or correct one board's result; history and audit keep every earlier value.

    ``expected_version`` is the version the caller saw; if the row moved on since, or
    another transaction changes it between this read and the write, ``StaleVersion`` is
    raised and nothing is written (never a silent overwrite).
    """
    rnd, row = _game_row(s, round_id, board)
    number = rnd.number
    before = _game(row, number)
    if expected_version is not None and row.version != expected_version:
        raise StaleVersion(
            Text(f"第{rnd.number}轮第{board}台的成绩已被他人修改 (版本 {row.version}, 你看到的是 {expected_version})",
                 f"round {rnd.number} board {board}: the result was changed by someone else "
                 f"(version {row.version}, you saw {expected_version})"),
            before,
        )
    row.result = Result(result).value
    row.played = played
    row.reason = reason
    s.add(
        ResultChangeRow(
            game_id=row.id,
            result=row.result,
            played=played,
            reason=reason,
            previous=before.result.value,
            actor=by.actor,
            at=by.at,
        )
    )
    try:
        s.flush()
    except StaleDataError:
        raise StaleVersion(Text(f"第{number}轮第{board}台的成绩刚被他人修改",
                                f"round {number} board {board}: the result was just changed by someone else"), None) from None
    except OperationalError as exc:
        if "locked" in str(exc.orig).lower() or "busy" in str(exc.orig).lower():
            raise StaleVersion(Text(f"第{number}轮第{board}台正被他人修改",
                                    f"round {number} board {board} is being changed by someone else"), None) from None
        raise
    after = _game(row, rnd.number)
    audit(s, by, rnd.event_id, "result", "game", row.id, _game_json(before), _game_json(after), note)
    return after


def result_history(s: Session, round_id: int, board: int) -> list[ResultChange]:
    _rnd, row = _game_row(s, round_id, board)
    q = select(ResultChangeRow).where(ResultChangeRow.game_id == row.id)
    return [
        ResultChange(Result(c.result), c.played, c.reason, Result(c.previous), c.actor, c.at)
        for c in s.scalars(q.order_by(ResultChangeRow.id))
    ]

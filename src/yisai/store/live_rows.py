"""Row access for the online qualifier's tables (live games, actions, ladder lines, waves).

Called only by ``yisai.services.live``, inside its unit of work (the session's transaction).
Plain records go out, so nothing outside the store holds an ORM object.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import JSON, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from yisai.qualifier.ladder import Delta, LadderLine
from yisai.qualifier.session import LiveGameInfo
from yisai.store.errors import Conflict, NotFound, StaleVersion
from yisai.store.live_models import (
    LiveCodeRow,
    LiveGameRow,
    LiveLadderRow,
    LiveMoveRow,
    LiveWaveRow,
)


@dataclass(frozen=True, slots=True)
class LiveGameRecord:
    """A stored live game: its ``LiveGameInfo`` (players, period, pool, status, result) and what
    only the store and the resume need (rules, snapshot, alive stamp, owner, SGF, matching)."""

    info: LiveGameInfo
    event_id: int
    stage: str
    rules: dict[str, Any]
    state: dict[str, Any]
    started_at: float
    alive_at: float
    owner: str
    escaped: list[str]
    sgf: str
    matching: dict[str, Any]
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class LiveMoveRecord:
    seq: int
    color: int
    kind: str
    point: int | None
    at: float
    lag: float


def _game(r: LiveGameRow) -> LiveGameRecord:
    info = LiveGameInfo(r.id, r.period, r.pool, r.black, r.white, r.black_name, r.white_name, r.status,
                        r.version, r.result, r.reason)  # fmt: skip
    return LiveGameRecord(info, r.event_id, r.stage, dict(r.rules), dict(r.state), r.started_at, r.alive_at,
                          r.owner, list(r.escaped), r.sgf, dict(r.matching), r.created_at, r.finished_at)  # fmt: skip


@dataclass(frozen=True)
class NewGame:
    """A game to start: who plays whom, and under which process (``add_games``)."""

    black: str
    white: str
    black_name: str
    white_name: str
    state: dict[str, Any]
    owner: str


def add_games(
    s: Session,
    games: list[NewGame],
    *,
    event_id: int,
    stage: str,
    period: int,
    pool: str,
    rules: dict[str, Any],
    started_at: float,
    matching: dict[str, Any],
    created_at: datetime,
) -> list[int]:
    """Store a wave's new games in one multi-row INSERT (a wave of thousands was thousands of
    ORM flushes, each a round trip, holding up the group commit). Ids in the order given."""
    if not games:
        return []
    common = {"event_id": event_id, "stage": stage, "period": period, "pool": pool, "status": "playing",
              "version": 0, "rules": rules, "started_at": started_at, "alive_at": started_at, "result": "",
              "reason": "", "escaped": [], "sgf": "", "matching": matching, "created_at": created_at}  # fmt: skip
    values = [{**common, "black": g.black, "white": g.white, "black_name": g.black_name,
               "white_name": g.white_name, "state": g.state, "owner": g.owner} for g in games]  # fmt: skip
    done = s.execute(insert(_GAMES).returning(_GAMES.c.id, sort_by_parameter_order=True), values)
    return [int(i) for i in done.scalars()]


def get_game(s: Session, game_id: int) -> LiveGameRecord:
    row = s.get(LiveGameRow, game_id)
    if row is None:
        raise NotFound(f"没有对局 {game_id}")
    return _game(row)


def games_with_status(s: Session, status: str, event_id: int | None = None) -> list[LiveGameRecord]:
    q = select(LiveGameRow).where(LiveGameRow.status == status)
    if event_id is not None:
        q = q.where(LiveGameRow.event_id == event_id)
    return [_game(r) for r in s.scalars(q.order_by(LiveGameRow.id))]


def games_of(s: Session, event_id: int, player: str) -> list[LiveGameRecord]:
    q = select(LiveGameRow).where(
        LiveGameRow.event_id == event_id,
        (LiveGameRow.black == player) | (LiveGameRow.white == player),
    )
    return [_game(r) for r in s.scalars(q.order_by(LiveGameRow.id))]


def last_opponents(s: Session, event_id: int) -> dict[str, str]:
    """Each player's opponent in their latest game (matching avoids an immediate rematch)."""
    q = (select(LiveGameRow.black, LiveGameRow.white)
         .where(LiveGameRow.event_id == event_id).order_by(LiveGameRow.id))  # fmt: skip
    out: dict[str, str] = {}
    for black, white in s.execute(q):
        out[black], out[white] = white, black
    return out


def moves(s: Session, game_id: int) -> list[LiveMoveRecord]:
    q = select(LiveMoveRow).where(LiveMoveRow.game_id == game_id).order_by(LiveMoveRow.seq)
    return [LiveMoveRecord(r.seq, r.color, r.kind, r.point, r.at, r.lag) for r in s.scalars(q)]


_GAMES = cast(Table, LiveGameRow.__table__)
_MOVES = cast(Table, LiveMoveRow.__table__)
# Prepared once with bound parameters: the hot path (one call per move) reuses the compiled
# statements instead of building and cache-keying new ones with literal values.
_ADVANCE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("g_id"), _GAMES.c.version == bindparam("g_prev"),
           _GAMES.c.status == "playing")
    .values(version=bindparam("g_seq"), state=bindparam("g_state", type_=JSON),
            alive_at=bindparam("g_alive"))
)  # fmt: skip
_ADD_MOVE = insert(_MOVES)


def add_move(
    s: Session,
    game_id: int,
    move: LiveMoveRecord,
    *,
    state: dict[str, Any],
    alive_at: float,
) -> None:
    """Store one action and move the game to its version; refused if the version moved on."""
    done = s.execute(_ADVANCE, {"g_id": game_id, "g_prev": move.seq - 1, "g_seq": move.seq,
                                "g_state": state, "g_alive": alive_at})  # fmt: skip
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleVersion(f"对局 {game_id} 已不在第 {move.seq - 1} 步")
    try:
        s.execute(_ADD_MOVE, {"game_id": game_id, "seq": move.seq, "color": move.color,
                              "kind": move.kind, "point": move.point, "at": move.at,
                              "lag": move.lag})  # fmt: skip
    except IntegrityError as exc:
        raise Conflict(f"对局 {game_id} 第 {move.seq} 步已存在") from exc


def add_moves(s: Session, items: list[tuple[int, LiveMoveRecord, dict[str, Any], float]]) -> None:
    """Store many actions (of different games) in two executemany statements: the group
    commit's batch. Refused as a whole when any game's version moved on (the caller then
    retries them one by one to find which)."""
    if not items:
        return
    done = s.execute(_ADVANCE, [{"g_id": gid, "g_prev": m.seq - 1, "g_seq": m.seq, "g_state": state,
                                 "g_alive": alive} for gid, m, state, alive in items])  # fmt: skip
    if done.rowcount != len(items):  # type: ignore[attr-defined]
        raise StaleVersion(f"{len(items) - done.rowcount} 局已不在预期的步数")  # type: ignore[attr-defined]
    try:
        s.execute(_ADD_MOVE, [{"game_id": gid, "seq": m.seq, "color": m.color, "kind": m.kind,
                               "point": m.point, "at": m.at, "lag": m.lag}
                              for gid, m, _, _ in items])  # fmt: skip
    except IntegrityError as exc:
        raise Conflict("某一步已存在") from exc


def playing_ids(s: Session, event_id: int) -> list[int]:
    """The ids of the games still being played (a takeover scan reads only these)."""
    q = select(LiveGameRow.id).where(LiveGameRow.status == "playing", LiveGameRow.event_id == event_id)
    return list(s.scalars(q.order_by(LiveGameRow.id)))


def save_state(s: Session, game_id: int, *, state: dict[str, Any], alive_at: float) -> None:
    s.execute(
        update(LiveGameRow).where(LiveGameRow.id == game_id)
        .values(state=state, alive_at=alive_at).execution_options(synchronize_session=False)
    )  # fmt: skip


_SAVE_STATE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("g_id"), _GAMES.c.status == "playing")
    .values(state=bindparam("g_state", type_=JSON), alive_at=bindparam("g_alive"))
)  # fmt: skip


def save_states(s: Session, items: list[tuple[int, dict[str, Any], float]]) -> None:
    """``save_state`` for many games in one executemany statement (the group commit's batch)."""
    if items:
        s.execute(_SAVE_STATE, [{"g_id": gid, "g_state": state, "g_alive": alive} for gid, state, alive in items])


def finish_game(
    s: Session,
    game_id: int,
    *,
    result: str,
    reason: str,
    escaped: list[str],
    sgf: str,
    state: dict[str, Any],
    alive_at: float,
    finished_at: datetime,
) -> bool:
    """Mark a playing game finished; False when it already was (nothing changes then)."""
    done = s.execute(
        update(LiveGameRow)
        .where(LiveGameRow.id == game_id, LiveGameRow.status == "playing")
        .values(status="finished", result=result, reason=reason, escaped=escaped, sgf=sgf,
                state=state, alive_at=alive_at, finished_at=finished_at)
        .execution_options(synchronize_session=False)
    )  # fmt: skip
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]


def touch_alive(s: Session, game_ids: list[int], at: float) -> None:
    if game_ids:
        s.execute(
            update(LiveGameRow).where(LiveGameRow.id.in_(game_ids), LiveGameRow.status == "playing")
            .values(alive_at=at).execution_options(synchronize_session=False)
        )  # fmt: skip


def claim(s: Session, game_ids: list[int], owner: str) -> None:
    if game_ids:
        s.execute(
            update(LiveGameRow).where(LiveGameRow.id.in_(game_ids))
            .values(owner=owner).execution_options(synchronize_session=False)
        )  # fmt: skip


# ----- ladder -------------------------------------------------------------------------------
def ladder_add(
    s: Session,
    *,
    event_id: int,
    stage: str,
    period: int,
    pool: str,
    player: str,
    name: str,
    delta: Delta,
    at: datetime,
) -> None:
    """Add one finished game to a player's line (created on their first game); the sum is
    ``LadderLine.add``, the one accumulator, so the stored line and a rescore agree."""
    row = s.scalars(
        select(LiveLadderRow).where(
            LiveLadderRow.event_id == event_id, LiveLadderRow.stage == stage,
            LiveLadderRow.period == period, LiveLadderRow.pool == pool,
            LiveLadderRow.player == player,
        ).with_for_update()
    ).first()  # fmt: skip
    if row is None:
        row = LiveLadderRow(event_id=event_id, stage=stage, period=period, pool=pool, player=player)
        s.add(row)
        line = LadderLine(player, name)
    else:
        line = ladder_line(row)
    store_line(row, line.add(delta), name=name or row.name, at=at)
    s.flush()


def ladder_line(row: LiveLadderRow) -> LadderLine:
    return LadderLine(row.player, row.name, row.points, row.wins, row.losses, row.games, row.escapes)


def store_line(row: LiveLadderRow, line: LadderLine, *, name: str, at: datetime) -> None:
    row.name, row.points, row.wins, row.losses = name, line.points, line.wins, line.losses
    row.games, row.escapes, row.updated_at = line.games, line.escapes, at


def ladder_lines(s: Session, event_id: int, stage: str, period: int, pool: str) -> list[LadderLine]:
    q = select(LiveLadderRow).where(
        LiveLadderRow.event_id == event_id, LiveLadderRow.stage == stage,
        LiveLadderRow.period == period, LiveLadderRow.pool == pool,
    ).order_by(LiveLadderRow.player)  # fmt: skip
    return [ladder_line(r) for r in s.scalars(q)]


# ----- matching waves ---------------------------------------------------------------------------
def add_wave(s: Session, event_id: int, day: date, pool: str, number: int, seed: int,
             record: dict[str, Any]) -> None:
    s.add(LiveWaveRow(event_id=event_id, day=day, pool=pool, number=number, seed=seed,
                      record=record))  # fmt: skip
    s.flush()


def day_waves(s: Session, event_id: int, day: date) -> list[tuple[str, int, int, dict[str, Any]]]:
    """(pool, number, seed, record) of every wave of one day, in order."""
    q = select(LiveWaveRow).where(LiveWaveRow.event_id == event_id, LiveWaveRow.day == day)
    return [(r.pool, r.number, r.seed, dict(r.record))
            for r in s.scalars(q.order_by(LiveWaveRow.pool, LiveWaveRow.number))]  # fmt: skip


# ----- one-time sign-in codes -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CodeRecord:
    id: int
    phone: str
    salt: str
    digest: str
    created_at: datetime
    expires_at: datetime
    attempts: int
    used: bool


def add_code(s: Session, phone: str, salt: str, digest: str, created_at: datetime,
             expires_at: datetime, client: str = "", fresh: bool = False) -> None:  # fmt: skip
    s.add(LiveCodeRow(phone=phone, salt=salt, digest=digest, created_at=created_at, expires_at=expires_at,
                      attempts=0, used=False, client=client[:64], fresh=fresh))  # fmt: skip
    s.flush()


def _window(q: Any, phone: str | None, client: str | None, fresh: bool | None) -> Any:
    if phone is not None:
        q = q.where(LiveCodeRow.phone == phone)
    if client is not None:
        q = q.where(LiveCodeRow.client == client[:64])
    if fresh is not None:
        q = q.where(LiveCodeRow.fresh == fresh)
    return q


def codes_since(s: Session, phone: str | None, since: datetime, *, client: str | None = None,
                fresh: bool | None = None) -> int:  # fmt: skip
    """Codes sent since ``since``: to one number, to one client address, to numbers that had no
    account (``fresh``), or (all None) site-wide."""
    q = select(func.count()).select_from(LiveCodeRow).where(LiveCodeRow.created_at >= since)
    return int(s.scalar(_window(q, phone, client, fresh)) or 0)


def oldest_code_since(s: Session, since: datetime, *, client: str | None = None,
                      phone: str | None = None, fresh: bool | None = None) -> datetime | None:  # fmt: skip
    """When the oldest code of the window was sent (the refusal says when the window frees up)."""
    q = select(func.min(LiveCodeRow.created_at)).where(LiveCodeRow.created_at >= since)
    return s.scalar(_window(q, phone, client, fresh))


def latest_code(s: Session, phone: str) -> CodeRecord | None:
    q = (select(LiveCodeRow).where(LiveCodeRow.phone == phone)
         .order_by(LiveCodeRow.id.desc()).limit(1).with_for_update())  # fmt: skip
    r = s.scalars(q).first()
    if r is None:
        return None
    return CodeRecord(r.id, r.phone, r.salt, r.digest, r.created_at, r.expires_at, r.attempts,
                      r.used)  # fmt: skip


def code_attempt(s: Session, code_id: int, *, used: bool) -> None:
    s.execute(update(LiveCodeRow).where(LiveCodeRow.id == code_id)
              .values(attempts=LiveCodeRow.attempts + 1, used=used)
              .execution_options(synchronize_session=False))  # fmt: skip

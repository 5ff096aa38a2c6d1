"""Online qualifier use cases: start, record, finish and resume live games; the ladder; waves.

The live server (``yisai.live.server``) calls these, one unit of work each, and tells players
only after the ``with ctx.work()`` block has committed:

* ``record_action`` stores an accepted action (and the clock/presence snapshot) before the
  acknowledgement goes out; a restart replays the stored actions, so no acknowledged move is lost;
* ``finish_game`` writes the result, the SGF and both ladder lines in one transaction;
* ``resume_games`` rebuilds every game still in progress at start-up, pausing its clock over the
  outage (from the last moment the owning process was known alive, ``touch``) so nobody is
  charged for the downtime.

Times are floats of epoch seconds from the server's clock (passed in); dates are Beijing time.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from yisai.game.board import BLACK, WHITE
from yisai.i18n import Text
from yisai.qualifier import otp
from yisai.qualifier.ladder import LadderLine, deltas, table
from yisai.qualifier.matching import WaveRecord
from yisai.qualifier.notices import SIGN_IN_CODE, NoticeLimits, fresh_share
from yisai.qualifier.periods import NoLadder, ladder_stage, pools
from yisai.qualifier.session import Action, Kind, LiveGame, LiveGameInfo, LiveRules
from yisai.regulation.rules import DisconnectionRules
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import LadderFormat, Stage
from yisai.services import notices
from yisai.services.accounts import actor_of
from yisai.services.context import Work
from yisai.services.errors import Conflict, InputError, NotFoundError, Refused
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Actor, Role
from yisai.store import NotFound, account_rows, audit_rows, qualification_rows
from yisai.store import live_rows as rows
from yisai.store.errors import Conflict as StoreConflict


@dataclass(frozen=True)
class LiveConfig:
    """The event whose online qualifier is played, with its ladder stage and game rules."""

    event_id: int
    regulation: Regulation
    stage: Stage
    ladder: LadderFormat
    rules: LiveRules

    @property
    def pools(self) -> list[str]:
        return pools(self.stage, self.ladder)


@dataclass(frozen=True)
class LadderRow:
    """A player's line (积分, 胜局数, games, escapes) with its place in the period's table."""

    place: int
    line: LadderLine
    qualified: bool
    note: str = ""  # 并列第38名，一同晋级


def live_config(work: Work, event_ref: str | int | None, *, lag_cap: float | None = None) -> LiveConfig:
    """The live settings of an event from its stored regulation (time control, disconnections)."""
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    try:
        stage, ladder = ladder_stage(reg)
    except NoLadder:
        raise InputError(Text("该比赛的规程中没有网络海选赛 (online_ladder)",
                              "this event's regulation has no online ladder stage"),
                         code="no_ladder") from None
    if stage.time_control is None:
        raise InputError(Text(f"规程的阶段 {stage.id} 没有规定用时 (time_control)",
                              f"stage {stage.id} of the regulation has no time_control"),
                         code="no_time_control")
    rules = LiveRules(reg.rules, stage.time_control, stage.disconnection or DisconnectionRules())
    if lag_cap is not None:
        rules = LiveRules(rules.play, rules.time, rules.disconnection, lag_cap)
    return LiveConfig(event.id, reg, stage, ladder, rules)


def _move(a: Action) -> rows.LiveMoveRecord:
    return rows.LiveMoveRecord(a.seq, a.color, a.kind.value, a.point, a.at, a.lag)


def _action(m: rows.LiveMoveRecord) -> Action:
    return Action(m.seq, m.color, Kind(m.kind), m.point, m.at, m.lag)


def start_game(
    work: Work,
    cfg: LiveConfig,
    *,
    period: int,
    pool: str,
    black: tuple[str, str],
    white: tuple[str, str],
    start: float,
    owner: str = "",
    matching: dict[str, Any] | None = None,
) -> tuple[LiveGameInfo, LiveGame]:
    """A new game between (id, name) pairs; Black's clock runs from ``start``."""
    return start_games(work, cfg, period=period, pool=pool, pairs=[(black, white, owner)], start=start,
                       matching=matching)[0]  # fmt: skip


def start_games(
    work: Work,
    cfg: LiveConfig,
    *,
    period: int,
    pool: str,
    pairs: list[tuple[tuple[str, str], tuple[str, str], str]],
    start: float,
    matching: dict[str, Any] | None = None,
) -> list[tuple[LiveGameInfo, LiveGame]]:
    """A wave's new games — (Black, White, owning process) with players as (id, name) — in one
    statement; each Black's clock runs from ``start``."""
    games = [LiveGame(cfg.rules, start) for _ in pairs]
    ids = rows.add_games(
        work.session, [rows.NewGame(b[0], w[0], b[1], w[1], g.snapshot(), owner)
                       for (b, w, owner), g in zip(pairs, games, strict=True)],
        event_id=cfg.event_id, stage=cfg.stage.id, period=period, pool=pool, rules=cfg.rules.to_dict(),
        started_at=start, matching=matching or {}, created_at=work.now,
    )  # fmt: skip
    out = []
    for gid, (b, w, _), game in zip(ids, pairs, games, strict=True):
        work.emit("live_game_started", cfg.event_id, game=gid, black=b[0], white=w[0])
        out.append((LiveGameInfo(gid, period, pool, b[0], w[0], b[1], w[1], "playing", 0, "", ""), game))
    return out


def record_action(work: Work, game_id: int, game: LiveGame, action: Action) -> None:
    """Store an accepted action with the snapshot after it (before anyone is told)."""
    try:
        rows.add_move(work.session, game_id, _move(action), state=game.snapshot(),
                      alive_at=action.at)  # fmt: skip
    except StoreConflict as exc:
        raise Conflict(Text(f"对局 {game_id} 已被其他进程更新", f"game {game_id} was changed elsewhere"),
                       code="live_conflict", params={"game": game_id}) from exc


def record_actions(work: Work, items: list[tuple[int, LiveGame, Action]]) -> None:
    """``record_action`` for many games at once (the group commit: two statements, not 2 × N)."""
    try:
        rows.add_moves(work.session, [(gid, _move(a), game.snapshot(), a.at) for gid, game, a in items])
    except StoreConflict as exc:
        raise Conflict(Text("有对局已被其他进程更新", "a game was changed elsewhere"),
                       code="live_conflict", params={"games": [gid for gid, _, _ in items]}) from exc


def save_state(work: Work, game_id: int, game: LiveGame, at: float) -> None:
    """Store the clock and presence after a connection change (no action)."""
    rows.save_state(work.session, game_id, state=game.snapshot(), alive_at=at)


def save_states(work: Work, items: list[tuple[int, LiveGame, float]]) -> None:
    """``save_state`` for many games at once (the group commit: one statement)."""
    rows.save_states(work.session, [(gid, game.snapshot(), at) for gid, game, at in items])


def finish_game(
    work: Work, cfg: LiveConfig, game_id: int, game: LiveGame, action: Action | None = None
) -> LiveGameInfo:
    """The result, the SGF and both ladder lines, in the caller's one transaction."""
    if game.ending is None:
        raise InputError(Text("对局尚未结束", "the game is not over"), code="not_over")
    record = rows.get_game(work.session, game_id)
    if action is not None:
        record_action(work, game_id, game, action)
    outcome, ending = game.ending.outcome, game.ending
    sgf = game.sgf(black=record.info.black_name or record.info.black, white=record.info.white_name or record.info.white,
                   date=work.now.date().isoformat(), event=cfg.regulation.name)  # fmt: skip
    escaped = [record.info.black if c == BLACK else record.info.white for c in ending.escaped]
    if not rows.finish_game(work.session, game_id, result=outcome.sgf, reason=outcome.reason.value,
                            escaped=escaped, sgf=sgf.decode("utf-8"), state=game.snapshot(),
                            alive_at=ending.at, finished_at=work.now):  # fmt: skip
        raise Conflict(Text(f"对局 {game_id} 已经结束", f"game {game_id} is already finished"),
                       code="live_finished", params={"game": game_id})
    audit_rows.audit(work.session, work.stamp, cfg.event_id, "finish", "live_game", game_id, None,
                     {"result": outcome.sgf, "reason": outcome.reason.value})  # moves the event's change stamp
    by_color = {BLACK: (record.info.black, record.info.black_name), WHITE: (record.info.white, record.info.white_name)}
    for color, d in deltas(cfg.ladder, outcome, ending.escaped).items():
        player, name = by_color[color]
        rows.ladder_add(work.session, event_id=cfg.event_id, stage=record.stage,
                        period=record.info.period, pool=record.info.pool, player=player, name=name,
                        delta=d, at=work.now)  # fmt: skip
    work.emit("live_game_finished", cfg.event_id, game=game_id, result=outcome.sgf,
              reason=outcome.reason.value, period=record.info.period, pool=record.info.pool)  # fmt: skip
    return rows.get_game(work.session, game_id).info


def touch(work: Work, game_ids: list[int], at: float) -> None:
    """The owning process is alive at ``at`` (the outage of a crash is measured from here)."""
    rows.touch_alive(work.session, game_ids, at)


def resume_games(
    work: Work, cfg: LiveConfig, up_at: float, owner: str = ""
) -> list[tuple[LiveGameInfo, LiveGame]]:
    """Every game still playing, rebuilt, with the outage since its ``alive_at`` not charged."""
    found = rows.games_with_status(work.session, "playing", cfg.event_id)
    out = [_resume(work, r, up_at) for r in found]
    rows.claim(work.session, [r.info.id for r in found], owner)
    return out


def take_over(
    work: Work, cfg: LiveConfig, game_id: int, up_at: float, owner: str
) -> tuple[LiveGameInfo, LiveGame] | None:
    """One game whose owning process is gone (its ownership key expired), rebuilt exactly as
    ``resume_games`` does: the outage since its last ``alive_at`` is not charged. None when the
    game is no longer being played."""
    try:
        r = rows.get_game(work.session, game_id)
    except NotFound:
        return None
    if r.info.status != "playing" or r.event_id != cfg.event_id:
        return None
    out = _resume(work, r, up_at)
    rows.claim(work.session, [r.info.id], owner)
    return out


def _resume(work: Work, r: rows.LiveGameRecord, up_at: float) -> tuple[LiveGameInfo, LiveGame]:
    actions = [_action(m) for m in rows.moves(work.session, r.info.id)]
    game = LiveGame.restore(LiveRules.from_dict(r.rules), r.started_at, actions, r.state,
                            down_from=r.alive_at, up_at=up_at)  # fmt: skip
    rows.save_state(work.session, r.info.id, state=game.snapshot(), alive_at=up_at)
    return r.info, game


def playing_ids(work: Work, cfg: LiveConfig) -> list[int]:
    return rows.playing_ids(work.session, cfg.event_id)


def playing_games_of(work: Work, cfg: LiveConfig, player: str) -> list[int]:
    """The ids of a player's games in progress (any process may own them)."""
    return [r.info.id for r in rows.games_of(work.session, cfg.event_id, player) if r.info.status == "playing"]


def load_game(work: Work, cfg: LiveConfig, game_id: int, now: float) -> tuple[LiveGameInfo, LiveGame]:
    """A game as stored, continued at ``now`` with the time since its last write charged
    (a process reloading after a failed write, or a finished game's view)."""
    try:
        r = rows.get_game(work.session, game_id)
    except NotFound:
        raise NotFoundError(Text(f"没有对局 {game_id}", f"no game {game_id}"), code="no_game") from None
    actions = [_action(m) for m in rows.moves(work.session, r.info.id)]
    at = now if r.info.status == "playing" else r.alive_at
    game = LiveGame.restore(LiveRules.from_dict(r.rules), r.started_at, actions, r.state,
                            down_from=at, up_at=at)  # fmt: skip
    return r.info, game


def game_info(work: Work, game_id: int) -> LiveGameInfo:
    try:
        return rows.get_game(work.session, game_id).info
    except NotFound:
        raise NotFoundError(Text(f"没有对局 {game_id}", f"no game {game_id}"), code="no_game") from None


def game_sgf(work: Work, game_id: int) -> str:
    """The stored record of a finished game ('' while it is being played)."""
    try:
        return rows.get_game(work.session, game_id).sgf
    except NotFound:
        raise NotFoundError(Text(f"没有对局 {game_id}", f"no game {game_id}"), code="no_game") from None


def player_games(work: Work, cfg: LiveConfig, player: str) -> list[LiveGameInfo]:
    return [r.info for r in rows.games_of(work.session, cfg.event_id, player)]


def pool_names(regulation: Regulation) -> dict[str, str]:
    """Each division's and pool's display name: a merged pool (少儿组 = 少年组 + 幼儿组) is
    named by its divisions, from the regulation."""
    names = {d.id: d.name for d in regulation.divisions}
    for stage in regulation.stages:
        for key, members in getattr(stage.format, "pools", {}).items():
            names[key] = "、".join(names.get(m, m) for m in members)
    return names


def games_in_play(work: Work, cfg: LiveConfig) -> list[LiveGameInfo]:
    """The games being played now (the spectators' list: names and pools, nothing personal)."""
    return [r.info for r in rows.games_with_status(work.session, "playing", cfg.event_id)]


def ladder_table(work: Work, cfg: LiveConfig, period: int, pool: str) -> list[LadderRow]:
    """积分, 胜局数, games, escapes per player, ordered and marked as the regulation qualifies."""
    lines = rows.ladder_lines(work.session, cfg.event_id, cfg.stage.id, period, pool)
    result, by_player = table(cfg.ladder, pool, lines)
    return [LadderRow(q.place, by_player[q.player_id], q.qualified, q.note) for q in result.rows]


def store_wave(work: Work, cfg: LiveConfig, day: date, wave: WaveRecord) -> None:
    """Keep a wave that paired someone (waves with no pair change nothing to replay)."""
    rows.add_wave(work.session, cfg.event_id, day, wave.pool, wave.number, wave.seed, wave.to_dict())


def day_matching(work: Work, cfg: LiveConfig, day: date) -> tuple[int | None, dict[str, int]]:
    """The seed already used on ``day`` (None: none yet) and each pool's last wave number."""
    waves = rows.day_waves(work.session, cfg.event_id, day)
    seed = waves[0][2] if waves else None
    last: dict[str, int] = {}
    for pool, number, _, _ in waves:
        last[pool] = max(last.get(pool, 0), number)
    return seed, last


def last_opponents(work: Work, cfg: LiveConfig) -> dict[str, str]:
    """Each player's latest opponent (restored into the matchmaker after a restart)."""
    return rows.last_opponents(work.session, cfg.event_id)


# ----- sign-in by mobile number and one-time code ------------------------------------------------
CODE_MINUTES = 5  # a code is valid this long
CODE_ATTEMPTS = 5  # wrong guesses before a code is dead
# The limits that protect the organiser's money are a site setting (``Settings.notice_limits``,
# from the SMS configuration); these are their defaults.
CODE_INTERVAL_SECONDS = NoticeLimits().per_number_seconds  # at most one code per number per minute
CODES_PER_DAY = NoticeLimits().per_number_day  # and this many per number per day
CODES_PER_CLIENT_HOUR = NoticeLimits().per_client_hour  # per client address per hour
CODES_PER_SITE_HOUR = NoticeLimits().site_hour  # for the whole site per hour


@dataclass(frozen=True)
class OutgoingCode:
    """A code stored and queued as an SMS notice (``notice``; None: not queued, e.g. no phone)."""

    phone: str
    text: Text
    notice: int | None = None


def _phone(text: str) -> str:
    phone = otp.normalise_phone(text)
    if phone is None:
        raise InputError(Text(f"手机号码无效: {text} (应为11位中国大陆手机号)",
                              f"not a mobile number: {text} (11 digits, mainland China)"),
                         code="bad_phone")
    return phone


def _wait_text(work: Work, free_at: datetime) -> tuple[Text, dict[str, Any]]:
    """"try again in N minutes" (or seconds under a minute), from when the window frees up."""
    seconds = max(1, math.ceil((free_at - work.now).total_seconds()))
    if seconds < 60:
        return Text(f"请{seconds}秒后再试", f"try again in {seconds} s"), {"retry_after_seconds": seconds}
    minutes = math.ceil(seconds / 60)
    if minutes <= 90:
        return Text(f"请{minutes}分钟后再试", f"try again in {minutes} min"), {"retry_after_minutes": minutes}
    when = f"{free_at:%Y-%m-%d %H:%M}"
    return Text(f"请于 {when} 后再试", f"try again after {when}"), {"retry_at": when}


def _window(work: Work, limit: int, span: timedelta, zh: str, en: str, code: str, *,
            phone: str | None = None, client: str | None = None, fresh: bool | None = None) -> None:  # fmt: skip
    since = work.now - span
    if rows.codes_since(work.session, phone, since, client=client, fresh=fresh) < limit:
        return
    oldest = rows.oldest_code_since(work.session, since, client=client, phone=phone, fresh=fresh) or work.now
    wait, params = _wait_text(work, oldest + span)
    raise Refused(Text(f"{zh}, {wait.zh}", f"{en}; {wait.en}"), code=code, params=params)


CODES_GATE = "codes"


def request_code(work: Work, phone_text: str, *, client: str = "", event_id: int | None = None,
                 per_client_hour: int | None = None, site_hour: int | None = None) -> OutgoingCode:
    """Store a new one-time code for a number and queue its SMS. Limited per number (an interval
    apart, so many a day), per client address (an IPv6 address by its /64), per hour for the
    whole site -- counting only codes to numbers with no account yet, which a flood of made-up
    numbers spends, so a player who signed in before is never locked out by it -- and by the
    qualifier event's daily SMS budget, of which new numbers may take only their share
    (``Settings.notice_limits``); each refusal says when to try again.

    Every limit is read under one row lock (``notices.gate``) taken before the counts, and the
    code and its notice are stored in the same transaction: two workers cannot both take the
    last place, so "sent" is said only of a message queued to be sent. The answer is the same
    whether or not the number has an account."""
    limits = work.settings.notice_limits
    phone = _phone(phone_text)
    client = otp.client_key(client) if client else ""
    notices.gate(work, CODES_GATE)
    budget = notices.budget_of(work, event_id) if event_id is not None else 0
    if event_id is not None and budget:
        notices.budget_gate(work, event_id)
    fresh = account_rows.find_user(work.session, phone) is None
    hour = timedelta(hours=1)
    if fresh:
        _window(work, limits.site_hour if site_hour is None else site_hour, hour,
                "本站新用户验证码发送量已达每小时上限", "the site's hourly limit of codes to new numbers is reached",
                "code_site_limit", fresh=True)  # fmt: skip
    if client:
        _window(work, limits.per_client_hour if per_client_hour is None else per_client_hour, hour,
                "本设备/网络请求验证码过于频繁", "too many codes requested from this address", "code_client_limit",
                client=client)  # fmt: skip
    _window(work, 1, timedelta(seconds=limits.per_number_seconds), "验证码发送过于频繁",
            "a code was sent to this number a moment ago", "code_too_soon", phone=phone)
    _window(work, limits.per_number_day, timedelta(days=1), "今天该号码的验证码已达上限",
            "too many codes for this number today", "code_limit", phone=phone)
    notices.check_budget(work, event_id)
    if event_id is not None and fresh and budget:
        share = fresh_share(budget, limits.fresh_budget_percent)
        if notices.used_today(work, event_id) >= share:
            when = f"{(work.now.date() + timedelta(days=1)):%Y-%m-%d} 00:00"
            raise Refused(Text(f"今日本赛事发给新号码的验证码已达上限, 请于 {when} 后再试",
                               f"today's share of this event's SMS budget for new numbers is used up; "
                               f"try again after {when}"),
                          code="sms_budget_new", params={"retry_at": when})  # fmt: skip
    code, salt = otp.new_code(), secrets.token_hex(16)
    rows.add_code(work.session, phone, salt, otp.digest(salt, phone, code), work.now,
                  work.now + timedelta(minutes=CODE_MINUTES), client=client, fresh=fresh)  # fmt: skip
    notice = notices.enqueue(work, SIGN_IN_CODE, phone, {"code": code, "minutes": CODE_MINUTES},
                             key=f"code:{phone}:{work.now:%Y%m%d%H%M%S}:{salt[:12]}", event_id=event_id)
    if not notices.is_queued(work, notice):  # not to be sent: say so (the caller's rollback drops the code)
        raise Refused(Text("验证码未能发送, 请稍后再试", "the code could not be sent; try again later"),
                      code="code_not_queued")  # fmt: skip
    return OutgoingCode(phone, otp.code_message(code, CODE_MINUTES), notice)


def bad_code() -> Refused:
    """The one refusal for wrong, expired, used and unknown codes."""
    return Refused(Text("验证码错误或已过期", "wrong or expired code"), code="bad_code")


def sign_in_with_code(work: Work, phone_text: str, code: str, *, name: str = "") -> Actor | None:
    """The player's actor for a correct, fresh code (the account is created on first sign-in);
    None for a wrong, expired, used or unknown code -- the caller commits (so a wrong guess
    counts) and then raises ``bad_code()``. A code dies after ``CODE_ATTEMPTS`` wrong guesses.
    """
    phone = _phone(phone_text)
    found = rows.latest_code(work.session, phone)
    if found is None or found.used or found.attempts >= CODE_ATTEMPTS or work.now > found.expires_at:
        return None
    ok = otp.matches(found.salt, phone, code, found.digest)
    rows.code_attempt(work.session, found.id, used=ok)
    if not ok:
        return None
    existing = account_rows.find_user(work.session, phone)
    if existing is not None:
        return actor_of(work, existing[0]) if existing[0].active else None
    shown = name.strip() or f"{phone[:3]}****{phone[-4:]}"
    user = account_rows.add_user(work.session, work.stamp, phone, shown, Role.PLAYER.value, None, phone=phone)
    work.emit("user_created", None, user_id=user.id, role=Role.PLAYER.value)
    return actor_of(work, user)


def day_waves(work: Work, cfg: LiveConfig, day: date) -> list[dict[str, Any]]:
    return [record for _, _, _, record in rows.day_waves(work.session, cfg.event_id, day)]


__all__ = [
    "LadderRow",
    "LiveConfig",
    "LiveGameInfo",
    "OutgoingCode",
    "bad_code",
    "day_matching",
    "day_waves",
    "finish_game",
    "game_info",
    "game_sgf",
    "games_in_play",
    "ladder_table",
    "last_opponents",
    "live_config",
    "load_game",
    "player_games",
    "playing_games_of",
    "playing_ids",
    "pool_names",
    "record_action",
    "record_actions",
    "request_code",
    "resume_games",
    "save_state",
    "save_states",
    "sign_in_with_code",
    "start_game",
    "start_games",
    "store_wave",
    "take_over",
    "touch",
]


@dataclass(frozen=True)
class PeriodList:
    """One period's qualification list for one pool (the public page's table)."""

    period: int
    start: date
    end: date
    pool: str
    quota: int
    rows: list[LadderRow]
    # The chief referee closed the period and published its list: until then a row's
    # ``qualified`` only says it is inside the places now (provisional, not a place won).
    closed: bool = False


def qualifier_lists(work: Work, event_ref: str | int | None) -> list[PeriodList]:
    """Every period × pool of the event's online qualifier: points, wins, qualified (public data:
    names and figures only)."""
    cfg = live_config(work, event_ref)
    published = {(v.period, v.pool) for v in
                 qualification_rows.list_versions(work.session, cfg.event_id, cfg.stage.id)}
    out = []
    for p in cfg.stage.periods:
        for pool in cfg.pools:
            quota = cfg.ladder.qualifiers.get(pool, 0)
            out.append(PeriodList(p.number, p.start, p.end, pool, quota,
                                  ladder_table(work, cfg, p.number, pool),
                                  closed=(p.number, pool) in published))
    return out

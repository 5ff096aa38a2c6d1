"""赛风赛纪 for the online qualifier: signals per game, the referees' review queue, annulling or
correcting a game (which re-scores the ladder and amends a published list), sanctions that
matching enforces, and the focus-loss counts clients report.

The signals are defined in ``yisai.game.fairplay`` (pure). A decision re-scores the whole period
× pool of the game from the stored finished games (with the latest decision on each), so the
ladder never drifts from its games; a published list that changes gets a new version marked
amended, with the reason (``services.qualification.amend_lists``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from yisai.game.board import BLACK, EMPTY, WHITE
from yisai.game.fairplay import game_signals
from yisai.game.flow import EndReason, Outcome
from yisai.i18n import Text
from yisai.qualifier.ladder import LadderLine, deltas
from yisai.qualifier.periods import Suspension, open_period, queue_refusal, window
from yisai.services.context import Context, Work
from yisai.services.errors import Forbidden, InputError, NotFoundError
from yisai.services.identity import Action
from yisai.services.live import LiveConfig, live_config
from yisai.services.qualification import amend_lists
from yisai.store import audit_rows
from yisai.store import qualification_rows as rows

RESULT_CHOICES: dict[str, Text] = {
    "B+R": Text("黑胜", "Black wins"),
    "W+R": Text("白胜", "White wins"),
    "Void": Text("无胜负 (双方不得分)", "no result (no points)"),
}
MAX_FOCUS_REPORT = 100_000


@dataclass(frozen=True)
class ReviewItem:
    game: rows.FinishedGame  # names, period, pool and the result as played
    decided: str  # "" / annul / result
    decided_result: str
    score: float
    signals: dict[str, Any]

    @property
    def game_id(self) -> int:
        return self.game.id


def _latest_decisions(work: Work, event_id: int) -> dict[int, rows.DecisionRecord]:
    out: dict[int, rows.DecisionRecord] = {}
    for d in rows.decisions(work.session, event_id):
        out[d.game_id] = d
    return out


def compute_signals(work: Work, cfg: LiveConfig, game_id: int) -> float:
    """Compute and store one finished game's signals; returns its score."""
    g = rows.finished_game(work.session, game_id)
    if g is None:
        raise NotFoundError(Text(f"没有已结束的对局 {game_id}", f"no finished game {game_id}"), code="no_game")
    focus = rows.focus_counts(work.session, game_id)
    by_color = {BLACK: focus.get(g.black, 0), WHITE: focus.get(g.white, 0)}
    per = game_signals(rows.move_times(work.session, game_id), g.started_at, cfg.rules.play.board_size, by_color)
    score = max(s.score for s in per.values())
    rows.save_signals(work.session, game_id, cfg.event_id, score,
                      {"black": per[BLACK].to_dict(), "white": per[WHITE].to_dict()}, work.now)
    return score


def refresh_signals(work: Work, event_ref: str | int | None, limit: int | None = None) -> int:
    """Signals for the finished games that have none yet, oldest first (at most ``limit``): the
    server's scheduled pass computes them soon after each game ends, the review page any left."""
    cfg = live_config(work, event_ref)
    todo = rows.games_without_signals(work.session, cfg.event_id)[:limit]
    for gid in todo:
        compute_signals(work, cfg, gid)
    return len(todo)


def review_queue(work: Work, event_ref: str | int | None, limit: int = 50) -> list[ReviewItem]:
    """Finished games, highest signal first, with any decision taken. Officials only."""
    work.require(Action.RECORD_RESULT)
    cfg = live_config(work, event_ref)
    refresh_signals(work, cfg.event_id)
    decided = _latest_decisions(work, cfg.event_id)
    out = []
    for gid, score, signals in rows.signal_queue(work.session, cfg.event_id, limit):
        g = rows.finished_game(work.session, gid)
        if g is None:
            continue
        d = decided.get(gid)
        out.append(ReviewItem(g, d.kind if d and d.kind != "cleared" else "", d.result if d else "", score,
                              signals))
    return out


def report_focus(work: Work, event_ref: str | int | None, game_id: int, player: str, count: int) -> None:
    """A client's focus-loss count for its player in a game (the highest report is kept)."""
    if not isinstance(count, int) or not 0 <= count <= MAX_FOCUS_REPORT:
        raise InputError(Text("失焦次数无效", "bad focus-loss count"), code="bad_focus")
    cfg = live_config(work, event_ref)
    found = rows.game_players(work.session, game_id)
    if found is None or found[0] != cfg.event_id:
        raise NotFoundError(Text(f"没有对局 {game_id}", f"no game {game_id}"), code="no_game")
    if player not in found[1:]:
        raise Forbidden(Text("只能报告自己对局的数据", "report your own games only"), code="not_your_game")
    rows.report_focus(work.session, game_id, player, count, work.now)


def _outcome(result: str, reason: str) -> Outcome:
    winner = BLACK if result.startswith("B+") else WHITE if result.startswith("W+") else EMPTY
    try:
        why = EndReason(reason)
    except ValueError:
        why = EndReason.RESIGN
    return Outcome(winner, why, result, void=winner == EMPTY)


def rescore(work: Work, cfg: LiveConfig, period: int, pool: str) -> None:
    """Rebuild one period × pool's ladder from its finished games and the referees' decisions."""
    decided = _latest_decisions(work, cfg.event_id)
    lines: dict[str, LadderLine] = {}
    for g in rows.finished_games(work.session, cfg.event_id, cfg.stage.id, period, pool):
        d = decided.get(g.id)
        if d is not None and d.kind == "annul":
            continue
        escaped: tuple[int, ...] = ()
        if d is not None and d.kind == "result":
            outcome = _outcome(d.result, "resign")
        else:
            outcome = _outcome(g.result, g.reason)
            escaped = tuple(BLACK if p == g.black else WHITE for p in g.escaped)
        for color, delta in deltas(cfg.ladder, outcome, escaped).items():
            player, name = (g.black, g.black_name) if color == BLACK else (g.white, g.white_name)
            lines[player] = lines.get(player, LadderLine(player, name)).add(delta)
    rows.replace_ladder(work.session, event_id=cfg.event_id, stage=cfg.stage.id, period=period, pool=pool,
                        lines=lines.values(), at=work.now)


def _decide(work: Work, event_ref: str | int | None, game_id: int, kind: str, result: str,
            reason: str) -> list[int]:
    work.require(Action.REVIEW_GAMES)
    if not reason.strip():
        raise InputError(Text("须写明理由", "a reason is required"), code="reason_required")
    cfg = live_config(work, event_ref)
    g = rows.finished_game(work.session, game_id)
    if g is None or rows.game_event(work.session, game_id) != (cfg.event_id, "finished"):
        raise NotFoundError(Text(f"没有已结束的对局 {game_id}", f"no finished game {game_id}"), code="no_game")
    before = _latest_decisions(work, cfg.event_id).get(game_id)
    shown_before = (before.kind if before.kind == "annul" else before.result) if before else g.result
    rows.add_decision(work.session, event_id=cfg.event_id, game_id=game_id, kind=kind, result=result,
                      before=shown_before, reason=reason.strip(), by=work.actor.audit_name, at=work.now)
    rescore(work, cfg, g.period, g.pool)
    audit_rows.audit(work.session, work.stamp, cfg.event_id, kind, "live_game", game_id, {"result": shown_before},
                     {"result": result or kind}, reason.strip())
    versions = amend_lists(work, cfg, g.period, Text(f"对局{game_id}: {reason.strip()}",
                                                     f"game {game_id}: {reason.strip()}").zh)
    work.emit("live_game_decided", cfg.event_id, game=game_id, decision=kind, result=result, amended=versions)
    return versions


def annul_game(work: Work, event_ref: str | int | None, game_id: int, reason: str) -> list[int]:
    """裁判长 annuls a game: it no longer counts for either player. Returns amended list versions."""
    return _decide(work, event_ref, game_id, "annul", "", reason)


def change_result(work: Work, event_ref: str | int | None, game_id: int, result: str, reason: str) -> list[int]:
    """裁判长 sets a game's result (``RESULT_CHOICES``) with a reason (an escape penalty goes)."""
    if result not in RESULT_CHOICES:
        choices = "、".join(f"{k} ({v.zh})" for k, v in RESULT_CHOICES.items())
        raise InputError(Text(f"结果只能是: {choices}", f"the result must be one of {', '.join(RESULT_CHOICES)}"),
                         code="bad_result")
    return _decide(work, event_ref, game_id, "result", result, reason)


def restore_game(work: Work, event_ref: str | int | None, game_id: int, reason: str) -> list[int]:
    """Undo the decisions on a game: it counts as played again."""
    return _decide(work, event_ref, game_id, "cleared", "", reason)


def suspend_player(work: Work, event_ref: str | int | None, player: str, *, periods: int, reason: str,
                   first_period: int | None = None) -> Suspension:
    """禁赛: the player may not queue for ``periods`` periods from ``first_period`` (default: the
    period open now, else the next one)."""
    work.require(Action.REVIEW_GAMES)
    if not reason.strip():
        raise InputError(Text("须写明处罚理由", "a reason is required"), code="reason_required")
    cfg = live_config(work, event_ref)
    numbers = [p.number for p in cfg.stage.periods]
    if not 1 <= periods <= len(numbers):
        raise InputError(Text(f"禁赛期数须为1至{len(numbers)}", f"periods must be 1 to {len(numbers)}"),
                         code="bad_periods")
    if first_period is None:
        current = open_period(cfg.stage, work.now)
        later = [p.number for p in cfg.stage.periods if window(p).opens > work.now]
        first_period = current.number if current else (min(later) if later else numbers[-1])
    if first_period not in numbers:
        raise InputError(Text(f"没有第{first_period}期", f"no period {first_period}"), code="no_period")
    rows.add_sanction(work.session, event_id=cfg.event_id, player=player, first_period=first_period,
                      periods=periods, reason=reason.strip(), by=work.actor.audit_name, at=work.now)
    audit_rows.audit(work.session, work.stamp, cfg.event_id, "suspend", "live_player", player, None,
                     {"first_period": first_period, "periods": periods}, reason.strip())
    work.emit("player_suspended", cfg.event_id, player=player, first_period=first_period, periods=periods)
    return Suspension(first_period, periods, reason.strip())


def sanctions(work: Work, event_ref: str | int | None) -> list[rows.SanctionRecord]:
    cfg = live_config(work, event_ref)
    return rows.sanctions(work.session, cfg.event_id)


def queue_check(work: Work, cfg: LiveConfig, player: str, now: datetime) -> tuple[str, Text] | None:
    """Why ``player`` may not queue now — (code, message): ``closed`` outside a period (and from
    the exact closing instant), ``suspended`` under a sanction — or None."""
    found = tuple(Suspension(s.first_period, s.periods, s.reason)
                  for s in rows.sanctions(work.session, cfg.event_id, player))
    refusal = queue_refusal(cfg.stage, now, found)
    if refusal is None:
        return None
    return ("closed" if open_period(cfg.stage, now) is None else "suspended"), refusal


def suspended_now(work: Work, cfg: LiveConfig, now: datetime) -> dict[str, Text]:
    """Every player whose sanction covers the period open at ``now``, with what they are told:
    the matching leader drops them from the queue before each wave, so a sanction recorded while
    a player waits takes effect before their next game, not only at their next 开始匹配."""
    by_player: dict[str, list[Suspension]] = {}
    for s in rows.sanctions(work.session, cfg.event_id):
        by_player.setdefault(s.player, []).append(Suspension(s.first_period, s.periods, s.reason))
    out = {}
    for player, found in by_player.items():
        refusal = queue_refusal(cfg.stage, now, tuple(found))
        if refusal is not None and open_period(cfg.stage, now) is not None:
            out[player] = refusal
    return out


def suspended_now_in(ctx: Context, cfg: LiveConfig, now: datetime) -> dict[str, Text]:
    """``suspended_now`` in its own unit of work (the live server calls it from a thread)."""
    with ctx.work() as work:
        return suspended_now(work, cfg, now)


def queue_check_in(ctx: Context, cfg: LiveConfig, player: str, now: datetime) -> tuple[str, Text] | None:
    """``queue_check`` in its own unit of work (what the live server calls from a thread)."""
    with ctx.work() as work:
        return queue_check(work, cfg, player, now)


def report_focus_in(ctx: Context, cfg: LiveConfig, game_id: int, player: str, count: int) -> None:
    """``report_focus`` in its own unit of work (the live server's ``focus`` message)."""
    with ctx.work() as work:
        report_focus(work, cfg.event_id, game_id, player, count)


__all__ = ["RESULT_CHOICES", "ReviewItem", "annul_game", "change_result", "compute_signals",
           "queue_check", "queue_check_in", "refresh_signals", "report_focus", "report_focus_in",
           "rescore", "restore_game", "review_queue", "sanctions", "suspend_player", "suspended_now",
           "suspended_now_in"]  # fmt: skip

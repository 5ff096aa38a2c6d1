"""迟到与弃权的规程处理: the two rules of absence the engine applies as results are entered.

* ``regulation.lateness`` (迟到15分钟判负 / 该轮弃权): the referee enters who was late and by
  how many minutes (``黑迟到17分钟``); ``decide_lateness`` turns that into the result the rule
  gives — the late player's loss by lateness (迟到判负) or forfeit (弃权) — or refuses, saying
  the game goes ahead (and how much the late player's clock loses) when the limit is not reached.
* ``withdrawal.exclude_after_forfeits`` (两轮无故弃权者取消其后比赛资格, 已赛成绩有效): when a
  player's Nth forfeit is recorded, ``apply_forfeit_rule`` sets the entry withdrawn (or
  disqualified, as ``withdrawal.excluded_as`` says) so he is paired no more; the games played
  stand. The change is audited as the rule's decision (action ``exclude``), not a person's.

Both run inside the result entry (``services.round_results.write_result``), so the console, the
CLI and the sheet import apply them alike. Neither imports pairing or standings code.
"""

from __future__ import annotations

from dataclasses import replace

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.record.parse import ParsedResult
from yisai.registry.entry import EntryStatus
from yisai.regulation import Regulation
from yisai.regulation.lateness import FORFEIT_REASON
from yisai.services.context import InputError, Work
from yisai.store import RoundRecord, entry_rows, event_rows, player_rows, round_rows

FORFEIT_REASONS = frozenset({FORFEIT_REASON, "双方弃权"})
"""The stored reasons of a forfeit (弃权, B+F, 双方弃权); a loss by lateness (迟到判负) is not one."""


def decide_lateness(reg: Regulation, parsed: ParsedResult, board: int) -> tuple[ParsedResult, Text | None]:
    """The result the regulation gives for ``黑迟到N分钟`` and the audit note that explains it.

    Refused (nothing stored) when the regulation has no lateness rule (the referee then enters
    黑迟到负 or 黑弃权 as his own decision) or when the player came within the limit."""
    minutes = parsed.late_minutes
    if minutes is None:
        return parsed, None
    side = "黑" if parsed.result == Result.WHITE_WINS else "白"
    side_en = "Black" if side == "黑" else "White"
    rule = reg.lateness
    if rule is None:
        raise InputError(
            Text(f"第{board}台: 规程没有迟到判负的时限 (lateness), 无法按迟到时间判定; "
                 f"请由裁判判定后录入 {side}迟到负 或 {side}弃权",
                 f"board {board}: the regulation sets no lateness limit (lateness), so minutes late decide "
                 f"nothing; enter the referee's decision as {side}迟到负 or {side}弃权"),
            code="no_lateness_rule", params={"board": board, "minutes": minutes})
    decision = rule.decide(minutes)
    if not decision.loses:
        clock = (Text(f", 其用时扣除{decision.clock_minutes}分钟"
                      + ("(迟到加倍扣时)" if rule.clock_factor > 1 else ""),
                      f"; {decision.clock_minutes} minutes come off {side_en}'s clock"
                      + (" (lateness counted double)" if rule.clock_factor > 1 else ""))
                 if decision.clock_minutes else Text("", ""))
        raise InputError(
            Text(f"第{board}台: {side}方迟到{minutes}分钟, 未到规程的时限 ({rule.limit_text}判负), "
                 f"对局照常进行{clock.zh}; 对局结束后再录入结果",
                 f"board {board}: {side_en} was {minutes} minutes late, within the regulation's limit "
                 f"(loss when {rule.limit_text_en}); the game goes ahead{clock.en}; enter its result when it ends"),
            code="late_within_limit",
            params={"board": board, "minutes": minutes, "limit": rule.minutes, "clock": decision.clock_minutes})
    forfeit = decision.reason == FORFEIT_REASON
    what = "该轮按弃权处理" if forfeit else "判负"
    note = Text(f"{side}方迟到{minutes}分钟, 按规程 lateness ({rule.limit_text}{what})",
                f"{side_en} was {minutes} minutes late: by the regulation's lateness rule (when "
                f"{rule.limit_text_en}) {'the round is forfeited' if forfeit else 'the game is lost'}")
    return replace(parsed, reason=decision.reason, late_minutes=None), note


def forfeits_of(games: list[Game], player: str) -> list[Game]:
    """The games ``player`` forfeited (弃权, 双方弃权): unplayed, lost, not a bye, not lateness."""
    return [g for g in games
            if not g.is_bye and not g.played and player in (g.black, g.white)
            and g.reason in FORFEIT_REASONS and g.outcome_for(player) == "L"]


EXCLUDED_NOTE = "按规程弃权满{limit}轮取消其后比赛资格, 已赛成绩有效"


def _is_forfeit(game: Game, player: str) -> bool:
    return bool(forfeits_of([game], player))


def apply_forfeit_rule(work: Work, rnd: RoundRecord, game: Game, before: Game | None = None) -> list[Text]:
    """After ``game`` was stored (``before``: the result it replaced): each of its forfeiting
    players who has now reached ``withdrawal.exclude_after_forfeits`` forfeits in the division
    is excluded (never paired again; games played stand); the warnings say so for the referee.
    A forfeit corrected away leaves an exclusion in place but says the chief referee may
    reinstate. Nothing at all for a played game that replaced none."""
    players = [p for p in (game.black, game.white) if p is not None]
    now = [p for p in players if _is_forfeit(game, p)]
    undone = [p for p in players if before is not None and _is_forfeit(before, p) and p not in now]
    if not now and not undone:
        return []
    from yisai.services.events import regulation_of

    event = event_rows.get_event(work.session, rnd.event_id)
    wd = regulation_of(event).withdrawal
    limit = wd.exclude_after_forfeits
    if limit is None:
        return []
    games = round_rows.games(work.session, event.id, rnd.division)
    out: list[Text] = []
    for player in undone:
        entry = entry_rows.find_entry(work.session, player, rnd.division)
        count = len(forfeits_of(games, player))
        if entry is None or not entry.status.has_left or count >= limit:
            continue
        if EXCLUDED_NOTE.format(limit=limit) not in entry.note:
            continue  # left for another reason: not this rule's business
        name = player_rows.get_player(work.session, player).name
        out.append(Text(
            f"{name}曾因弃权满{limit}轮被取消其后比赛资格, 更正后弃权{count}轮: 如应继续比赛, "
            "请裁判长恢复参赛",
            f"{name} was excluded for {limit} forfeits and now has {count}: if he should play on, "
            "the chief referee reinstates him"))
    for player in now:
        forfeits = forfeits_of(games, player)
        if len(forfeits) < limit:
            continue
        entry = entry_rows.find_entry(work.session, player, rnd.division)
        if entry is None or entry.status != EntryStatus.APPROVED:
            continue  # already out (or never in): nothing to decide
        status = EntryStatus(wd.excluded_as)
        rounds = "、".join(str(g.round) for g in forfeits)
        note = f"第{rounds}轮弃权, " + EXCLUDED_NOTE.format(limit=limit)
        saved = entry_rows.update_entry(work.session, work.stamp,
                                        entry.model_copy(update={"status": status, "note": note}), "exclude", note)
        work.emit("entry_withdrawn" if status == EntryStatus.WITHDRAWN else "entry_disqualified",
                  event.id, entry=saved.id)
        name = player_rows.get_player(work.session, player).name
        out.append(Text(
            f"{name}已弃权{len(forfeits)}轮 (第{rounds}轮): 按规程取消其后比赛资格"
            f" ({status.label}), 此后不再编排, 已赛成绩有效",
            f"{name} has forfeited {len(forfeits)} rounds (round {', '.join(str(g.round) for g in forfeits)}): "
            f"excluded from the rest of the event by the regulation ({status.value}); not paired again, "
            "the games played stand"))
    return out

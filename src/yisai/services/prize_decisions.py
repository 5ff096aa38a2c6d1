"""The chief referee's decisions on prizes (issue 41): docking a prize for missing the 颁奖仪式,
naming the winner of a judged award (最佳进步奖), and deciding on a pool overrun.

Each is stored in the event's settings under ``prizes`` (audited by the store, with the note),
and the prize engine applies them (``awards.decisions``). The regulation must allow them:
no docking without ``prizes.ceremony_absence``, no more than its share, no judged award it does
not list, no more winners than it allows.
"""

from __future__ import annotations

from dataclasses import replace

from yisai.awards.decisions import Docking, JudgedWinner, PrizeDecisions
from yisai.i18n import Text
from yisai.registry.person import Player
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Hint
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action
from yisai.store import EventRecord, event_rows, roster_rows
from yisai.vocabulary.money import fen_of_yuan, yuan_text


def decisions_of(event: EventRecord) -> PrizeDecisions:
    return PrizeDecisions.from_settings(event.settings.get("prizes"))


def _save(work: Work, event: EventRecord, decisions: PrizeDecisions, note: str) -> PrizeDecisions:
    event_rows.set_event_setting(work.session, work.stamp, event.id, "prizes", decisions.to_settings(), note)
    return decisions


def _need_note(note: str) -> str:
    text = note.strip()
    if not text:
        raise InputError(Text("裁判长的决定须写明理由", "the chief referee's decision needs a note"),
                         code="note_required")
    return text


def _player(work: Work, event: EventRecord, ref: str) -> Player:
    text = ref.strip()
    players = roster_rows.players_by_id(work.session, event.id)
    if text in players:
        return players[text]
    named = [p for p in players.values() if p.name == text]
    if len(named) == 1:
        return named[0]
    if named:
        raise InputError(Text(f"有{len(named)}名棋手叫“{text}”, 请用编号: {'、'.join(p.id for p in named)}",
                              f"{len(named)} players are called {text!r}: use an id"), code="ambiguous_player")
    raise InputError(Text(f"找不到棋手“{text}”", f"no player {text!r}"), code="player_not_found",
                     params={"player": text}, hint=Hint.LIST_PLAYERS)


def _yuan_to_fen(text: str) -> int:
    """"300" or "287.50" yuan → 分, without a float."""
    found = fen_of_yuan(text)
    if found is None:
        raise InputError(Text(f"金额应写成元, 最多两位小数, 如 300 或 287.50: {text}",
                              f"an amount in yuan with at most two decimals, e.g. 300 or 287.50: {text}"),
                         code="bad_amount")
    return found


def dock_prize(work: Work, event_ref: str | int | None, list_id: str, holder: str, *, yuan: str | None,
               note: str) -> Docking:
    """扣除部分奖金: the winner of ``holder``'s line in ``list_id`` missed the ceremony. With a
    fixed share the amount follows from the regulation; otherwise the referee states it, never
    more than the share the regulation allows. ``yuan = "0"`` withdraws the docking."""
    from yisai.awards.prizes import docking_cap
    from yisai.services.reports import prizes

    work.require(Action.DECIDE_PRIZES)
    event = resolve_event(work, event_ref)
    rule = regulation_of(event).prizes.ceremony_absence
    if rule is None:
        raise Refused(Text("规程没有写明未参加颁奖仪式扣除奖金 (prizes.ceremony_absence), 不能扣除",
                           "the regulation states no docking for missing the ceremony (prizes.ceremony_absence)"),
                      code="no_docking_rule", params={"field": "prizes.ceremony_absence"})
    text = _need_note(note)
    report = prizes(work, event.id, teams=False).report
    try:
        pl = report.list(list_id)
    except KeyError:
        ids = "、".join(p.id for p in report.lists if any(ln.amount for ln in p.lines))
        raise InputError(Text(f"没有奖项“{list_id}” (发奖金的奖项: {ids or '无'})", f"no prize list {list_id!r}"),
                         code="unknown_prize", params={"list": list_id}) from None
    line = next((ln for ln in pl.lines if ln.team_id is not None and ln.name == holder.strip()), None)
    if line is None:
        player = _player(work, event, holder)
        line = next((ln for ln in pl.lines if ln.player_id == player.id), None)
    if line is None or line.amount <= 0:
        raise Refused(Text(f"{holder}在{pl.name}中没有奖金, 无可扣除", f"{holder} has no prize money in {pl.name}"),
                      code="no_prize_to_dock", params={"list": list_id})
    cap = docking_cap(line.amount, rule)
    fen: int | None = None
    if rule.docking == "decided":
        if yuan is None:
            raise InputError(Text(f"规程规定由裁判长决定扣除金额 (最多{rule.percent}%, 即{yuan_text(cap, cents=False)}元): "
                                  "请写明扣除的金额", f"the referee decides the amount (at most {yuan_text(cap, cents=False)} "
                                  "yuan): give the amount docked"), code="amount_required")
        fen = _yuan_to_fen(yuan)
        if fen > cap:
            raise Refused(Text(f"扣除{yuan_text(fen, cents=False)}元超过规程允许的{rule.percent}% (奖金{line.amount}元, "
                               f"最多扣除{yuan_text(cap, cents=False)}元)", f"docking {yuan_text(fen, cents=False)} exceeds the "
                               f"{rule.percent}% the regulation allows ({yuan_text(cap, cents=False)} yuan)"),
                          code="docking_too_large", params={"field": "prizes.ceremony_absence.percent"})
    holder_id = line.player_id or line.team_id or ""
    decisions = decisions_of(event)
    kept = tuple(d for d in decisions.docked if (d.list_id, d.holder) != (list_id, holder_id))
    docking = Docking(list_id, holder_id, fen, text, work.actor.name)
    withdrawn = fen == 0
    _save(work, event, replace(decisions, docked=kept if withdrawn else (*kept, docking)),
          f"{'撤销扣除' if withdrawn else '扣除奖金'} {pl.name} {line.name}: {text}")
    return docking


def name_judged_winner(work: Work, event_ref: str | int | None, award_id: str, player_ref: str, *,
                       note: str, remove: bool = False) -> JudgedWinner:
    """最佳进步奖 …: the chief referee names (or, with ``remove``, takes back) a winner of an award
    the regulation lists in ``prizes.judged``, within its ``count``."""
    work.require(Action.DECIDE_PRIZES)
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    award = next((a for a in reg.prizes.judged if a.id == award_id), None)
    if award is None:
        ids = "、".join(f"{a.id}({a.name})" for a in reg.prizes.judged) or "无"
        raise InputError(Text(f"规程没有裁判长评定的奖项“{award_id}” (prizes.judged: {ids})",
                              f"the regulation lists no judged award {award_id!r}"),
                         code="unknown_prize", params={"field": "prizes.judged"})
    text = _need_note(note)
    player = _player(work, event, player_ref)
    if award.division is not None and not any(
            e.player_id == player.id and e.division == award.division
            for e in roster_rows.list_entries(work.session, event.id)):
        division = reg.division(award.division).name
        raise Refused(Text(f"{player.name}不是{division}的参赛者, 不能获得{award.name}",
                           f"{player.name} does not play in {division}"), code="not_in_division")
    decisions = decisions_of(event)
    others = tuple(j for j in decisions.judged if not (j.award_id == award_id and j.player_id == player.id))
    winner = JudgedWinner(award_id, player.id, text, work.actor.name)
    if not remove and sum(1 for j in others if j.award_id == award_id) >= award.count:
        raise Refused(Text(f"{award.name}最多评出{award.count}名, 已评满", f"{award.name}: at most {award.count}"),
                      code="judged_award_full", params={"field": "prizes.judged.count"})
    _save(work, event, replace(decisions, judged=others if remove else (*others, winner)),
          f"{'撤销' if remove else '评定'}{award.name} {player.name}: {text}")
    return winner


def decide_pool(work: Work, event_ref: str | int | None, note: str) -> PrizeDecisions:
    """The chief referee's decision on prizes that pay more than ``prizes.pool`` (audited)."""
    work.require(Action.DECIDE_PRIZES)
    event = resolve_event(work, event_ref)
    if regulation_of(event).prizes.pool is None:
        raise Refused(Text("规程没有写明奖金总额 (prizes.pool), 无需决定", "the regulation states no pool"),
                      code="no_pool", params={"field": "prizes.pool"})
    text = _need_note(note)
    return _save(work, event, replace(decisions_of(event), pool_note=text, pool_by=work.actor.name),
                 f"奖金总额超出的决定: {text}")

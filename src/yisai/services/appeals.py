"""Appeals (申诉) against a referee's decision, as both seed regulations state them:

"应在该轮比赛结束20分钟内以书面形式递交，申诉费2000元(1000元)，胜诉退还，败诉则不予退还".
The window and the fee come from the event's regulation (``[appeals]``: window_minutes, fee,
refunded_if_upheld). A round ends when its last result is entered; while a game of the round is
still being played the window is open. A written appeal is recorded by an official or a team
leader; only the chief referee (``Action.APPEAL``) decides it. Filing and deciding are audited.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from yisai.i18n import Text
from yisai.qualifier.notices import APPEAL_DECIDED
from yisai.registry.ledger import APPEAL
from yisai.services import fees, notices
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Forbidden, NotFoundError
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action, Role
from yisai.services.registration import team_of_player
from yisai.services.round_results import rounds_of
from yisai.store import EventRecord, RoundRecord, roster_rows, web_rows
from yisai.store.web_rows import AppealRecord

UPHELD, DISMISSED = "upheld", "dismissed"
STATUS_LABELS = {"filed": Text("待裁决", "filed"), UPHELD: Text("申诉成立", "upheld"),
                 DISMISSED: Text("申诉驳回", "dismissed")}


def _fmt(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def file_appeal(
    work: Work, event_ref: str | None, division: str, round_no: int, *, appellant: str, subject: str,
    board: int | None = None,
) -> AppealRecord:
    """Record a written appeal; refused after the window, with the round's end and the deadline."""
    work.require(Action.REGISTER)
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    rules = reg.appeals
    if rules is None:
        raise Refused(Text("本规程没有申诉条款, 不能登记申诉", "this regulation has no appeals clause"),
                      code="no_appeals")
    if not appellant.strip() or not subject.strip():
        raise InputError(Text("申诉人与申诉事由不能为空", "appellant and subject are required"),
                         code="appeal_incomplete")
    _, _, found = rounds_of(work, str(event.id), division, round_no)  # the round must exist
    _check_own_board(work, event, found, round_no, board)
    finished, last = web_rows.round_finished_at(work.session, event.id, division, round_no)
    ended = last if finished else None
    if ended is not None:
        deadline = ended + timedelta(minutes=rules.window_minutes)
        if work.now > deadline:
            raise Refused(
                Text(f"申诉已超过时限: 第{round_no}轮于 {_fmt(ended)} 结束, 申诉须在{rules.window_minutes}分钟内"
                     f" ({_fmt(deadline)} 前) 递交, 现在是 {_fmt(work.now)}",
                     f"too late to appeal: round {round_no} ended at {_fmt(ended)}; appeals are due within "
                     f"{rules.window_minutes} minutes (by {_fmt(deadline)}); it is now {_fmt(work.now)}"),
                code="appeal_too_late",
                params={"ended": _fmt(ended), "deadline": _fmt(deadline), "now": _fmt(work.now)},
            )
    saved = web_rows.add_appeal(work.session, work.stamp, event.id, division, round_no, board, appellant.strip(),
                                subject.strip(), ended, rules.fee)
    work.emit("appeal_filed", event.id, appeal=saved.id)
    return saved


def _check_own_board(work: Work, event: EventRecord, rounds: list[RoundRecord], round_no: int,
                     board: int | None) -> None:
    """A team leader appeals for the own team only: a board he names must seat one of its
    players (a board of two other teams is refused); a referee files for anyone."""
    if work.actor.role is not Role.TEAM_LEADER or board is None:
        return
    games = [g for r in rounds for g in r.games if g.board == board]
    if not games:
        raise InputError(Text(f"第{round_no}轮没有第{board}台", f"round {round_no} has no board {board}"),
                         code="no_such_board", params={"board": board})
    seated = {p for g in games for p in (g.black, g.white) if p}
    teams = {t for p in seated if (t := team_of_player(work, event, p)) is not None}
    if not any(work.actor.leads(t.id) for t in teams):
        raise Forbidden(
            Text(f"第{round_no}轮第{board}台没有本队棋手: 领队只能为本队的对局申诉",
                 f"board {board} of round {round_no} seats no player of this account's team: a team "
                 "leader appeals only on the own team's games"),
            code="not_own_team", params={"board": board})


def decide_appeal(work: Work, event_ref: str | None, appeal_id: int, *, upheld: bool, decision: str) -> AppealRecord:
    """The chief referee's decision; the fee is refunded when the appeal is upheld (if the
    regulation says so) and kept otherwise."""
    work.require(Action.APPEAL)
    event = resolve_event(work, event_ref)
    found = web_rows.get_appeal(work.session, appeal_id)
    if found is None or found.event_id != event.id:
        raise NotFoundError(Text(f"没有编号为{appeal_id}的申诉", f"no appeal {appeal_id}"), code="no_appeal")
    if found.status != "filed":
        raise Refused(Text(f"申诉{appeal_id}已裁决", f"appeal {appeal_id} is already decided"),
                      code="appeal_decided")
    if not decision.strip():
        raise InputError(Text("裁决须写明理由", "a decision needs its reasons"), code="decision_required")
    rules = regulation_of(event).appeals
    refund = upheld and (rules.refunded_if_upheld if rules is not None else False)
    saved = web_rows.decide_appeal(work.session, work.stamp, appeal_id, UPHELD if upheld else DISMISSED, decision.strip(), refund)
    if refund:  # the fee goes back the way it came: requested here, sent by the caller after the commit
        line = fees.subject_line(work, event, APPEAL, appeal_id)
        if line.paid > line.refunded:
            fees.refund_fee(work, str(event.id), APPEAL, appeal_id, None, f"申诉成立: {decision.strip()}",
                            action=Action.APPEAL)
    work.emit("appeal_decided", event.id, appeal=appeal_id, upheld=upheld)
    _tell_appellant(work, event.id, notices.message_name(event), saved, refund)
    return saved


def _tell_appellant(work: Work, event_id: int, event_name: str, appeal: AppealRecord, refund: bool) -> None:
    """The appellant hears the decision by SMS when the name is one player of the event with a
    mobile number (an appeal names its appellant in writing, not by player number)."""
    named = [p for p in roster_rows.players_by_id(work.session, event_id).values() if p.name == appeal.appellant.strip()]
    phone = named[0].phone if len(named) == 1 else None
    result = STATUS_LABELS[appeal.status].zh + ("，申诉费退还" if refund else "")
    notices.enqueue(work, APPEAL_DECIDED, phone, {"event": event_name, "round": appeal.round, "result": result},
                    key=f"appeal:{appeal.id}", event_id=event_id)


def list_appeals(work: Work, event_ref: str | None) -> list[AppealRecord]:
    event = resolve_event(work, event_ref)
    return web_rows.list_appeals(work.session, event.id)


def appeal_terms(work: Work, event_ref: str | None) -> tuple[int, int] | None:
    """(window in minutes, fee in yuan) from the regulation, or None without an appeals clause."""
    rules = regulation_of(resolve_event(work, event_ref)).appeals
    return (rules.window_minutes, rules.fee) if rules is not None else None

"""The fee ledger (issue 46): what each entry, team and appeal owes, has paid and got back, in 分.

What is due comes from the regulation (``registry.ledger``); what was paid and refunded from the
store (``store.fee_rows``). The manual 已缴费 mark goes through here (a ``manual`` payment of what
the entry owes, or its cancellation), so the ledger and the entry's ``fee_paid`` flag agree
whichever way the money came. Refunds follow the regulation: an appeal's fee only when it was
upheld, a no-show's fee not when the regulation keeps it, and never more than was paid.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.entry import Entry
from yisai.registry.ledger import (
    APPEAL,
    ENTRY,
    KINDS,
    PLACE,
    TEAM,
    Line,
    Totals,
    absent_refund_refusal,
    appeal_due,
    appeal_refund_refusal,
    entry_due,
    refund_limit,
    team_due,
    totals,
)
from yisai.services import place_fees
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Forbidden, NotFoundError
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action, Role
from yisai.services.payments.refunds import refund_payments
from yisai.store import EventRecord, entry_rows, roster_rows, team_rows, web_rows
from yisai.store import fee_rows as rows
from yisai.store.fee_rows import PaymentRecord, RefundRecord
from yisai.vocabulary.money import fen_of_yuan, yuan_text

MANUAL = "manual"
CHANNEL_LABELS = {MANUAL: Text("线下登记", "recorded by hand"), "wechat": Text("微信支付", "WeChat Pay"),
                  "alipay": Text("支付宝", "Alipay")}


@dataclass(frozen=True)
class FeeLedger:
    event: EventRecord
    lines: list[Line]
    totals: Totals
    payments: list[PaymentRecord]
    refunds: list[RefundRecord]

    def of(self, kind: str) -> list[Line]:
        return [ln for ln in self.lines if ln.kind == kind]

    def totals_of(self, kind: str) -> Totals:
        return totals(self.of(kind))


def _dues(work: Work, event: EventRecord) -> list[tuple[str, int, str, int]]:
    """(kind, id, label, due in 分) of every subject of the event."""
    reg = regulation_of(event)
    names = {d.id: d.name for d in reg.divisions}
    players = roster_rows.players_by_id(work.session, event.id)
    out: list[tuple[str, int, str, int]] = []
    for e in roster_rows.list_entries(work.session, event.id):
        p = players.get(e.player_id)
        out.append((ENTRY, int(e.id), f"{p.name if p else e.player_id} · {names.get(e.division, e.division)}",
                    entry_due(e)))
    per_team = team_due(reg)
    for t in team_rows.list_teams(work.session, event.id):
        out.append((TEAM, int(t.id), t.name, per_team))
    for a in web_rows.list_appeals(work.session, event.id):
        out.append((APPEAL, a.id, f"{a.appellant} · {names.get(a.division, a.division)} 第{a.round}轮", appeal_due(a.fee)))
    out.extend(place_fees.ledger_lines(work, event))  # qualifiers' places held, not yet entries of the final
    return out


def fee_ledger(work: Work, event_ref: str | None) -> FeeLedger:
    """Every subject's due, paid and refunded, and the totals (the console page and the export)."""
    event = resolve_event(work, event_ref)
    work.check_event(event.id)
    sums = rows.sums(work.session, event.id)
    lines = []
    for kind, sid, label, due in _dues(work, event):
        paid, refunded = sums.get((kind, sid), (0, 0))
        if due or paid or refunded or kind != TEAM:
            lines.append(Line(kind, sid, label, due, paid, refunded))
    return FeeLedger(event, lines, totals(lines), rows.payments_of(work.session, event.id),
                     rows.refunds_of(work.session, event.id))


OFFICIALS = (Role.CHIEF_REFEREE, Role.REFEREE, Role.OPERATOR)


def official_ledger(work: Work, event_ref: str | None) -> FeeLedger:
    """The whole ledger for an official (the console's export, ``yisai fees``): a team leader sees
    his own team's lines on the 费用 page only."""
    if work.actor.role not in OFFICIALS:
        raise Forbidden(Text("只有裁判和运营可以查看和导出费用台账", "only officials see and export the fee ledger"),
                        code="not_official")
    return fee_ledger(work, event_ref)


def refund_action(kind: str) -> Action:
    """Who may refund: an appeal's fee goes with the appeal's decision, any other with approvals."""
    return Action.APPEAL if kind == APPEAL else Action.APPROVE


def amount_fen(text: str) -> int | None:
    """``260`` or ``260.5`` or ``260.50`` 元 → 分 by the digits (never a float); empty: None (all
    that is left)."""
    text = text.strip()
    if not text:
        return None
    found = fen_of_yuan(text)
    if found is None:
        raise InputError(Text(f"金额应为元, 最多两位小数: {text}", f"the amount is in yuan with at most two decimals: {text}"),
                         code="bad_refund_amount")
    return found


def subject_line(work: Work, event: EventRecord, kind: str, subject_id: int) -> Line:
    """One subject's line, or 404 when the event has no such entry, team or appeal."""
    sums = rows.sums(work.session, event.id)
    for k, sid, label, due in _dues(work, event):
        if k == kind and sid == subject_id:
            paid, refunded = sums.get((k, sid), (0, 0))
            return Line(k, sid, label, due, paid, refunded)
    raise NotFoundError(Text(f"本赛事没有编号为{subject_id}的{_kind_zh(kind)}", f"no {kind} {subject_id} in this event"),
                        code="no_fee_subject", params={"kind": kind, "id": subject_id})


def _kind_zh(kind: str) -> str:
    return {ENTRY: "报名", TEAM: "参赛队", APPEAL: "申诉", PLACE: "晋级名额"}.get(kind, kind)


# ----- the manual 已缴费 mark -------------------------------------------------------------------------
def record_manual(work: Work, event_id: int, entry: Entry, paid: bool, note: str = "") -> None:
    """The director's 已缴费 (or 未缴费) as a ledger change: a manual payment of what the entry still
    owes, or the manual payments taken back. The caller updates the entry's flag as before."""
    entry_id = int(entry.id)
    if paid:
        paid_fen, _ = rows.subject_sums(work.session, event_id, ENTRY, entry_id)
        owed = entry_due(entry) - paid_fen
        if owed > 0:
            rows.add_payment(work.session, work.stamp, event_id, ENTRY, entry_id, owed, MANUAL, note=note)
    else:
        rows.cancel_manual_payments(work.session, work.stamp, event_id, ENTRY, entry_id, note)


# ----- refunds --------------------------------------------------------------------------------------
def refusal(work: Work, event: EventRecord, kind: str, subject_id: int, *, absent: bool = False) -> Text | None:
    """Why the regulation does not allow a refund of this subject, quoted; None when it does."""
    reg = regulation_of(event)
    if kind == APPEAL:
        found = web_rows.get_appeal(work.session, subject_id)
        return appeal_refund_refusal(reg, found.status if found is not None else "")
    if kind == ENTRY:
        entry = entry_rows.get_entry(work.session, subject_id)
        if absent or entry.status.has_left:
            return absent_refund_refusal(reg, entry.division)
    return None


def refund_fee(work: Work, event_ref: str | None, kind: str, subject_id: int, amount_fen: int | None, reason: str,
               *, absent: bool = False, action: Action = Action.APPROVE) -> list[RefundRecord]:
    """Give back (part of) what a subject paid: an online payment as a refund ``requested`` of the
    provider it was paid with (sent after this transaction commits: ``refunds.send_requested_refunds``),
    a manual one recorded as given back by hand. Refused, with the regulation's sentence, when the
    regulation keeps it."""
    work.require(action)
    event = resolve_event(work, event_ref)
    work.check_event(event.id)
    if kind not in KINDS:
        raise InputError(Text(f"未知的费用类别: {kind}", f"unknown fee subject: {kind}"), code="bad_fee_kind")
    if not reason.strip():
        raise InputError(Text("退款须写明理由", "a refund needs its reason"), code="refund_reason_required")
    line = subject_line(work, event, kind, subject_id)
    why_not = refusal(work, event, kind, subject_id, absent=absent)
    if why_not is not None:
        raise Refused(why_not, code="refund_not_allowed", params={"kind": kind, "id": subject_id})
    left = refund_limit(line.paid, line.refunded)
    amount = left if amount_fen is None else amount_fen
    if amount <= 0 or amount > left:
        raise InputError(Text(f"退款金额应在 0.01 到 {yuan_text(left)} 元之间 (已缴 {yuan_text(line.paid)} 元, "
                              f"已退 {yuan_text(line.refunded)} 元)",
                              f"the refund must be from 0.01 to {yuan_text(left)} yuan (paid {yuan_text(line.paid)}, "
                              f"refunded {yuan_text(line.refunded)})"),
                         code="bad_refund_amount", params={"left_fen": left})
    made = refund_payments(work, event, kind, subject_id, amount, reason.strip())
    work.emit("fee_refunded", event.id, subject=f"{kind}:{subject_id}", amount_fen=amount)
    return made


def team_entries(work: Work, event_id: int) -> dict[int, set[int]]:
    """team id → its members' entry ids: what a team leader's fee page may show."""
    by_player: dict[str, set[int]] = {}
    for e in roster_rows.list_entries(work.session, event_id):
        by_player.setdefault(e.player_id, set()).add(int(e.id))
    return {int(t.id): {eid for m in t.members for eid in by_player.get(m.player_id, set())}
            for t in team_rows.list_teams(work.session, event_id)}


def event_of_entry(work: Work, entry_id: str | int) -> EventRecord:
    """The event an entry belongs to (the CLI's 已缴费 mark reports the entry's ledger line)."""
    return resolve_event(work, str(entry_rows.entry_event(work.session, entry_id)))


def team_names(work: Work, event_id: int) -> dict[int, str]:
    """team id → name: the pay panel names a team even when it owes no team fee of its own."""
    return {int(t.id): t.name for t in team_rows.list_teams(work.session, event_id)}

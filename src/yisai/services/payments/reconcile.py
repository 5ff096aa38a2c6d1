"""对账: a provider's daily bill matched against the orders the ledger booked that day.

Every difference is listed for the operator, in words: a payment the provider took that yisai
never booked (its callback and queries all failed), one yisai booked that the bill does not show,
or the same order with two amounts. Nothing is changed here; the operator decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from yisai.i18n import Text
from yisai.services.context import Work
from yisai.services.identity import Action
from yisai.services.payments.base import ProviderError
from yisai.services.payments.flow import provider_named, refused
from yisai.store import fee_rows as rows
from yisai.vocabulary.money import yuan_text


@dataclass(frozen=True)
class Difference:
    out_trade_no: str
    kind: str  # not_booked | not_in_bill | amount
    ours_fen: int | None
    theirs_fen: int | None
    text: Text


def _of_event(out_trade_no: str, event_id: int) -> bool:
    """``YS`` + event id + ``T``/``A`` (flow's order numbers): the order belongs to the event."""
    return any(out_trade_no.startswith(f"YS{event_id}{tag}") for tag in ("T", "A"))


def reconcile(work: Work, provider_name: str, day: date, event_id: int | None = None) -> list[Difference]:
    """The day's bill against the ledger's paid orders of that (Beijing) day; with ``event_id``,
    that event's orders only (an account limited to one event sees no other's)."""
    work.require(Action.SETTLE_PAYMENTS, event_id)
    provider = provider_named(work, provider_name)
    try:
        bill = [line for line in provider.bill(day) if line.state == "SUCCESS"]
    except ProviderError as exc:
        raise refused(exc) from None
    start = datetime.combine(day, time())
    ours = {o.out_trade_no: o for o in rows.paid_orders(work.session, provider.name, start, start + timedelta(days=1))}
    theirs = {line.out_trade_no: line for line in bill}
    if event_id is not None:
        ours = {no: o for no, o in ours.items() if o.event_id == event_id}
        theirs = {no: line for no, line in theirs.items() if _of_event(no, event_id)}
    out: list[Difference] = []
    for no, line in theirs.items():
        mine = ours.get(no)
        if mine is None:
            out.append(Difference(no, "not_booked", None, line.amount_fen, Text(
                f"订单 {no}: 账单中已支付 {yuan_text(line.amount_fen)} 元, 本站未记为当日已支付",
                f"order {no}: paid {yuan_text(line.amount_fen)} yuan in the bill, not booked here that day")))
        elif mine.amount_fen != line.amount_fen:
            out.append(Difference(no, "amount", mine.amount_fen, line.amount_fen, Text(
                f"订单 {no}: 本站 {yuan_text(mine.amount_fen)} 元, 账单 {yuan_text(line.amount_fen)} 元",
                f"order {no}: {yuan_text(mine.amount_fen)} yuan here, {yuan_text(line.amount_fen)} in the bill")))
    for no, mine in ours.items():
        if no not in theirs:
            out.append(Difference(no, "not_in_bill", mine.amount_fen, None, Text(
                f"订单 {no}: 本站记为已支付 {yuan_text(mine.amount_fen)} 元, 账单中没有",
                f"order {no}: booked as paid ({yuan_text(mine.amount_fen)} yuan) here, missing from the bill")))
    return out

"""A qualifier's place and its fee (issue 46 item 4): what the place owes, its line in the fee
ledger, and what a paid order does to it.

Seed 000: 线上晋级选手须在十个工作日内在参赛平台完善总决赛参赛信息，逾期默认视为弃权; the final
charges 线下赛赛事服务费260元. With a payment provider configured the player completes the details
and pays in one flow: the place waits ``unpaid`` (待缴费, still held) until the order is paid, and
is confirmed then. Here, below ``services.qualification`` and ``services.payments.flow``, so the
flow can confirm a place when its order is paid without importing the qualification service
(which registers entries, which record fees, which refund through the flow).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Protocol

from yisai.i18n import Text
from yisai.qualifier.notices import FINAL_ENTRY_CONFIRMED
from yisai.qualifier.periods import NoLadder, ladder_stage
from yisai.registry.ledger import PLACE, place_due
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import LadderFormat, Stage
from yisai.services import notices
from yisai.services.context import Work
from yisai.services.errors import Forbidden, NotFoundError, Refused
from yisai.services.events import regulation_of, resolve_event
from yisai.store import EventRecord, audit_rows, fee_rows
from yisai.store import qualification_rows as rows
from yisai.store.fee_rows import OrderRecord
from yisai.vocabulary.money import yuan_text

HOLDING = ("qualified", "unpaid", "confirmed")  # states in which a place is held ("already qualified")
OPEN_TO_LAPSE = ("qualified", "unpaid")  # states that lapse at the deadline
STATUS_LABELS = {
    "qualified": Text("待完善信息", "details due"),
    "unpaid": Text("待缴费", "fee due"),
    "confirmed": Text("已确认", "confirmed"),
    "lapsed": Text("逾期弃权", "lapsed (deemed withdrawn)"),
    "revoked": Text("名单更正后取消", "revoked by an amended list"),
}


def due_by(deadline: date) -> datetime:
    """The instant a place lapses: the midnight that ends its (inclusive) deadline day."""
    return datetime.combine(deadline + timedelta(days=1), time(0))


class _Placed(Protocol):
    """A place as stored or as shown: where it was won and the division its details give."""

    @property
    def pool(self) -> str: ...

    @property
    def division(self) -> str: ...


@dataclass(frozen=True)
class Ladder:
    """The event's online ladder stage as the fee needs it."""

    regulation: Regulation
    stage: Stage
    ladder: LadderFormat

    def division_of(self, place: _Placed) -> str:
        """The division the place's details put the player in; before any details, the pool's first."""
        return place.division or self.ladder.pools.get(place.pool, [place.pool])[0]

    def due(self, place: _Placed, division: str | None = None) -> int:
        """What the place owes in 分: the final's entry fee for the division (seed 000: 26000)."""
        return place_due(self.regulation, division or self.division_of(place),
                         self.ladder.qualifies_for or "")


def ladder_of(event: EventRecord) -> Ladder | None:
    reg = regulation_of(event)
    try:
        stage, ladder = ladder_stage(reg)
    except NoLadder:
        return None
    return Ladder(reg, stage, ladder)


def in_flight(work: Work, event_id: int) -> set[int]:
    """Places with an order still ``open`` here: its payment may be on its way (the callback, or
    ``settle_open_orders`` books or closes it), so such a place does not lapse yet."""
    return {sid for o in fee_rows.orders_of(work.session, event_id) if o.status == "open"
            for kind, sid, _ in o.items if kind == PLACE}


def ledger_lines(work: Work, event: EventRecord) -> list[tuple[str, int, str, int]]:
    """(kind, id, label, due in 分) of the places in the fee ledger: a place held and not yet made
    an entry of the final owes the final's fee; a place that lapsed or was revoked owes nothing
    and is listed only while money stands on it (a late payment, to be refunded). A place made an
    entry has had its payments carried to the entry (``carry_to_entry``) and is not listed."""
    lad = ladder_of(event)
    if lad is None:
        return []
    applied = {key for (source, key) in rows.final_sources(work.session, event.id) if source == "qualifier"}
    with_money = {sid for (kind, sid) in fee_rows.sums(work.session, event.id) if kind == PLACE}
    names = {d.id: d.name for d in lad.regulation.divisions}
    out = []
    for p in rows.places(work.session, event.id, lad.stage.id):
        held = p.status in HOLDING and f"{p.period}/{p.player}" not in applied
        if held or p.id in with_money:
            label = (f"{p.name} · 第{p.period}期晋级 · {names.get(lad.division_of(p), lad.division_of(p))}"
                     f" · {STATUS_LABELS.get(p.status, Text(p.status, p.status)).zh}")
            out.append((PLACE, p.id, label, lad.due(p) if held else 0))
    return out


def own_place(work: Work, event: EventRecord, place_id: int) -> rows.PlaceRecord:
    """The signed-in player's own place of the event: 404 for none, 403 for another's."""
    found = rows.place_in(work.session, event.id, place_id)
    if found is None:
        raise NotFoundError(Text(f"没有晋级名额 {place_id}", f"no place {place_id}"), code="no_place")
    if work.actor.id != found.player:
        raise Forbidden(Text("只能为自己的晋级名额缴费", "you may pay for your own place only"), code="not_your_place")
    return found


def payable(work: Work, event: EventRecord, place_id: int) -> tuple[rows.PlaceRecord, int, datetime]:
    """A place waiting for its fee (``unpaid``), what it still owes in 分 and the instant it lapses
    (an order for it must expire by then). Refused when it is not waiting or its time is over."""
    lad = ladder_of(event)
    place = rows.place_in(work.session, event.id, place_id, lock=True)
    if lad is None or place is None:
        raise NotFoundError(Text(f"没有晋级名额 {place_id}", f"no place {place_id}"), code="no_place")
    until = due_by(place.deadline)
    if work.now >= until:
        raise Refused(Text(f"已超过截止时间 ({place.deadline:%Y-%m-%d} 24:00), 逾期未完善信息或未缴费, 视为弃权",
                           f"the deadline ({place.deadline:%Y-%m-%d} 24:00) has passed: the place lapses unpaid"),
                      code="confirm_late", params={"deadline": place.deadline.isoformat()})
    if place.status != "unpaid":
        label = STATUS_LABELS.get(place.status, Text(place.status, place.status))
        raise Refused(Text(f"该名额状态为“{label.zh}”, 无需缴费", f"this place is {label.en}: nothing to pay"),
                      code="place_not_unpaid", params={"status": place.status})
    paid, _ = fee_rows.subject_sums(work.session, event.id, PLACE, place.id)
    return place, lad.due(place) - paid, until


def player_sms(work: Work, event_id: int, kind: str, player: str, key: str, **params: object) -> int | None:
    """Queue an SMS notice to a qualifier player (an account: its sign-in number)."""
    name = notices.message_name(resolve_event(work, event_id))
    return notices.enqueue(work, kind, notices.phone_of_account(work, player),
                           {"event": name, **{k: str(v) for k, v in params.items()}},
                           key=key, event_id=event_id, account=player)  # fmt: skip


def place_paid(work: Work, order: OrderRecord, place_id: int, amount_fen: int) -> None:
    """An order for a place was paid (its payment is booked): ``unpaid`` → ``confirmed``, audited,
    and the player's confirmation SMS queued now, not before. A place that lapsed or was revoked
    meanwhile keeps its payment (booked, never lost) for the chief referee to refund; audited."""
    place = rows.place_in(work.session, order.event_id, place_id, lock=True)
    if place is None:
        return
    if place.status == "unpaid":
        rows.update_place(work.session, place.id, work.now, status="confirmed", confirmed_at=work.now)
        audit_rows.audit(work.session, work.stamp, order.event_id, "confirm", "qualifier_place", place.id,
                         {"status": "unpaid"}, {"status": "confirmed", "division": place.division,
                                                "paid_fen": amount_fen, "order": order.out_trade_no})
        work.emit("qualifier_confirmed", order.event_id, place=place.id)
        lad = ladder_of(resolve_event(work, order.event_id))
        division = lad.regulation.division(place.division).name if lad is not None and place.division else ""
        player_sms(work, order.event_id, FINAL_ENTRY_CONFIRMED, place.player, f"confirmed:{place.id}",
                   division=division)
    elif place.status not in HOLDING:
        label = STATUS_LABELS.get(place.status, Text(place.status, place.status))
        audit_rows.audit(work.session, work.stamp, order.event_id, "paid_after_close", "qualifier_place", place.id,
                         {"status": place.status}, {"paid_fen": amount_fen, "order": order.out_trade_no},
                         f"名额已{label.zh}, 付款 {yuan_text(amount_fen)} 元已入账, 可由裁判长退款")


__all__ = [
    "HOLDING", "OPEN_TO_LAPSE", "STATUS_LABELS", "Ladder", "due_by", "in_flight", "ladder_of", "ledger_lines",
    "own_place", "payable", "place_paid", "player_sms",
]  # fmt: skip

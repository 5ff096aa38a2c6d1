"""From the online qualifier to the final: close a period and publish its lists, qualified
players confirm their details within the working-day deadline (or the place lapses), and the
final's entry list is built from every source in one reviewable step.

Seed 000 十(一)1 (top 38 / 30 per period, ties by wins, still tied all qualify), 十(一)3 (十个工作日
内完善总决赛参赛信息, 逾期默认视为弃权), 十一 (the final's other sources: city teams, youth wild
cards, seniors). Times are Beijing wall time (``work.now``); a deadline day is inclusive, so a
confirmation is accepted until the midnight that ends it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from yisai.awards.final_entries import Candidate, FinalPlan, plan_final
from yisai.awards.qualifier import ListedRow, confirm_deadline, period_list
from yisai.i18n import Text
from yisai.qualifier import otp
from yisai.qualifier.notices import CONFIRM_REMINDER, FINAL_ENTRY_CONFIRMED, PLACE_TO_CONFIRM
from yisai.qualifier.periods import window
from yisai.registry.eligibility import in_window
from yisai.registry.entry import EntryStatus
from yisai.registry.idcard import normalise
from yisai.registry.ledger import ENTRY, PLACE
from yisai.registry.person import Player
from yisai.regulation import Regulation
from yisai.regulation.format_base import as_kind
from yisai.regulation.stages import LadderFormat, Period
from yisai.services import place_fees
from yisai.services.approvals import approve_entry
from yisai.services.context import Context, Work
from yisai.services.eligibility import eligibility_texts
from yisai.services.entries import register_player
from yisai.services.errors import Forbidden, InputError, NotFoundError, Refused
from yisai.services.events import resolve_event
from yisai.services.identity import Action, Actor, Role
from yisai.services.live import LiveConfig, live_config
from yisai.services.payments import flow
from yisai.services.payments.flow import Checkout
from yisai.services.place_fees import (
    HOLDING,
    OPEN_TO_LAPSE,
    STATUS_LABELS,
    due_by,
    in_flight,
    ladder_of,
)
from yisai.services.profiles import get_profile
from yisai.services.roster_import import row_from_fields
from yisai.services.workdays import china_workday_calendar
from yisai.store import (
    account_rows,
    audit_rows,
    entry_rows,
    fee_rows,
    live_rows,
    roster_rows,
    team_rows,
)
from yisai.store import qualification_rows as rows


@dataclass(frozen=True)
class PublishedList:
    """One period × pool's list as published (latest version) and its amendment history."""

    period: int
    pool: str
    quota: int
    version: int
    rows: list[ListedRow]
    published_at: datetime
    amended: bool
    history: list[tuple[int, datetime, str, str]] = field(default_factory=list)  # version, at, by, reason


@dataclass(frozen=True)
class PlaceView:
    id: int
    period: int
    pool: str
    player: str
    name: str
    status: str
    deadline: date
    due_by: datetime  # the instant the place lapses (midnight after the deadline day)
    details: dict[str, str]
    division: str
    confirmed_at: datetime | None
    lapsed_at: datetime | None

    @property
    def status_label(self) -> Text:
        return STATUS_LABELS.get(self.status, Text(self.status, self.status))


def _view(p: rows.PlaceRecord, now: datetime | None = None, paying: frozenset[int] | set[int] = frozenset()) -> PlaceView:
    """A place as shown. Given ``now``, an unconfirmed (or unpaid) place past its deadline shows as
    lapsed although nothing was written yet — unless an order for it is still open (``paying``):
    reading never writes; the lapse itself (status, notice, audit) is ``lapse_overdue``'s, run by
    the server's scheduled duty or ``yisai qualifier lapse``."""
    status = p.status
    if now is not None and status in OPEN_TO_LAPSE and now >= due_by(p.deadline) and p.id not in paying:
        status = "lapsed"
    return PlaceView(p.id, p.period, p.pool, p.player, p.name, status, p.deadline, due_by(p.deadline),
                     {k: str(v) for k, v in p.details.items()}, p.division, p.confirmed_at, p.lapsed_at)


def _period(cfg: LiveConfig, number: int) -> Period:
    for p in cfg.stage.periods:
        if p.number == number:
            return p
    numbers = "、".join(str(p.number) for p in cfg.stage.periods)
    raise InputError(Text(f"没有第{number}期 (本阶段各期: {numbers})", f"no period {number} (periods: {numbers})"),
                     code="no_period", params={"period": number})


def _deadline(work: Work, cfg: LiveConfig, counted_from: date) -> date:
    n = cfg.ladder.confirm_within_working_days
    if n is None:
        return date.max - timedelta(days=1)
    return confirm_deadline(counted_from, n, china_workday_calendar(work.calendar_file))


def list_day(period: Period) -> date:
    """The day a period's list is published at the earliest: the period closes at the midnight
    after its last day. A place's working days count from the day its list is published (the
    places' own ``counted_from``), so the deadline table counts from this day too."""
    return window(period).closes.date()


def _earlier(work: Work, cfg: LiveConfig, period: int) -> dict[str, int]:
    """Players holding a place from an earlier period → that period."""
    out: dict[str, int] = {}
    for p in rows.places(work.session, cfg.event_id, cfg.stage.id):
        if p.period < period and p.status in HOLDING:
            out.setdefault(p.player, p.period)
    return out


def _computed(work: Work, cfg: LiveConfig, period: int, pool: str) -> list[ListedRow]:
    lines = {r.player: (r.name, r.points, r.wins, r.games)
             for r in live_rows.ladder_lines(work.session, cfg.event_id, cfg.stage.id, period, pool)}
    return period_list(cfg.ladder, pool, lines, _earlier(work, cfg, period))


def _note(text: Text) -> str:
    return text.zh if text.zh == text.en else f"{text.zh} / {text.en}"


# ----- deadlines by period (yisai qualifier deadlines) ------------------------------------
@dataclass(frozen=True)
class PeriodDeadline:
    number: int
    start: date
    end: date
    counted_from: date
    deadline: date  # inclusive


@dataclass(frozen=True)
class StageDeadlines:
    stage: str  # the stage's name (网络海选赛)
    working_days: int | None  # None: the regulation sets no confirmation rule
    periods: tuple[PeriodDeadline, ...]


def confirmation_deadlines(
    regulation: Regulation, *, calendar_file: Path | None = None, after: date | None = None
) -> list[StageDeadlines]:
    """Each ladder stage's confirmation deadline per period, counted from ``after`` (the day the
    list was published) or else from the earliest day it can be (``list_day``)."""
    ladders = [(s, ladder) for s in regulation.stages if (ladder := as_kind(s.format, LadderFormat)) is not None]
    if not ladders:
        raise InputError(Text("规程中没有网络海选赛 (online_ladder)", "no online ladder in this regulation"),
                         code="no_ladder")
    is_workday = china_workday_calendar(calendar_file)
    out = []
    for stage, fmt in ladders:
        n = fmt.confirm_within_working_days
        periods = tuple(
            PeriodDeadline(p.number, p.start, p.end, after or list_day(p),
                           confirm_deadline(after or list_day(p), n, is_workday))
            for p in stage.periods
        ) if n is not None else ()
        out.append(StageDeadlines(stage.name, n, periods))
    return out


# ----- 1. period close ----------------------------------------------------------------------
def close_period(work: Work, event_ref: str | int | None, period: int) -> list[PublishedList]:
    """Publish a closed period's lists (each pool) and open a place for every new qualifier.

    Refused while the period is open (it closes at the midnight after its last day) and while
    any game of the period is still being played (those finish and count). Closing again
    changes nothing and returns the published lists.
    """
    work.require(Action.PUBLISH)
    cfg = live_config(work, event_ref)
    p = _period(cfg, period)
    closes = window(p).closes
    if work.now < closes:
        when = closes.strftime("%Y-%m-%d %H:%M")
        raise Refused(Text(f"第{period}期尚未结束 (北京时间 {when} 截止)", f"period {period} is open until {when}"),
                      code="period_open", params={"period": period, "closes": when})
    playing = rows.playing_count(work.session, cfg.event_id, cfg.stage.id, period)
    if playing:
        raise Refused(Text(f"第{period}期还有{playing}局正在进行, 结束后才能公布名单 (这些对局照常计分)",
                           f"{playing} game(s) of period {period} are still being played; they count, "
                           "the list follows when they end"),
                      code="games_in_progress", params={"period": period, "playing": playing})
    if not rows.list_versions(work.session, cfg.event_id, cfg.stage.id, period):
        for pool in cfg.pools:
            listed = _computed(work, cfg, period, pool)
            _store_version(work, cfg, period, pool, listed, 1, amended=False, reason="")
        work.emit("qualifier_published", cfg.event_id, period=period)
    return published_lists(work, event_ref, period)


def _store_version(work: Work, cfg: LiveConfig, period: int, pool: str, listed: list[ListedRow],
                   version: int, *, amended: bool, reason: str) -> None:
    rows.add_list(work.session, event_id=cfg.event_id, stage=cfg.stage.id, period=period, pool=pool,
                  version=version, rows=[r.to_dict() for r in listed], at=work.now,
                  by=work.actor.audit_name, amended=amended, reason=reason)  # fmt: skip
    held = {p.player: p for p in rows.places(work.session, cfg.event_id, cfg.stage.id, period=period)}
    today = work.now.date()
    for r in listed:
        old = held.get(r.player)
        if r.qualified and old is None:
            deadline = _deadline(work, cfg, today)
            pid = rows.add_place(work.session, event_id=cfg.event_id, stage=cfg.stage.id, period=period,
                                 pool=pool, player=r.player, name=r.name, counted_from=today,
                                 deadline=deadline, at=work.now)  # fmt: skip
            _notify(work, cfg, pid, r.player, "qualified", Text(
                f"恭喜你在网络海选赛第{period}期晋级总决赛! 请在 {deadline:%Y-%m-%d} 24:00 (北京时间) 前"
                "在参赛平台完善总决赛参赛信息, 逾期默认视为弃权",
                f"You qualified for the final in period {period}. Complete your entry details on the "
                f"platform by {deadline:%Y-%m-%d} 24:00 Beijing time, or the place lapses."))
            _sms(work, cfg, PLACE_TO_CONFIRM, r.player, f"place:{pid}",
                 period=period, deadline=f"{deadline:%Y-%m-%d}")
        elif r.qualified and old is not None and old.status == "revoked":
            rows.update_place(work.session, old.id, work.now, status="qualified")
    now_qualified = {r.player for r in listed if r.qualified}
    for old in held.values():
        if amended and old.pool == pool and old.status in HOLDING and old.player not in now_qualified:
            rows.update_place(work.session, old.id, work.now, status="revoked")
            _notify(work, cfg, old.id, old.player, f"revoked_{version}", Text(
                f"网络海选赛第{period}期晋级名单已更正, 你的晋级资格取消 (原因: {reason})",
                f"The period {period} list was amended; your place is withdrawn ({reason})."))
    audit_rows.audit(work.session, work.stamp, cfg.event_id, "amend" if amended else "publish", "qualifier_list",
                     f"{cfg.stage.id}/{period}/{pool}", None,
                     {"version": version, "qualified": [r.player for r in listed if r.qualified]}, reason)


def amend_lists(work: Work, cfg: LiveConfig, period: int, reason: str) -> list[int]:
    """Recompute a published period from the (re-scored) ladder; a pool whose list changed gets
    a new version marked amended with ``reason``. Returns the new version numbers."""
    versions = rows.list_versions(work.session, cfg.event_id, cfg.stage.id, period)
    if not versions:
        return []
    latest = {v.pool: v for v in versions}
    out = []
    for pool, v in latest.items():
        listed = _computed(work, cfg, period, pool)
        if [r.to_dict() for r in listed] != v.rows:
            _store_version(work, cfg, period, pool, listed, v.version + 1, amended=True, reason=reason)
            out.append(v.version + 1)
    if out:
        work.emit("qualifier_amended", cfg.event_id, period=period)
    return out


def published_lists(work: Work, event_ref: str | int | None, period: int | None = None) -> list[PublishedList]:
    """The latest version of every published list (public data: names and figures only)."""
    cfg = live_config(work, event_ref)
    by_key: dict[tuple[int, str], list[rows.ListVersion]] = {}
    for v in rows.list_versions(work.session, cfg.event_id, cfg.stage.id, period):
        by_key.setdefault((v.period, v.pool), []).append(v)
    out = []
    for (number, pool), vs in sorted(by_key.items()):
        last = vs[-1]
        out.append(PublishedList(number, pool, cfg.ladder.qualifiers.get(pool, 0), last.version,
                                 [ListedRow.from_dict(r) for r in last.rows], last.published_at,
                                 any(v.amended for v in vs),
                                 [(v.version, v.published_at, v.by, v.reason) for v in vs]))  # fmt: skip
    return out


# ----- 2. confirmation ----------------------------------------------------------------------
FORM_FIELDS: dict[str, str] = {  # form field → roster header (the CLI's and roster's parser)
    "name": "姓名", "gender": "性别", "id_number": "身份证号", "birth_date": "出生日期",
    "certificate_no": "证书编号", "rank": "段位", "region": "地区", "province": "省份", "city": "城市",
    "phone": "手机",
}  # fmt: skip
GUARDIAN_FIELDS = ("guardian", "guardian_phone")


def _sms(work: Work, cfg: LiveConfig, kind: str, player: str, key: str, **params: object) -> int | None:
    return place_fees.player_sms(work, cfg.event_id, kind, player, key, **params)


def _notify(work: Work, cfg: LiveConfig, place_id: int, player: str, kind: str, text: Text) -> bool:
    return rows.add_notice(work.session, event_id=cfg.event_id, place_id=place_id, player=player, kind=kind,
                           zh=text.zh, en=text.en, at=work.now)


def _lapse_due(work: Work, cfg: LiveConfig, places: Iterable[rows.PlaceRecord]) -> list[rows.PlaceRecord]:
    """Places past their deadline still waiting for details (``qualified``) or for the fee
    (``unpaid``) lapse — but not one with an order still open here: its payment may be on its way
    (``settle_open_orders`` books or closes the order; the next run lapses it if unpaid)."""
    lapsed = []
    paying = in_flight(work, cfg.event_id)
    for p in places:
        if p.status in OPEN_TO_LAPSE and work.now >= due_by(p.deadline) and p.id not in paying:
            rows.update_place(work.session, p.id, work.now, status="lapsed", lapsed_at=work.now)
            _notify(work, cfg, p.id, p.player, "lapsed", Text(
                f"第{p.period}期晋级名额截止于 {p.deadline:%Y-%m-%d} 24:00 (北京时间): 逾期未完善信息或未缴费, 视为弃权",
                f"Period {p.period} place: the final's details or fee were not completed by "
                f"{p.deadline:%Y-%m-%d} 24:00, so the place lapsed."))
            audit_rows.audit(work.session, work.stamp, cfg.event_id, "lapse", "qualifier_place", p.id, {"status": p.status},
                             {"status": "lapsed"}, "逾期未完善信息或未缴费, 视为弃权")
            lapsed.append(p)
    return lapsed


def lapse_overdue(work: Work, event_ref: str | int | None) -> list[PlaceView]:
    """Mark every place whose deadline has passed unconfirmed as lapsed (idempotent)."""
    work.require(Action.QUALIFIER_DUTIES)
    cfg = live_config(work, event_ref)
    done = _lapse_due(work, cfg, rows.places(work.session, cfg.event_id, cfg.stage.id))
    if done:
        work.emit("qualifier_lapsed", cfg.event_id, places=[p.id for p in done])
    return [_view(p) for p in done]


def all_places(work: Work, event_ref: str | int | None, status: str | None = None) -> list[PlaceView]:
    """Every place (console: who confirmed, who is due, who lapsed). Officials only."""
    if work.actor.role not in (Role.CHIEF_REFEREE, Role.OPERATOR, Role.REFEREE):
        raise Forbidden(Text("只有裁判和运营可查看晋级选手信息", "officials only"), code="forbidden")
    cfg = live_config(work, event_ref)
    paying = in_flight(work, cfg.event_id)
    shown = [_view(p, work.now, paying) for p in rows.places(work.session, cfg.event_id, cfg.stage.id)]
    return [p for p in shown if status is None or p.status == status]


def my_places(work: Work, event_ref: str | int | None) -> list[PlaceView]:
    """The signed-in player's places (their own details prefilled)."""
    cfg = live_config(work, event_ref)
    paying = in_flight(work, cfg.event_id)
    return [_view(p, work.now, paying)
            for p in rows.places(work.session, cfg.event_id, cfg.stage.id, player=work.actor.id)]


def my_notices(work: Work, event_ref: str | int | None) -> list[rows.NoticeRecord]:
    cfg = live_config(work, event_ref)
    return rows.notices(work.session, cfg.event_id, work.actor.id)


def prefill(work: Work, place: PlaceView) -> dict[str, str]:
    """What the form starts with: the details given before, else the player's profile
    (``services.profiles``: name, gender, birth date, region, rank, guardian's phone) and the
    account's phone."""
    if place.details:
        return dict(place.details)
    out = {"name": place.name}
    if not work.actor.id.isdigit() or work.actor.id != place.player:
        return out
    uid = int(work.actor.id)
    try:
        user = account_rows.get_user(work.session, uid)
    except LookupError:
        return out
    out["name"] = place.name or user.display_name
    if user.phone:
        out["phone"] = user.phone
    profile = get_profile(work, uid)
    if profile is not None:
        out.update(name=profile.name, gender=profile.gender.label, birth_date=profile.birth.isoformat(),
                   region=profile.region, rank=profile.rank)
        if profile.guardian_phone:
            out["guardian_phone"] = profile.guardian_phone
    return out


def _final_start(cfg: LiveConfig) -> date | None:
    target = cfg.ladder.qualifies_for
    for s in cfg.regulation.stages:
        if s.id == target:
            return s.start
    return None


def _division_for(cfg: LiveConfig, pool: str, player: Player) -> str:
    members = cfg.ladder.pools.get(pool, [pool])
    if player.birth_date is not None:
        for d in members:
            if in_window(player.birth_date, cfg.regulation.division(d).eligibility):
                return d
    return members[0]


def check_details(cfg: LiveConfig, place: PlaceView, fields: dict[str, str]) -> tuple[Player, str, list[Text]]:
    """Parse the form as the CLI parses a player (``row_from_fields``) and check it with the
    eligibility rules of the division the player's birth date puts them in; the guardian is
    required under the regulation's ``guardian_under_age``. InputError for unreadable input."""
    values: dict[str, str | None] = {h: (fields.get(k) or "").strip() or None for k, h in FORM_FIELDS.items()}
    first = cfg.ladder.pools.get(place.pool, [place.pool])[0]
    row = row_from_fields(cfg.regulation, {**values, "组别": first})
    division = _division_for(cfg, place.pool, row.player)
    reasons = eligibility_texts(cfg.regulation, row.player, division)
    limit, start = cfg.ladder.guardian_under_age, _final_start(cfg)
    age = row.player.age_on(start) if start is not None else None
    if limit is not None and (age is None or age < limit):
        guardian = (fields.get("guardian") or "").strip()
        phone = otp.normalise_phone(fields.get("guardian_phone") or "")
        if not guardian or phone is None:
            reasons.append(Text(f"未满{limit}周岁的选手须填写监护人姓名和11位手机号",
                                f"players under {limit} must give a guardian's name and 11-digit mobile number"))
    return row.player, division, reasons


def _checked(work: Work, cfg: LiveConfig, place_id: int,
             fields: dict[str, str]) -> tuple[rows.PlaceRecord, Player, str, dict[str, str]]:
    """The player's own place, still held and within its deadline, and the details checked by the
    regulation's rules: (place, player, division, details to store). Refused with every reason."""
    found = [p for p in rows.places(work.session, cfg.event_id, cfg.stage.id) if p.id == place_id]
    if not found:
        raise NotFoundError(Text(f"没有晋级名额 {place_id}", f"no place {place_id}"), code="no_place")
    record = found[0]
    if work.actor.id != record.player:
        raise Forbidden(Text("只能完善自己的参赛信息", "you may complete your own details only"),
                        code="not_your_place")
    if _lapse_due(work, cfg, [record]):
        raise Refused(Text(f"已超过截止时间 ({record.deadline:%Y-%m-%d} 24:00), 晋级名额已视为弃权",
                           f"the deadline ({record.deadline:%Y-%m-%d} 24:00) has passed: the place lapsed"),
                      code="confirm_late", params={"deadline": record.deadline.isoformat()})
    if record.status not in HOLDING:
        label = STATUS_LABELS[record.status]
        raise Refused(Text(f"该名额状态为“{label.zh}”, 不能提交", f"this place is {label.en}"),
                      code="place_closed", params={"status": record.status})
    player, division, reasons = check_details(cfg, _view(record), fields)
    if reasons:
        raise Refused(Text("参赛信息不符合要求, 未提交", "the details do not meet the requirements; not submitted"),
                      reasons, code="ineligible", params={"division": division})
    details = {k: (fields.get(k) or "").strip() for k in (*FORM_FIELDS, *GUARDIAN_FIELDS) if (fields.get(k) or "").strip()}
    if player.id_number:
        details["id_number"] = normalise(player.id_number)
    return record, player, division, details


def place_fee(work: Work, event_ref: str | int | None, place: PlaceView) -> int:
    """What the place owes in 分 when paid online (the final's entry fee for its division), or 0
    when no payment provider is configured: then the manual 已缴费 path stays as it was."""
    if not flow.offered(work):
        return 0
    lad = ladder_of(resolve_event(work, None if event_ref is None else str(event_ref)))
    return 0 if lad is None else lad.due(place)


@dataclass(frozen=True)
class PlaceFee:
    """What the player's page shows about a place's fee: due and paid online (分), the orders."""

    due: int  # 0: no provider configured (the manual path) or no fee for the final
    paid: int  # paid through the place's orders (also once carried to the final's entry)
    orders: tuple[fee_rows.OrderRecord, ...]


def place_fees_of(work: Work, event_ref: str | int | None, places: Iterable[PlaceView]) -> dict[int, PlaceFee]:
    """The signed-in player's places' fees and their orders (his own places only: ``my_places``)."""
    event = resolve_event(work, None if event_ref is None else str(event_ref))
    orders = fee_rows.orders_of(work.session, event.id)
    out = {}
    for p in places:
        if p.player != work.actor.id:
            continue
        mine = tuple(o for o in orders if any(k == PLACE and sid == p.id for k, sid, _ in o.items))
        paid = sum(a for o in mine if o.status == "paid" for k, sid, a in o.items if k == PLACE and sid == p.id)
        out[p.id] = PlaceFee(place_fee(work, event.id, p), paid, mine)
    return out


def confirm_place(work: Work, event_ref: str | int | None, place_id: int, fields: dict[str, str]) -> PlaceView:
    """The qualified player completes the final's details before the deadline (their own place
    only). Refused with every eligibility reason; refused after the deadline (the place lapses).
    With a payment provider configured and a fee due, a place not yet confirmed is confirmed by
    paying (``confirm_and_pay``), not here."""
    cfg = live_config(work, event_ref)
    record, player, division, details = _checked(work, cfg, place_id, fields)
    lad = ladder_of(resolve_event(work, cfg.event_id))
    if record.status != "confirmed" and flow.offered(work) and lad is not None and lad.due(record, division) > 0:
        raise Refused(Text("总决赛须缴纳赛事服务费: 请提交信息并缴费", "the final's fee is due: submit and pay"),
                      code="payment_required")
    rows.update_place(work.session, record.id, work.now, status="confirmed", details=details,
                      division=division, confirmed_at=work.now, name=player.name)  # fmt: skip
    audit_rows.audit(work.session, work.stamp, cfg.event_id, "confirm", "qualifier_place", record.id, {"status": record.status},
                     {"status": "confirmed", "division": division})
    work.emit("qualifier_confirmed", cfg.event_id, place=record.id)
    division_name = cfg.regulation.division(division).name if division else ""
    _sms(work, cfg, FINAL_ENTRY_CONFIRMED, record.player, f"confirmed:{record.id}", division=division_name)
    return _view(rows.places(work.session, cfg.event_id, cfg.stage.id, player=record.player,
                             period=record.period)[0])


def hold_for_payment(work: Work, event_ref: str | int | None, place_id: int, fields: dict[str, str]) -> None:
    """The first half of 提交信息并缴费: the details checked exactly as ``confirm_place`` checks them
    and stored, and the place moved to ``unpaid`` (待缴费, still held) until its order is paid."""
    cfg = live_config(work, event_ref)
    record, player, division, details = _checked(work, cfg, place_id, fields)
    if record.status == "confirmed":
        raise Refused(Text("该名额已确认, 无需再缴费", "this place is confirmed: nothing to pay"),
                      code="place_not_unpaid", params={"status": record.status})
    rows.update_place(work.session, record.id, work.now, status="unpaid", details=details, division=division,
                      name=player.name)
    if record.status != "unpaid":
        audit_rows.audit(work.session, work.stamp, cfg.event_id, "hold_unpaid", "qualifier_place", record.id,
                         {"status": record.status}, {"status": "unpaid", "division": division})


def confirm_and_pay(ctx: Context, actor: Actor | None, event_ref: str | int | None, place_id: int,
                    fields: dict[str, str], provider: str, mode: str, payer_ip: str = "",
                    openid: str = "") -> Checkout:
    """提交信息并缴费: the details stored (``hold_for_payment``) and an order for the place's fee
    opened in one step; the place is confirmed when the order is paid (``place_fees.place_paid``)."""
    ref = None if event_ref is None else str(event_ref)
    return flow.pay_place(ctx, actor, ref, place_id, provider, mode, payer_ip,
                          before=lambda work: hold_for_payment(work, event_ref, place_id, fields), openid=openid)


def send_reminders(work: Work, event_ref: str | int | None) -> list[int]:
    """In-app reminders ``confirm_reminder_days`` before the deadline day (default 3 days and
    1 day, each once), each also queued as an SMS notice (``CONFIRM_REMINDER``) to the player's
    sign-in number; returns the notices queued. Overdue places lapse first."""
    work.require(Action.QUALIFIER_DUTIES)
    cfg = live_config(work, event_ref)
    places = rows.places(work.session, cfg.event_id, cfg.stage.id)
    _lapse_due(work, cfg, places)
    out = []
    today = work.now.date()
    for p in rows.places(work.session, cfg.event_id, cfg.stage.id):
        if p.status not in OPEN_TO_LAPSE:
            continue
        left = (p.deadline - today).days
        what = Text("完善总决赛参赛信息", "complete your final entry details") if p.status == "qualified" \
            else Text("缴纳总决赛赛事服务费", "pay the final's fee")
        for days in sorted(set(cfg.ladder.confirm_reminder_days)):  # the closest one due, once
            if left > days:
                continue
            text = Text(f"【弈赛】提醒: 请在 {p.deadline:%Y-%m-%d} 24:00 前{what.zh}, 逾期默认视为弃权",
                        f"[yisai] Reminder: {what.en} by {p.deadline:%Y-%m-%d} 24:00 "
                        "Beijing time, or the place lapses.")
            if _notify(work, cfg, p.id, p.player, f"reminder_{days}", text):
                notice = _sms(work, cfg, CONFIRM_REMINDER, p.player, f"reminder:{p.id}:{days}",
                              deadline=f"{p.deadline:%Y-%m-%d}")
                if notice is not None:
                    out.append(notice)
            break
    return out


# ----- 3. the final's entry list ------------------------------------------------------------
def _key_of(player: Player) -> str:
    if player.id_number:
        return "id:" + normalise(player.id_number)
    return f"nb:{player.name}/{player.birth_date}"


def _candidates(work: Work, cfg: LiveConfig) -> list[Candidate]:
    event = resolve_event(work, cfg.event_id)
    reg = cfg.regulation
    applied = {entry for (source, _), entry in rows.final_sources(work.session, event.id).items()
               if source == "qualifier"}
    players = roster_rows.players_by_id(work.session, event.id)
    team_of: dict[str, tuple[str, str]] = {}
    for t in team_rows.list_teams(work.session, event.id):
        for m in t.members:
            team_of[m.player_id] = (t.id, t.name)
    out: list[Candidate] = []
    for place in rows.places(work.session, cfg.event_id, cfg.stage.id):
        if place.status != "confirmed":
            continue
        view = _view(place)
        try:
            player, division, reasons = check_details(cfg, view, view.details)
        except InputError as exc:
            player, division = None, view.division
            reasons = [exc.text, *exc.detail_texts]
        person = _key_of(player) if player is not None else f"live:{place.player}"
        out.append(Candidate("qualifier", f"{place.period}/{place.player}", person, place.name, division,
                             tuple(_note(r) for r in reasons), f"第{place.period}期"))
    final_divisions = set(next((s.divisions for s in reg.stages if s.id == cfg.ladder.qualifies_for), []))
    for e in roster_rows.list_entries(work.session, event.id, status=EntryStatus.APPROVED):
        if int(e.id) in applied or (final_divisions and e.division not in final_divisions):
            continue
        p = players[e.player_id]
        if e.player_id in team_of:
            source, detail = "team", team_of[e.player_id][1]
        elif "wildcard" in reg.division(e.division).eligibility.routes:
            source, detail = "wildcard", reg.division(e.division).name
        elif "direct" in reg.division(e.division).eligibility.routes:
            source, detail = "direct", reg.division(e.division).name
        else:
            source, detail = "individual", reg.division(e.division).name
        # Re-checked now (the player's data may have been corrected since the approval); an entry
        # the chief referee force-approved stays as decided.
        now_reasons = () if e.forced else tuple(_note(r) for r in eligibility_texts(reg, p, e.division))
        out.append(Candidate(source, f"entry:{e.id}", _key_of(p), p.name, e.division, now_reasons, detail))
    return out


def final_preview(work: Work, event_ref: str | int | None) -> FinalPlan:
    """Every source of the final's entry list and every conflict, before anything is written."""
    work.require(Action.APPROVE)
    cfg = live_config(work, event_ref)
    return plan_final(_candidates(work, cfg), rows.final_sources(work.session, cfg.event_id))


def _carry_to_entry(work: Work, cfg: LiveConfig, place_id: int, entry_id: int) -> None:
    """What the player paid for the place now belongs to the final's entry it became (audited per
    payment): the entry shows 已缴费 and the place's line leaves the ledger, so nothing is owed twice."""
    note = f"晋级名额{place_id}的缴费转入总决赛报名{entry_id}"
    if fee_rows.carry_payments(work.session, work.stamp, cfg.event_id, (PLACE, place_id), (ENTRY, entry_id), note):
        flow.sync_entry_flag(work, entry_id, note)


def apply_final(work: Work, event_ref: str | int | None) -> FinalPlan:
    """Write the preview: a confirmed qualifier becomes an approved entry (the player added or
    matched by ID number); existing entries are recorded with their source. Conflicts and
    ineligible items are left out as the preview says. Running it again adds nothing."""
    work.require(Action.APPROVE)
    cfg = live_config(work, event_ref)
    event = resolve_event(work, cfg.event_id)
    plan = plan_final(_candidates(work, cfg), rows.final_sources(work.session, cfg.event_id))
    places = {f"{p.period}/{p.player}": p for p in rows.places(work.session, cfg.event_id, cfg.stage.id)}
    created = []
    for item in plan.to_apply:
        if item.source == "qualifier":
            place = _view(places[item.key])
            player, division, _ = check_details(cfg, place, place.details)
            reg_ = register_player(work, event, player, division=division,
                                   note=f"网络海选赛第{place.period}期晋级")
            assert reg_.entry is not None
            entry = reg_.entry
            if entry.status is EntryStatus.PENDING:
                entry = approve_entry(work, entry.id, note=f"网络海选赛第{place.period}期晋级")
            entry_id, player_id = int(entry.id), int(reg_.player.id)
            _carry_to_entry(work, cfg, places[item.key].id, entry_id)
        else:
            entry_id = int(item.key.removeprefix("entry:"))
            player_id = int(entry_rows.get_entry(work.session, entry_id).player_id)
        rows.add_final_source(work.session, event_id=cfg.event_id, source=item.source, key=item.key,
                              entry_id=entry_id, player_id=player_id, at=work.now, by=work.actor.audit_name)
        created.append({"source": item.source, "key": item.key, "entry": entry_id})
    audit_rows.audit(work.session, work.stamp, cfg.event_id, "final_entries", "event", cfg.event_id, None,
                     {"applied": created, "left_out": [c.key for c in plan.left_out],
                     "conflicts": [c.text.zh for c in plan.conflicts]})  # fmt: skip
    if created:
        work.emit("final_entries_applied", cfg.event_id, count=len(created))
    return plan


__all__ = [
    "PeriodDeadline",
    "PlaceFee",
    "PlaceView",
    "PublishedList",
    "StageDeadlines",
    "all_places",
    "amend_lists",
    "apply_final",
    "check_details",
    "close_period",
    "confirm_and_pay",
    "confirm_place",
    "confirmation_deadlines",
    "final_preview",
    "hold_for_payment",
    "lapse_overdue",
    "my_notices",
    "my_places",
    "place_fee",
    "place_fees_of",
    "prefill",
    "published_lists",
    "send_reminders",
]  # fmt: skip

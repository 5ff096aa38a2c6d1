"""Registration through the web: a team leader registers a whole team in one go, or one
player's individual entry, with eligibility checked row by row as it is typed.

Everything goes through the registration services (``register_player``, ``add_team``): one rule
set, one place. A team is all or nothing: any member with a problem, a broken composition or a
closed registration window (said in the regulation's own words) saves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from yisai.i18n import Text
from yisai.registry.eligibility import closing_time
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.team import Team
from yisai.regulation import Regulation
from yisai.regulation.teams import TeamRules
from yisai.services.context import InputError, Refused, Work
from yisai.services.eligibility import eligibility_reasons, eligibility_texts, members_of
from yisai.services.entries import list_entries, register_player
from yisai.services.events import regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.services.players import find_existing_player
from yisai.services.registration import check_may_change_player
from yisai.services.registration_window import mark_late, require_late_admission
from yisai.services.roster_import import row_from_fields
from yisai.services.teams import TeamView, add_team, claim_teams, team_rules
from yisai.store import roster_rows

FIELD_HEADERS = ("姓名", "性别", "出生日期", "身份证号", "段位", "证书编号", "地区", "省份", "城市", "单位")


@dataclass(frozen=True)
class MemberIn:
    """One typed row: the slot (seed 002: 甲组男) or division, and roster fields by header."""

    division: str
    fields: dict[str, str]
    slot: str | None = None


@dataclass(frozen=True)
class TeamSlotView:
    label: str
    division: str
    gender: str | None  # "M" / "F" / None


def _fmt(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M}"


# What a form fills in for every row by itself (the slot's gender, the region): a row with only
# these is a slot left empty, not a player with a missing name.
PRESET_HEADERS = frozenset({"性别", "地区"})


def is_empty_slot(member: MemberIn) -> bool:
    """Nothing typed in the row: the team sends fewer players (seed 002 allows it)."""
    return not any(v.strip() for h, v in member.fields.items() if h not in PRESET_HEADERS)


def team_slots(regulation: Regulation) -> list[TeamSlotView]:
    """The rows of the team form: fixed slots (seed 002), else one row per allowed player."""
    rules = team_rules(regulation)
    if rules.slots:
        return [TeamSlotView(s.label, s.division or regulation.divisions[0].id,
                             s.gender.value if s.gender else None) for s in rules.slots]
    division = rules.competitions[0].division if rules.competitions else regulation.divisions[0].id
    out = [TeamSlotView("", division, "M") for _ in range(rules.max_men or 0)]
    out += [TeamSlotView("", division, "F") for _ in range(rules.max_women or 0)]
    out += [TeamSlotView("", division, None) for _ in range(rules.max_players - len(out))]
    return out


def window_refusal(regulation: Regulation, rules: TeamRules, now: datetime) -> Refused | None:
    """Outside the team registration window: the refusal, in the regulation's words."""
    opens, closes = rules.registration_from, rules.registration_to
    late = closes is not None and now > closing_time(closes)
    early = opens is not None and now < opens
    if not late and not early:
        return None
    said = [
        f"{w.who}" + (f"自{w.opens:%Y-%m-%d}" if w.opens else "")
        + (f"于{_fmt(w.closes) if isinstance(w.closes, datetime) else w.closes}前" if w.closes else "")
        + (f"通过{w.channel}报名" if w.channel else "报名")
        for w in regulation.registration.windows
        if w.closes is not None or w.opens is not None
    ]
    window = f"{_fmt(opens) if opens else '不限'}至{_fmt(closing_time(closes)) if closes else '不限'}"
    zh = (f"报名已截止 (规程: {'；'.join(said) or rules.name + '报名时间' + window}); 现在是 {_fmt(now)}" if late
          else f"报名尚未开始 ({rules.name}报名时间 {window}); 现在是 {_fmt(now)}")
    en = (f"registration closed ({window}); it is now {_fmt(now)}" if late
          else f"registration has not opened yet ({window}); it is now {_fmt(now)}")
    return Refused(Text(zh, en), code="registration_closed" if late else "registration_not_open",
                   params={"window": window, "now": _fmt(now)})


def check_member(work: Work, event_ref: str | None, division: str, fields: dict[str, str]) -> list[str]:
    """What is wrong with one typed row (input problems, then eligibility reasons); [] if none."""
    event = resolve_event(work, event_ref)
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division)
    try:
        row = row_from_fields(regulation, {**{h: fields.get(h) or None for h in FIELD_HEADERS}, "组别": division_id})
    except InputError as exc:
        return exc.details or [exc.message]
    return eligibility_reasons(regulation, row.player, division_id, members_of(event))


def register_team(
    work: Work, event_ref: str | None, *, name: str, province: str = "", city: str = "",
    leader: str = "", coach: str = "", members: list[MemberIn], late: bool = False, note: str = "",
) -> TeamView:
    """Register a team and its players' entries, all or nothing (the chief referee then sees
    the entries in the console).

    ``late``: after the team deadline the chief referee admits the team (逾期报名) with ``note``
    as the reason, recorded as the roster import records it: on each new entry and with the team."""
    work.require(Action.REGISTER)
    event = resolve_event(work, event_ref)
    regulation = regulation_of(event)
    rules = team_rules(regulation)
    closed = window_refusal(regulation, rules, work.now)
    if late:
        require_late_admission(work, note)
    if closed is not None and not (late and closed.code == "registration_closed"):
        raise closed
    late = late and closed is not None  # inside the window nothing is late
    if not name.strip():
        raise InputError(Text("队名不能为空", "the team name is required"), code="team_name")
    rows = [(k, m) for k, m in enumerate(members, 1) if not is_empty_slot(m)]
    if not rows:
        raise InputError(Text("请至少填写一名队员", "enter at least one player"), code="no_members")
    problems: list[str] = []
    players = []
    for k, m in rows:
        who = f"第{k}名队员" + (f"({m.slot})" if m.slot else "")
        reasons = check_member(work, str(event.id), m.division, m.fields)
        person = m.fields.get("姓名", "").strip()
        if not reasons:  # a player of another team is refused outright (Forbidden), not listed
            row = row_from_fields(regulation, {**{h: m.fields.get(h) or None for h in FIELD_HEADERS},
                                               "组别": resolve_division(regulation, m.division)})
            existing = find_existing_player(work, event, row.player)
            if existing is not None:
                check_may_change_player(work, event, existing)
        problems += [f"{who}{' ' + person if person else ''}: {r}" for r in reasons]
        if not reasons:
            players.append(m)
    claim_teams(work, 1)  # one team per leader account unless the operator allows more
    if problems:
        raise Refused(Text(f"队伍“{name}”有{len(problems)}处问题, 未登记任何队员",
                           f"team {name}: {len(problems)} problem(s); nothing registered"), problems,
                      code="team_refused")
    seated: list[tuple[str, str | None]] = []
    for m in players:
        row = row_from_fields(regulation, {**{h: m.fields.get(h) or None for h in FIELD_HEADERS},
                                           "组别": resolve_division(regulation, m.division)})
        saved = register_player(work, event, row.player, division=row.division, late=late,
                                note=note if late else "", team_row=late)
        if late and saved.entry_created and saved.entry is not None and not saved.entry.note:
            mark_late(work, saved.entry, note)  # the team's deadline waived: said on the entry too
        seated.append((saved.player.id, m.slot or None))
    team = Team(name=name.strip(), province=province.strip() or None, city=city.strip() or None,
                region="中国大陆", leaders=tuple(x for x in [leader.strip()] if x),
                coaches=tuple(x for x in [coach.strip()] if x))
    view = add_team(work, event, team, seated, note=note.strip() if late else f"web: {work.actor.audit_name}",
                    late=late)  # binds a leader's account
    work.emit("team_registered", event.id, team=view.team.id)
    return view


def register_individual(work: Work, event_ref: str | None, division: str, fields: dict[str, str]) -> Entry:
    """One player's own entry (seed 000's seniors): saved with its reasons, awaiting approval
    where the regulation says so."""
    work.require(Action.REGISTER)
    event = resolve_event(work, event_ref)
    regulation = regulation_of(event)
    division_id = resolve_division(regulation, division)
    row = row_from_fields(regulation, {**{h: fields.get(h) or None for h in FIELD_HEADERS}, "组别": division_id})
    saved = register_player(work, event, row.player, division=division_id)
    assert saved.entry is not None
    if not saved.entry_created:
        raise Refused(Text(f"{row.player.name}已报名{regulation.division(division_id).name}",
                           f"{row.player.name} is already entered"), code="already_entered")
    work.emit("entry_created", event.id, entry=saved.entry.id)
    return saved.entry


@dataclass(frozen=True)
class Outcome:
    """What a registration came to, said honestly to the registrant: how many entries are
    approved already, how many wait for the chief referee, and the eligibility reasons (data from
    the registry's checks) of those that will not pass as they are."""

    approved: int
    pending: int
    reasons: tuple[Text, ...] = ()

    def text(self, who: Text) -> Text:
        """``who`` (what was registered) followed by the state of its entries, in both languages."""
        if self.reasons:
            return Text(f"{who.zh}, 但不符合参赛资格: {'；'.join(r.zh for r in self.reasons)}。"
                        "报名已保存, 除非裁判长特批, 将不予通过",
                        f"{who.en}, but not eligible: {'; '.join(r.en for r in self.reasons)}. The entry is "
                        "saved; unless the chief referee makes an exception it will not be approved")
        if self.pending == 0:
            return Text(f"{who.zh}, 报名已通过", f"{who.en}; the entry is approved")
        if self.approved == 0:
            return Text(f"{who.zh}, 等待裁判长审核", f"{who.en}, awaiting the chief referee's approval")
        return Text(f"{who.zh}, {self.approved}项报名已通过, {self.pending}项等待裁判长审核",
                    f"{who.en}: {self.approved} entries approved, {self.pending} awaiting the chief referee's approval")


def entry_outcome(work: Work, event_ref: str | None, player_ids: list[str]) -> Outcome:
    """The current state of these players' entries in the event (after a registration)."""
    event = resolve_event(work, event_ref)
    regulation = regulation_of(event)
    wanted = set(player_ids)
    members = members_of(event)
    approved = pending = 0
    reasons: list[Text] = []
    for view in list_entries(work, event):
        if view.entry.player_id not in wanted:
            continue
        if view.entry.status is EntryStatus.APPROVED:
            approved += 1
        elif view.entry.status is EntryStatus.PENDING:
            pending += 1
            reasons += eligibility_texts(regulation, view.player, view.entry.division, members)
    return Outcome(approved, pending, tuple(dict.fromkeys(reasons)))


def next_steps(work: Work, event_ref: str | None, team: Team) -> list[Text]:
    """What a leader does after registering ``team`` on the web, and what the entry will not
    count for: the papers the regulation asks for (报名附件), the chief referee's approval,
    and each team ranking the team is short for (只计报满人数的队)."""
    event = resolve_event(work, event_ref)
    regulation = regulation_of(event)
    out: list[Text] = []
    documents = regulation.registration.required_documents
    if documents:
        said = "; ".join(documents)
        out.append(Text(f"下一步: 在“报名附件”页上传 {said}",
                        f"next: upload on the Papers page: {said}"))
    if regulation.registration.approval_required:
        out.append(Text("报名待裁判长审核", "the entries wait for the chief referee's approval"))
    rules = regulation.teams
    if rules is not None:
        players = roster_rows.players_by_id(work.session, event.id)
        for comp in rules.competitions:
            divisions = set(comp.divisions) or {comp.division}
            counted = [m for m in team.members if m.division in divisions and (
                comp.gender is None or (m.player_id in players and players[m.player_id].gender == comp.gender))]
            if comp.complete_only and len(counted) < comp.size:
                out.append(Text(
                    f"本队{comp.name}只报{len(counted)}人, 不足{comp.size}人: 不计{comp.name}成绩 "
                    f"(规程: 只计报满人数的队); 队员个人成绩照常",
                    f"{comp.name}: the team has {len(counted)} of {comp.size} players and is not ranked "
                    f"(only complete teams are); the players' own results count as usual"))
    return out

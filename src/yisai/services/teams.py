"""Teams (代表队) of an event: registering a team and seating its members in the regulation's
slots, the make-up rules it is checked against, the one-team-per-leader-account rule, the team
list, and 递补 (a registered player takes a member's seat).

A team that breaks its composition rules is registered only when the chief referee forces it,
with a note; the findings are kept with the team. Players the team cannot seat (不足或超过可以
以个人名义参赛) keep their individual entries, each with a note.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from yisai.i18n import Text
from yisai.registry.eligibility import check_team_texts, window_texts
from yisai.registry.entry import EntryStatus
from yisai.registry.idcard import normalise
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team, TeamMember
from yisai.registry.team_split import split_extra_players
from yisai.regulation import Regulation
from yisai.regulation.teams import TeamRules
from yisai.services.context import InputError, Refused, Work
from yisai.services.eligibility import LIVE, division_name, rendered
from yisai.services.entries import enter_members
from yisai.services.errors import Hint
from yisai.services.events import regulation_of
from yisai.services.identity import Action, Role
from yisai.services.registration import check_may_change_player
from yisai.services.registration_window import late_note, require_late_admission
from yisai.store import (
    Conflict,
    EventRecord,
    NotFound,
    account_rows,
    audit_rows,
    entry_rows,
    player_rows,
    roster_rows,
    team_rows,
)


@dataclass(frozen=True)
class TeamView:
    team: Team
    players: tuple[Player, ...]
    reasons: tuple[str, ...]  # composition findings at registration, in the reader's language
    notes: tuple[str, ...] = ()  # players listed but entered as individuals, and why


def team_rules(regulation: Regulation) -> TeamRules:
    if regulation.teams is None:
        raise InputError(
            Text(f"规程“{regulation.name}”没有代表队(团体)规定, 不能登记队伍",
                 f"regulation “{regulation.name}” has no team rules: teams cannot be registered"),
            code="no_team_rules",
        )
    return regulation.teams


def auto_slot(rules: TeamRules, division: str | None, gender: Gender, taken: Iterable[str]) -> str | None:
    """The free slot whose division and gender fit (seed 002: 甲组男 for a boy entered in 甲组)."""
    used = set(taken)
    for slot in rules.slots:
        if slot.label in used:
            continue
        if (slot.division in (None, division)) and (slot.gender in (None, gender)):
            return slot.label
    return None


def _resolve_player(work: Work, event: EventRecord, ref: str) -> Player:
    text = ref.strip()
    if len(text) == 18:
        found = player_rows.find_player(work.session, event.id, id_number=normalise(text))
        if found:
            return found
    if text.isdigit():
        try:
            p = player_rows.get_player(work.session, text)
            if player_rows.player_event(work.session, text) == event.id:
                return p
        except NotFound:
            pass
    raise InputError(
        Text(f"找不到棋手“{ref}”", f"no player “{ref}”"),
        code="unknown_player", params={"player": ref}, hint=Hint.LIST_PLAYERS,
    )


def team_composition_texts(work: Work, event: EventRecord, team: Team) -> list[Text]:
    """Reasons ``team`` (as it would be saved) breaks the regulation's team rules, as of now, in
    both languages, as they are stored with the team."""
    regulation = regulation_of(event)
    rules = team_rules(regulation)
    others = [t for t in team_rows.list_teams(work.session, event.id) if t.name != team.name]
    players = roster_rows.players_by_id(work.session, event.id)
    at = work.now
    return check_team_texts(team, players, rules, regulation, other_teams=others, at=at)


def _with_divisions(work: Work, event: EventRecord, members: Sequence[TeamMember]) -> tuple[TeamMember, ...]:
    out = []
    for m in members:
        if m.division is None:
            entries = roster_rows.list_entries(work.session, event.id, player_id=m.player_id, status=LIVE)
            m = m.model_copy(update={"division": entries[0].division if entries else None})
        out.append(m)
    return tuple(out)


def add_team(
    work: Work,
    event: EventRecord,
    team: Team,
    members: Sequence[tuple[str, str | None]] = (),
    *,
    force: bool = False,
    note: str = "",
    late: bool = False,
) -> TeamView:
    """Register a team; ``members`` are (player number or ID number, slot or None for automatic).

    ``late``: the chief referee admits the team after the team registration deadline (逾期报名),
    with ``note`` as the reason; the window alone is waived and the reason kept with the team."""
    work.require(Action.REGISTER)
    if late:
        require_late_admission(work, note)
    work.check_event(event.id)
    rules = team_rules(regulation_of(event))
    if team_rows.find_team(work.session, event.id, team.name):
        raise InputError(Text(f"队名“{team.name}”已存在", f"a team named “{team.name}” already exists"),
                         code="team_exists", params={"team": team.name})
    claim_teams(work, 1)
    seated: list[TeamMember] = []
    for ref, slot in members:
        player = _resolve_player(work, event, ref)
        check_may_change_player(work, event, player)
        seated.append(TeamMember(player_id=player.id, slot=slot))
    seated = list(_with_divisions(work, event, seated))
    seated = enter_members(work, event, rules, seated, note)
    players = roster_rows.players_by_id(work.session, event.id)
    notes: list[str] = []
    seated = as_individuals(work, event, notes, rules, team.name, seated, players, ())
    seated = fill_slots(rules, seated, players)
    candidate = team.model_copy(update={"members": tuple(seated)})
    view = _save_team(work, event, candidate, force=force, note=note, late=late)
    return replace(view, notes=tuple(notes))


def fill_slots(rules: TeamRules, members: list[TeamMember], players: dict[str, Player]) -> list[TeamMember]:
    """Members without a slot take the first free one that fits (``auto_slot``)."""
    if not rules.slots:
        return members
    taken = [m.slot for m in members if m.slot]
    out = []
    for m in members:
        if m.slot is None:
            slot = auto_slot(rules, m.division, players[m.player_id].gender, taken)
            if slot:
                taken.append(slot)
                m = m.model_copy(update={"slot": slot})
        out.append(m)
    return out


def _save_team(work: Work, event: EventRecord, team: Team, *, force: bool, note: str,
               late: bool = False) -> TeamView:
    reasons = team_composition_texts(work, event, team)
    waived = False
    if late:  # the closed window alone goes; why the team came late is kept with it instead
        rules = team_rules(regulation_of(event))
        closed = set(window_texts(work.now, rules))
        waived = any(r in closed for r in reasons)
        reasons = [r for r in reasons if r not in closed]
    if reasons and not force:
        raise Refused(Text(f"队伍“{team.name}”不符合组队规定, 未登记",
                           f"team “{team.name}” breaks the team composition rules: not registered"),
                      reasons, code="team_composition", params={"team": team.name})
    if reasons:
        work.require(Action.APPROVE)  # forcing a team past the rules is the chief referee's call
    if reasons and not note.strip():
        raise team_note_required(team.name)
    kept = [*reasons, late_note(note)] if waived else reasons
    try:
        saved = team_rows.add_team(work.session, work.stamp, event.id, team, kept, note.strip())
    except (Conflict, NotFound) as exc:
        raise InputError(exc.text, code="team_not_saved", params={"team": team.name}) from None
    bind_new_team(work, event, int(saved.id))
    players = roster_rows.players_by_id(work.session, event.id)
    work.emit("team_added", event.id, team=saved.id, name=saved.name, forced=bool(reasons))
    return TeamView(saved, tuple(players[m.player_id] for m in saved.members), rendered(kept))


def claim_teams(work: Work, new: int) -> None:
    """One 领队 account registers one team, unless the operator allows it more (``max_teams``)."""
    actor = work.actor
    if actor.role is not Role.TEAM_LEADER or new <= 0:
        return
    have = len(actor.own_teams)
    if have + new > actor.max_teams:
        raise Refused(Text(f"本账号已登记{have}支队伍, 最多可登记{actor.max_teams}支; 每个领队账号对应一支队伍, "
                           "如需多登记请联系运营",
                           f"this account has registered {have} team(s) of the {actor.max_teams} it may: one team "
                           "per leader account unless the operator allows more"),
                      code="one_team_per_leader", params={"have": have, "max": actor.max_teams, "new": new})


def bind_new_team(work: Work, event: EventRecord, team_id: int) -> None:
    """A team a 领队 account registered is its own from then on (papers, players, line-ups)."""
    if work.actor.role is not Role.TEAM_LEADER or not work.actor.id.isdigit():
        return
    user_id = int(work.actor.id)
    account_rows.set_team_account(work.session, team_id, user_id)
    if work.actor.team is None:
        account_rows.set_user_team(work.session, work.stamp, user_id, team_id, event.id)




def team_note_required(name: str) -> InputError:
    """Forcing a team past its rules needs the reason in a note."""
    return InputError(Text(f"强制登记队伍“{name}”须写明理由",
                           f"forcing the registration of team “{name}” needs a note giving the reason"),
                      code="note_required", params={"team": name}, hint=Hint.NOTE)


def list_teams(work: Work, event: EventRecord) -> list[TeamView]:
    players = roster_rows.players_by_id(work.session, event.id)
    return [
        TeamView(t, tuple(players[m.player_id] for m in t.members), rendered(team_rows.team_reason_texts(work.session, t.id)))
        for t in team_rows.list_teams(work.session, event.id)
    ]


def replace_team_member(work: Work, event: EventRecord, team_ref: str | int, out_ref: str,
                        in_ref: str, *, note: str) -> TeamView:
    """递补: a registered player takes a team member's seat (same slot, same division), with a
    note in the audit; the team's composition is checked again and its findings kept."""
    work.require(Action.APPROVE)
    work.check_event(event.id)
    if not note.strip():
        raise InputError(Text("递补须写明理由", "a replacement needs a note giving the reason"),
                         code="note_required", hint=Hint.NOTE)
    try:
        team = team_rows.get_team(work.session, team_ref) if str(team_ref).isdigit() else team_rows.find_team(work.session, event.id, str(team_ref))
    except NotFound as exc:
        raise InputError(exc.text, code="unknown_team") from None
    if team is None:
        raise InputError(Text(f"找不到队伍“{team_ref}”", f"no team {team_ref!r}"), code="unknown_team")
    out_player = _resolve_player(work, event, out_ref)
    in_player = _resolve_player(work, event, in_ref)
    seat = next((m for m in team.members if m.player_id == out_player.id), None)
    if seat is None:
        raise InputError(Text(f"{out_player.name}不是{team.name}的队员", f"{out_player.name} is not in {team.name}"),
                         code="not_a_member")
    if any(m.player_id == in_player.id for t in team_rows.list_teams(work.session, event.id) for m in t.members):
        raise Refused(Text(f"{in_player.name}已在一支队中", f"{in_player.name} is already in a team"),
                      code="already_in_team")
    if seat.division:
        live = [e for e in roster_rows.list_entries(work.session, event.id, division=seat.division)
                if e.player_id == in_player.id and e.status in LIVE]
        if not live:
            regulation = regulation_of(event)
            name = division_name(regulation, seat.division)
            raise Refused(Text(f"{in_player.name}没有{name}的有效报名, 不能递补该席位",
                               f"{in_player.name} has no live entry in {name}: cannot take this seat"),
                          code="no_entry_for_seat")
    try:
        saved = team_rows.replace_team_member(work.session, work.stamp, team.id, out_player.id, in_player.id, note.strip())
    except NotFound as exc:
        raise InputError(exc.text, code="bad_replacement") from None
    _withdraw_replaced(work, event, out_player, in_player, seat.division, note.strip())
    regulation = regulation_of(event)
    others = [t for t in team_rows.list_teams(work.session, event.id) if t.name != saved.name]
    players = roster_rows.players_by_id(work.session, event.id)
    # The registration window does not bind a 递补 made at the venue; every other rule does.
    reasons = check_team_texts(saved, players, team_rules(regulation), regulation, other_teams=others)
    work.emit("team_member_replaced", event.id, team=saved.id, out=out_player.id, into=in_player.id)
    return TeamView(saved, tuple(players[m.player_id] for m in saved.members),
                    rendered(reasons))


def _withdraw_replaced(work: Work, event: EventRecord, out_player: Player, in_player: Player,
                       division: str | None, note: str) -> None:
    """The player who gives up the seat leaves the event with it: her entry (in the seat's
    division, or every entry when the seat has none) is withdrawn, so no pairing, list, count or
    prize includes her; games she already played stand, as for any withdrawal."""
    why = f"递补: 由{in_player.name}接替 ({note})"
    for entry in roster_rows.list_entries(work.session, event.id, division=division, player_id=out_player.id,
                                          status=LIVE):
        updated = entry.model_copy(update={"status": EntryStatus.WITHDRAWN, "note": why})
        saved = entry_rows.update_entry(work.session, work.stamp, updated, "withdraw", why)
        work.emit("entry_withdrawn", event.id, entry=saved.id)


def as_individuals(
    work: Work, event: EventRecord, notes: list[str], rules: TeamRules, team_name: str,
    members: list[TeamMember], players: Mapping[str, Player], already: Sequence[TeamMember],
) -> list[TeamMember]:
    """不足或超过可以以个人名义参赛: the members the team keeps; the others keep their individual
    entries, each with a note in ``notes`` and in the audit."""
    split = split_extra_players(members, players, rules, team_name=team_name, already=already)
    for ind in split.individuals:
        notes.append(ind.note)
        audit_rows.audit(work.session, work.stamp, event.id, "individual", "player", ind.member.player_id, None,
                         {"team": team_name, "plays": "individual"}, ind.note)
    return list(split.team)

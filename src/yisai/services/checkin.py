"""Check-in (报到): who arrived, with the insurance confirmation, and what it means for round 1.

Seed 002 十一(三): teams check in on 5月1日 at the venue; 十二(一): everyone holds accident
insurance for the event. A referee ticks each person on arrival (the phone page calls ``tick``).
Once check-in has begun for an event whose regulation requires it, round 1 is paired only with
the players who checked in; the others sit out round 1 with the reason shown and join the
pairing from ``late_entry_from_round`` (round 2) as late entrants (an open point of the
regulation file: seed 002 does not say).
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.person import Player
from yisai.regulation import Regulation
from yisai.regulation.admin import Arrival
from yisai.services.context import Work
from yisai.services.errors import Forbidden, Hint, InputError
from yisai.services.events import regulation_of
from yisai.services.identity import Action, Role
from yisai.services.papers import check_event_access, check_team_access, resolve_team
from yisai.store import EventRecord, audit_rows, roster_rows, round_rows, team_rows
from yisai.store.paper_rows import CheckInRecord, PaperRows


@dataclass(frozen=True)
class Arrival1:
    """One person on the check-in page."""

    player_id: str
    name: str
    division: str
    arrived: bool
    insured: bool
    at: str  # HH:MM of the tick, "" if not ticked


@dataclass(frozen=True)
class TeamArrivals:
    team_id: str
    team: str
    people: tuple[Arrival1, ...]

    @property
    def arrived(self) -> int:
        return sum(p.arrived for p in self.people)


def arrival_rules(regulation: Regulation) -> Arrival | None:
    return regulation.registration.arrival


def _player(work: Work, event: EventRecord, ref: str) -> Player:
    text = ref.strip()
    players = roster_rows.players_by_id(work.session, event.id)
    if text in players:
        return players[text]
    named = [p for p in players.values() if p.name == text or p.id_number == text.upper()]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        ids = "、".join(p.id for p in named)
        raise InputError(Text(f"有{len(named)}名棋手叫“{text}”, 请用编号: {ids}",
                              f"{len(named)} players are called {text!r}; use an id: {ids}"),
                         code="ambiguous_player")
    raise InputError(Text(f"找不到棋手“{text}”", f"no player {text!r}"),
                     code="player_not_found", params={"player": text}, hint=Hint.LIST_PLAYERS)


def tick(work: Work, event: EventRecord, player_ref: str, *, arrived: bool = True,
         insured: bool | None = None, note: str = "") -> CheckInRecord:
    """Tick one person as arrived (or undo it with ``arrived=False``); ``insured`` records the
    insurance confirmation the regulation asks for (left as it was when not given).

    The referees on duty (裁判长, 裁判员) tick anyone; a team leader bound to a team ticks the
    own team's people (规程: 各队负责人办理报到), never another team's."""
    check_event_access(work, event.id)
    if work.actor.role is not Role.TEAM_LEADER:
        work.require(Action.RECORD_RESULT)
    player = _player(work, event, player_ref)
    if work.actor.role is Role.TEAM_LEADER:
        teams = [t.id for t in team_rows.list_teams(work.session, event.id) if any(m.player_id == player.id for m in t.members)]
        if not any(work.actor.leads(t) for t in teams):
            raise Forbidden(Text("领队只能为本队棋手办理报到", "a team leader checks in the own team's players only"),
                            code="checkin_forbidden", params={"player": player.id})
    table = PaperRows(work.session)
    before = table.check_ins(event.id).get(int(player.id))
    if insured is None:
        insured = before.insured if before else False
    saved = table.set_check_in(event.id, int(player.id), arrived=arrived, insured=insured,
                               at=work.now, by=work.actor.audit_name, note=note)
    audit_rows.audit(work.session, work.stamp, event.id, "check_in", "player", player.id,
                     {"arrived": before.arrived, "insured": before.insured} if before else None,
                     {"arrived": arrived, "insured": insured}, note)
    work.emit("checked_in", event.id, player=player.id, arrived=arrived, insured=insured)
    return saved


def list_arrivals(work: Work, event: EventRecord, team_ref: str | None = None) -> list[TeamArrivals]:
    """Teams and their players with each one's tick; a team leader sees their own team only."""
    check_event_access(work, event.id)
    regulation = regulation_of(event)
    if team_ref is None and work.actor.role not in (Role.CHIEF_REFEREE, Role.REFEREE):  # the own team(s)
        teams = [t for t in team_rows.list_teams(work.session, event.id) if work.actor.leads(t.id)]
        if not teams:
            check_team_access(work, event.id, "")
    else:
        teams = [resolve_team(work, event, team_ref)] if team_ref else team_rows.list_teams(work.session, event.id)
    players = roster_rows.players_by_id(work.session, event.id)
    ticks = PaperRows(work.session).check_ins(event.id)
    names = {d.id: d.name for d in regulation.divisions}
    out = []
    for t in teams:
        check_team_access(work, event.id, t.id)
        people = []
        for m in t.members:
            p = players[m.player_id]
            c = ticks.get(int(p.id))
            people.append(Arrival1(p.id, p.name, names.get(m.division or "", ""),
                                   bool(c and c.arrived), bool(c and c.insured),
                                   f"{c.at:%H:%M}" if c and c.arrived else ""))
        out.append(TeamArrivals(t.id, t.name, tuple(people)))
    return out


def held_back(work: Work, event: EventRecord, division: str, stage: str, round_no: int,
              player_ids: list[str]) -> dict[str, Text]:
    """Of ``player_ids``, those who sit out round ``round_no`` for check-in reasons, with why.

    * Round 1: everyone not checked in when it is paired (recorded with round 1 as late entrants).
    * Later rounds before ``late_entry_from_round``: round 1's late entrants still sit out.
    * Every round: anyone still not checked in sits out.

    Nothing is held back when the regulation does not require check-in, or before anyone has
    been checked in for this event (an event run without the check-in page pairs as before).
    """
    rules = arrival_rules(regulation_of(event))
    if rules is None or not rules.check_in_required:
        return {}
    ticks = PaperRows(work.session).check_ins(event.id)
    if not any(t.arrived for t in ticks.values()):
        return {}
    day = f"{rules.day.month}月{rules.day.day}日"
    late_from = rules.late_entry_from_round
    absent = Text(f"未报到 (规程: {day}报到), 不参加本轮; 报到后可从第{max(late_from, round_no + 1)}轮起"
                  "补入编排",
                  f"not checked in (the regulation: check in on {rules.day:%Y-%m-%d}); sits out "
                  f"this round and may join from round {max(late_from, round_no + 1)}")
    out = {p: absent for p in player_ids if not (ticks.get(int(p)) and ticks[int(p)].arrived)}
    if 1 < round_no < late_from:
        late = set()
        for r in round_rows.list_rounds(work.session, event.id, division, stage=stage):
            if r.number == 1:
                late |= set(r.info.get("not_checked_in", {}))
        joins = Text(f"第1轮时未报到, 按规程从第{late_from}轮起补入编排",
                     f"not checked in for round 1; joins from round {late_from}")
        out.update({p: joins for p in player_ids if p in late and p not in out})
    return out

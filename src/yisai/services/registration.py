"""Who may change an entry or a player.

Every change to an entry or a registered player passes the same checks first: the entry exists
and belongs to an event the actor may act on, the new status is a move the entry's status
allows (``registry.entry.TRANSITIONS``), and a team leader touches only the own team's players.
The other registration duties build on these and live beside them: ``players`` (the people and
their pending changes), ``entries`` (entering a division and listing entries), ``approvals``
(the director's decisions), ``teams`` (teams and their seats), ``roster_import`` (a whole file
in one go), with the shared findings in ``eligibility`` and the deadline in
``registration_window``; withdrawal, disqualification and reinstatement in ``withdrawal``.
"""

from __future__ import annotations

from yisai.i18n import Text
from yisai.registry.entry import TRANSITIONS, Entry, EntryStatus
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.services.context import InputError, Work
from yisai.services.errors import Forbidden
from yisai.services.identity import Role
from yisai.store import EventRecord, NotFound, entry_rows, event_rows, team_rows


def team_of_player(work: Work, event: EventRecord, player_id: str) -> Team | None:
    return next((t for t in team_rows.list_teams(work.session, event.id) if any(m.player_id == player_id for m in t.members)),
                None)


def check_may_change_player(work: Work, event: EventRecord, player: Player) -> None:
    """A team leader touches only the own team: a player of another team is refused."""
    if work.actor.role is not Role.TEAM_LEADER:
        return
    team = team_of_player(work, event, player.id)
    if team is not None and not work.actor.leads(team.id):
        raise Forbidden(Text(f"{player.name}是{team.name}的队员, 不是本账号的队伍: 领队只能登记和更改本队棋手",
                             f"{player.name} plays for {team.name}, not this account's team: a team leader "
                             "registers and changes only the own team's players"),
                        code="not_own_team", params={"player": player.id, "team": team.id})


# ------------------------------------------------------------------ decisions


def entry_for_change(work: Work, entry_id: str | int, target: EntryStatus | None) -> tuple[Entry, EventRecord]:
    """The entry and its event, in the actor's event scope; ``target``: the status it may take
    by ``TRANSITIONS`` (None: the caller checks)."""
    try:
        entry = entry_rows.get_entry(work.session, entry_id)
        event = event_rows.get_event(work.session, entry_rows.entry_event(work.session, entry_id))
    except NotFound as exc:
        raise InputError(exc.text, code="entry_not_found", params={"entry": str(entry_id)}) from None
    work.check_event(event.id)
    if target is not None and target not in TRANSITIONS[entry.status]:
        raise InputError(
            Text(f"报名{entry.id}当前状态为{entry.status.label}, 不能改为{target.label}",
                 f"entry {entry.id} is {entry.status.value}; it cannot become {target.value}"),
            code="bad_transition",
            params={"entry": entry.id, "status": entry.status.value, "target": target.value},
        )
    return entry, event

"""Changes to registered players that wait for the chief referee.

A change to a player whose entry is approved, or made after the registration deadline, by anyone
but the chief referee (a team leader's corrected roster, a referee's form) is not written into
the player: it is kept as a pending change (``players.request_change``) with the fields
before and after. The chief referee approves it (the player is updated, the entries' reasons are
checked again) or rejects it with a reason; both are audited.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.person import Player
from yisai.services.approvals import recheck_entries
from yisai.services.context import Work
from yisai.services.errors import Hint, InputError, NotFoundError, Refused
from yisai.services.events import resolve_event
from yisai.services.identity import Action
from yisai.store import NotFound, change_rows, event_rows, player_rows, roster_rows
from yisai.store.change_rows import PlayerChangeRecord

WHY = {
    "approved": Text("报名已审核通过", "the entry is approved"),
    "deadline": Text("报名已截止", "registration has closed"),
}
STATUS = {
    "pending": Text("待裁判长审核", "waiting for the chief referee"),
    "approved": Text("已批准", "approved"),
    "rejected": Text("已驳回", "rejected"),
}


@dataclass(frozen=True)
class ChangeView:
    change: PlayerChangeRecord
    player: str  # the player's name now

    @property
    def why(self) -> Text:
        return WHY.get(self.change.why, Text(self.change.why, self.change.why))

    @property
    def status_label(self) -> Text:
        return STATUS.get(self.change.status, Text(self.change.status, self.change.status))


def list_changes(work: Work, event_ref: str | int | None, *, pending_only: bool = True) -> list[ChangeView]:
    """The event's changes waiting for the chief referee (all of them with ``pending_only=False``)."""
    work.require(Action.APPROVE)
    event = resolve_event(work, event_ref)
    players = roster_rows.players_by_id(work.session, event.id)
    return [ChangeView(c, players[str(c.player_id)].name if str(c.player_id) in players else str(c.player_id))
            for c in change_rows.list_changes(work.session, event.id, "pending" if pending_only else None)]


def _pending(work: Work, change_id: int | str) -> PlayerChangeRecord:
    try:
        number = int(str(change_id).strip())
        found = change_rows.get_change(work.session, number)
    except (ValueError, NotFound):
        raise NotFoundError(Text(f"没有待审更改 {change_id}", f"no pending change {change_id}"),
                            code="change_not_found", params={"change": str(change_id)}) from None
    work.check_event(found.event_id)
    if found.status != "pending":
        raise Refused(Text(f"更改 {found.id} 已{STATUS[found.status].zh}", f"change {found.id} is {found.status} already"),
                      code="change_decided", params={"change": found.id, "status": found.status})
    return found


def approve_change(work: Work, change_id: int | str, note: str = "") -> Player:
    """Apply a pending change to the player; the undecided entries' reasons are checked again."""
    work.require(Action.APPROVE)
    found = _pending(work, change_id)
    player = player_rows.get_player(work.session, found.player_id)
    data = {**player.model_dump(mode="json"), **found.after}
    changed = Player.model_validate(data)
    saved = player_rows.update_player(work.session, work.stamp, changed, note.strip() or f"change {found.id}")
    change_rows.decide_change(work.session, work.stamp, found.id, "approved", note.strip())
    recheck_entries(work, event_rows.get_event(work.session, found.event_id))
    work.emit("player_change_approved", found.event_id, change=found.id, player=saved.id)
    return saved


def reject_change(work: Work, change_id: int | str, reason: str) -> PlayerChangeRecord:
    """Refuse a pending change with a reason (the player stays as registered)."""
    work.require(Action.APPROVE)
    if not reason.strip():
        raise InputError(Text("驳回更改须写明理由", "a rejection needs a reason"), code="reason_required",
                         hint=Hint.REASON)
    found = _pending(work, change_id)
    saved = change_rows.decide_change(work.session, work.stamp, found.id, "rejected", reason.strip())
    work.emit("player_change_rejected", found.event_id, change=found.id, player=str(found.player_id))
    return saved

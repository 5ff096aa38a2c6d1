"""退赛、取消资格、恢复参赛: a player leaves an event (or comes back) once it has begun.

The entry's status changes; the games already played are never touched (the regulation's
``withdrawal`` section says whether the player keeps a place and whether a disqualified
player's games stand). Pairing reads approved entries only, so a player who left is not
paired again; standings keep him (marked) as long as he has games. Before the event a team
leader may withdraw an own player (after approval or the deadline as a change the chief
referee approves); once the player has a game, each of these is the chief referee's decision,
with a reason, audited.
"""

from __future__ import annotations

from yisai.i18n import Text
from yisai.registry.entry import Entry, EntryStatus
from yisai.services.context import InputError, Work
from yisai.services.errors import Hint
from yisai.services.identity import Action
from yisai.services.registration import check_may_change_player, entry_for_change
from yisai.store import EventRecord, entry_rows, player_rows, round_rows


def _has_games(work: Work, event: EventRecord, entry: Entry) -> bool:
    return any(entry.player_id in (g.black, g.white) for g in round_rows.games(work.session, event.id, entry.division))


def _reason(reason: str, what: Text) -> str:
    text = reason.strip()
    if not text:
        raise InputError(Text(f"{what.zh}须写明理由", f"{what.en} needs a reason"),
                         code="reason_required", hint=Hint.REASON)
    return text


def withdraw_entry(work: Work, entry_id: str | int, reason: str = "") -> Entry:
    """退赛. Mid-event (the player has a game) only the chief referee, with a reason: the games
    played stand and count for the opponents and the team; the player is paired no more."""
    work.require(Action.REGISTER)
    entry, event = entry_for_change(work, entry_id, EntryStatus.WITHDRAWN)
    work.check_event(event.id)
    check_may_change_player(work, event, player_rows.get_player(work.session, entry.player_id))
    note = reason.strip()
    if _has_games(work, event, entry):
        work.require(Action.APPROVE)
        note = _reason(reason, Text("中途退赛", "a withdrawal during the event"))
    updated = entry.model_copy(update={"status": EntryStatus.WITHDRAWN, "note": note or entry.note})
    saved = entry_rows.update_entry(work.session, work.stamp, updated, "withdraw", note)
    work.emit("entry_withdrawn", event.id, entry=saved.id)
    return saved


def disqualify_entry(work: Work, entry_id: str | int, reason: str) -> Entry:
    """取消资格 (chief referee, with a reason): never ranked; the played games stand or become
    the player's losses as ``withdrawal.disqualified_games`` says."""
    work.require(Action.APPROVE)
    entry, event = entry_for_change(work, entry_id, EntryStatus.DISQUALIFIED)
    note = _reason(reason, Text("取消资格", "a disqualification"))
    saved = entry_rows.update_entry(work.session, work.stamp,
        entry.model_copy(update={"status": EntryStatus.DISQUALIFIED, "note": note}), "disqualify", note)
    work.emit("entry_disqualified", event.id, entry=saved.id)
    return saved


def reinstate_entry(work: Work, entry_id: str | int, reason: str) -> Entry:
    """恢复参赛 (chief referee, with a reason): a withdrawn or disqualified entry is approved
    again and paired from the next round; the rounds missed stay missed (absent)."""
    work.require(Action.APPROVE)
    entry, event = entry_for_change(work, entry_id, None)
    if not entry.status.has_left:
        raise InputError(
            Text(f"报名{entry.id}当前状态为{entry.status.label}, 只有已退赛或取消资格的报名可以恢复参赛",
                 f"entry {entry.id} is {entry.status.value}: only a withdrawn or disqualified entry "
                 "can be reinstated"),
            code="bad_transition", params={"entry": entry.id, "status": entry.status.value,
                                           "target": EntryStatus.APPROVED.value})
    if entry.reasons and not entry.forced:  # withdrawn before it was ever approved
        raise InputError(
            Text(f"报名{entry.id}有未处理的资格问题 ({'; '.join(r.zh for r in entry.reasons)}), 请按报名审核处理",
                 f"entry {entry.id} has open eligibility findings ({'; '.join(r.en for r in entry.reasons)}): "
                 "decide it as an entry instead"),
            code="entry_not_eligible", params={"entry": entry.id})
    note = _reason(reason, Text("恢复参赛", "a reinstatement"))
    saved = entry_rows.update_entry(work.session, work.stamp,
        entry.model_copy(update={"status": EntryStatus.APPROVED, "note": note}), "reinstate", note)
    work.emit("entry_reinstated", event.id, entry=saved.id)
    return saved

"""报名时间: when entries are open, and the chief referee's late admission (逾期报名).

A date in the regulation opens at 00:00 and closes at the end of its day (规程: 报名截止3月20日),
as the core reads a team window (``registry.eligibility.closing_time``). ``late`` waives the
window alone, never another rule, and only the roles that approve entries may give it, with a
reason kept on the entry and in the audit.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time

from yisai.i18n import Text
from yisai.registry.eligibility import closing_time
from yisai.registry.entry import Entry
from yisai.regulation import Regulation
from yisai.regulation.admin import RegistrationWindow
from yisai.services.context import InputError, Refused, Work
from yisai.services.eligibility import division_name
from yisai.services.errors import Hint
from yisai.services.identity import Action
from yisai.store import entry_rows


def _window_bounds(w: RegistrationWindow) -> tuple[datetime | None, datetime | None]:
    """A date opens at 00:00 and closes at the end of its day (规程: 报名截止3月20日)."""
    opens = w.opens if isinstance(w.opens, datetime) or w.opens is None else datetime.combine(w.opens, time(0, 0))
    closes = w.closes
    if closes is not None and not isinstance(closes, datetime):
        closes = datetime.combine(closes, time(0, 0))
    return opens, closing_time(closes) if closes is not None else None


def registration_closed(work: Work, regulation: Regulation, divisions: Iterable[str], in_team: bool) -> bool:
    """The registration deadline for any of these divisions (or, for a team's player, the team
    registration deadline) has passed."""
    wanted = set(divisions)
    for w in regulation.registration.windows:
        if w.divisions and not wanted & set(w.divisions):
            continue
        _opens, closes = _window_bounds(w)
        if closes is not None and work.now > closes:
            return True
    if in_team and regulation.teams is not None and regulation.teams.registration_to is not None:
        return work.now > closing_time(regulation.teams.registration_to)
    return False


def late_note(reason: str) -> Text:
    """How a late admission reads in the entry list and the audit (逾期报名, with the reason)."""
    return Text(f"逾期报名 (裁判长批准: {reason.strip()})", f"late entry (admitted by the chief referee: {reason.strip()})")


def mark_late(work: Work, entry: Entry, reason: str) -> Entry:
    """Record on the entry that the chief referee admitted it after the deadline (entry list, audit)."""
    return entry_rows.update_entry(work.session, work.stamp,
                                   entry.model_copy(update={"note": late_note(reason).zh}), "late", reason.strip())


def window_waived(work: Work, regulation: Regulation, division: str, late: bool, *,
                  in_team: bool = False, deadline: bool = True) -> bool:
    """The entry window's check; a closed window is waived (True) for a late admission.

    Past any deadline the regulation states for the division (or, for a division entered
    through teams only, the team deadline) a new entry is the chief referee's late admission,
    whoever enters it and whether or not the window is enforced for the players' own sign-up:
    截止以后只有裁判长可以逾期报名. ``deadline=False``: a roster's team rows, whose team is
    checked against the team deadline as a whole (one reason for all teams)."""
    try:
        _check_entry_window(work, regulation, division)
    except Refused:
        if not late:
            raise
        return True
    if not deadline or not registration_closed(work, regulation, [division], in_team):
        return False
    if late:
        return True
    name = division_name(regulation, division)
    raise Refused(
        Text(f"{name}报名已截止 (现在是{work.now:%Y-%m-%d %H:%M}); 截止以后只有裁判长可以逾期报名, 须写明理由",
             f"entries to {name} have closed (it is now {work.now:%Y-%m-%d %H:%M}); after the deadline "
             "only the chief referee admits an entry late, with a reason"),
        code="registration_closed", params={"now": f"{work.now:%Y-%m-%d %H:%M}"},
        hint=Hint.LATE_IMPORT)


def require_late_admission(work: Work, reason: str) -> None:
    """Only the chief referee (the roles that approve entries) admits late, and says why."""
    work.require(Action.APPROVE)
    if not reason.strip():
        raise InputError(Text("逾期报名须写明理由 (裁判长批准的依据)", "a late entry needs the reason it is admitted"),
                         code="note_required", hint=Hint.NOTE)


def _check_entry_window(work: Work, regulation: Regulation, division: str) -> None:
    """报名时间 (``registration.windows`` with ``enforce``): an entry outside it is refused with
    the regulation's dates and the time now (the services' clock)."""
    now = work.now
    for w in regulation.registration.windows:
        if not w.enforce or (w.divisions and division not in w.divisions):
            continue
        opens, closes = _window_bounds(w)
        name = division_name(regulation, division)
        if closes is not None and now > closes:
            raise Refused(
                Text(f"{name}报名已于{closes:%Y-%m-%d %H:%M}截止 (规程: {w.who}报名截止{closes:%Y-%m-%d %H:%M}); "
                     f"现在是{now:%Y-%m-%d %H:%M}",
                     f"entries to {name} closed at {closes:%Y-%m-%d %H:%M}; it is now {now:%Y-%m-%d %H:%M}"),
                code="registration_closed", params={"closes": f"{closes:%Y-%m-%d %H:%M}",
                                                    "now": f"{now:%Y-%m-%d %H:%M}"})
        if opens is not None and now < opens:
            raise Refused(
                Text(f"{name}报名尚未开始: {opens:%Y-%m-%d %H:%M}起接受报名; 现在是{now:%Y-%m-%d %H:%M}",
                     f"entries to {name} open at {opens:%Y-%m-%d %H:%M}; it is now {now:%Y-%m-%d %H:%M}"),
                code="registration_not_open", params={"opens": f"{opens:%Y-%m-%d %H:%M}",
                                                      "now": f"{now:%Y-%m-%d %H:%M}"})

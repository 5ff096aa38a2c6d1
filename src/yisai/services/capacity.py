"""报名名额 (限报40名, 限额100人, 额满提前截止): how many places there are and how many are taken.

A place is held by every live entry, approved or still pending the director's review: a director
counts the forms received, not only those already approved, so that the 41st form is not taken
while the 40 before it wait; rejecting or withdrawing an entry frees its place. A division's own
limit (``divisions[].capacity``) and the event's (``registration.capacity``, all divisions
together) both apply, each counted within the entry's stage.

Past a limit, a regulation that closes when full (额满提前截止, ``close_when_full``, the default)
refuses the entry unless the chief referee admits it with a reason, as for a late entry; one that
does not close takes it as pending (候补) for the director to decide.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.entry import Entry
from yisai.regulation import Regulation
from yisai.services.context import Refused, Work
from yisai.services.eligibility import LIVE
from yisai.services.errors import Hint
from yisai.store import entry_rows, roster_rows

ALL_DIVISIONS = Text("全部组别", "all divisions")


@dataclass(frozen=True)
class Places:
    """One limit of the regulation and how many live entries it holds now."""

    scope: Text  # the division's name, or 全部组别
    taken: int
    limit: int
    division: str | None = None  # None: the event's limit over every division

    @property
    def full(self) -> bool:
        return self.taken >= self.limit

    @property
    def text(self) -> Text:
        """名额: 已报 n / N, as the registration page and the summary show it."""
        return Text(f"{self.scope.zh}名额: 已报 {self.taken} / {self.limit}",
                    f"{self.scope.en} places: {self.taken} / {self.limit} entered")


def _taken(work: Work, event_id: int, division: str | None, stage: str) -> int:
    return len(roster_rows.list_entries(work.session, event_id, division=division, stage=stage, status=LIVE))


def places_for(work: Work, event_id: int, regulation: Regulation, division: str, stage: str = "") -> list[Places]:
    """The limits an entry in ``division`` counts against: the division's, then the event's."""
    out = []
    d = regulation.division(division)
    if d.capacity is not None:
        out.append(Places(Text(d.name, d.name), _taken(work, event_id, division, stage), d.capacity, division))
    if regulation.registration.capacity is not None:
        out.append(Places(ALL_DIVISIONS, _taken(work, event_id, None, stage), regulation.registration.capacity))
    return out


def event_places(work: Work, event_id: int, regulation: Regulation, stage: str = "") -> list[Places]:
    """Every limit of the event, each division's then the event's (the registration page)."""
    out = [Places(Text(d.name, d.name), _taken(work, event_id, d.id, stage), d.capacity, d.id)
           for d in regulation.divisions if d.capacity is not None]
    if regulation.registration.capacity is not None:
        out.append(Places(ALL_DIVISIONS, _taken(work, event_id, None, stage), regulation.registration.capacity))
    return out


def full_text(p: Places) -> Text:
    """Why a new entry finds no place, quoting the limit."""
    return Text(f"{p.scope.zh}名额已满: 规程限报{p.limit}名, 已报{p.taken}名 (含待审的报名)",
                f"{p.scope.en} is full: the regulation allows {p.limit} entries and {p.taken} are entered "
                "(pending ones included)")


def check_places(work: Work, event_id: int, regulation: Regulation, division: str, stage: str,
                 admitted: bool) -> tuple[Places | None, Text | None]:
    """The limit a new entry would exceed (None when there is a place) and, when the regulation
    takes it as 候补, the reason it waits. Refused when full, closing when full and not
    ``admitted`` by the chief referee."""
    full = next((p for p in places_for(work, event_id, regulation, division, stage) if p.full), None)
    if full is None or admitted:
        return full, None
    if regulation.registration.close_when_full:
        raise Refused(
            Text(f"{full_text(full).zh}; 额满报名截止。确需超额报名的, 须裁判长批准并写明理由",
                 f"{full_text(full).en}; entries close when full. An entry over the limit needs the chief "
                 "referee's admission with a reason"),
            code="entries_full", params={"limit": full.limit, "taken": full.taken, "division": full.division or ""},
            hint=Hint.OVER_CAPACITY)
    return full, Text(f"{full_text(full).zh}; 候补, 待裁判长决定", f"{full_text(full).en}; on the waiting list")


def over_note(reason: str) -> Text:
    """How an admission over the limit reads in the entry list and the audit."""
    return Text(f"超额报名 (裁判长批准: {reason.strip()})", f"over the limit (admitted by the chief referee: {reason.strip()})")


def mark_over(work: Work, entry: Entry, reason: str) -> Entry:
    """Record on the entry that the chief referee admitted it over the limit (after any late note)."""
    note = "; ".join(n for n in (entry.note, over_note(reason).zh) if n)
    return entry_rows.update_entry(work.session, work.stamp, entry.model_copy(update={"note": note}),
                                   "over_capacity", reason.strip())

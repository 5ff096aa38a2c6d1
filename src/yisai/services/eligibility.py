"""What the regulation says of one entry, as registration stores and shows it.

Eligibility is decided by ``registry.eligibility`` against the event's stored regulation; the
reasons are saved on the entry so the director (and the audit log) sees why. They are built
once in Chinese and English (``check_player_texts``) and stored as ``{"zh", "en"}`` objects.
``Entry.reasons`` holds them as ``Text`` (the store reads data, never words, so its cached roster
serves every language); the front end words them in the reader's language. A few views made for
one showing (``TeamView.reasons``, ``ImportReport.ineligible``, the typed row's check) are worded
here, in the caller's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from yisai.i18n import Text
from yisai.registry.eligibility import check_player_texts
from yisai.registry.entry import EntryStatus
from yisai.registry.members import MemberList
from yisai.registry.person import Player
from yisai.regulation import Regulation
from yisai.store import EventRecord

LIVE = (EntryStatus.PENDING, EntryStatus.APPROVED)  # the statuses that hold a place in a division


def eligibility_reasons(regulation: Regulation, player: Player, division: str,
                        members: MemberList | None = None) -> list[str]:
    """The reasons in the caller's language; ``members``: the event's imported register."""
    return list(rendered(eligibility_texts(regulation, player, division, members)))


def eligibility_texts(regulation: Regulation, player: Player, division: str,
                      members: MemberList | None = None) -> list[Text]:
    """The reasons in both languages, as they are stored."""
    return check_player_texts(player, regulation.division(division), regulation, members)


def members_of(event: EventRecord) -> MemberList | None:
    """The member register the director imported for the event (``yisai member import``)."""
    stored = event.settings.get("members")
    return MemberList.of(stored.get("rows", ())) if stored else None


def rendered(reasons: Iterable[Text]) -> tuple[str, ...]:
    """Reasons in the caller's language, for a view made for one showing."""
    return tuple(r.render() for r in reasons)


def needs_approval(regulation: Regulation, division: str) -> bool:
    """The division's own rule when it states one, else ``registration.approval_required``
    (报名后须审核, for every division that does not say otherwise)."""
    e = regulation.division(division).eligibility
    if "approval_required" in e.model_fields_set:
        return e.approval_required
    return regulation.registration.approval_required


def division_name(regulation: Regulation, division: str) -> str:
    """The division's name for a message; an id the regulation no longer has is shown as is."""
    try:
        return regulation.division(division).name
    except KeyError:
        return division

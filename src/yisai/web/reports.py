"""The one adapter between the web and the reporting services (``yisai.services.reports``):
standings, prizes, rank awards and team tables as the CLI prints them."""

from __future__ import annotations

from dataclasses import dataclass, field

from yisai.formats.awards_report import TextTable
from yisai.services import reports
from yisai.services.context import Work
from yisai.services.errors import ServiceError
from yisai.services.events import regulation_of, resolve_division, resolve_event
from yisai.services.results import division_standings
from yisai.standings.ranking import Standings
from yisai.web.hints import web_message


def event_standings(work: Work, event_ref: str, division: str) -> Standings:
    """A division's standings, the final applied (``services.results.division_standings``: the
    same ranking as ``reports.event_standings`` without its title and filter handling, which
    reads the event's games a second time; a public page polls this)."""
    event = resolve_event(work, event_ref)
    return division_standings(work, event, resolve_division(regulation_of(event), division))


@dataclass(frozen=True)
class AwardPages:
    teams: list[TextTable]
    prizes: list[TextTable]
    awards: list[TextTable]
    problem: str = ""
    promotions: list[TextTable] = field(default_factory=list)


def award_pages(work: Work, event_ref: str) -> AwardPages:
    """Team standings, prize lists and 段位 awards as tables (what `yisai prizes/awards` print);
    mid-event, what cannot be computed yet is said instead of failing the page."""
    try:
        prizes = reports.prizes(work, event_ref)
        awards = reports.awards(work, event_ref)
    except ServiceError as exc:
        return AwardPages([], [], [], web_message(exc))
    return AwardPages(prizes.team_tables, prizes.prize_tables, awards.rank_award_tables,
                      promotions=awards.promotion_tables)


def prizes_xlsx(work: Work, event_ref: str) -> bytes:
    return reports.prizes(work, event_ref).xlsx()


def awards_xlsx(work: Work, event_ref: str) -> bytes:
    return reports.awards(work, event_ref).xlsx()

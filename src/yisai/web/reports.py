"""The one adapter between the web and the reporting services (``yisai.services.reports``):
standings, prizes, rank awards and team tables as the CLI prints them."""

from __future__ import annotations

from dataclasses import dataclass

from yisai.awards.report import TextTable
from yisai.services import reports
from yisai.services.context import Work
from yisai.services.errors import ServiceError
from yisai.standings.ranking import Standings


def event_standings(work: Work, event_ref: str, division: str) -> Standings:
    return reports.event_standings(work, event_ref, division).standings


@dataclass(frozen=True)
class AwardPages:
    teams: list[TextTable]
    prizes: list[TextTable]
    awards: list[TextTable]
    problem: str = ""


def award_pages(work: Work, event_ref: str) -> AwardPages:
    """Team standings, prize lists and 段位 awards as tables (what `yisai prizes/awards` print);
    mid-event, what cannot be computed yet is said instead of failing the page."""
    try:
        prizes = reports.prizes(work, event_ref)
        awards = reports.awards(work, event_ref)
    except ServiceError as exc:
        return AwardPages([], [], [], exc.render())
    return AwardPages(prizes.team_tables, prizes.prize_tables, awards.tables)


def prizes_xlsx(work: Work, event_ref: str) -> bytes:
    return reports.prizes(work, event_ref).xlsx()


def awards_xlsx(work: Work, event_ref: str) -> bytes:
    return reports.awards(work, event_ref).xlsx()

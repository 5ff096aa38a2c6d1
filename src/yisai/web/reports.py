"""The one adapter between the web and the reporting services (``yisai.services.reports``):
standings, prizes, rank awards and team tables as the CLI prints them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from yisai.awards.inputs import is_base
from yisai.formats.awards_report import TextTable
from yisai.regulation.divisions import RankingList
from yisai.services import reports
from yisai.services.context import Work
from yisai.services.errors import ServiceError
from yisai.services.events import regulation_of, resolve_division, resolve_event
from yisai.services.results import RankingView, division_standings, ranking_lists
from yisai.standings.ranking import Standings
from yisai.web.hints import web_message


def event_standings(work: Work, event_ref: str, division: str) -> Standings:
    """A division's standings, the final applied (``services.results.division_standings``: the
    same ranking as ``reports.event_standings`` without its title and filter handling, which
    reads the event's games a second time; a public page polls this)."""
    event = resolve_event(work, event_ref)
    return division_standings(work, event, resolve_division(regulation_of(event), division))


def event_rankings(work: Work, event_ref: str, division: str) -> list[RankingView]:
    """Each ranking list the regulation defines for the division (男子 / 女子 / 混合), the final
    applied, from one computation of the division's order."""
    event = resolve_event(work, event_ref)
    return ranking_lists(work, event, resolve_division(regulation_of(event), division))


def chosen_ranking(lists: Sequence[RankingList], ranking: str, *, page: bool = False) -> str:
    """The id of the list asked for (?ranking=girls), else the whole division's (混合), so that
    an API client misses nobody. The public ``page`` opens where the regulation ranks men and
    women apart (男女分别录取) on its first list (甲组男子), as the regulation reads."""
    asked = next((r.id for r in lists if r.id == ranking), None)
    if asked is not None:
        return asked
    if page and any(r.gender is not None for r in lists):
        return lists[0].id
    return next((r.id for r in lists if is_base(r)), lists[0].id)


def ranking_of(lists: Sequence[RankingView], ranking: str) -> RankingView:
    """The computed list ``chosen_ranking`` chooses."""
    wanted = chosen_ranking([r.ranking for r in lists], ranking)
    return next(r for r in lists if r.id == wanted)


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
        try:  # the team table never depends on the money: it stands when the prizes cannot
            teams = reports.team_tables(work, event_ref)
        except ServiceError:
            teams = []
        return AwardPages(teams, [], [], web_message(exc))
    return AwardPages(prizes.team_tables, prizes.prize_tables, awards.rank_award_tables,
                      promotions=awards.promotion_tables)


def prizes_xlsx(work: Work, event_ref: str) -> bytes:
    return reports.prizes(work, event_ref).xlsx()


def awards_xlsx(work: Work, event_ref: str) -> bytes:
    return reports.awards(work, event_ref).xlsx()

"""The one adapter between the web and the reporting services.

Standings, prizes, rank awards and team tables are being moved into ``yisai.services.reports``;
until that module exists this file builds them from the services that do (event data, results,
awards report). Switching is a change to this file only.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.awards.prizes import compute_prizes
from yisai.awards.rank_awards import compute_rank_awards
from yisai.awards.report import TextTable, prize_tables, rank_award_tables, team_table
from yisai.formats import awards_export
from yisai.services.context import InputError, Work
from yisai.services.event_data import playing_stage, standings_input
from yisai.services.events import regulation_of, resolve_event
from yisai.services.results import load_event_results
from yisai.standings import compute_standings
from yisai.standings.ranking import Standings


def event_standings(work: Work, event_ref: str, division: str) -> Standings:
    try:
        from yisai.services import reports  # type: ignore[attr-defined,unused-ignore]

        return reports.event_standings(work, event_ref, division)  # type: ignore[no-any-return,unused-ignore]
    except (ImportError, AttributeError):
        pass
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    stage = playing_stage(reg, division)
    inp = standings_input(work, event, division, stage.id)
    if not inp.players:
        raise InputError(f"组别 {division} 没有已批准的报名", en=f"division {division} has no approved entries",
                         code="no_entries")
    return compute_standings(inp, subset=inp.select(division=division), lot_seed=event.seed)


@dataclass(frozen=True)
class AwardPages:
    teams: list[TextTable]
    prizes: list[TextTable]
    awards: list[TextTable]
    problem: str = ""


def award_pages(work: Work, event_ref: str) -> AwardPages:
    """Team standings, prize lists and 段位 awards as tables (what `yisai prizes/awards` print)."""
    results = load_event_results(work, event_ref)
    players = results.players
    try:
        teams = [team_table(tt, players) for tt in results.team_tables().values()]
        prizes = prize_tables(compute_prizes(results), players)
        awards = rank_award_tables(compute_rank_awards(results), players)
    except (ValueError, KeyError) as exc:
        return AwardPages([], [], [], str(exc))
    return AwardPages(teams, prizes, awards)


def prizes_xlsx(work: Work, event_ref: str) -> bytes:
    import io

    results = load_event_results(work, event_ref)
    buf = io.BytesIO()
    awards_export.write_prizes(compute_prizes(results), results.players, buf,
                               list(results.team_tables().values()))
    return buf.getvalue()


def awards_xlsx(work: Work, event_ref: str) -> bytes:
    import io

    results = load_event_results(work, event_ref)
    buf = io.BytesIO()
    awards_export.write_rank_awards(compute_rank_awards(results), results.players, buf)
    return buf.getvalue()

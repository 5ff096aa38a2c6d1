"""An event's final results for prizes and rank awards: rankings from the standings engine, or
from the same-place final where the stage has one."""

from __future__ import annotations

from yisai.awards.results import EventResults, table_from_standings
from yisai.pairing.groups import final_places
from yisai.regulation import Regulation
from yisai.regulation.divisions import Division
from yisai.regulation.stages import TwoGroupSwissFormat
from yisai.services.context import Work
from yisai.services.event_data import PLACEMENT_GROUP, group_members, playing_stage, standings_input
from yisai.services.events import regulation_of, resolve_event
from yisai.services.registration import approved_players
from yisai.services.rounds import current_order
from yisai.standings import compute_standings
from yisai.standings.teams import RankedPlayer, RankingTable
from yisai.store import EventRecord


def _base_ranking(d: Division) -> str:
    """The division's unfiltered ranking list (mixed); filtered lists derive from it."""
    for r in d.rankings:
        if r.gender is None and r.min_age is None:
            return r.id
    return d.rankings[0].id


def division_table(work: Work, event: EventRecord, reg: Regulation, division: str) -> RankingTable | None:
    d = reg.division(division)
    if not approved_players(work, event, division):
        return None
    stage = playing_stage(reg, division)
    fmt = stage.format_for(division)
    inp = standings_input(work, event, division, stage.id)
    standings = compute_standings(inp, subset=inp.select(division=division), lot_seed=event.seed)
    table = table_from_standings(division, _base_ranking(d), standings, len(inp.players))
    if isinstance(fmt, TwoGroupSwissFormat):
        finals = [
            r for r in work.repo.list_rounds(event.id, division, stage=stage.id)
            if r.group == PLACEMENT_GROUP
        ]
        if finals and all(g.result.value != "?" for g in finals[0].games):
            groups = group_members(work, event, division, stage)
            names = list(groups)
            a = current_order(work, event, division, stage, groups[names[0]], fmt.group_rounds)
            b = current_order(work, event, division, stage, groups[names[1]], fmt.group_rounds)
            places = final_places(a, b, finals[0].games, limit=fmt.placement_final.top)
            by_id = {r.player_id: r for r in table.rows}
            rows = tuple(
                RankedPlayer(p.player, p.place, by_id[p.player].score, by_id[p.player].values)
                for p in places
            )
            table = RankingTable(division, table.ranking, rows, table.entrants)
    return table


def load_event_results(work: Work, event_ref: str | None) -> EventResults:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    tables = [t for d in reg.divisions if (t := division_table(work, event, reg, d.id)) is not None]
    entrants = {
        d.id: [p.id for p in approved_players(work, event, d.id)] for d in reg.divisions
    }
    return EventResults(
        regulation=reg,
        players=work.repo.players_by_id(event.id),
        rankings=tables,
        teams=work.repo.list_teams(event.id),
        entrants=entrants,
    )

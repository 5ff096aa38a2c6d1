"""An event's final results: one computation of each division's order — the standings engine,
with the same-place final applied where the stage has one — used by standings, prizes, awards,
exports and the web alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from yisai.awards.decisions import PrizeDecisions
from yisai.awards.inputs import EventResults, belongs, is_base, table_from_standings
from yisai.i18n import Text, TextError
from yisai.record import Game
from yisai.regulation import Regulation
from yisai.regulation.divisions import RankingList
from yisai.regulation.format_base import StageFormat
from yisai.services.context import InputError, Work
from yisai.services.event_data import (
    approved_players,
    division_games,
    left_players,
    standings_input,
)
from yisai.services.events import playing_stage, regulation_of, resolve_event
from yisai.services.stage_play import play_of
from yisai.standings import Standings, StandingsInput, compute_standings
from yisai.standings.names import CriterionRef
from yisai.standings.placement import apply_final_places
from yisai.standings.teams import RankingTable
from yisai.store import EventRecord, roster_rows, round_rows, team_rows


def final_order(work: Work, event: EventRecord, reg: Regulation, division: str,
                 round_: int | None) -> list[tuple[int, str, str]] | None:
    """(place, player, reason) after a complete same-place final or a decided bracket; None if
    there is none yet. Standings, prizes and the stage's page all place by this one order."""
    stage = playing_stage(reg, division)
    fmt = stage.format_for(division)
    return play_of(fmt).final_order(work, event, division, stage, fmt, round_)


def division_standings(
    work: Work,
    event: EventRecord,
    division: str,
    *,
    round_: int | None = None,
    criteria: Sequence[CriterionRef] | None = None,
    subset: Iterable[str] | None = None,
    inp: StandingsInput | None = None,
    group_table: bool = False,
) -> Standings:
    """One division's ranking after ``round_`` (default: the latest), the final applied.

    ``subset`` (e.g. the women) keeps the division's order and renumbers it. With
    ``group_table`` the subset is one group of a group stage and is ranked on its own, as its
    crosstable is: a tie inside the group is decided among the group (直胜, 小循环), never
    skipped because a player of another group shares the score. Once a final or bracket has
    placed everyone, those places stand and the group's players keep them.
    """
    from yisai.standings.placement import subset_of

    reg = regulation_of(event)
    stage = playing_stage(reg, division)
    if inp is None:  # a caller that already read the division's games passes them in
        inp = standings_input(work, event, division, stage.id)
    members = list(inp.select(division=division))
    order = final_order(work, event, reg, division, round_) if criteria is None else None
    held = [n for n in round_rows.round_numbers(work.session, event.id, division, stage=stage.id)
            if round_ is None or n <= round_]
    if round_ is not None and round_ in held and round_ > inp.rounds:
        round_ = inp.rounds  # a knockout round: the ranked games end with the group stage
    if group_table and subset is not None and order is None:
        wanted = set(subset)
        members = [m for m in members if m in wanted]
    try:
        standings = compute_standings(inp, round_, criteria, members, lot_seed=event.seed)
    except ValueError as exc:  # the core words its refusals once in both languages (TextError)
        text = exc.text if isinstance(exc, TextError) else Text(str(exc), str(exc))
        raise InputError(text, code="bad_standings_request") from None
    if order is not None:
        standings = apply_final_places(standings, order)
        # The places come from the games up to the final or bracket: the heading says so.
        standings = replace(standings, round=max(held, default=standings.round))
    if subset is not None:
        standings = subset_of(standings, subset)
    return standings


@dataclass(frozen=True)
class RankingView:
    """One ranking list of a division as the regulation names it (甲组男子 / 甲组女子 / 混合)."""

    id: str
    name: str
    ranking: RankingList
    standings: Standings

    @property
    def is_base(self) -> bool:
        return is_base(self.ranking)


def ranking_lists(work: Work, event: EventRecord, division: str, *, round_: int | None = None,
                  standings: Standings | None = None, only: str | None = None) -> list[RankingView]:
    """Every ranking list the regulation defines for ``division``, in its order (seed 002:
    男子, 女子, 男女混合): a filtered list (a gender, an age band) is its players in the
    division's order, renumbered as prize lists renumber it (``awards.inputs.belongs``).
    ``only``: just the list with that id (a page showing one list renumbers no other)."""
    from yisai.standings.placement import subset_of

    d = regulation_of(event).division(division)
    full = standings if standings is not None else division_standings(work, event, division, round_=round_)
    basis = next((r.name for r in d.rankings if is_base(r)), d.name)
    players = roster_rows.players_by_id(work.session, event.id)
    out = []
    for rl in d.rankings:
        if only is not None and rl.id != only:
            continue
        if is_base(rl):
            st = full
        else:
            try:
                ids = [r.player.id for r in full.rows if belongs(rl, players.get(r.player.id))]
            except ValueError as exc:
                raise InputError(Text(f"规程数据无法应用: {exc}", f"regulation data cannot be applied: {exc}"),
                                 code="regulation_not_applicable") from None
            st = subset_of(full, ids, basis)
        out.append(RankingView(rl.id, rl.name, rl, st))
    return out


def division_table(work: Work, event: EventRecord, reg: Regulation, division: str) -> RankingTable | None:
    d = reg.division(division)
    if not approved_players(work, event, division):
        return None
    standings = division_standings(work, event, division)
    return table_from_standings(division, next((r.id for r in d.rankings if is_base(r)), d.rankings[0].id),
                                standings, len(standings.rows))


def load_event_results(work: Work, event_ref: str | int | None) -> EventResults:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    tables = [t for d in reg.divisions if (t := division_table(work, event, reg, d.id)) is not None]
    entrants = {
        d.id: [p.id for p in approved_players(work, event, d.id)] for d in reg.divisions
    }
    games = {}
    rounds = {}
    by_wins = {ga.division for ga in reg.prizes.graded if ga.by == "wins"}  # 7胜 一等奖 counts the games
    for d in reg.divisions:
        if not entrants[d.id] or not (reg.promotions or d.id in by_wins):
            continue
        stage = playing_stage(reg, d.id)
        games[d.id] = division_games(work, event, d.id, stage)
        rounds[d.id] = rounds_for_everyone(stage.format_for(d.id), games[d.id])
    from yisai.services.team_matches import event_team_matches
    from yisai.standings.teams import draw_team_lot

    teams = team_rows.list_teams(work.session, event.id)
    return EventResults(
        regulation=reg,
        players=roster_rows.players_by_id(work.session, event.id),
        rankings=tables,
        teams=teams,
        entrants=entrants,
        games=games,
        rounds=rounds,
        team_matches=event_team_matches(work, event),
        # 抽签 between teams really draws: once per event, from its stored seed
        team_lot=draw_team_lot([t.id for t in teams], event.seed),
        lot_seed=event.seed,
        left={d.id: {pid: status.value for pid, (_p, status) in left_players(work, event, d.id).items()}
              for d in reg.divisions},
        prize_decisions=PrizeDecisions.from_settings(event.settings.get("prizes")),
    )


def rounds_for_everyone(fmt: StageFormat, games: Sequence[Game]) -> int:
    """Rounds every player of a division is meant to play (promotion's "played all rounds"):
    the group rounds before a same-place final only some play, else every round held."""
    group_rounds = fmt.swiss_group_rounds()
    return group_rounds if group_rounds is not None else max((g.round for g in games), default=0)


@dataclass(frozen=True)
class Progress:
    """How far a division has got: ``after`` the last round with every result in, and whether
    its places are final (every planned round played, or the final/bracket decided). Prize
    lists and standings before that are provisional (暂定) and say after which round."""

    division: str
    after: int
    final: bool

    @property
    def note(self) -> Text:
        if self.final:
            return Text("", "")
        if self.after == 0:
            return Text("暂定 (尚未赛完一轮)", "provisional (no round complete yet)")
        return Text(f"暂定 (第{self.after}轮后)", f"provisional (after round {self.after})")


def division_progress(work: Work, event: EventRecord, division: str) -> Progress:
    reg = regulation_of(event)
    stage = playing_stage(reg, division)
    fmt = stage.format_for(division)
    rounds = round_rows.list_rounds(work.session, event.id, division, stage=stage.id)
    numbers = sorted({r.number for r in rounds})
    open_rounds = {r.number for r in rounds for g in r.games if g.result.value == "?" and not g.is_bye}
    after = 0
    for n in numbers:
        if n in open_rounds or n != after + 1:
            break
        after = n
    final = play_of(fmt).is_final(work, event, division, stage, fmt, after, numbers)
    return Progress(division, after, final)


def event_progress(work: Work, event_ref: str | int | None) -> list[Progress]:
    """``division_progress`` of every division that has paired a round."""
    event = resolve_event(work, event_ref)
    return [division_progress(work, event, d.id) for d in regulation_of(event).divisions
            if round_rows.round_numbers(work.session, event.id, d.id)]

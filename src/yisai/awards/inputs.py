"""What awards are computed from: the regulation, the players and the final individual rankings.

``EventResults`` is the one input of prize lists and rank awards. The caller (the results
service) fills it from the standings engine; only the rankings it has are needed, because a
ranking list that only filters another one (女子, 60岁以上) is derived here from its division's
unfiltered list when it is missing — the order among the women is their order in the mixed list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from yisai.awards.decisions import PrizeDecisions
from yisai.record import Game
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation.divisions import RankingList
from yisai.regulation.format_base import as_kind
from yisai.regulation.schema import Regulation
from yisai.regulation.team_match import BoardPrize, MatchPoints, TeamMatchFormat
from yisai.standings.ranking import Standings
from yisai.standings.teams import (
    BoardPrizeRow,
    RankedPlayer,
    RankingKey,
    RankingTable,
    TeamMatch,
    TeamTable,
    board_prize_rows,
    team_standings,
)


@dataclass(frozen=True)
class EventResults:
    """Final results of one event, as plain data.

    ``entrants`` lists, per division, who entered (报名); absent, it is everyone in that
    division's ranking tables. ``team_lot`` is a drawn order of team ids for "lot" tie-breaks.
    ``games`` holds each division's games (of its playing stage) and ``rounds`` the number of
    rounds every player of the division is meant to play: promotion by wins reads them.
    """

    regulation: Regulation
    players: Mapping[str, Player]
    rankings: Sequence[RankingTable]
    teams: Sequence[Team] = ()
    team_matches: Mapping[str, Sequence[TeamMatch]] = field(default_factory=dict)
    entrants: Mapping[str, Sequence[str]] = field(default_factory=dict)
    team_lot: Sequence[str] | None = None
    games: Mapping[str, Sequence[Game]] = field(default_factory=dict)
    rounds: Mapping[str, int] = field(default_factory=dict)
    lot_seed: int = 0  # the event's seed: a lot among players (a single board prize still tied)
    # division → player id → "withdrawn" / "disqualified": who left the event (not in ``entrants``)
    left: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # the chief referee's decisions on prizes: docking, judged awards, a pool overrun
    prize_decisions: PrizeDecisions = field(default_factory=PrizeDecisions)

    def ranking_tables(self) -> dict[RankingKey, RankingTable]:
        """Every ranking list of the regulation that is given or derivable, by (division, id)."""
        tables: dict[RankingKey, RankingTable] = {(t.division, t.ranking): t for t in self.rankings}
        for division in self.regulation.divisions:
            base = _base_table(division.rankings, division.id, tables)
            for rl in division.rankings:
                key = (division.id, rl.id)
                if key in tables or base is None or is_base(rl):
                    continue
                tables[key] = derive_ranking(base, rl, self.players, rl.age_reference)
        return tables

    def division_entrants(self, division: str) -> list[str]:
        if division in self.entrants:
            return list(self.entrants[division])
        seen: dict[str, None] = {}
        for t in self.rankings:
            if t.division == division:
                for r in t.rows:
                    seen.setdefault(r.player_id, None)
        return list(seen)

    def team_tables(self) -> dict[str, TeamTable]:
        rules = self.regulation.teams
        if rules is None:
            return {}
        tables = self.ranking_tables()
        return {
            comp.id: team_standings(
                comp,
                self._playing_teams(comp.id),
                self.players,
                tables,
                self.team_matches.get(comp.id, ()),
                self.team_lot,
                rules.slots,
                points=_points(self.match_format(comp.id)),
            )
            for comp in rules.competitions
        }

    def match_format(self, competition: str) -> TeamMatchFormat | None:
        """The team-match stage format that plays ``competition`` (None for other methods)."""
        for s in self.regulation.stages:
            for did in s.divisions:
                fmt = as_kind(s.format_for(did), TeamMatchFormat)
                if fmt is not None and fmt.competition == competition:
                    return fmt
        return None

    def _playing_teams(self, competition: str) -> Sequence[Team]:
        """A match-points table ranks the teams that played matches (all, when none yet)."""
        matches = self.team_matches.get(competition, ())
        if not matches or self.match_format(competition) is None:
            return self.teams
        played = {m.team_a for m in matches} | {m.team_b for m in matches if m.team_b}
        return [t for t in self.teams if t.id in played]

    def board_prizes(self) -> list[tuple[BoardPrize, list[BoardPrizeRow]]]:
        """台次奖 (最佳主将 …) of every team-match stage, from its matches."""
        out: list[tuple[BoardPrize, list[BoardPrizeRow]]] = []
        for s in self.regulation.stages:
            for did in s.divisions:
                fmt = as_kind(s.format_for(did), TeamMatchFormat)
                if fmt is not None and fmt.board_prizes:
                    matches = self.team_matches.get(fmt.competition, ())
                    places = self._team_places(fmt) if any(
                        "team_place" in p.tie_breaks for p in fmt.board_prizes) else {}
                    out += [(p, board_prize_rows(p, matches, fmt.board_points.win, places, self.lot_seed))
                            for p in fmt.board_prizes]
        return out

    def _team_places(self, fmt: TeamMatchFormat) -> dict[str, int]:
        """团体名次 of the competition a team-match stage plays (所在队团体名次)."""
        table = self.team_tables().get(fmt.competition)
        if table is None:
            return {}
        return {t.team_id: t.place for t in table.ranked if t.place is not None}


def _points(fmt: TeamMatchFormat | None) -> MatchPoints | None:
    return fmt.match_points if fmt is not None else None


def is_base(rl: RankingList) -> bool:
    return rl.gender is None and rl.min_age is None


def _base_table(
    lists: Sequence[RankingList], division: str, tables: Mapping[RankingKey, RankingTable]
) -> RankingTable | None:
    for rl in lists:
        if is_base(rl) and (division, rl.id) in tables:
            return tables[(division, rl.id)]
    return None


def derive_ranking(
    base: RankingTable,
    ranking: RankingList,
    players: Mapping[str, Player],
    age_reference: date | None,
) -> RankingTable:
    """The sub-list of ``base`` that ``ranking`` filters on, places renumbered (ties kept)."""

    def keep(pid: str) -> bool:
        return belongs(ranking, players.get(pid), age_reference)

    return RankingTable(base.division, ranking.id, renumber([r for r in base.rows if keep(r.player_id)]))


def belongs(ranking: RankingList, player: Player | None, age_reference: date | None = None) -> bool:
    """Whether ``player`` is in the list ``ranking`` filters on (its gender, its age band); the
    one filter behind prize lists, the standings page and the printed 成绩表."""
    if player is None:
        return False
    if ranking.gender is not None and player.gender != ranking.gender:
        return False
    if ranking.min_age is not None:
        reference = age_reference or ranking.age_reference
        if reference is None:
            raise ValueError(
                f"名次表 {ranking.id} 限 {ranking.min_age} 岁以上, 但未给出计算年龄的日期 age_reference"
            )
        age = player.age_on(reference)
        if age is None or age < ranking.min_age:
            return False
    return True


def renumber(rows: Sequence[RankedPlayer]) -> tuple[RankedPlayer, ...]:
    """Places within a filtered list: 1 + the number strictly ahead (a shared place stays shared)."""
    out: list[RankedPlayer] = []
    prev_place: int | None = None
    place = 0
    for i, r in enumerate(rows, start=1):
        if r.place != prev_place:
            place = i
            prev_place = r.place
        out.append(RankedPlayer(r.player_id, place, r.score, r.values))
    return tuple(out)


def table_from_standings(
    division: str, ranking: str, standings: Standings, entrants: int | None = None
) -> RankingTable:
    """The plain view of a computed ranking list (``yisai.standings.compute_standings``).

    Numeric criteria are kept by their column key (``score``, ``sos``, ``cumulative`` …);
    tuple-valued ones (逐轮减去对手分) are not needed by team standings or awards.
    """
    rows = []
    for r in standings.rows:
        values = {
            k: float(v) for k, v in r.values.items() if isinstance(v, int | Fraction)
        }
        rows.append(RankedPlayer(r.player_id, r.place, values.get("score", 0.0), values))
    return RankingTable(division, ranking, tuple(rows), entrants)

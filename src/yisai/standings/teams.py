"""团体名次: team standings computed from the members' individual results.

The individual rankings come in as plain data (``RankingTable``: ordered rows of player id,
place, score and criterion values) so team standings, prize lists and rank awards read one
shape whatever computed it. Three methods, as the regulation's ``TeamCompetition`` says:

* ``sum_of_places`` — sum of members' places in their own ranking list, lower first
  (seed 002: 甲乙丙组男、女名次之和, ties by the best single place, then the next);
* ``sum_of_scores`` — sum of members' 积分, higher first, ties by the listed tie-breaks;
* ``match_points`` — 场分 2/1/0 per team match decided by 局分 (board points).

Pure: no I/O; a lot, when a regulation asks for one, is an explicit order passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from yisai.i18n import tr
from yisai.lot import shuffled
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation.criteria import CRITERIA, Scope
from yisai.regulation.team_match import BoardPrize, MatchPoints
from yisai.regulation.teams import TeamCompetition, TeamSlot

# ---------------------------------------------------------------------------------------------
# Input: individual rankings as plain data


@dataclass(frozen=True, slots=True)
class RankedPlayer:
    """One row of a computed individual ranking; ``values`` holds criteria by code name
    (``sos``, ``cumulative`` … as in ``yisai.regulation.rules.Criterion``)."""

    player_id: str
    place: int
    score: float = 0
    values: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RankingTable:
    """A ranking list of a division (``division``/``ranking`` are the regulation's ids).

    ``rows`` are in final order; equal ``place`` means a shared place (并列). ``entrants`` is the
    number who entered (报名人数) when it differs from the number ranked.
    """

    division: str
    ranking: str
    rows: tuple[RankedPlayer, ...]
    entrants: int | None = None

    def by_player(self) -> dict[str, RankedPlayer]:
        return {r.player_id: r for r in self.rows}


RankingKey = tuple[str, str]  # (division id, ranking id)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board of a team match: who sat there (None = nobody, the board is forfeited) and the
    局分 each side took."""

    board: int  # 1 = 主将台
    player_a: str | None
    player_b: str | None
    points_a: float
    points_b: float
    finished: bool = True


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """One team match (团体赛的一场): board points (局分) of each side; ``team_b`` None = bye.

    ``boards`` holds the board-by-board results when known (主将台 points, board prizes);
    an unfinished match (a board still without a result) counts nothing yet.
    """

    round: int
    team_a: str
    team_b: str | None
    board_points_a: float
    board_points_b: float = 0
    boards: tuple[BoardResult, ...] = ()
    finished: bool = True

    def board_points_on(self, board: int, team: str) -> float:
        for b in self.boards:
            if b.board == board:
                return b.points_a if team == self.team_a else b.points_b
        return 0.0


# ---------------------------------------------------------------------------------------------
# Output


@dataclass(frozen=True, slots=True)
class TeamMemberResult:
    player_id: str
    division: str | None
    ranking: str | None
    place: int | None  # None = not in the ranking (withdrew / never played)
    score: float
    note: str = ""  # why a seated member has no place (e.g. entered in another division)


@dataclass(frozen=True, slots=True)
class TeamStanding:
    team_id: str
    name: str
    place: int | None  # None = not ranked (incomplete team when complete_only)
    value: float  # sum of places / sum of scores / match points
    members: tuple[TeamMemberResult, ...]
    tie_values: tuple[tuple[str, object], ...] = ()  # (label, value) in tie-break order
    board_points: float = 0
    complete: bool = True
    note: str = ""
    # Not ranked for being incomplete (complete_only): ``value`` sums only the members who have
    # a place (no stand-in place for an empty seat), so it is shown as partial, never compared.
    partial: bool = False
    counted: int | None = None  # how many members ``value`` sums (None: all ``size``)


def partial_note() -> str:
    """What a table with an unranked incomplete team says under it (规程: 报满N人的参赛队计算团体成绩)."""
    return tr("未报满人数的队不排名次，列于所有完整队之后；其成绩只是有名次队员的部分之和，不与完整队比较",
              "a team short of players is not ranked and is listed after every complete team; its value "
              "sums only the members who have a place and is not comparable with a complete team's")


@dataclass(frozen=True, slots=True)
class TeamTable:
    competition: TeamCompetition
    rows: tuple[TeamStanding, ...]  # ranked teams in order, then unranked ones

    @property
    def ranked(self) -> tuple[TeamStanding, ...]:
        return tuple(r for r in self.rows if r.place is not None)


def tie_label(tie_break: str) -> str:
    """A tie-break's column label (the key of ``TeamStanding.tie_values``), from the registry."""
    return CRITERIA[tie_break].label_in(Scope.TEAM).zh


METHOD_LABELS_EN = {
    "sum_of_places": "sum of places",
    "sum_of_scores": "sum of points",
    "match_points": "match points",
}

METHOD_LABELS = {
    "sum_of_places": "个人名次之和",
    "sum_of_scores": "个人积分之和",
    "match_points": "场分",
}


# ---------------------------------------------------------------------------------------------


def draw_team_lot(team_ids: Sequence[str], seed: int) -> list[str]:
    """抽签 between teams: a seeded order of all team ids (earlier is better), drawn once per
    event from its stored seed so every page and sheet shows the same draw."""
    return shuffled(sorted(team_ids), seed, "team_lot")


def match_points(
    board_a: float, board_b: float, win: int = 2, draw: int = 1, loss: int = 0
) -> tuple[int, int]:
    """场分 from 局分: more board points wins the match (2), equal is a draw (1 each)."""
    if board_a > board_b:
        return win, loss
    if board_a < board_b:
        return loss, win
    return draw, draw


def team_standings(
    competition: TeamCompetition,
    teams: Sequence[Team],
    players: Mapping[str, Player],
    rankings: Mapping[RankingKey, RankingTable],
    matches: Sequence[TeamMatch] = (),
    lot_order: Sequence[str] | None = None,
    slots: Sequence[TeamSlot] = (),
    points: MatchPoints | None = None,
) -> TeamTable:
    """Rank ``teams`` in ``competition``.

    Members are the team's players of the competition's gender (if set) found in the ranking
    the competition reads; with more than ``size`` such members the first ``size`` in the
    team's order count (the others play individually, seed 000 十一(二)2).

    ``slots`` are the regulation's seats (``teams.slots``): a member seated in a seat tied to a
    division counts only a place in that division's ranking. A member with no place there (he
    entered, or moved to, another division) leaves the team incomplete, never borrowing his
    place from the other division.
    """
    if competition.method == "match_points":
        return _match_point_table(competition, teams, matches, lot_order, points or MatchPoints())

    standings: list[TeamStanding] = []
    for team in teams:
        members = _members(competition, team, players, rankings, slots)
        standings.append(_score_team(competition, team, members, rankings))
    ranked = [s for s in standings if s.complete or not competition.complete_only]
    unranked = [s for s in standings if not (s.complete or not competition.complete_only)]
    ordered = _assign_places(competition, ranked, _key_fn(competition, lot_order))
    return TeamTable(competition=competition, rows=tuple(ordered + unranked))


def _ranking_for(competition: TeamCompetition, division: str | None, gender: str) -> str | None:
    pr = competition.place_rankings
    for key in (f"{division}.{gender}", f"{division}", gender):
        if key in pr:
            return pr[key]
    return competition.ranking


def _members(
    competition: TeamCompetition,
    team: Team,
    players: Mapping[str, Player],
    rankings: Mapping[RankingKey, RankingTable],
    slots: Sequence[TeamSlot] = (),
) -> list[TeamMemberResult]:
    """The counted members with their place/score in their own ranking list."""
    by_table = {key: table.by_player() for key, table in rankings.items()}
    seat_division = {s.label: s.division for s in slots if s.division}
    out: list[TeamMemberResult] = []
    for m in team.members:
        p = players.get(m.player_id)
        if p is None or (competition.gender is not None and p.gender != competition.gender):
            continue
        seat = seat_division.get(m.slot) if m.slot else None
        if seat is not None:
            rid = _ranking_for(competition, seat, p.gender.value)
            row = by_table.get((seat, rid or ""), {}).get(m.player_id)
            if row is not None:
                out.append(TeamMemberResult(m.player_id, seat, rid, row.place, row.score))
                continue
            note = tr(
                f"{p.name}在{m.slot}席位所属组别无名次，不计入（其他组别的名次不代替）",
                f"{p.name} has no place in the division of seat {m.slot}; not counted "
                "(a place in another division does not stand in)",
            )
            out.append(TeamMemberResult(m.player_id, seat, rid, None, 0, note))
            continue
        if not competition.place_rankings:
            divisions = [competition.division]
        elif m.division:
            divisions = [m.division]
        else:  # the member's division is wherever his results are
            divisions = sorted({d for (d, _r), rows in by_table.items() if m.player_id in rows})
        divisions = divisions or [competition.division]
        found: TeamMemberResult | None = None
        for div in divisions:
            rid = _ranking_for(competition, div, p.gender.value)
            row = by_table.get((div, rid or ""), {}).get(m.player_id)
            if row is not None:
                found = TeamMemberResult(m.player_id, div, rid, row.place, row.score)
                break
        if found is None:
            div = divisions[0]
            rid = _ranking_for(competition, div, p.gender.value)
            found = TeamMemberResult(m.player_id, div, rid, None, 0)
        out.append(found)
    return out[: competition.size]


def _score_team(
    competition: TeamCompetition,
    team: Team,
    members: list[TeamMemberResult],
    rankings: Mapping[RankingKey, RankingTable],
) -> TeamStanding:
    size = competition.size
    counted = sum(1 for m in members if m.place is not None)
    missing = size - counted
    complete = missing == 0
    partial = not complete and competition.complete_only
    note = ""
    if partial:  # the table's footnote (PARTIAL_NOTE) says what its partial sum is
        note = tr(f"未报满{size}人（计成绩{counted}人），不计团体成绩",
                  f"incomplete: {counted} of {size}; not ranked")
    elif not complete:
        note = tr(f"缺{missing}人，缺额按末位计", f"incomplete: {counted} of {size}; missing counted as last")
    member_notes = [m.note for m in members if m.note]
    if member_notes:
        note = "；".join([note, *member_notes] if note else member_notes)
    places = sorted(m.place for m in members if m.place is not None)
    if competition.method == "sum_of_places" and not partial:
        # A missing member counts one place below the last of his list (缺额按末位计: only
        # when incomplete teams are ranked at all, i.e. complete_only is false; an unranked
        # team shows the places its members played, never a stand-in place).
        longest = max((len(t.rows) for t in rankings.values()), default=0)
        penalties = []
        for m in members:
            if m.place is None:
                table = rankings.get((m.division or "", m.ranking or ""))
                penalties.append((len(table.rows) if table else longest) + 1)
        penalties += [longest + 1] * (size - len(members))
        places = sorted(places + penalties)
        value: float = sum(places)
    elif competition.method == "sum_of_places":
        value = sum(places)
    else:
        value = sum(m.score for m in members if m.place is not None)
    tie_values: list[tuple[str, object]] = []
    for tb in competition.tie_breaks:
        if tb == "best_place":
            tie_values.append((tie_label(tb), places[0] if places else None))
        elif tb == "next_place":
            tie_values.append((tie_label(tb), tuple(places[1:])))
        elif tb in ("sos", "cumulative"):
            tie_values.append((tie_label(tb), _sum_value(members, rankings, tb)))
    return TeamStanding(
        team_id=team.id,
        name=team.name,
        place=None,
        value=value,
        members=tuple(members),
        tie_values=tuple(tie_values),
        complete=complete,
        note=note,
        partial=partial,
        counted=None if complete else counted,
    )


def _sum_value(
    members: list[TeamMemberResult], rankings: Mapping[RankingKey, RankingTable], key: str
) -> float:
    total = 0.0
    for m in members:
        table = rankings.get((m.division or "", m.ranking or ""))
        if table is None:
            continue
        row = table.by_player().get(m.player_id)
        if row is not None:
            total += float(row.values.get(key, 0))
    return total


def _key_fn(
    competition: TeamCompetition, lot_order: Sequence[str] | None
) -> Callable[[TeamStanding], tuple]:
    lower_first = competition.method == "sum_of_places"
    lot_index = {tid: i for i, tid in enumerate(lot_order or ())}

    def part(s: TeamStanding, tb: str) -> object:
        """One tie-break's sort key, smaller first (the registry says which way is better)."""
        if tb == "lot":
            return lot_index.get(s.team_id, len(lot_index))
        v = s.board_points if tb == "board_points" else dict(s.tie_values).get(tie_label(tb))
        if CRITERIA[tb].lower_is_better:  # 最高个人名次 (none: last), 次高个人名次
            return v if v is not None else 10**9
        return -float(v) if isinstance(v, int | float) else 0.0

    def key(s: TeamStanding) -> tuple:
        primary = s.value if lower_first else -s.value
        return (primary, *(part(s, tb) for tb in competition.tie_breaks if tb != "lot" or lot_order is not None))

    return key


def _assign_places(
    competition: TeamCompetition,
    standings: list[TeamStanding],
    key: Callable[[TeamStanding], tuple],
) -> list[TeamStanding]:
    """Sort and number; equal keys share a place (1, 2, 2, 4)."""
    ordered = sorted(standings, key=lambda s: (key(s), s.team_id))
    out: list[TeamStanding] = []
    prev_key: tuple | None = None
    place = 0
    for i, s in enumerate(ordered, start=1):
        k = key(s)
        if k != prev_key:
            place = i
            prev_key = k
        out.append(_replace_place(s, place))
    return out


def _replace_place(s: TeamStanding, place: int) -> TeamStanding:
    return TeamStanding(
        team_id=s.team_id,
        name=s.name,
        place=place,
        value=s.value,
        members=s.members,
        tie_values=s.tie_values,
        board_points=s.board_points,
        complete=s.complete,
        note=s.note,
    )


def _match_point_table(
    competition: TeamCompetition,
    teams: Sequence[Team],
    matches: Sequence[TeamMatch],
    lot_order: Sequence[str] | None,
    points: MatchPoints,
) -> TeamTable:
    """场分制: 场分 from each finished match's 局分, then the listed tie-breaks.

    Ties are broken as individual standings are (DESIGN.md): criteria in order, only among the
    teams still tied; after a criterion splits a group, each part goes on with the next one.
    直胜 between two teams is their match(es); among three or more it is the mini-league of their
    matches, used only when each has met every other, else skipped. Teams still equal share a
    place (1, 2, 2, 4).
    """
    ids = [t.id for t in teams]
    done = [m for m in matches if m.finished]
    mp = dict.fromkeys(ids, 0.0)
    bp = dict.fromkeys(ids, 0.0)
    b1 = dict.fromkeys(ids, 0.0)
    opponents: dict[str, list[str]] = {t: [] for t in ids}
    for m in done:
        a, b = m.team_a, m.team_b
        for t in (a, b):
            if t is not None and t not in mp:
                mp[t] = bp[t] = b1[t] = 0.0
                opponents[t] = []
        bp[a] += m.board_points_a
        b1[a] += m.board_points_on(1, a)
        if b is None:  # bye: a won match
            mp[a] += points.win
            continue
        pa, pb = match_points(m.board_points_a, m.board_points_b, points.win, points.draw, points.loss)
        mp[a] += pa
        mp[b] += pb
        bp[b] += m.board_points_b
        b1[b] += m.board_points_on(1, b)
        opponents[a].append(b)
        opponents[b].append(a)
    omp = {t: sum(mp[o] for o in opponents[t]) for t in ids}
    lot_index = {tid: i for i, tid in enumerate(lot_order or ())}
    direct_shown: dict[str, float] = {}

    def direct(group: list[str]) -> dict[str, float] | None:
        members = set(group)
        met: dict[frozenset[str], int] = {}
        score = dict.fromkeys(group, 0.0)
        for m in done:
            if m.team_b is None or m.team_a not in members or m.team_b not in members:
                continue
            met[frozenset((m.team_a, m.team_b))] = 1
            pa, pb = match_points(m.board_points_a, m.board_points_b, points.win, points.draw, points.loss)
            score[m.team_a] += pa
            score[m.team_b] += pb
        if len(met) < len(group) * (len(group) - 1) // 2:
            return None  # not everyone has met everyone: skip to the next criterion
        direct_shown.update(score)
        return score

    def values(tb: str, group: list[str]) -> dict[str, float] | None:
        if tb == "board_points":
            return {t: bp[t] for t in group}
        if tb == "opponent_match_points":
            return {t: omp[t] for t in group}
        if tb == "board1_points":
            return {t: b1[t] for t in group}
        if tb == "direct":
            return direct(group)
        if tb == "lot" and lot_order is not None:
            return {t: float(lot_index.get(t, len(lot_index))) for t in group}
        return None

    def split(group: list[str], criteria: list[str]) -> list[list[str]]:
        if len(group) == 1 or not criteria:
            return [sorted(group)]
        found = values(criteria[0], group)
        if found is None:
            return split(group, criteria[1:])
        out: list[list[str]] = []
        for v in sorted(set(found.values()), reverse=not CRITERIA[criteria[0]].lower_is_better):
            out += split([t for t in group if found[t] == v], criteria[1:])
        return out

    blocks: list[list[str]] = []
    for v in sorted(set(mp[t] for t in ids), reverse=True):
        blocks += split([t for t in ids if mp[t] == v], list(competition.tie_breaks))
    names = {t.id: t.name for t in teams}
    rows: list[TeamStanding] = []
    position = 1
    for block in blocks:
        for t in block:
            tie: list[tuple[str, object]] = []
            for tb in competition.tie_breaks:
                if tb == "board_points":
                    tie.append((tie_label(tb), bp[t]))
                elif tb == "opponent_match_points":
                    tie.append((tie_label(tb), omp[t]))
                elif tb == "board1_points":
                    tie.append((tie_label(tb), b1[t]))
                elif tb == "direct":
                    tie.append((tie_label(tb), direct_shown.get(t)))
                elif tb == "lot":
                    tie.append((tie_label(tb), lot_index.get(t, 0) + 1 if lot_order else None))
            rows.append(TeamStanding(team_id=t, name=names.get(t, t), place=position, value=mp[t],
                                     members=(), tie_values=tuple(tie), board_points=bp[t]))
        position += len(block)
    return TeamTable(competition=competition, rows=tuple(rows))


# ---------------------------------------------------------------------------------------------
# 台次奖 (最佳主将 …)


@dataclass(frozen=True, slots=True)
class BoardPrizeRow:
    place: int
    player_id: str
    team_id: str
    points: float
    games: int
    percentage: float  # points / (games × a won board's points)
    wins: int = 0
    team_place: int | None = None  # the team's place in its competition (for the tie rule)
    by_lot: bool = False  # still tied after the regulation's tie-breaks: a lot decided (single)


def board_prize_rows(prize: BoardPrize, matches: Sequence[TeamMatch], win_points: float,
                     team_place: Mapping[str, int] | None = None, lot_seed: int = 0) -> list[BoardPrizeRow]:
    """Who is best on ``prize.board``: every player seated on that board in finished matches
    (a forfeited board counts for the side present, as its 局分 do, unless the prize counts
    only boards played, ``played_only``), at least ``min_games``
    times; ordered by 局分 (``board_points``), winning percentage (``percentage``) or wins
    (``wins``), then by the prize's ``tie_breaks`` (所在队团体名次 from ``team_place``, lot);
    equal records share a place unless the prize is ``single``, when a lot (seeded by
    ``lot_seed``) orders the still tied. The top ``places`` places are returned."""
    pts: dict[str, float] = {}
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    team: dict[str, str] = {}
    for m in matches:
        if not m.finished or m.team_b is None:
            continue
        for b in m.boards:
            if b.board != prize.board:
                continue
            for pid, p, q, t in ((b.player_a, b.points_a, b.points_b, m.team_a),
                                 (b.player_b, b.points_b, b.points_a, m.team_b)):
                if pid is None or (prize.played_only and (b.player_a is None or b.player_b is None)):
                    continue  # "出场": a board won because the other side was missing is not played
                pts[pid] = pts.get(pid, 0.0) + p
                games[pid] = games.get(pid, 0) + 1
                wins[pid] = wins.get(pid, 0) + (1 if p > q else 0)
                team[pid] = t
    places = team_place or {}
    rows = [BoardPrizeRow(0, pid, team[pid], pts[pid], games[pid],
                          pts[pid] / (games[pid] * win_points) if win_points else 0.0, wins[pid],
                          places.get(team[pid]))
            for pid in pts if games[pid] >= prize.min_games]
    drawn = {pid: k for k, pid in enumerate(shuffled(sorted(pts), lot_seed, "board-prize", prize.id))}

    def measure(name: str, r: BoardPrizeRow) -> float:
        if name == "board_points":
            return -r.points
        if name == "percentage":
            return -r.percentage
        if name == "wins":
            return -float(r.wins)
        if name == "team_place":
            return float(r.team_place) if r.team_place is not None else float("inf")
        return float(drawn[r.player_id])  # lot

    def key(r: BoardPrizeRow) -> tuple[float, ...]:
        return tuple(measure(n, r) for n in (prize.rule, *prize.tie_breaks))

    rows.sort(key=lambda r: (key(r), drawn[r.player_id] if prize.single else 0, r.player_id))
    out: list[BoardPrizeRow] = []
    place = 0
    prev: tuple[float, ...] | None = None
    for i, r in enumerate(rows, start=1):
        lot = False
        if key(r) != prev:
            place, prev = i, key(r)
        elif prize.single:
            place, lot = i, True
        if lot and out and not out[-1].by_lot:
            out[-1] = replace(out[-1], by_lot=True)  # the one drawn ahead of a tied player
        if place > prize.places:
            break
        out.append(BoardPrizeRow(place, r.player_id, r.team_id, r.points, r.games, r.percentage, r.wins,
                                 r.team_place, lot))
    return out

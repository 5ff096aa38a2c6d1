"""团体赛编排: which team meets which, and who plays whom on each board.

Teams are paired as whole entrants. A Swiss team round is the Swiss engine itself run on teams:
each earlier team match is a game whose result is the match result and whose points are the
regulation's 场分, so "pair within 场分 groups, never a rematch, byes to the lowest" are the
engine's own rules and its explanations. A round robin follows the Berger tables. Then the
line-ups are laid on the boards with the stated colour rule. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yisai.lot import shuffled
from yisai.pairing.berger import berger_rounds
from yisai.pairing.model import Entrant, RoundPairing
from yisai.pairing.swiss import pair_round
from yisai.record import Game, Result
from yisai.regulation.rules import PairingRules, Scoring
from yisai.regulation.team_match import TeamMatchFormat


@dataclass(frozen=True, slots=True)
class PairedMatch:
    """One team match of a round: ``team_a`` is named first (its colours follow the rule)."""

    number: int  # match number in the round, 1 first
    team_a: str
    team_b: str | None  # None: bye
    first_board: int = 0  # the board number of its board 1 in the round's table (0 for a bye)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """An earlier team match as pairing sees it: who met whom and the 场分 outcome."""

    round: int
    team_a: str
    team_b: str | None
    outcome: str  # "A" team_a won, "B" team_b won, "D" drawn, "?" not finished


def match_scoring(fmt: TeamMatchFormat) -> Scoring:
    """The 场分 as the Swiss engine's scoring (a bye is a won match)."""
    mp = fmt.match_points
    return Scoring(win=mp.win, draw=mp.draw, loss=mp.loss, bye=mp.win, forfeit_win=mp.win,
                   forfeit_loss=mp.loss, both_forfeit=mp.loss, absent=0)


def _as_game(m: MatchRecord) -> Game:
    result = {"A": Result.BLACK_WINS, "B": Result.WHITE_WINS, "D": Result.DRAW}.get(m.outcome, Result.UNKNOWN)
    if m.team_b is None:
        return Game(m.round, m.team_a, None, Result.BLACK_WINS, False)
    return Game(m.round, m.team_a, m.team_b, result)


def pair_teams_swiss(
    teams: Sequence[str], history: Sequence[MatchRecord], round_no: int, fmt: TeamMatchFormat,
    *, seed: int, order: Sequence[str] | None = None,
) -> tuple[list[PairedMatch], RoundPairing]:
    """Swiss pairing of teams by 场分: ``teams`` in seeding order (round 1 pairs the upper half
    against the lower half: 1–4, 2–5, 3–6), ``order`` the current team standings for later
    rounds."""
    seeding = list(order or teams)
    # the seeding order is the teams' rating (first = highest), so round 1 slides it as given
    entrants = [Entrant(id=t, rating=len(seeding) - k) for k, t in enumerate(seeding)]
    rules = PairingRules(round1_seeding=["rating"], round1_method="slide", in_group="split",
                         colour_balance=True)
    pairing = pair_round(entrants, [_as_game(m) for m in history], round_no, rules=rules,
                         scoring=match_scoring(fmt), seed=seed, order=seeding)
    matches = [PairedMatch(k, b.black, b.white) for k, b in enumerate(pairing.boards, start=1)]
    matches += [PairedMatch(len(matches) + k, y.player, None)
                for k, y in enumerate(pairing.byes, start=1)]
    return _numbered(matches, fmt.boards), pairing


def round_robin_seats(teams: Sequence[str], fmt: TeamMatchFormat, seed: int) -> list[str]:
    """队号: seat k of the Berger table (round robin) or the k-th seed of round 1 (Swiss) is
    ``seats[k - 1]``: drawn with the event's seed, or the registered order, as ``seating`` says."""
    if fmt.seating == "registered_order":
        return list(teams)
    return shuffled(sorted(teams), seed, "team_round_robin")


def pair_teams_round_robin(seats: Sequence[str], round_no: int, fmt: TeamMatchFormat) -> list[PairedMatch]:
    """Round ``round_no`` of the Berger tables; the first-named seat is team A."""
    table = berger_rounds(len(seats))
    if not 1 <= round_no <= len(table):
        raise ValueError(f"a round robin of {len(seats)} teams has rounds 1..{len(table)}")
    rnd = table[round_no - 1]
    matches = [PairedMatch(k, seats[p.black - 1], seats[p.white - 1])
               for k, p in enumerate(rnd.pairs, start=1)]
    if rnd.bye is not None:
        matches.append(PairedMatch(len(matches) + 1, seats[rnd.bye - 1], None))
    return _numbered(matches, fmt.boards)


def _numbered(matches: list[PairedMatch], boards: int) -> list[PairedMatch]:
    out, k = [], 0
    for m in matches:
        if m.team_b is None:
            out.append(PairedMatch(m.number, m.team_a, None, 0))
        else:
            out.append(PairedMatch(m.number, m.team_a, m.team_b, k * boards + 1))
            k += 1
    return out


def a_is_black(round_no: int, board: int) -> bool:
    """``colours = "alternate"``: team A takes Black on odd boards in odd rounds and on even
    boards in even rounds (so its board 1 alternates colour round by round)."""
    return (round_no + board) % 2 == 0


@dataclass(frozen=True, slots=True)
class BoardSeat:
    """One board of a match as laid out: the players (None = nobody: board forfeited)."""

    match: int
    board: int  # 1..boards within the match
    table: int  # board number in the round's table
    player_a: str | None
    player_b: str | None
    a_black: bool


def lay_boards(match: PairedMatch, lineup_a: Sequence[str], lineup_b: Sequence[str],
               round_no: int, fmt: TeamMatchFormat) -> list[BoardSeat]:
    """The boards of one match: line-ups board 1 first; a short line-up leaves its last boards
    empty."""
    out = []
    for j in range(1, fmt.boards + 1):
        pa = lineup_a[j - 1] if j <= len(lineup_a) else None
        pb = lineup_b[j - 1] if j <= len(lineup_b) else None
        out.append(BoardSeat(match.number, j, match.first_board + j - 1, pa, pb, a_is_black(round_no, j)))
    return out


def board_games(seats: Sequence[BoardSeat], round_no: int) -> list[Game]:
    """The games to store: one per board where both players sit. A board with only one player is
    not a game (his opponent's team forfeits it; the match record keeps it)."""
    games = []
    for s in seats:
        if s.player_a is None or s.player_b is None:
            continue
        black, white = (s.player_a, s.player_b) if s.a_black else (s.player_b, s.player_a)
        games.append(Game(round_no, black, white, Result.UNKNOWN, True, s.table))
    return games


def history_outcome(points_a: float, points_b: float) -> str:
    """The match outcome letter from the two sides' 局分."""
    if points_a > points_b:
        return "A"
    if points_b > points_a:
        return "B"
    return "D"


__all__ = [
    "BoardSeat",
    "MatchRecord",
    "PairedMatch",
    "a_is_black",
    "board_games",
    "history_outcome",
    "lay_boards",
    "match_scoring",
    "pair_teams_round_robin",
    "pair_teams_swiss",
    "round_robin_seats",
]

"""Pair one round as OpenGotha does: bye, groups of at most 600, one max-weight matching.

Steps, as in OpenGotha 3.5x: the pairable players are those finally registered ("FIN") and
participating in the round; with an odd number, the bye goes to the player with the least
``rank + 2·MMS + 1000·(earlier byes)`` (the last such in the standings before the round, the
order OpenGotha's pairing window hands it, as its ``<=`` picks); above 600 players the field is cut into groups from the top score down; each group
is paired by a maximum-weight matching of the costs in ``costs.py``; colours and handicap as
OpenGotha's ``gameBetween``; tables by OpenGotha's "best score then rating" order.

OpenGotha's matching (its own weighted-matching code) and ours (``_perfect_matching.c``, the
players in the standings order) may pick different optima when several pairings have the same
total weight; both are maxima of the same weights (a "tie": docs/pairing.md gives how often it
happens on real files).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from yisai.i18n import Text
from yisai.pairing._perfect_matching import perfect_matching
from yisai.pairing.opengotha.costs import (
    OGCost,
    OGTournament,
    RoundState,
    jdiv,
    player_rank,
    utf16_units,
)
from yisai.pairing.opengotha.matrix import pair_costs
from yisai.record import Game, Result
from yisai.standings.opengotha import category, compute_og_scores

GROUP_MIN_SIZE = 200  # OpenGotha's PAIRING_GROUP_MIN_SIZE
GROUP_MAX_SIZE = 3 * GROUP_MIN_SIZE


class OGPairingError(ValueError):
    """The round cannot be paired as asked; ``text`` holds the message in both languages."""

    def __init__(self, zh: str, en: str) -> None:
        self.text = Text(zh, en)
        super().__init__(self.text.render())


@dataclass(frozen=True, slots=True)
class OGBoard:
    """One game of the new round; ``table`` is 1-based."""

    table: int
    white: str
    black: str
    handicap: int
    cost: OGCost


@dataclass(frozen=True, slots=True)
class OGRoundPairing:
    round: int
    boards: tuple[OGBoard, ...]
    bye: str | None
    total: int  # the sum of the chosen pairs' costs (what the matching maximised)

    def games(self) -> list[Game]:
        """The new round as ledger games (results unknown) and the bye, if any."""
        out = [
            Game(round=self.round, black=b.black, white=b.white, board=b.table,
                 handicap=b.handicap)
            for b in self.boards
        ]
        if self.bye is not None:
            out.append(Game(round=self.round, black=self.bye, white=None,
                            result=Result.BLACK_WINS, played=False))
        return out


def _name_order(tour: OGTournament, members: Sequence[int]) -> list[int]:
    """By name then first name, as Java's ``String.compareTo`` orders them (UTF-16 units)."""
    def key(i: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        p = tour.players[i]
        return utf16_units(p.last_name or p.name), utf16_units(p.first_name)

    return sorted(members, key=key)


def pairable_players(tour: OGTournament, games: Sequence[Game], round_: int) -> list[int]:
    """Finally registered, participating, not already in a game or bye of the round."""
    busy = {pid for g in games if g.round == round_ for pid in (g.black, g.white) if pid}
    out = []
    for i, p in enumerate(tour.players):
        if p.tags.get("registering", "FIN") != "FIN" or round_ in p.absent_rounds:
            continue
        if p.id in busy:
            continue
        out.append(i)
    return _name_order(tour, out)


def choose_bye(state: RoundState, candidates: Sequence[int]) -> int:
    """OpenGotha's ``chooseAByePlayer``: least rank + 2·MMS + 1000·byes; ties → the last."""
    tour = state.tour
    earlier = {g.black for g in state.games if g.white is None}
    counts = {pid: sum(1 for g in state.games if g.white is None and g.black == pid)
              for pid in earlier}
    best, best_weight = candidates[0], None
    for i in candidates:
        p = tour.players[i]
        weight = player_rank(p) + state.crit("MMS", i) + 1000 * counts.get(p.id, 0)
        if best_weight is None or weight <= best_weight:
            best, best_weight = i, weight
    return best


def split_field(state: RoundState, players: list[int]) -> list[list[int]]:
    """OpenGotha's cut of a large field into groups of 200–600, from the top score down."""
    tour = state.tour
    main = tour.main_criterion
    lo, hi = state.score_bounds()
    remaining = list(players)
    groups: list[list[int]] = []
    cats = {i: category(tour.players[i], tour.params) for i in players}
    while len(remaining) > GROUP_MAX_SIZE:
        grouped: list[int] = []
        ready = False
        for cat in range(max(1, tour.params.number_of_categories)):
            for score in range(hi, lo - 1, -1):
                for i in list(remaining):
                    if cats[i] > cat or jdiv(state.crit(main, i), 2) < score:
                        continue
                    grouped.append(i)
                    remaining.remove(i)
                    if len(grouped) >= GROUP_MAX_SIZE or len(remaining) <= GROUP_MIN_SIZE:
                        ready = True
                        break
                if len(grouped) >= GROUP_MIN_SIZE and len(grouped) % 2 == 0:
                    ready = True
                if ready:
                    break
            if ready:
                break
        if len(grouped) % 2:  # OpenGotha's emergency break can stop at an odd size; it would
            remaining.insert(0, grouped.pop())  # leave one player unpaired: he goes on instead
        groups.append(grouped)
    groups.append(remaining)
    return groups


def _match(state: RoundState, group: list[int]) -> list[tuple[int, int]]:
    """One maximum-weight perfect matching over every pair of the group (as OpenGotha's)."""
    n = len(group)
    rows, cols = np.triu_indices(n, 1)
    weights = np.zeros((n, n), np.int64)
    weights[rows, cols] = pair_costs(state, group, rows, cols)
    weights[cols, rows] = weights[rows, cols]
    mates = perfect_matching(weights)
    return sorted((group[a], group[mates[a]]) for a in range(n) if a < mates[a])


def pair_og_round(
    tour: OGTournament,
    games: Sequence[Game],
    round_: int,
    bye: str | None = None,
    selected: Sequence[str] | None = None,
) -> OGRoundPairing:
    """Pair ``round_`` (1-based) from the games and byes of earlier rounds.

    ``selected`` are the players to pair (OpenGotha pairs the players the director selects;
    default: every pairable player). ``bye`` forces the bye player (a director's choice
    recorded in the file); otherwise, with an odd number of players, OpenGotha's rule picks one.
    """
    state = RoundState(tour, games, round_)
    index = state.index
    bye_recorded = bye is not None
    if selected is None:
        players = pairable_players(tour, games, round_)
    else:
        unknown = [pid for pid in selected if pid not in index]
        if unknown:
            raise OGPairingError(f"选手不在名单中: {', '.join(unknown)}",
                                 f"players not registered: {', '.join(unknown)}")
        players = sorted({index[pid] for pid in selected})
    # OpenGotha's pairing window lists the players by the standings before the round; that
    # order decides the bye among equals, which player of a pair comes first, and the games'
    # order before the tables are renumbered.
    players.sort(key=state.position.__getitem__)
    if not players:
        raise OGPairingError(f"第{round_}轮没有可编排的选手", f"round {round_} has no players to pair")
    if bye is not None:
        if bye not in index or index[bye] not in players:
            raise OGPairingError(f"轮空选手 {bye} 不能参加第{round_}轮编排 (未报到、请假或已有对局)",
                                 f"bye player {bye} cannot be paired in round {round_} "
                                 "(not finally registered, absent, or already paired)")
        players.remove(index[bye])
    elif len(players) % 2 == 1:
        chosen = choose_bye(state, players)
        bye = tour.players[chosen].id
        players.remove(chosen)
    if len(players) % 2 == 1:
        raise OGPairingError(
            f"第{round_}轮指定轮空 {bye} 后剩余 {len(players)} 名选手, 为奇数; 请改变轮空或出场名单",
            f"round {round_}: with {bye} as the bye, {len(players)} players are left, an odd "
            "number; change the bye or who plays")
    pairs: list[tuple[int, int]] = []
    for group in split_field(state, players):
        pairs.extend(_match(state, group))
    # OpenGotha lists the games by their first player's place in the players' order.
    position = {i: k for k, i in enumerate(players)}
    boards = []
    total = 0
    ordered_pairs = sorted(
        (min(i, j, key=position.__getitem__), max(i, j, key=position.__getitem__)) for i, j in pairs
    )
    ordered_pairs.sort(key=lambda p: position[p[0]])
    for first, second in ordered_pairs:
        white, black, hd = state.colours(first, second)
        cost = state.cost(first, second)
        total += cost.total
        boards.append((white, black, hd, cost))
    ordered = _table_order(state, boards, recorded_bye=bye if bye_recorded else None)
    out = tuple(
        OGBoard(table=t + 1, white=tour.players[w].id, black=tour.players[b].id,
                handicap=hd, cost=cost)
        for t, (w, b, hd, cost) in enumerate(ordered)
    )
    return OGRoundPairing(round=round_, boards=out, bye=bye, total=total)


def _table_order(
    state: RoundState,
    boards: list[tuple[int, int, int, OGCost]],
    recorded_bye: str | None = None,
) -> list[tuple[int, int, int, OGCost]]:
    """OpenGotha's ``renumberTablesByBestScoreThenRating``, quirks included.

    Its comparator reads the placement criteria "after" the round being paired while that
    round has no games yet: every player on a board scores that round as not paired. A bye
    OpenGotha chose while pairing is not counted (it refreshes its scores only after a change
    it records, and choosing a bye is none), but a bye the director set before pairing
    (``recorded_bye``) is a recorded change: it counts in that round's scores, so in the
    opponents' scores (SOS, SOSOS, …) of the players who met the bye player earlier.
    DC/SDC are those of the standings before the round (the values last computed).
    A game's "best" player is taken as OpenGotha's comparator takes it (the weaker of two
    unequal players), and games whose best players tie go by rating, never equal, so the
    result depends on the games' order before sorting (OpenGotha's: by first player).
    """
    round_ = state.round
    tour, scores, standing = state.tour, state.scores, state.standing
    if recorded_bye is not None:
        upto = replace(tour.params, number_of_rounds=min(tour.params.number_of_rounds, round_))
        bye_game = Game(round=round_, black=recorded_bye, white=None,
                        result=Result.BLACK_WINS, played=False)
        scores = compute_og_scores(tour.players, [*state.games, bye_game], upto)
    crits = [c for c in tour.params.criteria if c != "NULL"]

    def value(c: str, i: int) -> int:
        if c in ("DC", "SDC"):
            return standing.criterion_value(scores, c, i)
        return scores.value(c, i, round_)

    players = {i for w, b, _, _ in boards for i in (w, b)}
    values = {i: tuple(value(c, i) for c in crits) for i in players}

    def better(i: int, j: int) -> int:  # ScoredPlayerComparator with ex aequo kept
        vi, vj = values[i], values[j]
        return -1 if vi > vj else 1 if vi < vj else 0

    def rating(i: int) -> int:
        r = tour.players[i].rating
        return r if r is not None else -900

    def best(w: int, b: int) -> int:
        top = w
        if better(w, b) == 0 and rating(w) < rating(b):
            top = b
        if better(w, b) == -1:
            top = b
        return top

    def cmp(x: tuple[int, int, int, OGCost], y: tuple[int, int, int, OGCost]) -> int:
        b1, b2 = best(x[0], x[1]), best(y[0], y[1])
        c = better(b1, b2)
        if c == 0:
            return -1 if rating(b1) > rating(b2) else 1
        return c

    return sorted(boards, key=functools.cmp_to_key(cmp))

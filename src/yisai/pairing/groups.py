"""Two groups and the same-place final (同名次决赛), as in seed 000's open final.

The field is split into groups A and B (snake seeding by rank/rating, or by lot); each group
plays its Swiss with ``pair_round``; then A1–B1 decide places 1–2, A2–B2 places 3–4, … down to
the regulation's limit (16). Places below follow the stated rule: group place first, then the
group's tie-breaks, interleaving A and B. Group rankings come from the standings engine and
are passed in as lists of player ids, best first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from yisai.i18n import Text, tr
from yisai.lot import pair_lot, shuffled
from yisai.pairing.colours import choose_colours
from yisai.pairing.history import build_histories
from yisai.pairing.model import BoardPairing, Entrant, PairingError, RoundPairing
from yisai.pairing.swiss import seeding_order
from yisai.record import Game
from yisai.regulation.rules import PairingRules, Scoring

TieBreak = Callable[[str], tuple[float, ...]]  # larger is better, compared across groups


def split_groups(players: Sequence[Entrant], *, method: str = "snake",
                 rules: PairingRules | None = None, seed: int = 0) -> tuple[list[str], list[str]]:
    """Groups A and B. snake: seeds 1, 4, 5, 8, 9 … to A and 2, 3, 6, 7 … to B (ABBA), so both
    groups get equal strength; lot: a seeded draw, alternately into A and B."""
    rules = rules or PairingRules()
    seeded = seeding_order(players, rules, seed)
    if method == "lot":
        drawn = shuffled(seeded, seed, "groups")
        return drawn[0::2], drawn[1::2]
    a = [p for i, p in enumerate(seeded) if i % 4 in (0, 3)]
    b = [p for i, p in enumerate(seeded) if i % 4 in (1, 2)]
    return a, b


def pair_placement_final(
    ranking_a: Sequence[str],
    ranking_b: Sequence[str],
    games: Sequence[Game],
    round_no: int,
    *,
    limit: int = 16,
    rules: PairingRules | None = None,
    scoring: Scoring | None = None,
    seed: int = 0,
) -> RoundPairing:
    """Round ``round_no``: A_k v B_k for k up to the limit; colours by balance, then lot."""
    rules = rules or PairingRules()
    scoring = scoring or Scoring()
    n = min(limit, len(ranking_a), len(ranking_b))
    finalists = [*ranking_a[:n], *ranking_b[:n]]
    hist = build_histories(finalists, games, round_no, scoring)
    boards = []
    for k in range(n):
        a, b = ranking_a[k], ranking_b[k]
        if b in hist[a].opponents:
            raise PairingError(
                Text(f"同名次决赛 {a}—{b} 此前已交手", f"placement final {a}—{b} is a rematch"), (a, b)
            )
        lot_bit = pair_lot(seed, round_no, a, b, 2)
        if a > b:
            lot_bit = 1 - lot_bit
        black, white, why = choose_colours(a, b, hist[a], hist[b], lot_bit, rules.colour_balance)
        reason = tr(f"同名次决赛: A组第{k + 1}名对B组第{k + 1}名, 决定第{2 * k + 1}、{2 * k + 2}名",
                    f"same-place final: A#{k + 1} v B#{k + 1} for places {2 * k + 1}–{2 * k + 2}")
        boards.append(BoardPairing(k + 1, black, white, hist[black].score, hist[white].score,
                                   (reason,), why))
    rest = [*ranking_a[n:], *ranking_b[n:]]
    return RoundPairing(
        round=round_no,
        boards=tuple(boards),
        sit_outs=tuple(rest),
        explanations=(tr(f"同名次决赛: 两组各前{n}名", f"same-place final: top {n} of each group"),),
    )


@dataclass(frozen=True, slots=True)
class FinalPlace:
    place: int
    player: str
    reason: str


def final_places(
    ranking_a: Sequence[str],
    ranking_b: Sequence[str],
    final_games: Sequence[Game],
    *,
    limit: int = 16,
    tiebreak: TieBreak | None = None,
    groups: tuple[str, str] = ("A", "B"),
) -> list[FinalPlace]:
    """The overall places after the same-place final, each with its reason in words.

    The winner of A_k–B_k takes place 2k−1, the loser 2k; if neither won (draw, both lost),
    ``tiebreak`` (the groups' tie-break values, larger better) decides, then group A first.
    Players below the limit are interleaved: by group place, then ``tiebreak``, then A first.
    """
    n = min(limit, len(ranking_a), len(ranking_b))
    by_pair = {frozenset((g.black, g.white)): g for g in final_games if g.white is not None}
    key = tiebreak or (lambda _p: ())
    ga, gb = groups
    out: list[FinalPlace] = []
    for k in range(n):
        a, b = ranking_a[k], ranking_b[k]
        game = by_pair.get(frozenset((a, b)))
        if game is None:
            raise PairingError(Text(f"缺少同名次决赛 {a}—{b} 的对局", f"missing final game {a}—{b}"), (a, b))
        oa, ob = game.outcome_for(a), game.outcome_for(b)
        if "?" in (oa, ob):
            raise PairingError(Text(f"同名次决赛 {a}—{b} 尚无结果", f"final {a}—{b} has no result"), (a, b))
        seat = {a: (ga, k + 1), b: (gb, k + 1)}
        if {oa, ob} == {"W", "L"}:
            first, second = (a, b) if oa == "W" else (b, a)
            (wg, wk), (lg, lk) = seat[first], seat[second]
            out.append(FinalPlace(2 * k + 1, first, tr(
                f"同名次决赛 {wg}组第{wk}名胜{lg}组第{lk}名, 获第{2 * k + 1}名",
                f"same-place final: {wg}#{wk} beat {lg}#{lk}, place {2 * k + 1}")))
            out.append(FinalPlace(2 * k + 2, second, tr(
                f"同名次决赛 {lg}组第{lk}名负于{wg}组第{wk}名, 获第{2 * k + 2}名",
                f"same-place final: {lg}#{lk} lost to {wg}#{wk}, place {2 * k + 2}")))
            continue
        first, second = (a, b) if key(a) >= key(b) else (b, a)
        for place, who in ((2 * k + 1, first), (2 * k + 2, second)):
            out.append(FinalPlace(place, who, tr(
                f"同名次决赛 {ga}组第{k + 1}名与{gb}组第{k + 1}名未分胜负, 按组内小分(相同则{ga}组在前)"
                f"{seat[who][0]}组第{k + 1}名获第{place}名",
                f"same-place final {ga}#{k + 1}–{gb}#{k + 1} undecided: by group tie-breaks "
                f"(then {ga} first), {seat[who][0]}#{k + 1} takes place {place}")))
    rest = [(k, 0, p) for k, p in enumerate(ranking_a) if k >= n]
    rest += [(k, 1, p) for k, p in enumerate(ranking_b) if k >= n]
    rest.sort(key=lambda t: (t[0], tuple(-x for x in key(t[2])), t[1]))
    for k, grp, p in rest:
        place = len(out) + 1
        out.append(FinalPlace(place, p, tr(
            f"同名次决赛只决定第1–{2 * n}名; 以下按组内名次交错排列(同名次按组内小分, 再{ga}组在前): "
            f"{groups[grp]}组第{k + 1}名获第{place}名",
            f"the same-place final decides places 1–{2 * n}; below, group places interleave (then "
            f"group tie-breaks, then {ga} first): {groups[grp]}#{k + 1} takes place {place}")))
    return out

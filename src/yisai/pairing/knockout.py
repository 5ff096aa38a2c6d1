"""淘汰赛 (knockout): seeding a bracket, pairing each round from the last one's winners, and
the places the bracket gives (季军赛 optional).

A bracket is a list of slots whose length is a power of two: slot 2k−1 meets slot 2k, the
winners meet in the same order next round, so the top half and the bottom half meet only in
the final. An empty slot (None) is a bye: the top seeds get them when the field is short.
Pure: results come in as ``Game`` records; a game that cannot decide who goes on (not entered,
or drawn / both lost under a rule that says replay) stops the next round with a reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yisai.i18n import Text, tr
from yisai.lot import pair_lot
from yisai.pairing.model import BoardPairing, ByeAssignment, PairingError, RoundPairing
from yisai.record import Game, Result
from yisai.regulation.stages import KnockoutRules

Slot = str | None
Pair = tuple[Slot, Slot]


class Undecided(PairingError):
    """A knockout game does not (yet) say who goes on."""


def bracket_size(n: int) -> int:
    """Slots for ``n`` players: the next power of two (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two ``size``: 1, size, …, 2 (seed 1 and
    seed 2 in opposite halves, 1–4 in different quarters …; every first-round pair sums to
    size + 1)."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [x for s in order for x in (s, m + 1 - s)]
    return order


def seeded_slots(seeds: Sequence[str]) -> list[Slot]:
    """Seeds (best first) in their bracket slots; seeds past the field are byes, so the top
    seeds go through the first round without a game."""
    order = bracket_order(bracket_size(len(seeds)))
    return [seeds[k - 1] if k <= len(seeds) else None for k in order]


def group_seeds(group_orders: Sequence[Sequence[str]], per_group: int) -> list[str]:
    """Qualifiers as one seed list: every group's 1st (A1, B1, …), then every 2nd, …"""
    return [order[place] for place in range(per_group) for order in group_orders if place < len(order)]


def cross_slots(group_orders: Sequence[Sequence[str]]) -> list[Slot]:
    """Two qualifiers per group, neighbouring groups crossed: A1–B2, C1–D2 … in the top half,
    B1–A2, D1–C2 … in the bottom half, so group-mates and the two winners of a pair of groups
    meet only in the final."""
    g = len(group_orders)
    if g < 2 or g % 2 or bracket_size(2 * g) != 2 * g:
        raise PairingError(Text(f"交叉对阵须有2、4、8…个小组, 实为{g}个",
                              f"a crossed bracket needs 2, 4, 8 … groups, not {g}"))
    if any(len(o) < 2 for o in group_orders):
        raise PairingError(Text("交叉对阵须每组至少2人", "a crossed bracket needs 2 players in every group"))
    top: list[Slot] = []
    bottom: list[Slot] = []
    for j in range(0, g, 2):
        x, y = group_orders[j], group_orders[j + 1]
        top += [x[0], y[1]]
        bottom += [y[0], x[1]]
    return top + bottom


def round_name(entries: int) -> tuple[str, str]:
    """决赛 / 半决赛 / 1/4决赛 … for a round of ``entries`` slots (Chinese, English)."""
    if entries <= 2:
        return "决赛", "final"
    if entries == 4:
        return "半决赛", "semi-finals"
    return f"1/{entries // 2}决赛", f"round of {entries}"


@dataclass(frozen=True)
class KnockoutRound:
    """One bracket round as stored: its pairs in bracket order, the third-place pair, games."""

    pairs: tuple[Pair, ...]
    games: tuple[Game, ...]
    third: tuple[str, str] | None = None
    number: int = 0  # the stage's round number (0 when it does not matter)


@dataclass(frozen=True)
class Outcome:
    winner: Slot
    losers: tuple[str, ...]
    note: str = ""  # how a drawn or both-lost game was settled


def _game(games: Sequence[Game], a: str, b: str) -> Game | None:
    for g in games:
        if not g.is_bye and {g.black, g.white} == {a, b}:
            return g
    return None


def match_outcome(pair: Pair, games: Sequence[Game], rules: KnockoutRules,
                  seed_of: Mapping[str, int], where: tuple[str, str] = ("一场淘汰赛", "a knockout game")) -> Outcome:
    """Who goes on from one pair, by the result and the regulation's rules for no winner.

    ``where`` names the match in messages (the players are listed in the error's ``blocking``)."""
    a, b = pair
    zh, en = where
    if a is None or b is None:
        return Outcome(a if b is None else b, ())
    g = _game(games, a, b)
    if g is None or g.result == Result.UNKNOWN:
        raise Undecided(Text(f"{zh}尚无成绩", f"{en} has no result yet"), (a, b))
    higher = a if seed_of.get(a, 10**6) <= seed_of.get(b, 10**6) else b
    lower = b if higher == a else a
    if g.result in (Result.BLACK_WINS, Result.WHITE_WINS):
        win = g.black if g.result == Result.BLACK_WINS else g.white
        assert win is not None
        return Outcome(win, (b if win == a else a,))
    if g.result == Result.DRAW:
        if rules.on_draw == "replay":
            raise Undecided(Text(f"{zh}和棋, 按规程须重赛: 重赛后录入重赛结果 (更正本局成绩)",
                               f"{en} is drawn and the regulation says replay: enter the replay's "
                               "result as a correction of this game"), (a, b))
        if rules.on_draw in ("black_wins", "white_wins"):
            win = g.black if rules.on_draw == "black_wins" else g.white
            assert win is not None
            side = tr("黑", "Black") if rules.on_draw == "black_wins" else tr("白", "White")
            return Outcome(win, (b if win == a else a,), tr(f"和棋{side}胜", f"drawn: {side} goes on"))
        return Outcome(higher, (lower,), tr("和棋, 种子序号靠前者晋级", "drawn: the higher seed goes on"))
    if g.result == Result.BOTH_LOSE:
        if rules.on_both_lose == "replay":
            raise Undecided(Text(f"{zh}双方判负, 按规程须重赛: 重赛后录入重赛结果 (更正本局成绩)",
                               f"{en}: both lost and the regulation says replay: enter the replay's "
                               "result as a correction of this game"), (a, b))
        if rules.on_both_lose == "higher_seed":
            return Outcome(higher, (lower,), tr("双方判负, 种子序号靠前者晋级",
                                                "both lost: the higher seed goes on"))
        return Outcome(None, (a, b), tr("双方判负, 两人均被淘汰", "both lost: both are out"))
    raise Undecided(Text(f"{zh}的成绩 ({g.result.value}) 不能决定淘汰赛的胜者, 请更正",
                       f"{en}: the result {g.result.value} cannot decide a knockout game; correct it"), (a, b))


def next_entries(prev: KnockoutRound, rules: KnockoutRules, seed_of: Mapping[str, int]) -> list[Slot]:
    """The next round's slots: the winners of ``prev``'s pairs, in bracket order."""
    zh, en = round_name(2 * len(prev.pairs))
    return [match_outcome(p, prev.games, rules, seed_of, (f"{zh}第{k}场", f"{en} match {k}")).winner
            for k, p in enumerate(prev.pairs, start=1)]


def semi_final_losers(prev: KnockoutRound, rules: KnockoutRules, seed_of: Mapping[str, int]) -> tuple[str, str] | None:
    """The two players for the third-place match: one loser from each semi-final, if both exist."""
    if len(prev.pairs) != 2:
        return None
    losers = [match_outcome(p, prev.games, rules, seed_of).losers for p in prev.pairs]
    if all(len(x) == 1 for x in losers):
        return losers[0][0], losers[1][0]
    return None


def pair_knockout_round(entries: Sequence[Slot], round_no: int, *, seed: int = 0,
                        third: tuple[str, str] | None = None,
                        seed_of: Mapping[str, int] | None = None) -> tuple[RoundPairing, tuple[Pair, ...]]:
    """One bracket round: slot 2k−1 v slot 2k; colours by lot (猜先); a lone player goes
    through on a bye; the third-place match, if any, is the last board."""
    if len(entries) < 2 or bracket_size(len(entries)) != len(entries):
        raise ValueError(f"a bracket round needs a power-of-two number of slots, not {len(entries)}")
    seed_of = seed_of or {}
    zh, en = round_name(len(entries))
    pairs: tuple[Pair, ...] = tuple((entries[i], entries[i + 1]) for i in range(0, len(entries), 2))
    boards: list[BoardPairing] = []
    byes: list[ByeAssignment] = []

    def board(a: str, b: str, why: str) -> BoardPairing:
        black, white = (a, b) if pair_lot(seed, round_no, a, b, 2) == 0 else (b, a)
        return BoardPairing(len(boards) + 1, black, white, 0, 0, (why,), tr("抽签定黑白 (猜先)", "colours by lot"))

    def seed_text(p: str) -> str:
        return tr(f"{seed_of[p]}号种子", f"seed {seed_of[p]}") if p in seed_of else ""

    for k, (a, b) in enumerate(pairs, start=1):
        if a is not None and b is not None:
            boards.append(board(a, b, tr(f"{zh}第{k}场 (对阵表位置{2 * k - 1}–{2 * k})",
                                         f"{en} match {k} (bracket slots {2 * k - 1}–{2 * k})")))
        elif a is not None or b is not None:
            who = a if a is not None else b
            assert who is not None
            byes.append(ByeAssignment(who, 0, tr(f"{zh}第{k}场无对手, 直接晋级 {seed_text(who)}".rstrip(),
                                                 f"{en} match {k} has no opponent: goes on {seed_text(who)}".rstrip())))
    if third is not None:
        boards.append(board(third[0], third[1], tr("季军赛 (半决赛负者争第3、4名)",
                                                   "third-place match (the semi-final losers)")))
    return RoundPairing(round_no, tuple(boards), tuple(byes)), pairs


def knockout_places(rounds: Sequence[KnockoutRound], rules: KnockoutRules,
                    seed_of: Mapping[str, int]) -> list[tuple[int, str, str]]:
    """(place, player, reason) for everyone the bracket placed, best first.

    Champion 1, final loser 2; with a third-place match its winner 3 and loser 4, else both
    semi-final losers share 3; the losers of a round of N share place N/2 + 1 (1/4决赛 → 5).
    Raises ``Undecided`` until the final (and third-place match) are decided.
    """
    if not rounds or len(rounds[-1].pairs) != 1:
        raise Undecided(Text("淘汰赛尚未进行到决赛", "the knockout has not reached its final"))
    out: list[tuple[int, str, str]] = []
    final = rounds[-1]
    fin = match_outcome(final.pairs[0], final.games, rules, seed_of, ("决赛", "the final"))
    if fin.winner is not None:
        out.append((1, fin.winner, tr("决赛胜者 (冠军)", "won the final (champion)")))
    out += [(2, p, tr("决赛负者", "lost the final")) for p in fin.losers]
    if final.third is not None:
        third = match_outcome(final.third, final.games, rules, seed_of, ("季军赛", "the third-place match"))
        if third.winner is not None:
            out.append((3, third.winner, tr("季军赛胜者", "won the third-place match")))
        out += [(4, p, tr("季军赛负者", "lost the third-place match")) for p in third.losers]
    for rnd in reversed(rounds[:-1]):
        entries = 2 * len(rnd.pairs)
        zh, en = round_name(entries)
        place = entries // 2 + 1
        placed = {p for _pl, p, _why in out}
        for k, pair in enumerate(rnd.pairs, start=1):
            for p in match_outcome(pair, rnd.games, rules, seed_of, (f"{zh}第{k}场", f"{en} match {k}")).losers:
                if p not in placed:
                    out.append((place, p, tr(f"{zh}负者 (并列第{place}名)", f"lost in the {en} (place {place}=)")))
    return out

"""循环赛 (round robin): groups by snake seeding or lot, seats in each group, and each round's
boards from the Berger table (``pairing.berger``).

Pure: the seeding order comes from the regulation's keys (rank, rating, lot) and every draw
from the event's stored seed, so a round is paired again identically.
"""

from __future__ import annotations

from collections.abc import Sequence

from yisai.i18n import Text, tr
from yisai.lot import shuffled
from yisai.pairing.berger import berger_rounds, round_count
from yisai.pairing.model import BoardPairing, ByeAssignment, Entrant, PairingError, RoundPairing
from yisai.pairing.swiss import seeding_order
from yisai.regulation.rules import PairingRules


def snake_groups(players: Sequence[Entrant], groups: int, *, method: str = "snake",
                 rules: PairingRules | None = None, seed: int = 0) -> list[list[str]]:
    """The field cut into ``groups`` groups, each list in seeding order.

    snake: seeds 1..G to groups 1..G, seeds G+1..2G back from G to 1, and so on (A B C D D C B A
    A B …), so the groups are equally strong; lot: the seeded field drawn, then dealt in turn.
    """
    if groups < 1:
        raise ValueError("groups must be ≥ 1")
    seeded = seeding_order(players, rules or PairingRules(), seed)
    if len(seeded) < 2 * groups:
        raise PairingError(Text(f"{len(seeded)}人不够分成{groups}组 (每组至少2人)",
                              f"{len(seeded)} players are too few for {groups} groups (at least 2 each)"))
    if method == "lot":
        drawn = shuffled(seeded, seed, "round-robin-groups")
        return [drawn[g::groups] for g in range(groups)]
    out: list[list[str]] = [[] for _ in range(groups)]
    for i, pid in enumerate(seeded):
        lap, pos = divmod(i, groups)
        out[pos if lap % 2 == 0 else groups - 1 - pos].append(pid)
    return out


def group_seats(members: Sequence[str], method: str, seed: int, group: str) -> list[str]:
    """The Berger-table seat order (seat 1 first): drawn by lot, or the seeding order itself."""
    if method == "seeding":
        return list(members)
    return shuffled(list(members), seed, "round-robin-seats", group)


def group_rounds(size: int) -> int:
    """How many rounds a group of ``size`` players plays."""
    return round_count(size)


def pair_group_round(seats: Sequence[str], group_round: int, round_no: int, *, bye_points: int = 0,
                     group: str = "", second_cycle: bool = False) -> RoundPairing:
    """Round ``group_round`` of the Berger table for ``seats`` (seat k = ``seats[k-1]``),
    stored as event round ``round_no``; the seat the table names first plays Black, or White in
    the second cycle of a double round robin (第二循环双方执黑执白互换)."""
    table = berger_rounds(len(seats))
    if not 1 <= group_round <= len(table):
        raise PairingError(Text(f"{group}组共{len(table)}轮, 没有第{group_round}轮",
                              f"group {group} plays {len(table)} rounds: there is no round {group_round}"))
    row = table[group_round - 1]
    boards = tuple(
        BoardPairing(
            board=k, black=seats[p.black - 1], white=seats[p.white - 1], black_score=0, white_score=0,
            reasons=(tr(f"贝格尔表第{group_round}轮: {p.black}号对{p.white}号",
                        f"Berger table round {group_round}: seat {p.black} v seat {p.white}"),),
            colour_reason=tr(f"{p.black}号执黑 (贝格尔表先列者)", f"seat {p.black} takes Black (named first)"),
        ) if not second_cycle else BoardPairing(
            board=k, black=seats[p.white - 1], white=seats[p.black - 1], black_score=0, white_score=0,
            reasons=(tr(f"第二循环, 贝格尔表第{group_round}轮: {p.black}号对{p.white}号",
                        f"second cycle, Berger table round {group_round}: seat {p.black} v seat {p.white}"),),
            colour_reason=tr(f"{p.white}号执黑 (第二循环执黑执白互换)",
                             f"seat {p.white} takes Black (colours swapped in the second cycle)"),
        )
        for k, p in enumerate(row.pairs, start=1)
    )
    byes: tuple[ByeAssignment, ...] = ()
    if row.bye is not None:
        byes = (ByeAssignment(seats[row.bye - 1], bye_points,
                              tr(f"贝格尔表第{group_round}轮{row.bye}号轮空 (单数组每人轮空一次)",
                                 f"Berger table round {group_round}: seat {row.bye} rests "
                                 "(odd group: everyone rests once)")),)
    return RoundPairing(round_no, boards, byes)


def planned_rounds(groups: int, entrants: int, knockout_qualifiers: int | None = None) -> int:
    """Rounds a round-robin stage takes for ``entrants`` players in ``groups`` snake groups
    (the largest group's), plus the bracket's rounds when ``knockout_qualifiers`` go on."""
    from yisai.pairing.knockout import bracket_size

    largest = -(-entrants // groups)
    rounds = round_count(largest) if largest >= 2 else 0
    if knockout_qualifiers:
        rounds += bracket_size(knockout_qualifiers).bit_length() - 1
    return rounds

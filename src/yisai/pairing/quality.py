"""Quality figures of a paired round, as the benchmark and the tests report them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yisai.pairing.history import build_histories
from yisai.pairing.model import RoundPairing
from yisai.record import Game
from yisai.regulation.rules import Scoring


@dataclass(frozen=True, slots=True)
class RoundQuality:
    rematches: int  # pairs that already met (must be 0)
    colour_imbalanced: int  # players with |black - white| > 1 after this round
    three_in_a_row: int  # players whose last three games had one colour
    floaters: int  # pairs whose players came from different score groups
    longest_float: int  # largest score difference inside a pair (points)
    byes: int


def round_quality(pairing: RoundPairing, earlier: Sequence[Game], scoring: Scoring | None = None
                  ) -> RoundQuality:
    """Measure ``pairing`` against the games before it."""
    scoring = scoring or Scoring()
    ids = {p for b in pairing.boards for p in (b.black, b.white)} | {y.player for y in pairing.byes}
    hist = build_histories(ids, earlier, pairing.round, scoring)
    rematches = sum(1 for b in pairing.boards if b.white in hist[b.black].opponents)
    imbalanced = three = 0
    for b in pairing.boards:
        for pid, colour in ((b.black, "B"), (b.white, "W")):
            seq = [*hist[pid].colours, colour]
            if abs(seq.count("B") - seq.count("W")) > 1:
                imbalanced += 1
            if len(seq) >= 3 and seq[-1] == seq[-2] == seq[-3]:
                three += 1
    diffs = [abs(hist[b.black].score - hist[b.white].score) for b in pairing.boards]
    return RoundQuality(
        rematches=rematches,
        colour_imbalanced=imbalanced,
        three_in_a_row=three,
        floaters=sum(1 for d in diffs if d),
        longest_float=max(diffs, default=0),
        byes=len(pairing.byes),
    )

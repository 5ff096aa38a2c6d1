"""积分编排 (Swiss pairing) and friends: one maximum-weight matching with strict priorities,
round-1 seeding, byes, director's controls, group split and the same-place final, and a
seeded simulation. Pure: no I/O, no clock; randomness only from the event's seed.
"""

from yisai.pairing.groups import FinalPlace, final_places, pair_placement_final, split_groups
from yisai.pairing.model import (
    BoardPairing,
    ByeAssignment,
    Controls,
    Entrant,
    PairingError,
    RoundPairing,
)
from yisai.pairing.quality import RoundQuality, round_quality
from yisai.pairing.swiss import pair_round, round1_order, seeding_order

__all__ = [
    "BoardPairing",
    "ByeAssignment",
    "Controls",
    "Entrant",
    "FinalPlace",
    "PairingError",
    "RoundPairing",
    "RoundQuality",
    "final_places",
    "pair_placement_final",
    "pair_round",
    "round1_order",
    "round_quality",
    "seeding_order",
    "split_groups",
]

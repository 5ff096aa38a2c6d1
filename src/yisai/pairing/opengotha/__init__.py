"""OpenGotha-compatible pairing (Swiss and McMahon): OpenGotha's own cost function, bye rule,
colours and table order, for events run under EGF/AGA practice or checked against OpenGotha.
Pure, like the rest of ``yisai.pairing``; reading and writing OpenGotha files lives in
``yisai.formats``.
"""

from yisai.pairing.opengotha.costs import COMPONENTS, OGCost, OGTournament, RoundState
from yisai.pairing.opengotha.engine import (
    OGBoard,
    OGPairingError,
    OGRoundPairing,
    pair_og_round,
    pairable_players,
)
from yisai.pairing.opengotha.params import OGHandicapParameters, OGPairingParameters

__all__ = [
    "COMPONENTS",
    "OGBoard",
    "OGCost",
    "OGHandicapParameters",
    "OGPairingError",
    "OGPairingParameters",
    "OGRoundPairing",
    "OGTournament",
    "RoundState",
    "pair_og_round",
    "pairable_players",
]

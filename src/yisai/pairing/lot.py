"""The seeded lots' old address: they live in ``yisai.lot`` (below pairing and standings, which
both draw them). Kept only so ``from yisai.pairing.lot import …`` in callers outside the core
(services/brackets.py) keeps working; new code imports ``yisai.lot``."""

from yisai.lot import lot, mix_lots, pair_lot, shuffled

__all__ = ["lot", "mix_lots", "pair_lot", "shuffled"]

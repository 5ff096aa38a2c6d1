"""Seeded lots (抽签): reproducible from the event's stored seed, independent of dict order or
Python's per-process string hashing, so re-pairing a round with the same seed is identical.

Below pairing and standings (pairing draws colours and orders, standings the 抽签 between
teams), so neither has to import the other for a draw."""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy.typing as npt

_GOLDEN = 0x9E3779B97F4A7C15  # 2^64 / φ: a multiplier that spreads the bits of the xor
_MASK64 = 2**64 - 1
L = TypeVar("L", int, "npt.NDArray[Any]")  # an int, or a numpy uint64 array of them


def lot(seed: int, *parts: object, modulo: int = 2**32) -> int:
    """A reproducible number in [0, modulo) drawn for ``parts`` under ``seed``."""
    text = ":".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") % modulo


def pair_lot(seed: int, round_no: int, a: str, b: str, modulo: int) -> int:
    """The lot of an unordered pair (same value whichever player is named first)."""
    return mix_lots(lot(seed, round_no, a), lot(seed, round_no, b), modulo)


def mixed_lots(la: L, lb: L) -> L:
    """The one mixer of two players' own lots (``lot(seed, round, id)``): a 64-bit number the
    same for either order, of which a pair's lot (``mix_lots``) and the pairing's tie value
    (``weights.pair_tie``) take different bits. Works alike on ints and on numpy uint64
    arrays (which wrap mod 2^64 themselves), so the vector cost table reads the same draw."""
    return ((la ^ lb) * _GOLDEN) & _MASK64


def mix_lots(la: L, lb: L, modulo: int) -> L:
    """A pair's lot in [0, modulo) (``modulo`` a power of two up to 2^32): bits 32 and up of
    ``mixed_lots``; cheap enough for every candidate pair of a 10,000-player round."""
    return (mixed_lots(la, lb) >> 32) % modulo


def shuffled(items: list[str], seed: int, *parts: object) -> list[str]:
    """``items`` in a seeded random order."""
    out = list(items)
    random.Random(lot(seed, "shuffle", *parts)).shuffle(out)
    return out

"""Seeded lots (抽签): reproducible from the event's stored seed, independent of dict order or
Python's per-process string hashing, so re-pairing a round with the same seed is identical.

Below pairing and standings (pairing draws colours and orders, standings the 抽签 between
teams), so neither has to import the other for a draw."""

from __future__ import annotations

import hashlib
import random


def lot(seed: int, *parts: object, modulo: int = 2**32) -> int:
    """A reproducible number in [0, modulo) drawn for ``parts`` under ``seed``."""
    text = ":".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") % modulo


def pair_lot(seed: int, round_no: int, a: str, b: str, modulo: int) -> int:
    """The lot of an unordered pair (same value whichever player is named first)."""
    return mix_lots(lot(seed, round_no, a), lot(seed, round_no, b), modulo)


def mix_lots(la: int, lb: int, modulo: int) -> int:
    """Combine two players' own lots (``lot(seed, round, id)``) into their pair's lot: cheap
    enough for every candidate pair of a 10,000-player round."""
    return (((la ^ lb) * 0x9E3779B97F4A7C15) >> 32) % modulo


def shuffled(items: list[str], seed: int, *parts: object) -> list[str]:
    """``items`` in a seeded random order."""
    out = list(items)
    random.Random(lot(seed, "shuffle", *parts)).shuffle(out)
    return out

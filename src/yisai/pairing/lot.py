"""Seeded lots (抽签): reproducible from the event's stored seed, independent of dict order or
Python's per-process string hashing, so re-pairing a round with the same seed is identical."""

from __future__ import annotations

import hashlib
import random


def lot(seed: int, *parts: object, modulo: int = 2**32) -> int:
    """A reproducible number in [0, modulo) drawn for ``parts`` under ``seed``."""
    text = ":".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") % modulo


def pair_lot(seed: int, round_no: int, a: str, b: str, modulo: int) -> int:
    """The lot of an unordered pair (same value whichever player is named first)."""
    x, y = (a, b) if a <= b else (b, a)
    return lot(seed, round_no, x, y, modulo=modulo)


def shuffled(items: list[str], seed: int, *parts: object) -> list[str]:
    """``items`` in a seeded random order."""
    out = list(items)
    random.Random(lot(seed, "shuffle", *parts)).shuffle(out)
    return out

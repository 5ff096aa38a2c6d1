"""The *universe* of a layout: every allowed pair an optimal pairing may use when the score level
is at its lower bound (same-group pairs and pairs across an odd boundary between neighbouring
groups), enumerated in numpy batches or tiles, and the band around the sparse graph checked
above ``CHECK_PAIRS``. See ``yisai.pairing.graph`` for the argument."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from yisai.pairing.certify import (
    TILE,
    Tiles,
)
from yisai.pairing.layout import Layout, group_ranges
from yisai.pairing.table import IntArray

BAND = 64  # above CHECK_PAIRS: only pairs this close to the sparse graph's are checked
CHUNK = 1 << 20  # pairs checked per numpy batch


def universe(layout: Layout, score_ok: bool) -> Iterator[tuple[IntArray, IntArray]]:
    """Every pair (local indices, in numpy batches) an optimal pairing might use: with the
    score certificate, same-group pairs and pairs across odd boundaries between neighbouring
    groups; otherwise every pair of the layout."""
    ranges = group_ranges(layout)
    if not score_ok:
        total = ranges[-1][1] if ranges else 0
        yield from pairs_within(0, total)
        return
    above = 0
    for k, (s, e) in enumerate(ranges):
        yield from pairs_within(s, e)
        above += e - s
        if above % 2 and k + 1 < len(ranges):
            yield from _across(s, e, *ranges[k + 1])


def universe_tiles(layout: Layout, size: int = TILE) -> Tiles:
    """The universe at the score bound (same-group pairs, pairs across an odd boundary
    between neighbouring groups) as tiles of at most TILE players a side (certify.Tiles)."""
    ranges = group_ranges(layout)
    starts: list[int] = []
    rows: list[IntArray] = []
    cols: list[IntArray] = []
    first: list[int] = []
    for s, e in ranges:
        first.append(len(starts))
        starts += list(range(s, e, size))
    first.append(len(starts))
    ends = [*starts[1:], ranges[-1][1]] if starts else []
    for k in range(len(ranges)):  # every group ends a block: fix the ends at group bounds
        if first[k + 1] > first[k]:
            ends[first[k + 1] - 1] = ranges[k][1]
    above = 0
    for k, (s, e) in enumerate(ranges):
        own = np.arange(first[k], first[k + 1], dtype=np.int64)
        r, c = np.triu_indices(len(own))
        rows.append(own[r])
        cols.append(own[c])
        above += e - s
        if above % 2 and k + 1 < len(ranges):
            nxt = np.arange(first[k + 1], first[k + 2], dtype=np.int64)
            rows.append(np.repeat(own, len(nxt)))
            cols.append(np.tile(nxt, len(own)))
    none = np.zeros(0, dtype=np.int64)
    return Tiles(np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64),
                 np.concatenate(rows) if rows else none, np.concatenate(cols) if cols else none)


def universe_size(layout: Layout, score_ok: bool) -> int:
    ranges = group_ranges(layout)
    if not score_ok:
        n = ranges[-1][1] if ranges else 0
        return n * (n - 1) // 2
    size, above = 0, 0
    for k, (s, e) in enumerate(ranges):
        size += (e - s) * (e - s - 1) // 2
        above += e - s
        if above % 2 and k + 1 < len(ranges):
            size += (e - s) * (ranges[k + 1][1] - ranges[k + 1][0])
    return size


def pairs_within(s: int, e: int) -> Iterator[tuple[IntArray, IntArray]]:
    r = s
    while r < e - 1:
        rows = max(1, CHUNK // max(e - r - 1, 1))
        r1 = min(e - 1, r + rows)
        starts = np.arange(r, r1, dtype=np.int64)
        counts = e - 1 - starts
        i = np.repeat(starts, counts)
        offsets = np.arange(len(i), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        yield i, i + 1 + offsets
        r = r1


def _across(s: int, e: int, s2: int, e2: int) -> Iterator[tuple[IntArray, IntArray]]:
    width = e2 - s2
    rows = max(1, CHUNK // max(width, 1))
    for r in range(s, e, rows):
        r1 = min(e, r + rows)
        yield (np.repeat(np.arange(r, r1, dtype=np.int64), width),
               np.tile(np.arange(s2, e2, dtype=np.int64), r1 - r))


def band(layout: Layout, adjacent: bool) -> Iterator[tuple[IntArray, IntArray]]:
    """The pairs near each player's ideal partner (BAND seats either way; neighbours; floats
    near the boundary): what is checked when the whole universe is too large to check."""
    ranges = group_ranges(layout)
    for k, (s, e) in enumerate(ranges):
        g = e - s
        half = g // 2
        offsets = set(range(1, min(g, 2 * BAND + 2))) if adjacent else {
            d for d in (*range(1, 3), *range(half - BAND, half + BAND + 1)) if 0 < d < g}
        for d in sorted(offsets):
            i = np.arange(s, e - d, dtype=np.int64)
            yield i, i + d
        if k + 1 < len(ranges):
            s2, e2 = ranges[k + 1]
            yield from _across(max(s, e - BAND), e, s2, min(e2, s2 + BAND))


__all__ = ["BAND", "CHUNK", "band", "pairs_within", "universe", "universe_size", "universe_tiles"]

"""The score-group layout of one matching problem: players (and the bye vertex) as ``Node``s
group by group, the ``Solution`` a solver returns, the in-group cost, the score level's lower
bound and whether a pairing reaches it (``reaches_score_bound``). See ``yisai.pairing.graph``."""

from __future__ import annotations

from dataclasses import dataclass, field

from yisai.pairing.table import IntArray
from yisai.pairing.weights import LEVELS

BYE = "\x00bye"  # id of the virtual bye vertex (never a real player's id)
N_LEVELS = len(LEVELS)
SCORE_LEVEL = LEVELS.index("score")
FORBIDDEN_LEVEL = LEVELS.index("forbidden")
BYE_TWICE_LEVEL = LEVELS.index("bye_twice")


@dataclass(frozen=True, slots=True)
class Node:
    """A player (or the bye vertex) placed in the score-group layout."""

    pid: str
    score: int
    group: int  # 0 = top score group; the bye vertex sits in a virtual group below the last
    pos: int  # position inside the group, 0 = best placed
    gsize: int
    idx: int = -1  # index in the whole round's layout (``PairTable`` rows)


@dataclass(slots=True)
class Layout:
    """All nodes of one matching problem, group by group."""

    groups: list[list[Node]]  # the bye vertex, if any, is alone in the last group

    @property
    def nodes(self) -> list[Node]:
        return [n for g in self.groups for n in g]

    def score_lower_bound(self) -> int:
        """LB of the score level: one (gap)² per boundary with an odd number of nodes above."""
        lb, above = 0, 0
        for upper, lower in zip(self.groups, self.groups[1:], strict=False):
            above += len(upper)
            if above % 2:
                lb += (upper[0].score - lower[0].score) ** 2
        return lb


@dataclass(slots=True)
class Solution:
    pairs: list[tuple[Node, Node]]
    vectors: list[list[int]]
    certified: bool  # every level proven optimal over all allowed pairs
    widenings: int
    edges: int
    blocks: int = 1
    unmatched: list[str] = field(default_factory=list)
    exact: bool = False  # same as certified (kept for the round's stats)
    levels: int = 0  # leading levels (LEVELS order) proven optimal over all allowed pairs
    score_ok: bool = False  # score level at its lower bound, no forbidden pair, no second bye
    checks: int = 0  # rounds of the certificate (1 = proven at the first check)
    added: int = 0  # pairs the certificate added to the sparse graph


def reaches_score_bound(layout: Layout, vectors: IntArray, complete: bool) -> bool:
    if not complete:
        return False
    clean = not vectors[:, FORBIDDEN_LEVEL].any() and not vectors[:, BYE_TWICE_LEVEL].any()
    return clean and int(vectors[:, SCORE_LEVEL].sum()) // 2 == layout.score_lower_bound()


def group_ranges(layout: Layout) -> list[tuple[int, int]]:
    out, start = [], 0
    for grp in layout.groups:
        out.append((start, start + len(grp)))
        start += len(grp)
    return out


__all__ = ["BYE", "BYE_TWICE_LEVEL", "FORBIDDEN_LEVEL", "N_LEVELS", "SCORE_LEVEL", "Layout", "Node", "Solution", "group_ranges", "reaches_score_bound"]

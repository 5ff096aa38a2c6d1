"""The candidate graph and the maximum-weight matching over it.

Players are laid out in score groups (highest first) and, inside a group, in placement order.
Edges join players of the same group and of neighbouring groups only (``reach`` groups apart);
in a very large group a player is joined only to the ``width`` players around his ideal
opponent. When that sparse graph has no complete pairing, or its optimum is not certified, it
is widened step by step up to the complete graph of all non-rematch pairs.

Certificate: with score cost (Δscore)², every pairing costs at least LB = Σ over boundaries
between score groups with an odd number of players above of (gap)². A pairing that reaches
LB with no forbidden pair and no second bye floats exactly one player across each odd boundary
and nobody further, so every optimal complete-graph pairing uses only same-group and
neighbouring-group edges: if those are all in the sparse graph, its optimum is the complete
graph's optimum. The same argument lets a large field be solved block by block, splitting at
boundaries with an even number of players above (nobody crosses them in such a pairing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import rustworkx as rx

from yisai.pairing.weights import IN_GROUP_CAP, LEVELS, make_radix

BYE = "\x00bye"  # id of the virtual bye vertex (never a real player's id)
DEFAULT_WIDTH = 12
SMALL_GROUP = 2 * DEFAULT_WIDTH + 8  # groups up to this size are joined completely
BLOCK_MIN = 1200  # pools above this size are solved block by block
COMPLETE_LIMIT = 800  # above this, complete groups are tried only to find a complete pairing
_SCORE = LEVELS.index("score")
_FORBIDDEN = LEVELS.index("forbidden")
_BYE_TWICE = LEVELS.index("bye_twice")


@dataclass(frozen=True, slots=True)
class Node:
    """A player (or the bye vertex) placed in the score-group layout."""

    pid: str
    score: int
    group: int  # 0 = top score group; the bye vertex sits in a virtual group below the last
    pos: int  # position inside the group, 0 = best placed
    gsize: int


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


CostFn = Callable[[Node, Node], list[int]]


@dataclass(slots=True)
class Solution:
    pairs: list[tuple[Node, Node]]
    vectors: list[list[int]]
    certified: bool  # score level reaches its lower bound, no forbidden pair, no second bye
    widenings: int
    edges: int
    blocks: int = 1
    unmatched: list[str] = field(default_factory=list)
    exact: bool = False  # certified on a graph with every same/neighbouring-group edge


def in_group_cost(u: Node, v: Node, adjacent: bool) -> int:
    """Deviation of ``u``–``v`` from the ideal in-group pairing (``u`` placed above ``v``)."""
    if u.group == v.group:
        gap = v.pos - u.pos
        cost = gap - 1 if adjacent else abs(gap - u.gsize // 2)
    else:  # a float: the lowest of the upper group should meet the highest of the lower
        cost = (u.gsize - 1 - u.pos) + v.pos
    return min(cost, IN_GROUP_CAP)


def _windowed(group_size: int, width: int | None) -> bool:
    """Is a group of this size joined only through a window (not completely)?"""
    return width is not None and group_size > max(SMALL_GROUP, 2 * width + 2)


def candidate_pairs(layout: Layout, width: int | None, reach: int | None,
                    adjacent: bool) -> Iterator[tuple[Node, Node]]:
    """Candidate pairs (upper node first) of the sparse graph for this widening step."""
    groups = layout.groups
    for gi, grp in enumerate(groups):
        g = len(grp)
        if not _windowed(g, width):
            for i in range(g):
                for j in range(i + 1, g):
                    yield grp[i], grp[j]
        else:
            half = g // 2
            for i in range(g):
                if adjacent:
                    lo, hi = i + 1, min(g, i + 2 * width + 1)
                else:
                    lo, hi = max(i + 1, i + half - width), min(g, i + half + width + 1)
                for j in range(lo, hi):
                    yield grp[i], grp[j]
                for j in range(i + 1, min(g, i + 3)):  # near neighbours, for odd leftovers
                    if j < lo:
                        yield grp[i], grp[j]
        last = len(groups) if reach is None else min(len(groups), gi + reach + 1)
        for gj in range(gi + 1, last):
            other = groups[gj]
            w = width or 0
            ups = grp[-w:] if _windowed(len(grp), width) else grp
            downs = other[:w] if _windowed(len(other), width) else other
            for u in ups:
                for v in downs:
                    yield u, v


@dataclass(frozen=True, slots=True)
class Step:
    width: int | None
    reach: int | None


def widening_steps(pool_size: int, largest_group: int) -> list[Step]:
    """The sequence of ever wider graphs tried for a problem of this size."""
    steps: list[Step] = []
    if largest_group > SMALL_GROUP:
        steps += [Step(DEFAULT_WIDTH, 1), Step(4 * DEFAULT_WIDTH, 1), Step(4 * DEFAULT_WIDTH, 2)]
    steps += [Step(None, 1), Step(None, 2), Step(None, 4), Step(None, None)]
    return steps


def _match(nodes: list[Node], pairs: list[tuple[Node, Node]], vectors: list[list[int]]
           ) -> tuple[list[tuple[Node, Node]], list[list[int]]]:
    index = {n.pid: i for i, n in enumerate(nodes)}
    count = len(nodes) // 2
    radix = make_radix(vectors, max(count, 1))
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(nodes)))
    graph.add_edges_from([
        (index[u.pid], index[v.pid], radix.weight(vec))
        for (u, v), vec in zip(pairs, vectors, strict=True)
    ])
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    chosen: dict[tuple[int, int], int] = {}
    for k, (u, v) in enumerate(pairs):
        chosen[(index[u.pid], index[v.pid])] = k
    out_pairs, out_vecs = [], []
    for a, b in mate:
        k = chosen.get((a, b), chosen.get((b, a)))
        assert k is not None
        out_pairs.append(pairs[k])
        out_vecs.append(vectors[k])
    return out_pairs, out_vecs


def _at_window_edge(pairs: list[tuple[Node, Node]], width: int | None, adjacent: bool) -> bool:
    """A chosen pair at the window's edge hints that a pair outside it might be better."""
    if width is None:
        return False
    for u, v in pairs:
        if u.group == v.group:
            if _windowed(u.gsize, width):
                gap = v.pos - u.pos
                if (gap >= 2 * width) if adjacent else (abs(gap - u.gsize // 2) >= width):
                    return True
        elif (_windowed(u.gsize, width) and u.gsize - 1 - u.pos >= width - 1) or (
            _windowed(v.gsize, width) and v.pos >= width - 1
        ):
            return True
    return False


def solve_layout(layout: Layout, cost: CostFn, allowed: Callable[[Node, Node], bool],
                 adjacent: bool, steps: Sequence[Step] | None = None) -> Solution:
    """Best pairing of one layout: widen until complete and certified (or complete graph)."""
    nodes = layout.nodes
    largest = max((len(g) for g in layout.groups), default=0)
    lb = layout.score_lower_bound()
    steps = list(steps) if steps is not None else widening_steps(len(nodes), largest)
    best: Solution | None = None
    seen: set[tuple[str, str]] = set()
    pairs: list[tuple[Node, Node]] = []
    vectors: list[list[int]] = []
    for k, step in enumerate(steps):
        if (step.width is None and len(nodes) > COMPLETE_LIMIT and best is not None
                and not best.unmatched):
            return best  # too large for complete groups: keep the complete sparse pairing
        for u, v in candidate_pairs(layout, step.width, step.reach, adjacent):
            key = (u.pid, v.pid)
            if key in seen or not allowed(u, v):
                continue
            seen.add(key)
            pairs.append((u, v))
            vectors.append(cost(u, v))
        chosen, vecs = _match(nodes, pairs, vectors)
        complete = 2 * len(chosen) == len(nodes)
        matched = {n.pid for p in chosen for n in p}
        unmatched = [n.pid for n in nodes if n.pid not in matched]
        score = sum(v[_SCORE] for v in vecs)
        clean = all(v[_FORBIDDEN] == 0 and v[_BYE_TWICE] == 0 for v in vecs)
        certified = complete and clean and score == lb
        windowed = any(_windowed(len(g), step.width) for g in layout.groups)
        best = Solution(chosen, vecs, certified, k, len(pairs), unmatched=unmatched,
                        exact=certified and not windowed)
        last = k == len(steps) - 1
        if (certified and not _at_window_edge(chosen, step.width, adjacent)) or last:
            return best
    assert best is not None
    return best


def split_blocks(layout: Layout) -> list[Layout]:
    """Cut the layout at every boundary with an even number of nodes above it."""
    blocks: list[Layout] = []
    current: list[list[Node]] = []
    above = 0
    for grp in layout.groups:
        current.append(grp)
        above += len(grp)
        if above % 2 == 0:
            blocks.append(Layout(current))
            current = []
    if current:
        blocks.append(Layout(current))
    return blocks


def solve(layout: Layout, cost: CostFn, allowed: Callable[[Node, Node], bool],
          adjacent: bool) -> Solution:
    """Solve a whole pool: block by block when large and certified, else as one matching."""
    total = sum(len(g) for g in layout.groups)
    if total > BLOCK_MIN:
        blocks = split_blocks(layout)
        if len(blocks) > 1:
            parts = [solve_layout(b, cost, allowed, adjacent) for b in blocks]
            if all(p.certified for p in parts):
                return Solution(
                    pairs=[pr for p in parts for pr in p.pairs],
                    vectors=[v for p in parts for v in p.vectors],
                    certified=True,
                    widenings=max(p.widenings for p in parts),
                    edges=sum(p.edges for p in parts),
                    blocks=len(parts),
                    exact=all(p.exact for p in parts),
                )
    return solve_layout(layout, cost, allowed, adjacent)

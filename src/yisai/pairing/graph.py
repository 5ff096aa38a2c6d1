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

from yisai.pairing.weights import LEVELS, make_radix

BYE = "\x00bye"  # id of the virtual bye vertex (never a real player's id)
DEFAULT_WIDTH = 12
SMALL_GROUP = 2 * DEFAULT_WIDTH + 8  # groups up to this size are joined completely
BLOCK_MIN = 1200  # pools above this size are solved block by block
SEGMENT_MAX = 2400  # blocks above this size are cut into segments (10,000-player rounds)
SEGMENT_TARGET = 1600
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


def in_group_cost(u: Node, v: Node, adjacent: bool) -> tuple[int, int]:
    """(in_group, seat) costs of ``u``–``v`` (``u`` placed above ``v``).

    split: in_group is 1 unless one player is in the top half and the other in the bottom
    half; seat is the distance from the exact partner n/2 places down. adjacent: in_group is
    the number of players between them. A float: how far both are from the groups' boundary
    (the lowest of the upper group should meet the highest of the lower).
    """
    if u.group == v.group:
        gap = v.pos - u.pos
        if adjacent:
            return gap - 1, 0
        half = u.gsize // 2
        crosses = u.pos < half <= v.pos
        return (0 if crosses else 1), abs(gap - half)
    return (u.gsize - 1 - u.pos) + v.pos, 0


def _windowed(group_size: int, width: int | None) -> bool:
    """Is a group of this size joined only through a window (not completely)?"""
    return width is not None and group_size > max(SMALL_GROUP, 2 * width + 2)


def candidate_pairs(layout: Layout, width: int | None, reach: int | None,
                    adjacent: bool) -> Iterator[tuple[Node, Node]]:
    """Candidate pairs (upper node first) of the sparse graph for this widening step.

    Works on positions inside the whole score group, so a layout may hold part of a group
    (a segment of a very large field, see ``segments``).
    """
    groups = layout.groups
    for gi, grp in enumerate(groups):
        gsize = grp[0].gsize
        if not _windowed(gsize, width):
            for i in range(len(grp)):
                for j in range(i + 1, len(grp)):
                    yield grp[i], grp[j]
        else:
            assert width is not None
            at = {n.pos: n for n in grp}
            half = gsize // 2
            for u in grp:
                i = u.pos
                if adjacent:
                    lo, hi = i + 1, i + 2 * width + 1
                else:
                    lo, hi = max(i + 1, i + half - width), i + half + width + 1
                near = [j for j in range(i + 1, i + 3) if j < lo]  # for odd leftovers
                for j in (*near, *range(lo, hi)):
                    v = at.get(j)
                    if v is not None:
                        yield u, v
        last = len(groups) if reach is None else min(len(groups), gi + reach + 1)
        for gj in range(gi + 1, last):
            other = groups[gj]
            w = width or 0
            ups = [n for n in grp if n.gsize - 1 - n.pos < w] if _windowed(gsize, width) else grp
            downs = [n for n in other if n.pos < w] if _windowed(other[0].gsize, width) else other
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
    radix = make_radix(vectors, max(len(nodes) // 2, 1))
    weights = radix.weights(vectors)
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(nodes)))
    graph.add_edges_from([(index[u.pid], index[v.pid], k) for k, (u, v) in enumerate(pairs)])
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=weights.__getitem__)
    ks = sorted(graph.get_edge_data(a, b) for a, b in mate)
    return [pairs[k] for k in ks], [vectors[k] for k in ks]


def _at_window_edge(pairs: list[tuple[Node, Node]], width: int | None, adjacent: bool) -> bool:
    """A float from deep inside a windowed group (or, adjacent mode, a pair at the window's
    far end) hints that a pair outside the window might be better: widen and solve again."""
    if width is None:
        return False
    for u, v in pairs:
        if u.group == v.group:
            if adjacent and _windowed(u.gsize, width) and v.pos - u.pos >= 2 * width:
                return True
        elif (_windowed(u.gsize, width) and u.gsize - 1 - u.pos >= width - 1) or (
            _windowed(v.gsize, width) and v.pos >= width - 1
        ):
            return True
    return False


def ideal_pairing(layout: Layout, cost: CostFn, allowed: Callable[[Node, Node], bool],
                  adjacent: bool) -> Solution | None:
    """The textbook pairing when it costs nothing above the lot: every group even, 1 v n/2+1
    (or neighbours), no rematch. It is then the only pairing with zero cost on every level
    above the lot, hence the optimum, and no matching is needed (round 1 of a big field)."""
    pairs: list[tuple[Node, Node]] = []
    for grp in layout.groups:
        g = len(grp)
        if g % 2 or grp[0].pid == BYE or g != grp[0].gsize:
            return None
        half = g // 2
        pairs += [(grp[2 * i], grp[2 * i + 1]) for i in range(half)] if adjacent else [
            (grp[i], grp[i + half]) for i in range(half)
        ]
    vectors = []
    for u, v in pairs:
        if not allowed(u, v):
            return None
        vec = cost(u, v)
        if any(vec[:-1]):
            return None
        vectors.append(vec)
    return Solution(pairs, vectors, True, 0, len(pairs), exact=True)


def solve_layout(layout: Layout, cost: CostFn, allowed: Callable[[Node, Node], bool],
                 adjacent: bool, steps: Sequence[Step] | None = None) -> Solution:
    """Best pairing of one layout: widen until complete and certified (or complete graph)."""
    nodes = layout.nodes
    if steps is None and (quick := ideal_pairing(layout, cost, allowed, adjacent)) is not None:
        return quick
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


def segments(layout: Layout, size: int) -> list[Layout]:
    """Cut a very large block into segments of about ``size`` nodes that are solved apart.

    Nodes are put in "partner order": inside each group the top and bottom halves are
    interleaved (1, n/2+1, 2, n/2+2, …; neighbours as they are for ``adjacent``), so a player's
    ideal opponent, and the boundary players who float, sit next to him; cuts fall only where
    an even number of nodes lies above. This bounds the cost of a 10,000-player round; the
    price is that a pair across a cut is never considered (documented in docs/pairing.md).
    """
    order: list[Node] = []
    for grp in layout.groups:
        half = len(grp) // 2
        top, bottom = grp[:half], grp[half:]
        inter = [n for pair in zip(top, bottom, strict=False) for n in pair]
        order += inter + bottom[len(top):]
    parts: list[list[Node]] = []
    current: list[Node] = []
    for k, node in enumerate(order):
        current.append(node)
        if len(current) >= size and (k + 1) % 2 == 0 and len(order) - k - 1 >= size // 2:
            parts.append(current)
            current = []
    if current:
        parts.append(current)
    out = []
    for part in parts:
        by_group: dict[int, list[Node]] = {}
        for n in part:
            by_group.setdefault(n.group, []).append(n)
        out.append(Layout([sorted(by_group[gi], key=lambda n: n.pos) for gi in sorted(by_group)]))
    return out


def _combine(parts: list[Solution], certified: bool, exact: bool) -> Solution:
    return Solution(
        pairs=[pr for p in parts for pr in p.pairs],
        vectors=[v for p in parts for v in p.vectors],
        certified=certified,
        widenings=max((p.widenings for p in parts), default=0),
        edges=sum(p.edges for p in parts),
        blocks=sum(p.blocks for p in parts),
        unmatched=[u for p in parts for u in p.unmatched],
        exact=exact,
    )


def _solve_block(block: Layout, cost: CostFn, allowed: Callable[[Node, Node], bool],
                 adjacent: bool) -> Solution:
    """One block; a block above SEGMENT_MAX nodes is solved segment by segment, and a segment
    that cannot be completed is merged with the next one."""
    size = sum(len(g) for g in block.groups)
    if size <= SEGMENT_MAX:
        return solve_layout(block, cost, allowed, adjacent)
    pending = segments(block, SEGMENT_TARGET)
    parts: list[Solution] = []
    while pending:
        seg = pending.pop(0)
        sol = solve_layout(seg, cost, allowed, adjacent)
        if sol.unmatched and pending:
            nxt = pending.pop(0)
            pending.insert(0, _merge(seg, nxt))
            continue
        if sol.unmatched and parts:  # last segment: merge back with what came before
            return solve_layout(block, cost, allowed, adjacent)
        parts.append(sol)
    return _combine(parts, certified=False, exact=False)


def _merge(a: Layout, b: Layout) -> Layout:
    by_group: dict[int, list[Node]] = {}
    for n in (*a.nodes, *b.nodes):
        by_group.setdefault(n.group, []).append(n)
    return Layout([sorted(by_group[gi], key=lambda n: n.pos) for gi in sorted(by_group)])


def solve(layout: Layout, cost: CostFn, allowed: Callable[[Node, Node], bool],
          adjacent: bool) -> Solution:
    """Solve a whole pool: as one matching up to BLOCK_MIN players; above, block by block
    (exact when every block is certified) and very large blocks segment by segment."""
    total = sum(len(g) for g in layout.groups)
    if total <= BLOCK_MIN:
        return solve_layout(layout, cost, allowed, adjacent)
    quick = ideal_pairing(layout, cost, allowed, adjacent)
    if quick is not None:
        return quick
    blocks = split_blocks(layout)
    parts = [_solve_block(b, cost, allowed, adjacent) for b in blocks]
    if all(not p.unmatched for p in parts):
        certified = all(p.certified for p in parts)
        return _combine(parts, certified, exact=certified and all(p.exact for p in parts))
    return solve_layout(layout, cost, allowed, adjacent)

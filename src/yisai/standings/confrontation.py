"""OpenGotha's direct-confrontation (DC) sort, after Matthieu Walraet's algorithm.

Players tied on the criteria before DC form a directed graph (loser → winner of their games).
Cycles (A beat B, B beat C, C beat A) cannot be decided, so their edges are removed while their
members inherit each other's outside edges (transitivity preserved). The graph is then sorted
from the bottom: among players nobody remaining has lost to, those with the lowest secondary
score take the lowest ranks together. Ported faithfully so DC equals OpenGotha's value.
"""

from __future__ import annotations

GAME, CYCLING, TRANSITIVE, TR = "game", "cycling", "transitive", "tr"


class _Node:
    __slots__ = ("coming", "cycle_class", "id", "loop", "outgoing", "rank", "sc")

    def __init__(self, id_: int, sc: float) -> None:
        self.id = id_
        self.sc = sc
        self.coming: dict[int, _Edge] = {}
        self.outgoing: dict[int, _Edge] = {}
        self.loop: _Edge | None = None
        self.cycle_class = id_
        self.rank = 0

    def isolate(self) -> None:
        for e in [*self.coming.values(), *self.outgoing.values()]:
            e.unregister()


class _Edge:
    __slots__ = ("frm", "to", "type", "via")

    def __init__(self, frm: _Node, to: _Node, type_: str) -> None:
        self.frm = frm
        self.to = to
        self.type = type_
        self.via: dict[_Node, None] = {}  # an ordered set
        self.register()

    def register(self) -> None:
        if self.frm is self.to:
            self.to.loop = self
        else:
            self.frm.outgoing[self.to.id] = self
            self.to.coming[self.frm.id] = self

    def unregister(self) -> None:
        if self.frm is self.to:
            self.to.loop = None
        else:
            self.frm.outgoing.pop(self.to.id, None)
            self.to.coming.pop(self.frm.id, None)


class Confrontation:
    """Players (id, secondary score) and games (winner, loser) → a rank per player."""

    def __init__(self) -> None:
        self._nodes: dict[int, _Node] = {}
        self._edges: dict[_Edge, None] = {}
        self._cycles: list[list[_Node]] = []

    def new_player(self, id_: int, sc: float) -> None:
        if id_ not in self._nodes:
            self._nodes[id_] = _Node(id_, sc)

    def new_game(self, winner: int, loser: int) -> None:
        if winner in self._nodes and loser in self._nodes and self._find(loser, winner) is None:
            e = _Edge(self._nodes[loser], self._nodes[winner], GAME)
            self._edges[e] = None

    def rank(self, id_: int) -> int:
        return self._nodes[id_].rank

    def _find(self, frm: int, to: int) -> _Edge | None:
        node = self._nodes.get(frm)
        if node is None:
            return None
        return node.loop if frm == to else node.outgoing.get(to)

    def _transition(self, n: _Node) -> None:
        for ce in list(n.coming.values()):
            for oe in list(n.outgoing.values()):
                te = self._find(ce.frm.id, oe.to.id)
                if te is None:
                    te = _Edge(ce.frm, oe.to, TRANSITIVE)
                    self._edges[te] = None
                te.via[n] = None
                te.via.update(ce.via)
                te.via.update(oe.via)
                if n.loop is not None:
                    te.via.update(n.loop.via)
        n.isolate()

    def _detect_cycles(self) -> None:
        with_loop: dict[_Node, None] = {}
        for node in self._nodes.values():
            self._transition(node)
            if node.loop is not None:
                for v in node.loop.via:
                    with_loop.pop(v, None)
                with_loop[node] = None
        self._cycles = []
        for nwl in with_loop:
            assert nwl.loop is not None
            cycle = [nwl]
            for member in nwl.loop.via:
                member.cycle_class = nwl.id
                cycle.append(member)
            self._cycles.append(cycle)
        self._reinit()

    def _reinit(self) -> None:
        for e in list(self._edges):
            if e.type in (TRANSITIVE, TR):
                e.unregister()
                del self._edges[e]
            else:
                e.register()
                e.via.clear()

    def _remove_cycling_edges(self, add_transitive: bool) -> None:
        for e in self._edges:
            if e.frm.cycle_class == e.to.cycle_class:
                e.type = CYCLING
                e.unregister()
        if not add_transitive:
            return
        for cycle in self._cycles:
            for origin in cycle:
                for dest in cycle:
                    if dest is origin:
                        continue
                    for c in list(origin.coming.values()):
                        if c.frm.id not in dest.coming:
                            self._edges[_Edge(c.frm, dest, TR)] = None
                    for c in list(origin.outgoing.values()):
                        if c.to.id not in dest.outgoing:
                            self._edges[_Edge(dest, c.to, TR)] = None

    def topological_sort(
        self, up_winners: bool = True, preserve_transitivity: bool = True
    ) -> list[int]:
        """Assign ranks (1 = best) and return ids best first."""
        to_sort = dict.fromkeys(self._nodes.values())
        self._detect_cycles()
        self._remove_cycling_edges(preserve_transitivity)
        out: list[int] = []
        while to_sort:
            if up_winners:
                free = [n for n in to_sort if not n.coming]
                best = min((n.sc for n in free), default=None)
            else:
                free = [n for n in to_sort if not n.outgoing]
                best = max((n.sc for n in free), default=None)
            candidates = [n for n in free if n.sc == best]
            if not candidates:  # cannot happen after cycle removal; OpenGotha would hang
                candidates = list(to_sort)
            if up_winners:
                current = 1 + len(to_sort) - len(candidates)
            else:
                current = 1 + len(self._nodes) - len(to_sort)
            for c in candidates:
                c.isolate()
                c.rank = current
                del to_sort[c]
                if up_winners:
                    out.insert(0, c.id)
                else:
                    out.append(c.id)
        self._reinit()
        return out

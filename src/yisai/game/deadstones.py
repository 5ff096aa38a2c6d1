"""An automatic, conservative proposal of dead stones for the scoring phase.

Why conservative: a wrong "dead" mark that both players carelessly accept changes a result, so
the proposal only marks stones that cannot live whatever is played:

1. Benson's algorithm finds each side's *pass-alive* chains (alive even if their owner passes
   forever) and the regions they enclose.
2. Opponent stones inside a region enclosed only by pass-alive chains are dead when that region
   has no room for two eyes: no two non-adjacent points of it have all their neighbours inside
   the region (an eye point cannot touch the encloser's unkillable stones).
3. The same "no room for two eyes" test, in a region whose enclosing chains are not pass-alive
   but are each settled (two or more liberties outside the region and more liberties than any
   chain inside it), marks clearly dead small groups in otherwise settled territory.

Anything subtler (seki, life by ko) is left to the players: the proposal is never applied until
both accept it in the scoring phase (see ``yisai.game.flow``).
"""

from __future__ import annotations

from yisai.game.board import BLACK, EMPTY, WHITE, Board


def _chains(board: Board, color: int) -> dict[int, list[int]]:
    """Chain id -> stones, for one colour."""
    out: dict[int, list[int]] = {}
    for p in board.geo.points:
        if board.color[p] == color and board.grp[p] not in out:
            out[board.grp[p]] = board.chain(p)
    return out


def _regions(board: Board, color: int) -> list[list[int]]:
    """Maximal connected sets of points that are not ``color`` (empty or the opponent)."""
    colors, nbrs = board.color, board.nbrs
    seen = [False] * len(colors)
    regions = []
    for p in board.geo.points:
        if colors[p] == color or seen[p]:
            continue
        region = [p]
        seen[p] = True
        i = 0
        while i < len(region):
            for n in nbrs[region[i]]:
                if colors[n] != color and not seen[n]:
                    seen[n] = True
                    region.append(n)
            i += 1
        regions.append(region)
    return regions


def pass_alive(board: Board, color: int) -> set[int]:
    """Benson's algorithm: the chain ids of ``color`` that are unconditionally alive."""
    colors, nbrs, grp = board.color, board.nbrs, board.grp
    chains = set(_chains(board, color))
    regions = _regions(board, color)
    borders = [{grp[n] for p in r for n in nbrs[p] if colors[n] == color} for r in regions]
    # A region is vital to a chain when every empty point of the region is its liberty.
    vital: list[set[int]] = []
    for region, border in zip(regions, borders, strict=True):
        empties = [p for p in region if colors[p] == EMPTY]
        vital.append({c for c in border if all(any(grp[n] == c for n in nbrs[e]) for e in empties)})
    live_regions = set(range(len(regions)))
    while True:
        count = dict.fromkeys(chains, 0)
        for i in live_regions:
            for c in vital[i]:
                if c in count:
                    count[c] += 1
        keep = {c for c in chains if count[c] >= 2}
        regions_left = {i for i in live_regions if borders[i] <= keep}
        if keep == chains and regions_left == live_regions:
            return chains
        chains, live_regions = keep, regions_left


def _no_room_for_two_eyes(board: Board, region: list[int]) -> bool:
    """True when no two non-adjacent points of the region have all neighbours inside it."""
    inside = set(region)
    nbrs = board.nbrs
    interior = [p for p in region if all(n in inside for n in nbrs[p])]
    for i, a in enumerate(interior):
        for b in interior[i + 1 :]:
            if b not in nbrs[a]:
                return False
    return True


def propose_dead(board: Board) -> set[int]:
    """Points of stones the proposal considers dead (both colours)."""
    dead: set[int] = set()
    colors, nbrs, grp = board.color, board.nbrs, board.grp
    for color in (BLACK, WHITE):
        other = 3 - color
        alive = pass_alive(board, color)
        other_alive = pass_alive(board, other)
        for region in _regions(board, color):
            invaders = [p for p in region if colors[p] == other]
            if not invaders or not _no_room_for_two_eyes(board, region):
                continue
            if any(grp[p] in other_alive for p in invaders):
                continue
            border = {grp[n] for p in region for n in nbrs[p] if colors[n] == color}
            if not border:
                continue  # nothing encloses it (e.g. an empty board with one stone)
            if not border <= alive:
                inside = set(region)
                most_inside = max(len(board.liberties(p)) for p in invaders)
                settled = True
                for c in border - alive:
                    libs = board.liberties(c)
                    if len(libs - inside) < 2 or len(libs) <= most_inside:
                        settled = False
                        break
                if not settled:
                    continue
            dead.update(invaders)
    return dead


__all__ = ["pass_alive", "propose_dead"]

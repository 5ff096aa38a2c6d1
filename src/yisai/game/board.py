"""The Go board: stones, captures, suicide, ko and positional superko, fast enough for a server.

Why it looks the way it does: a live platform checks every move of thousands of games, and the
benchmark asks for >=100,000 legality-checked moves per second in CPython. So the board is a flat
list with a one-point border, neighbour tables are precomputed per size, and each chain (group of
connected stones) keeps *pseudo-liberty* statistics (count, sum and sum of squares of liberty
points, one entry per stone-liberty adjacency). A chain has exactly one liberty -- it is in
atari -- exactly when ``count * sumsq == sum * sum`` (all entries are the same point). That tells
captures and suicide without flood fill. Chains are circular linked lists of stones; merging
relabels the smaller chain. Each chain carries the XOR of its stones' Zobrist keys, so the hash
after a move (captures included) is known before the move is made: superko costs one set lookup.

Points are integers (``board.point(x, y)``); ``x`` is the column from the left and ``y`` the row
from the top, as in SGF (``pd`` = x 15, y 3 = ``Q16`` on 19x19). ``PASS`` is -1.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from yisai.i18n import tr
from yisai.regulation.rules import PlayRules

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = -1
MIN_SIZE, MAX_SIZE = 2, 25
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I; 25 letters cover 25x25
_ZOBRIST_SEED = 19_19  # fixed: hashes must be identical in every process and every replay


class Reason(IntEnum):
    """Why a move is refused (0 means legal)."""

    OK = 0
    OCCUPIED = 1
    SUICIDE = 2
    KO = 3
    SUPERKO = 4

    @property
    def label(self) -> str:
        """The English key (occupied, suicide, ko, superko), stable for logs and protocols."""
        return self.name.lower()

    @property
    def text(self) -> str:
        """The reason in the reader's language, for people."""
        return tr(_REASON_ZH[self], self.name.lower())


_REASON_ZH = {Reason.OK: "合法", Reason.OCCUPIED: "该点已有棋子", Reason.SUICIDE: "禁止自杀",
              Reason.KO: "打劫须先找劫材 (不得立即提回)", Reason.SUPERKO: "全局同形 (禁止)"}


class IllegalMove(ValueError):
    """A refused move, with the reason and where it was."""

    def __init__(self, reason: Reason, color: int, point: int, coord: str) -> None:
        self.reason = reason
        self.color = color
        self.point = point
        self.coord = coord
        super().__init__(tr(f"{color_letter(color)} {coord}: 不合法: {reason.text}",
                            f"{color_letter(color)} {coord}: illegal: {reason.text}"))


def color_letter(color: int) -> str:
    return "B" if color == BLACK else "W"


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything that depends only on the board size, computed once per size."""

    size: int
    stride: int
    points: tuple[int, ...]  # on-board points, row by row from the top
    neighbours: tuple[tuple[int, ...], ...]  # on-board neighbours of every array index
    diagonals: tuple[tuple[int, ...], ...]
    zobrist: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # [colour][index]


_GEOMETRIES: dict[int, Geometry] = {}


def geometry(size: int) -> Geometry:
    """The (cached) tables for one board size."""
    geo = _GEOMETRIES.get(size)
    if geo is not None:
        return geo
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} outside {MIN_SIZE}..{MAX_SIZE}")
    stride = size + 2
    total = stride * stride
    on_board = [False] * total
    points = []
    for y in range(size):
        for x in range(size):
            p = (y + 1) * stride + x + 1
            on_board[p] = True
            points.append(p)
    neighbours = tuple(
        tuple(q for q in (p - stride, p - 1, p + 1, p + stride) if 0 <= q < total and on_board[q])
        if on_board[p]
        else ()
        for p in range(total)
    )
    diagonals = tuple(
        tuple(
            q
            for q in (p - stride - 1, p - stride + 1, p + stride - 1, p + stride + 1)
            if 0 <= q < total and on_board[q]
        )
        if on_board[p]
        else ()
        for p in range(total)
    )
    rng = random.Random(_ZOBRIST_SEED * 100 + size)
    black_keys = tuple(rng.getrandbits(64) if on_board[p] else 0 for p in range(total))
    white_keys = tuple(rng.getrandbits(64) if on_board[p] else 0 for p in range(total))
    geo = Geometry(size, stride, tuple(points), neighbours, diagonals,
                   ((0,) * total, black_keys, white_keys))
    _GEOMETRIES[size] = geo
    return geo


class Board:
    """A position plus the history needed for ko and superko.

    ``superko=True`` (positional superko, 全局同形禁止) refuses any move that recreates an
    earlier whole-board position of this game; ``superko=False`` only refuses the immediate
    recapture of a single-stone ko (simple ko) and reports repetitions in ``last_repeated`` so
    that the game can be declared a cycle (循环劫).
    """

    __slots__ = (
        "_log",
        "captures",
        "color",
        "diagonals",
        "eidx",
        "empties",
        "geo",
        "ghash",
        "grp",
        "gsize",
        "hash",
        "history",
        "ko_color",
        "ko_point",
        "last_repeated",
        "lcnt",
        "lsq",
        "lsum",
        "moves",
        "nbrs",
        "nxt",
        "size",
        "stride",
        "suicide_allowed",
        "superko",
        "to_move",
        "zob",
    )

    def __init__(self, size: int = 19, *, superko: bool = True, suicide_allowed: bool = False):
        geo = geometry(size)
        total = geo.stride * geo.stride
        self.geo = geo
        self.size = size
        self.stride = geo.stride
        self.nbrs = geo.neighbours
        self.diagonals = geo.diagonals
        self.zob = geo.zobrist
        self.superko = superko
        self.suicide_allowed = suicide_allowed
        color = [BORDER] * total
        for p in geo.points:
            color[p] = EMPTY
        self.color = color
        self.grp = [0] * total  # chain id (the index of one of its stones); 0 when empty
        self.nxt = [0] * total  # next stone of the same chain (circular)
        self.gsize = [0] * total
        self.lcnt = [0] * total  # pseudo-liberties: count, sum, sum of squares
        self.lsum = [0] * total
        self.lsq = [0] * total
        self.ghash = [0] * total  # XOR of the chain's Zobrist keys
        self.empties = list(geo.points)
        self.eidx = [0] * total
        for i, p in enumerate(self.empties):
            self.eidx[p] = i
        self.hash = 0
        self.history = {0}
        self.ko_point = 0
        self.ko_color = EMPTY
        self.captures = [0, 0, 0]  # stones captured BY black [1] and by white [2]
        self.moves = 0  # moves and passes played (setup excluded)
        self.to_move = BLACK
        self.last_repeated = False
        self._log: list[tuple] = []

    @classmethod
    def from_rules(cls, rules: PlayRules) -> Board:
        """Build from the regulation's rules of play (size, superko setting, suicide)."""
        return cls(
            rules.board_size,
            superko=rules.superko == "positional",
            suicide_allowed=rules.suicide_allowed,
        )

    # ----- coordinates -------------------------------------------------------------------
    def point(self, x: int, y: int) -> int:
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"({x}, {y}) is off a {self.size}x{self.size} board")
        return (y + 1) * self.stride + x + 1

    def xy(self, p: int) -> tuple[int, int]:
        y, x = divmod(p, self.stride)
        return x - 1, y - 1

    def gtp(self, p: int) -> str:
        """Lower-case GTP coordinate (``q16``), ``pass`` for a pass."""
        if p == PASS:
            return "pass"
        x, y = self.xy(p)
        return f"{GTP_LETTERS[x].lower()}{self.size - y}"

    def sgf(self, p: int) -> str:
        if p == PASS:
            return ""
        x, y = self.xy(p)
        return chr(97 + x) + chr(97 + y)

    def parse_gtp(self, text: str) -> int:
        """``q16`` / ``Q16`` / ``pass`` -> point; ValueError on anything else."""
        t = text.strip().upper()
        if t == "PASS":
            return PASS
        if len(t) < 2 or t[0] not in GTP_LETTERS or not t[1:].isdigit():
            raise ValueError(f"not a coordinate: {text!r}")
        return self.point(GTP_LETTERS.index(t[0]), self.size - int(t[1:]))

    # ----- queries -----------------------------------------------------------------------
    def __getitem__(self, p: int) -> int:
        return self.color[p]

    def chain(self, p: int) -> list[int]:
        """The stones of the chain at ``p`` (empty list on an empty point)."""
        if self.color[p] not in (BLACK, WHITE):
            return []
        nxt = self.nxt
        out = [p]
        s = nxt[p]
        while s != p:
            out.append(s)
            s = nxt[s]
        return out

    def liberties(self, p: int) -> set[int]:
        """Real liberties of the chain at ``p``."""
        color, nbrs = self.color, self.nbrs
        return {n for s in self.chain(p) for n in nbrs[s] if color[n] == EMPTY}

    def stones(self, color: int) -> list[int]:
        c = self.color
        return [p for p in self.geo.points if c[p] == color]

    def check(self, color: int, p: int) -> Reason:
        """Whether ``color`` may play at ``p`` now (nothing changes)."""
        return Reason(self._check(color, p)[0])

    def is_legal(self, color: int, p: int) -> bool:
        return p == PASS or self._check(color, p)[0] == 0

    def legal_moves(self, color: int) -> list[int]:
        """Every legal point for ``color`` (the UI greys out the rest); passing is always legal."""
        check = self._check
        return sorted(p for p in self.empties if check(color, p)[0] == 0)

    # ----- moves -------------------------------------------------------------------------
    def play(self, color: int, p: int) -> None:
        """Play a stone (or ``PASS``); raises IllegalMove and leaves the board unchanged."""
        if p == PASS:
            self.pass_move(color)
            return
        code = self.try_play(color, p)
        if code:
            raise IllegalMove(Reason(code), color, p, self.gtp(p))

    def pass_move(self, color: int) -> None:
        self.ko_point = 0
        self.moves += 1
        self.to_move = 3 - color
        self.last_repeated = False
        self._log.append((color, PASS))

    def _check(self, c: int, p: int) -> tuple[int, int, list[int] | None]:
        """(reason code, hash after the move, chains it captures) without changing anything."""
        color = self.color
        if color[p] != EMPTY:
            return 1, 0, None
        if p == self.ko_point and c == self.ko_color:
            return 3, 0, None
        grp, lcnt, lsum, lsq, ghash = self.grp, self.lcnt, self.lsum, self.lsq, self.ghash
        h = self.hash ^ self.zob[c][p]
        alive = False
        caps: list[int] | None = None
        for n in self.nbrs[p]:
            v = color[n]
            if v == EMPTY:
                alive = True
            else:
                r = grp[n]
                k = lcnt[r]
                s = lsum[r]
                if v == c:
                    if k * lsq[r] != s * s:
                        alive = True
                elif k * lsq[r] == s * s:
                    if caps is None:
                        caps = [r]
                        h ^= ghash[r]
                    elif r not in caps:
                        caps.append(r)
                        h ^= ghash[r]
        if not alive and caps is None:
            if not self.suicide_allowed:
                return 2, 0, None
            # Suicide where allowed: the stone and every friendly chain it joins disappear.
            h = self.hash
            seen: set[int] = set()
            for n in self.nbrs[p]:
                if color[n] == c and grp[n] not in seen:
                    seen.add(grp[n])
                    h ^= ghash[grp[n]]
        if self.superko and h in self.history:
            return 4, h, caps
        return 0, h, caps

    def try_play(self, c: int, p: int) -> int:
        """Play if legal; return 0, else the Reason code (the board is then unchanged).

        The hot path of the benchmark and of the server: no exceptions, no allocations beyond
        the capture list.
        """
        code, h, caps = self._check(c, p)
        if code:
            return code
        color = self.color
        grp, nxt, gsize = self.grp, self.nxt, self.gsize
        lcnt, lsum, lsq, ghash = self.lcnt, self.lsum, self.lsq, self.ghash
        nbrs = self.nbrs
        self.last_repeated = h in self.history
        # Place the stone as a chain of one.
        color[p] = c
        empties, eidx = self.empties, self.eidx
        i = eidx[p]
        last = empties.pop()
        if last != p:
            empties[i] = last
            eidx[last] = i
        k = s = q = 0
        pp = p * p
        for n in nbrs[p]:
            v = color[n]
            if v == EMPTY:
                k += 1
                s += n
                q += n * n
            else:
                r = grp[n]
                lcnt[r] -= 1
                lsum[r] -= p
                lsq[r] -= pp
        grp[p] = p
        nxt[p] = p
        gsize[p] = 1
        lcnt[p] = k
        lsum[p] = s
        lsq[p] = q
        ghash[p] = self.zob[c][p]
        root = p
        for n in nbrs[p]:
            if color[n] == c:
                r = grp[n]
                if r != root:
                    if gsize[r] > gsize[root]:
                        root, r = r, root
                    t = r  # relabel the smaller chain r into root
                    while True:
                        grp[t] = root
                        t = nxt[t]
                        if t == r:
                            break
                    nxt[root], nxt[r] = nxt[r], nxt[root]
                    gsize[root] += gsize[r]
                    lcnt[root] += lcnt[r]
                    lsum[root] += lsum[r]
                    lsq[root] += lsq[r]
                    ghash[root] ^= ghash[r]
        ko = 0
        if caps is not None:
            captured = 0
            for r in caps:
                captured += gsize[r]
                self._remove_chain(r)
            self.captures[c] += captured
            if captured == 1 and gsize[root] == 1 and lcnt[root] == 1:
                ko = caps[0]
        elif lcnt[root] == 0:  # allowed suicide: the whole chain goes
            self.captures[3 - c] += gsize[root]
            self._remove_chain(root)
        self.ko_point = ko
        self.ko_color = 3 - c
        self.hash = h
        self.history.add(h)
        self.moves += 1
        self.to_move = 3 - c
        self._log.append((c, p))
        return 0

    def _remove_chain(self, r: int) -> None:
        """Take a chain off the board; its points become liberties of the adjacent chains."""
        color, grp, nxt, nbrs = self.color, self.grp, self.nxt, self.nbrs
        lcnt, lsum, lsq = self.lcnt, self.lsum, self.lsq
        empties, eidx = self.empties, self.eidx
        own = color[r]
        t = r
        while True:
            color[t] = EMPTY
            eidx[t] = len(empties)
            empties.append(t)
            tt = t * t
            for m in nbrs[t]:
                v = color[m]
                if v != EMPTY and v != own:
                    g = grp[m]
                    lcnt[g] += 1
                    lsum[g] += t
                    lsq[g] += tt
            t = nxt[t]
            if t == r:
                break
        t = r
        while True:
            grp[t] = 0
            n = nxt[t]
            nxt[t] = 0
            t = n
            if t == r:
                break

    # ----- setup, undo, copy -------------------------------------------------------------
    def setup(
        self, black: Iterable[int] = (), white: Iterable[int] = (), empty: Iterable[int] = ()
    ) -> None:
        """Place or clear stones without a move (handicap, SGF AB/AW/AE); no captures happen."""
        black, white, empty = tuple(black), tuple(white), tuple(empty)
        colors = list(self.color)
        for pts, v in ((empty, EMPTY), (black, BLACK), (white, WHITE)):
            for p in pts:
                if colors[p] == BORDER:
                    raise ValueError(f"setup point {p} is off the board")
                colors[p] = v
        self._rebuild(colors)
        self.ko_point = 0
        self.history.add(self.hash)
        self._log.append(("setup", black, white, empty))

    def _rebuild(self, colors: list[int]) -> None:
        """Recompute every chain from a colour array (flood fill; setup and audits only)."""
        total = len(colors)
        self.color = colors
        self.grp = grp = [0] * total
        self.nxt = nxt = [0] * total
        self.gsize = [0] * total
        self.lcnt = [0] * total
        self.lsum = [0] * total
        self.lsq = [0] * total
        self.ghash = [0] * total
        self.empties = []
        self.eidx = [0] * total
        h = 0
        for p in self.geo.points:
            v = colors[p]
            if v == EMPTY:
                self.eidx[p] = len(self.empties)
                self.empties.append(p)
            elif grp[p] == 0:
                stones = [p]
                grp[p] = p
                i = 0
                while i < len(stones):
                    for n in self.nbrs[stones[i]]:
                        if colors[n] == v and grp[n] == 0:
                            grp[n] = p
                            stones.append(n)
                    i += 1
                for a, b in zip(stones, stones[1:] + stones[:1], strict=True):
                    nxt[a] = b
                zk = self.zob[v]
                gh = 0
                for s in stones:
                    gh ^= zk[s]
                    for n in self.nbrs[s]:
                        if colors[n] == EMPTY:
                            self.lcnt[p] += 1
                            self.lsum[p] += n
                            self.lsq[p] += n * n
                self.gsize[p] = len(stones)
                self.ghash[p] = gh
                h ^= gh
        self.hash = h

    def undo(self) -> None:
        """Take back the last action (move, pass or setup) by replaying the rest.

        Replaying costs O(moves) -- about a millisecond for a full game -- which is right for
        a referee's or player's take-back and keeps every derived table exactly as it was.
        """
        if not self._log:
            raise ValueError("nothing to undo")
        log = self._log[:-1]
        fresh = Board(self.size, superko=self.superko, suicide_allowed=self.suicide_allowed)
        for entry in log:
            if entry[0] == "setup":
                fresh.setup(*entry[1:])
            elif entry[1] == PASS:
                fresh.pass_move(entry[0])
            else:
                code = fresh.try_play(entry[0], entry[1])
                if code:  # pragma: no cover - the log only holds moves that were legal
                    raise AssertionError(f"replay refused a logged move: {entry}")
        for name in Board.__slots__:
            setattr(self, name, getattr(fresh, name))

    def copy(self) -> Board:
        """An independent board (list copies; the per-size tables are shared)."""
        b = Board.__new__(Board)
        for name in (
            "geo",
            "size",
            "stride",
            "nbrs",
            "diagonals",
            "zob",
            "superko",
            "suicide_allowed",
            "hash",
            "ko_point",
            "ko_color",
            "moves",
            "to_move",
            "last_repeated",
        ):
            setattr(b, name, getattr(self, name))
        for name in (
            "color",
            "grp",
            "nxt",
            "gsize",
            "lcnt",
            "lsum",
            "lsq",
            "ghash",
            "empties",
            "eidx",
            "captures",
            "_log",
        ):
            setattr(b, name, getattr(self, name)[:])
        b.history = set(self.history)
        return b

    @property
    def log(self) -> list[tuple]:
        """Actions so far: (colour, point) for moves/passes, ("setup", B, W, E) for setup."""
        return list(self._log)

    def state(self) -> tuple:
        """Everything that defines the position and its future legality, for equality tests."""
        chains = frozenset(
            (self.color[p], frozenset(self.chain(p)))
            for p in self.geo.points
            if self.color[p] in (BLACK, WHITE) and self.grp[p] == p
        )
        return (
            tuple(self.color),
            chains,
            self.hash,
            frozenset(self.history),
            self.ko_point,
            self.ko_color if self.ko_point else EMPTY,
            tuple(self.captures),
            self.moves,
            self.to_move,
        )

    def audit(self) -> list[str]:
        """Differences between the incremental tables and a from-scratch recomputation."""
        fresh = Board.__new__(Board)
        fresh.geo, fresh.nbrs, fresh.zob = self.geo, self.nbrs, self.zob
        fresh._rebuild(list(self.color))
        problems = []
        if fresh.hash != self.hash:
            problems.append(f"hash {self.hash:x} != recomputed {fresh.hash:x}")
        for p in self.geo.points:
            if self.color[p] in (BLACK, WHITE):
                mine = self.grp[p]
                theirs = fresh.grp[p]
                if set(self.chain(p)) != set(fresh.chain(p)):
                    problems.append(f"chain at {self.gtp(p)} differs")
                for arr in ("gsize", "lcnt", "lsum", "lsq", "ghash"):
                    if getattr(self, arr)[mine] != getattr(fresh, arr)[theirs]:
                        problems.append(f"{arr} of chain at {self.gtp(p)} differs")
        if sorted(self.empties) != sorted(fresh.empties):
            problems.append("empty-point list differs")
        if any(self.empties[self.eidx[p]] != p for p in self.empties):
            problems.append("empty-point index differs")
        return problems

    def __str__(self) -> str:
        glyph = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        rows = []
        for y in range(self.size):
            row = " ".join(glyph[self.color[self.point(x, y)]] for x in range(self.size))
            rows.append(f"{self.size - y:>2} {row}")
        rows.append("   " + " ".join(GTP_LETTERS[: self.size]))
        return "\n".join(rows)


__all__ = [
    "BLACK",
    "BORDER",
    "EMPTY",
    "GTP_LETTERS",
    "MAX_SIZE",
    "MIN_SIZE",
    "PASS",
    "WHITE",
    "Board",
    "Geometry",
    "IllegalMove",
    "Reason",
    "color_letter",
    "geometry",
]

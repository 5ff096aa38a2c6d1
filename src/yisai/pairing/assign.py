"""Exact assignment of a score group's top half to its bottom half.

Inside a score group (split order) the pairs that cross the halves cost 0 on every level
above the colour's, so once the pairing has chosen which top-half players meet bottom-half
players (every one of them, unless floats or an odd split force a same-half pair), what is
left is an *assignment problem*: top players × bottom players, lexicographic cost (forbidden,
team, colour, seat, lot). It is bipartite, so it is solved exactly and fast by scipy's sparse
Jonker–Volgenant (LAPJVsp, ``min_weight_full_bipartite_matching``), in a fraction of a
second for 2,500 × 2,500 players where one general matching (rustworkx) of the same group
takes several seconds. The levels become one integer weight exactly as in ``weights.py``,
kept below 2^50 so that the solver's double-precision sums are exact; levels that do not fit
are left out (lowest first) and the caller's certificate says what is proven.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import min_weight_full_bipartite_matching

from yisai.pairing.table import IntArray
from yisai.pairing.weights import make_radix

EXACT = 2**50  # integer weights below this are exact in double precision, sums included


def assign(n_rows: int, n_cols: int, ri: IntArray, ci: IntArray, cv: IntArray
           ) -> tuple[IntArray, IntArray] | None:
    """The lexicographically cheapest perfect assignment of ``n_rows`` rows to as many columns
    over the pairs ``ri[k]``–``ci[k]`` (distinct pairs, cost vectors ``cv[k]``): (rows, cols)
    of its pairs, or None when no perfect assignment exists or not even the top level fits."""
    if n_rows != n_cols or not n_rows or not len(ri):
        return None
    ends = np.stack([ri, n_rows + ci], axis=1)
    try:
        radix = make_radix(cv, n_rows, ends, limit=EXACT)
    except OverflowError:
        return None
    cost = cv @ np.array(radix.radix, dtype=np.int64)  # each below radix.big < 2^50
    matrix = csr_matrix(((cost + 1).astype(np.float64), (ri, ci)), shape=(n_rows, n_cols))
    try:
        rows, cols = min_weight_full_bipartite_matching(matrix)
    except ValueError:  # no perfect assignment over these pairs
        return None
    return np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)

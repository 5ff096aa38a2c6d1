"""A ranking list with the same-place final applied (seed 000: round 10, A_k–B_k for places
2k−1 and 2k): the event's final order, used by standings, prizes, awards and exports alike.

The rows keep every tie-break value of the Swiss table; only the order and the places change,
and the reason between two neighbours becomes the final's (won/lost the final, or the rule for
places below the final).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

from yisai.standings.ranking import Decision, Standings


def apply_final_places(standings: Standings, places: Sequence[tuple[int, str, str]]) -> Standings:
    """``places``: (place, player id, reason) for every player, best first; a place given
    to several players (a knockout's losers of one round) is shared (并列)."""
    by_id = {row.player.id: row for row in standings.rows}
    count = Counter(place for place, pid, _why in places if pid in by_id)
    rows = [replace(by_id[pid], place=place, shared=count[place] > 1) for place, pid, _why in places if pid in by_id]
    placed = {r.player.id for r in rows}
    rows += [r for r in standings.rows if r.player.id not in placed]  # nobody may vanish
    why = {pid: reason for _place, pid, reason in places}
    decisions = {
        (up.player.id, low.player.id): Decision("placement", "final", why.get(up.player.id, ""),
                                                up.place, low.place)
        for up, low in pairwise(rows)
    }
    return replace(standings, rows=rows, decisions=decisions)


def subset_of(standings: Standings, ids: Iterable[str]) -> Standings:
    """The rows of ``ids`` in the same order, renumbered 1..n (e.g. the women of a final order)."""
    wanted = set(ids)
    rows = [r for r in standings.rows if r.player.id in wanted]
    rows = [replace(r, place=k + 1) for k, r in enumerate(rows)]
    decisions = {
        (up.player.id, low.player.id): standings.decisions.get(
            (up.player.id, low.player.id), Decision("placement", "final", "", up.place, low.place))
        for up, low in pairwise(rows)
    }
    return replace(standings, rows=rows, decisions=decisions)

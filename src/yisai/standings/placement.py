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

from yisai.i18n import tr
from yisai.standings.ranking import Decision, StandingRow, Standings


def apply_final_places(standings: Standings, places: Sequence[tuple[int, str, str]]) -> Standings:
    """``places``: (place, player id, reason) for every player, best first; a place given
    to several players (a knockout's losers of one round) is shared (并列)."""
    by_id = {row.player.id: row for row in standings.rows}
    count = Counter(place for place, pid, _why in places if pid in by_id)
    rows = [replace(by_id[pid], place=place, shared=count[place] > 1) for place, pid, _why in places if pid in by_id]
    placed = {r.player.id for r in rows}
    rows += [r for r in standings.rows if r.player.id not in placed]  # nobody may vanish
    why = {pid: reason for _place, pid, reason in places}
    decisions = {  # each side keeps its own reason: the explanation quotes the player's
        (up.player.id, low.player.id): Decision("placement", "final", why.get(up.player.id, ""),
                                                why.get(up.player.id, ""), why.get(low.player.id, ""))
        for up, low in pairwise(rows)
    }
    return replace(standings, rows=rows, decisions=decisions)


def subset_of(standings: Standings, ids: Iterable[str], basis: str = "") -> Standings:
    """The rows of ``ids`` in the same order (e.g. the boys of a mixed list), places renumbered
    as prize lists renumber them: 1 + the number strictly ahead, so a shared place stays shared.

    Two neighbours that were neighbours in ``standings`` keep the decision between them; others
    are ordered by ``standings`` itself (``basis`` names it: 甲组男女混合排名), which is said.
    """
    wanted = set(ids)
    kept = [r for r in standings.rows if r.player.id in wanted]
    rows: list[StandingRow] = []
    for k, r in enumerate(kept):
        if k and r.place == kept[k - 1].place:  # shared in the full list, shared here
            rows.append(replace(r, place=rows[-1].place, shared=True))
            rows[-2] = replace(rows[-2], shared=True)
        else:
            rows.append(replace(r, place=k + 1, shared=False))
    full = {r.player.id: r.place for r in standings.rows}
    basis = basis or tr("全组名次", "the whole division's order")
    decisions = {}
    for up, low in pairwise(rows):
        pair = (up.player.id, low.player.id)
        if pair in standings.decisions:
            decisions[pair] = standings.decisions[pair]
        elif full[up.player.id] == full[low.player.id]:
            decisions[pair] = Decision("tie", "tie", "")
        else:
            decisions[pair] = Decision("placement", "basis", tr(
                f"按{basis}: 第{full[up.player.id]}名在第{full[low.player.id]}名之前",
                f"by {basis}: place {full[up.player.id]} before place {full[low.player.id]}"),
                up.place, low.place)
    return replace(standings, rows=rows, decisions=decisions)

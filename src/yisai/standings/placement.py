"""A ranking list with the same-place final applied (seed 000: round 10, A_k–B_k for places
2k−1 and 2k): the event's final order, used by standings, prizes, awards and exports alike.

The rows keep every tie-break value of the Swiss table; only the order and the places change,
and the reason between two neighbours becomes the final's (won/lost the final, or the rule for
places below the final).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from yisai.i18n import tr
from yisai.regulation.criteria import CRITERIA, Scope, labels_text
from yisai.regulation.stages import PlacesBelow
from yisai.standings.ranking import Decision, StandingRow, Standings

_SHARED = re.compile(r"\s*\((并列第|place ).*\)$")


def apply_final_places(standings: Standings, places: Sequence[tuple[int, str, str]]) -> Standings:
    """``places``: (place, player id, reason) for every player, best first; a place given
    to several players (a knockout's losers of one round) is shared (并列)."""
    by_id = {row.player.id: row for row in standings.rows}
    count = Counter(place for place, pid, _why in places if pid in by_id)
    rows = [replace(by_id[pid], place=place, shared=count[place] > 1) for place, pid, _why in places if pid in by_id]
    placed = {r.player.id for r in rows}
    rows += [r for r in standings.rows if r.player.id not in placed]  # nobody may vanish
    why = {pid: reason for _place, pid, reason in places}
    decisions = {}
    for up, low in pairwise(rows):
        pair = (up.player.id, low.player.id)
        kept = standings.decisions.get(pair)
        if kept is not None and up.place != low.place and why.get(pair[0]) == why.get(pair[1]):
            # same reason on both sides (two survivors of an elimination Swiss), neighbours in the
            # ranking already: what split them there still does
            decisions[pair] = kept
            continue
        # each side keeps its own reason: the explanation quotes the player's
        decisions[pair] = Decision("placement", "final", why.get(up.player.id, ""),
                                   why.get(up.player.id, ""), why.get(low.player.id, ""))
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
        elif (decided := _first_difference(standings, up, low)) is not None:
            decisions[pair] = decided
        else:
            same = _equal_before_direct(standings, up, low)
            said = (tr(f"{'、'.join(same)}都相同, ", f"equal on {', '.join(same)}; ") if same else "")
            decisions[pair] = Decision("placement", "basis", said + tr(
                f"按{basis}: 第{full[up.player.id]}名在第{full[low.player.id]}名之前 (由并列者之间的比较决定)",
                f"by {basis}: place {full[up.player.id]} before place {full[low.player.id]} "
                "(decided among the tied players)"),
                up.place, low.place)
    return replace(standings, rows=rows, decisions=decisions,
                   unranked=[r for r in standings.unranked if r.player.id in wanted])


def _first_difference(standings: Standings, up: StandingRow, low: StandingRow) -> Decision | None:
    """What put ``up`` above ``low`` in the full list when they are not neighbours there: the
    first criterion on which they differ, if no 直胜 (decided among a larger tie) comes before
    it — then the criterion itself is the reason, not "place 2 before place 4"."""
    for key in standings.keys:
        if key.direct:
            return None
        a, b = up.values.get(key.key), low.values.get(key.key)
        if a != b:
            try:
                better = (a < b) if key.lower_is_better else (a > b)  # type: ignore[operator]
            except TypeError:
                return None
            # not better: something outside the criteria put it there (全胜者冠军, a final)
            return Decision("criterion", key.key, key.label, a, b) if better else None
    return None


def _equal_before_direct(standings: Standings, up: StandingRow, low: StandingRow) -> list[str]:
    """The criteria, up to the first 直胜, on which two players are equal (said before "decided
    among the tied players", so a reader sees how far they were level)."""
    out = []
    for key in standings.keys:
        if key.direct or up.values.get(key.key) != low.values.get(key.key):
            break
        out.append(key.label)
    return out


def order_places_below(places: Sequence[tuple[int, str, str]], rules: Sequence[PlacesBelow],
                       values: Mapping[str, Mapping[str, float]]) -> list[tuple[int, str, str]]:
    """The bracket's (place, player, reason) with each rule's range re-ordered by its criteria
    (第5–8名按小组赛积分、对手分): the players the bracket put on places ``from``..``to`` take
    those places in the order of ``values`` (player → criterion → group-stage value), equal
    values sharing a place."""
    out = list(places)
    for rule in rules:
        top = rule.place_to
        inside = [e for e in out if e[0] >= rule.place_from and (top is None or e[0] <= top)]
        if not inside:
            continue
        start = min(e[0] for e in inside)

        signs = tuple((c, 1 if CRITERIA[c].lower_is_better else -1) for c in rule.criteria)

        def key(pid: str, signs: tuple[tuple[str, int], ...] = signs) -> tuple[float, ...]:
            row = values.get(pid, {})
            return tuple(row.get(c, 0.0) * sign for c, sign in signs)

        ordered = sorted(inside, key=lambda e: key(e[1]))  # stable: the bracket's order among equals
        span = (tr(f"第{rule.place_from}名以后", f"places {rule.place_from} on") if top is None else
                tr(f"第{rule.place_from}–{top}名", f"places {rule.place_from}–{top}"))
        zh, en = labels_text(rule.criteria, Scope.PLACEMENT)
        redone: dict[str, tuple[int, str, str]] = {}
        place = start
        for k, (_old, pid, why) in enumerate(ordered):
            if k and key(pid) != key(ordered[k - 1][1]):
                place = start + k
            row = values.get(pid, {})
            shown = ", ".join(f"{CRITERIA[c].label_in(Scope.PLACEMENT).zh}{row.get(c, 0):g}" for c in rule.criteria)
            how = _SHARED.sub("", why)  # the bracket's "(place 5=)" no longer holds
            redone[pid] = (place, pid, tr(f"{how}; {span}按{zh}: {shown}", f"{how}; {span} by {en}: {shown}"))
        out = [redone.get(e[1], e) for e in out]
    return sorted(out, key=lambda e: e[0])

"""A filtered ranking list (女子, 男子 …) is the division's order renumbered as the prize lists
renumber it: 1 + the number strictly ahead in the list, so a place shared in the whole list stays
shared when both players are kept, and is no longer shared when only one is."""

from __future__ import annotations

from yisai.standings.model import StandingsPlayer
from yisai.standings.placement import subset_of
from yisai.standings.ranking import Decision, StandingRow, Standings


def _whole() -> Standings:
    """P1 first, P2 and P3 share 2nd (every criterion equal), P4 4th."""
    rows = [StandingRow(place, StandingsPlayer(pid, pid), {}, shared=pid in ("P2", "P3"))
            for place, pid in ((1, "P1"), (2, "P2"), (2, "P3"), (4, "P4"))]
    decisions = {("P1", "P2"): Decision("criterion", "score", "积分", 6, 4),
                 ("P2", "P3"): Decision("tie", "tie", ""),
                 ("P3", "P4"): Decision("criterion", "score", "积分", 4, 2)}
    return Standings(rows=rows, keys=[], round=3, decisions=decisions)


def test_a_shared_place_stays_shared_when_both_are_kept() -> None:
    st = subset_of(_whole(), ["P2", "P3", "P4"], "全组")
    assert [(r.player.id, r.place, r.shared) for r in st.rows] == [("P2", 1, True), ("P3", 1, True), ("P4", 3, False)]
    assert "并列" in st.explain("P3").text() and "由积分决定: 4 对 2 (高者列前)" in st.explain("P3").text()


def test_non_neighbours_are_ordered_by_the_whole_list_and_it_is_said() -> None:
    st = subset_of(_whole(), ["P1", "P3"], "甲组男女混合排名")
    assert [(r.player.id, r.place, r.shared) for r in st.rows] == [("P1", 1, False), ("P3", 2, False)]
    assert "按甲组男女混合排名: 第1名在第2名之前" in st.explain("P3").text()

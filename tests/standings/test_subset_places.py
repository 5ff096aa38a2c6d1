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


def _keyed(values: dict[str, dict[str, int]]) -> Standings:
    """Q1 … Q4 in this order, ranked by 积分, then 直胜, then 对手分."""
    from yisai.standings.ranking import RankKey

    rows = [StandingRow(k + 1, StandingsPlayer(pid, pid), values[pid]) for k, pid in enumerate(values)]
    keys = [RankKey("score", "积分"), RankKey("direct", "直胜", direct=True), RankKey("sos", "对手分")]
    return Standings(rows=rows, keys=keys, round=3, decisions={})


def test_non_neighbours_are_explained_by_the_criterion_that_parted_them() -> None:
    """#31 item 4: Q1 (积分 6) and Q3 (积分 4) are not neighbours in the whole list; in the sub-list
    the reason is the 积分, in words, not "第1名在第3名之前"."""
    st = subset_of(_keyed({"Q1": {"score": 6, "sos": 1}, "Q2": {"score": 5, "sos": 1},
                           "Q3": {"score": 4, "sos": 9}, "Q4": {"score": 4, "sos": 2}}), ["Q1", "Q3"], "全组")
    assert "低于 第1名 Q1: 由积分决定: 4 对 6 (高者列前)" in st.explain("Q3").text()


def test_a_tie_decided_after_direct_says_how_far_they_were_level() -> None:
    """Q2 and Q4 both have 积分 4; 直胜 comes next, so which criterion parted them in the whole list
    is not known from the values alone: the equal ones are said, then the whole list's order."""
    st = subset_of(_keyed({"Q1": {"score": 6, "sos": 1}, "Q2": {"score": 4, "sos": 1},
                           "Q3": {"score": 4, "sos": 5}, "Q4": {"score": 4, "sos": 9}}), ["Q2", "Q4"], "全组")
    assert ("低于 第1名 Q2: 积分都相同, 按全组: 第2名在第4名之前 (由并列者之间的比较决定)"
            in st.explain("Q4").text())

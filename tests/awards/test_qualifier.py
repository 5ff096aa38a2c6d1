"""线上海选赛晋级 (seed 000 十(一)1): top N by points, ties by wins, still tied → all qualify."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.awards.awardfields import shanhai
from yisai.awards.qualifier import LadderRecord, qualify, qualify_period, quota_for


def recs(**kw: tuple[int, int]) -> dict[str, LadderRecord]:
    return {k: LadderRecord(*v) for k, v in kw.items()}


def test_wins_break_points_ties():
    r = recs(a=(10, 5), b=(8, 6), c=(8, 4), d=(6, 9))
    q = qualify(r, 2)
    assert q.qualified == ("a", "b")
    assert [(x.player_id, x.place) for x in q.rows] == [("a", 1), ("b", 2), ("c", 3), ("d", 4)]


def test_still_tied_all_qualify():
    r = recs(a=(10, 5), b=(8, 6), c=(8, 6), d=(8, 6), e=(8, 5))
    q = qualify(r, 2)
    assert q.qualified == ("a", "b", "c", "d")
    assert q.extra == 2
    assert "并列晋级" in q.rows[2].note
    assert [x.place for x in q.rows] == [1, 2, 2, 2, 5]


def test_fewer_players_than_quota_all_qualify():
    assert qualify(recs(a=(0, 0), b=(-2, 0)), 38).qualified == ("a", "b")


def test_seed_quotas_open_38_youth_30():
    ladder = shanhai().stage("online").format
    assert quota_for(ladder, "open") == ("open", 38)
    assert quota_for(ladder, "junior") == ("youth", 30)
    assert quota_for(ladder, "kids") == ("youth", 30)
    # 40 players with distinct points: exactly 38; players 38 and 39 tied on points and wins → 39
    r = {f"x{i:02d}": LadderRecord(100 - 2 * i, 50 - i) for i in range(40)}
    assert len(qualify_period(ladder, "open", r).qualified) == 38
    r["x38"] = r["x37"]
    assert len(qualify_period(ladder, "open", r).qualified) == 39


def test_already_qualified_do_not_take_a_place():
    q = qualify(recs(a=(10, 5), b=(8, 6), c=(6, 1)), 2, exclude={"a"})
    assert q.qualified == ("b", "c")


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text("abcdef", min_size=1, max_size=3),
        st.tuples(st.integers(-20, 20), st.integers(0, 10)),
        max_size=30,
    ),
    st.integers(0, 12),
)
def test_properties(raw, quota):
    r = {k: LadderRecord(*v) for k, v in raw.items()}
    q = qualify(r, quota)
    qualified = set(q.qualified)
    assert len(qualified) >= min(quota, len(r))
    for a in qualified:
        for b in set(r) - qualified:
            ka, kb = (r[a].points, r[a].wins), (r[b].points, r[b].wins)
            assert ka > kb  # a qualified player is strictly better than any left out
    if len(qualified) > quota:  # extras only through a tie with the quota-th player
        keys = sorted(((v.points, v.wins) for v in r.values()), reverse=True)
        assert all((r[p].points, r[p].wins) >= keys[quota - 1] for p in qualified)

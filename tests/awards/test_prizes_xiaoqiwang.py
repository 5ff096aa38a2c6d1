"""Seed 002 九 录取名次与奖励 on hand-made fields; expected values from the regulation text."""

from __future__ import annotations

from datetime import date

from tests.awards.awardfields import player, results, table, team, xiaoqiwang
from yisai.awards.prizes import awarded_places, compute_prizes

BIRTH = {"jia": date(2013, 6, 1), "yi": date(2016, 6, 1), "bing": date(2018, 6, 1)}


def group(division: str, boys: int, girls: int):
    """A division's mixed ranking: boys and girls alternate while both last."""
    b = [f"{division}-b{i}" for i in range(1, boys + 1)]
    g = [f"{division}-g{i}" for i in range(1, girls + 1)]
    order = []
    while b or g:
        if b:
            order.append(b.pop(0))
        if g:
            order.append(g.pop(0))
    players = [player(p, "F" if "-g" in p else "M", birth=BIRTH[division]) for p in order]
    return players, table(division, "mixed", order)


def test_n_minus_1_rule():
    # 若报名人数不足8人，按照总人数减1录取 (the list's rule as data: fewer_entrants = n_minus_1)
    rules = xiaoqiwang().prizes.lists[1].entrant_rules()
    assert [awarded_places(8, n, rules)[0] for n in (38, 8, 7, 5, 1)] == [8, 8, 6, 4, 0]


def test_top_8_per_group_and_gender_values_per_group_and_participation():
    pj, tj = group("jia", 38, 38)
    py, ty = group("yi", 10, 7)
    pb, tb = group("bing", 8, 5)
    rep = compute_prizes(results(xiaoqiwang(), pj + py + pb, [tj, ty, tb]))
    # 甲组男、女：冠军12000，第二名6000、第三名3000，第四到八名1000
    jia = [12000, 6000, 3000] + [1000] * 5
    assert [ln.amount for ln in rep.list("jia-boys").lines] == jia
    assert [ln.amount for ln in rep.list("jia-girls").lines] == jia
    assert [ln.player_id for ln in rep.list("jia-girls").lines] == [f"jia-g{i}" for i in range(1, 9)]
    # 乙组男 10 entrants → 8; 乙组女 7 entrants → 7−1 = 6
    yi = [8000, 4000, 2000] + [1000] * 5
    assert [ln.amount for ln in rep.list("yi-boys").lines] == yi
    assert [ln.amount for ln in rep.list("yi-girls").lines] == yi[:6]
    assert rep.list("yi-girls").places == 6
    # 丙组男 8 entrants → 8 (not fewer than 8); 丙组女 5 → 4
    bing = [6000, 3000, 1500] + [800] * 5
    assert [ln.amount for ln in rep.list("bing-boys").lines] == bing
    assert [ln.amount for ln in rep.list("bing-girls").lines] == bing[:4]
    # 其余棋手获参赛奖，奖励价值500元: 76 − 16, 17 − 14, 13 − 12 players
    part = next(pl for pl in rep.lists if pl.source == "participation")
    assert len(part.lines) == 60 + 3 + 1
    assert all(ln.amount == 500 for ln in part.lines)
    assert "bing-g5" in {ln.player_id for ln in part.lines}
    assert "yi-g7" in {ln.player_id for ln in part.lines}
    expected_total = 2 * sum(jia) + sum(yi) + sum(yi[:6]) + sum(bing) + sum(bing[:4]) + 64 * 500
    assert rep.total == expected_total
    assert rep.totals_by_kind == {"ecard": expected_total}
    # nobody receives two things
    per = {}
    for pl in rep.lists:
        for ln in pl.lines:
            assert ln.player_id not in per
            per[ln.player_id] = pl.id


def test_team_top_8_honours_by_sum_of_places():
    # 10 provinces, each with one boy and one girl in each group; province k's players are
    # k-th in every one of the six lists, except province 10 which sent only 5 players.
    players, tables, teams = [], [], []
    for div in ("jia", "yi", "bing"):
        order = []
        for k in range(1, 11):
            order += [f"{div}-b{k}", f"{div}-g{k}"]
        players += [player(p, "F" if "-g" in p else "M", birth=BIRTH[div]) for p in order]
        tables.append(table(div, "mixed", order))
    for k in range(1, 11):
        members = [f"{d}-{s}{k}" for d in ("jia", "yi", "bing") for s in ("b", "g")]
        if k == 10:
            members = members[:5]
        teams.append(team(f"p{k}", members))
    rep = compute_prizes(results(xiaoqiwang(), players, tables, teams=teams))
    honours = rep.list("team")
    # 团体录取前8名，颁发奖牌、荣誉证书 (no money); only teams of 6 are ranked
    assert [(ln.team_id, ln.place) for ln in honours.lines] == [(f"p{k}", k) for k in range(1, 9)]
    assert all(ln.amount == 0 for ln in honours.lines)
    assert honours.items == ("奖牌", "荣誉证书")


def test_summary_does_not_call_amounts_pre_tax_when_the_regulation_does_not():
    # Seed 002 九 says nothing about tax (the file sets pre_tax = false): no "税前" anywhere in
    # the printed summary; the file's own value note is printed instead.
    from yisai.formats.awards_report import prize_summary

    pj, tj = group("jia", 10, 10)
    rep = compute_prizes(results(xiaoqiwang(), pj, [tj]))
    notes = prize_summary(rep).notes
    assert not any("税前" in n and "未注明" not in n for n in notes)
    assert "奖励相应价值电商卡（规程未注明税前或税后）" in notes

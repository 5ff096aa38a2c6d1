"""段位申报 (seed 000 十三(二), seed 002 九(四)) walked on hand-made fields.

Each expected value is read off the regulation sentence quoted above the test.
"""

from __future__ import annotations

from datetime import date

from tests.awards.awardfields import player, results, shanhai, table, xiaoqiwang
from yisai.awards.rank_awards import RankAwardReport, compute_rank_awards
from yisai.registry.person import ProStatus

NEW_PRO = ProStatus.NEW_PRO


def field(division, top, six_dans, five_dans=0, others=0, birth=date(1990, 1, 1)):
    """``top`` players (in place order) then fillers: ``six_dans`` at 6段, ``five_dans`` at 5段,
    ``others`` at 3段. Returns players and the division's mixed ranking."""
    players = list(top)
    players += [player(f"six{i}", rank="6段", birth=birth) for i in range(six_dans)]
    players += [player(f"five{i}", rank="5段", birth=birth) for i in range(five_dans)]
    players += [player(f"low{i}", rank="3段", birth=birth) for i in range(others)]
    return players, table(division, "mixed", [p.id for p in players])


def tops(n, rank="4段", birth=date(1990, 1, 1)):
    return [player(f"p{i}", rank=rank, birth=birth) for i in range(1, n + 1)]


def grants(rep: RankAwardReport, division: str) -> dict[str, list[str]]:
    """rank label → recipients, for the grants that apply."""
    out: dict[str, list[str]] = {}
    for rule in rep.rules:
        if rule.division != division:
            continue
        for g in rule.grants:
            if g.applies:
                out.setdefault(g.recipients[0].rank if g.recipients else g.label, []).extend(
                    r.player_id for r in g.recipients
                )
    return out


def open_awards(players, t):
    return compute_rank_awards(results(shanhai(), players, [t]))


# 十三(二)1 总决赛公开组个人第1名可申报业余8段（顺延到前4名）或职业初段。参赛6段（含）以上棋手
# 达到90人，个人第2-4名可申报业余7段（顺延到前20名）；达到60人，个人第2-3名可申报业余7段
# （顺延到前16名）；达到30人，个人第2名可申报业余7段（顺延到前12名）；第3-10名可申报业余6段
# （顺延到前32名）。  [file: the 6段 grant applies from 30 upward; 7段 holders pass it on]

P = [f"p{i}" for i in range(1, 41)]


def test_open_59_six_dans_is_the_30_tier():
    rep = open_awards(*field("open", tops(40), six_dans=59))
    g = grants(rep, "open")
    assert g == {"业余8段": ["p1"], "职业初段": ["p1"], "业余7段": ["p2"], "业余6段": P[2:10]}
    tier = next(x for x in rep.rules[0].grants if x.label.startswith("个人第2名至第3名"))
    assert not tier.applies and "59人" in tier.conditions[0].text


def test_open_60_six_dans_second_and_third_get_7_dan():
    rep = open_awards(*field("open", tops(40), six_dans=60))
    g = grants(rep, "open")
    assert g["业余7段"] == ["p2", "p3"]
    # 第3-10名 6段: 3rd already has 7段 this year → it passes on: places 4..11
    assert g["业余6段"] == P[3:11]


def test_open_89_versus_90():
    g89 = grants(open_awards(*field("open", tops(40), six_dans=89)), "open")
    assert g89["业余7段"] == ["p2", "p3"]
    g90 = grants(open_awards(*field("open", tops(40), six_dans=90)), "open")
    assert g90["业余7段"] == ["p2", "p3", "p4"]
    assert g90["业余6段"] == P[4:12]


def test_open_29_six_dans_only_the_champion():
    g = grants(open_awards(*field("open", tops(40), six_dans=29)), "open")
    assert g == {"业余8段": ["p1"], "职业初段": ["p1"]}


def test_champion_holding_8_dan_passes_8_dan_to_second_keeps_professional_option():
    top = tops(40)
    top[0] = player("p1", rank="8段")
    rep = open_awards(*field("open", top, six_dans=30))
    eight = rep.rules[0].grants[0]
    assert [(r.player_id, r.slot_place, r.passed_down) for r in eight.recipients] == [("p2", 1, True)]
    assert [(s.player_id, s.reason) for s in eight.skipped] == [("p1", "已持有业余8段（不低于8段）")]
    pro = rep.rules[0].grants[1]
    assert [r.player_id for r in pro.recipients] == ["p1"]
    assert "申报期限为夺冠之日起的一年内" in pro.recipients[0].note
    g = grants(rep, "open")
    # 2nd got 8段 by 顺延, so the 7段 for 第2名 passes to 3rd, and the 6段 to 4th..11th
    assert g["业余7段"] == ["p3"]
    assert g["业余6段"] == P[3:11]
    applicants = {a.player_id: a.options for a in rep.applicants()}
    assert applicants["p1"] == ("职业初段",)
    assert applicants["p2"] == ("业余8段",)


def test_8_dan_never_below_4th():
    top = [player(f"p{i}", rank="8段") for i in range(1, 5)] + tops(40)[4:]
    rep = open_awards(*field("open", top, six_dans=10))
    eight = rep.rules[0].grants[0]
    assert eight.recipients == ()
    assert eight.vacant == 1
    assert [s.player_id for s in eight.skipped] == ["p1", "p2", "p3", "p4"]


def test_champion_with_alternative_shows_both_options():
    rep = open_awards(*field("open", tops(40), six_dans=0))
    a = next(a for a in rep.applicants() if a.player_id == "p1")
    assert a.options == ("业余8段", "职业初段")
    assert a.text == "业余8段或职业初段"


# 十三(二)3 授予业余段位的名次和顺延仅限业余棋手（不含当年新定段的职业棋手）的排名。


def test_new_professional_in_second_place():
    top = tops(40)
    top[1] = player("p2", rank="6段", pro=NEW_PRO)
    rep = open_awards(*field("open", top, six_dans=30))
    seven = next(g for g in rep.rules[0].grants if g.applies and g.grant.rank == "7段")
    # amateurs' 2nd is the 3rd overall: he gets 第2名's 7段 (not by 顺延, by the amateurs' count)
    r = seven.recipients[0]
    assert (r.player_id, r.place, r.counted_place, r.passed_down) == ("p3", 3, 2, False)
    assert [s.player_id for s in seven.skipped] == ["p2"]
    assert "当年新定段的职业棋手" in seven.skipped[0].reason
    six = next(g for g in rep.rules[0].grants if g.applies and g.grant.rank == "6段")
    # amateurs' 3rd..10th = overall 4th..11th
    assert [x.player_id for x in six.recipients] == P[3:11]


def test_limit_is_counted_among_amateurs():
    # New pro 2nd; amateurs' 2nd..11th (overall 3..12) already hold 7段; the amateurs' 12th
    # (13th overall) is still within 顺延到前12名 and gets it.
    top = tops(40)
    top[1] = player("p2", rank="6段", pro=NEW_PRO)
    for i in range(2, 12):
        top[i] = player(f"p{i + 1}", rank="7段")
    rep = open_awards(*field("open", top, six_dans=30))
    seven = next(g for g in rep.rules[0].grants if g.applies and g.grant.rank == "7段")
    assert [(r.player_id, r.place, r.counted_place) for r in seven.recipients] == [("p13", 13, 12)]
    assert len(seven.skipped) == 11  # the new pro and ten 7段 holders, each with a reason
    # one more 7段 holder and nobody inside the limit is left
    top[12] = player("p13", rank="7段")
    rep = open_awards(*field("open", top, six_dans=30))
    seven = next(g for g in rep.rules[0].grants if g.applies and g.grant.rank == "7段")
    assert seven.recipients == () and seven.vacant == 1


def test_new_professional_champion():
    # The amateurs' 1st (2nd overall) may apply for 业余8段; 职业初段 is for the champion, who
    # already is a professional, so nobody gets it.
    top = tops(40)
    top[0] = player("p1", rank="6段", pro=NEW_PRO)
    rep = open_awards(*field("open", top, six_dans=0))
    assert [r.player_id for r in rep.rules[0].grants[0].recipients] == ["p2"]
    pro = rep.rules[0].grants[1]
    assert pro.recipients == () and "已是职业棋手" in pro.skipped[0].reason


def test_professional_is_not_an_amateur_place():
    top = tops(40)
    top[0] = player("p1", rank=None, pro=ProStatus.PRO)
    rep = open_awards(*field("open", top, six_dans=0))
    eight = rep.rules[0].grants[0]
    assert [r.player_id for r in eight.recipients] == ["p2"]
    assert "职业棋手" in eight.skipped[0].reason


# 十三(二)2 中老年组参赛6段（含）以上棋手达到30人，个人第1名可申报业余7段（顺延到前8名），个人第2名
# 可申报业余6段（顺延到前20名）；参赛6段（含）以上棋手不足30人，参赛5段（含）以上棋手达到100人，
# 个人前两名可申报业余6段（顺延到前20名）；参赛6段（含）以上棋手不足30人，参赛5段（含）以上棋手
# 达到50人不足100人，个人第1名可申报业余6段（顺延到前10名）。

SENIOR_BIRTH = date(1970, 1, 1)


def senior(six, five):
    players, t = field("senior", tops(10, birth=SENIOR_BIRTH), six_dans=six, five_dans=five,
                       birth=SENIOR_BIRTH)
    return grants(compute_rank_awards(results(shanhai(), players, [t])), "senior")


def test_senior_tiers():
    assert senior(30, 0) == {"业余7段": ["p1"], "业余6段": ["p2"]}
    assert senior(29, 71) == {"业余6段": ["p1", "p2"]}  # 29 + 71 = 100 at 5段 or more
    assert senior(29, 70) == {"业余6段": ["p1"]}  # 99
    assert senior(29, 21) == {"业余6段": ["p1"]}  # 50
    assert senior(29, 20) == {}  # 49
    assert senior(0, 100) == {"业余6段": ["p1", "p2"]}


def test_senior_30_tier_6_dan_passes_over_6_dan_holders_until_20th():
    top = tops(30, birth=SENIOR_BIRTH)
    for i in range(1, 19):  # 2nd..19th hold 6段
        top[i] = player(f"p{i + 1}", rank="6段", birth=SENIOR_BIRTH)
    players, t = field("senior", top, six_dans=12, birth=SENIOR_BIRTH)
    rep = compute_rank_awards(results(shanhai(), players, [t]))
    six = next(g for g in rep.rules[1].grants if g.applies and g.grant.rank == "6段")
    assert [(r.player_id, r.slot_place) for r in six.recipients] == [("p20", 2)]
    assert len(six.skipped) == 18


# 九(四)1 甲组参赛6段（含）以上棋手达到60人，授予男女混合排名前两名7段（顺延到前8名），第三、四、五名
# 6段（顺延到前30名）；参赛6段（含）以上棋手达到30人不足60人，授予男女混合排名第一名7段（顺延到前4
# 名），第二、三、四名6段（顺延到前20名）；参赛6段（含）以上棋手不[足]30人，参赛棋手达到50人（含）
# 以上，授予男女混合排名第一名6段（顺延到前10名）。2、3 乙组、丙组参赛人数达到50人（含）以上，授予男女
# 混合排名第一名6段（顺延到前10名）。

JIA = date(2013, 6, 1)


def xqw(division, six, others, birth=JIA):
    players, t = field(division, tops(10, birth=birth), six_dans=six, others=others, birth=birth)
    return grants(compute_rank_awards(results(xiaoqiwang(), players, [t])), division)


def test_jia_tiers():
    assert xqw("jia", 60, 0) == {"业余7段": ["p1", "p2"], "业余6段": ["p3", "p4", "p5"]}
    assert xqw("jia", 59, 0) == {"业余7段": ["p1"], "业余6段": ["p2", "p3", "p4"]}
    assert xqw("jia", 30, 0) == {"业余7段": ["p1"], "业余6段": ["p2", "p3", "p4"]}
    assert xqw("jia", 29, 11) == {"业余6段": ["p1"]}  # 10 + 29 + 11 = 50 entrants
    assert xqw("jia", 29, 10) == {}  # 49 entrants


def test_yi_and_bing_need_50_entrants():
    assert xqw("yi", 0, 40, date(2016, 1, 1)) == {"业余6段": ["p1"]}
    assert xqw("yi", 0, 39, date(2016, 1, 1)) == {}
    assert xqw("bing", 0, 40, date(2018, 6, 1)) == {"业余6段": ["p1"]}
    assert xqw("bing", 0, 39, date(2018, 6, 1)) == {}

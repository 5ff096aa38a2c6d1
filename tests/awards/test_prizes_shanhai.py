"""Seed 000 十三(一) 总决赛奖励, sentence by sentence, on hand-made fields.

Expected amounts are read off the regulation text, not from our output.
"""

from __future__ import annotations

from datetime import date

from tests.awards.awardfields import player, results, shanhai, table, team
from yisai.awards.prizes import compute_prizes

# 1、冠军60000元，亚军30000元，季军20000元，第四名10000元，第五名至第六名5000元，
#    第七名至第八名3000元，第九名至第三十二名1000元。
MIXED = [60000, 30000, 20000, 10000, 5000, 5000, 3000, 3000] + [1000] * 24
# 2、冠军10000元，亚军5000元，季军3000元，第四名1000元，第五名800元，第六名600元。
WOMEN = [10000, 5000, 3000, 1000, 800, 600]


def open_field(women_at: dict[int, str] | None = None, n: int = 40):
    """n players in the open final; ``women_at`` maps overall place -> woman's id."""
    women_at = women_at or {}
    pids = [women_at.get(i, f"m{i}") for i in range(1, n + 1)]
    players = [player(pid, "F" if pid in women_at.values() else "M") for pid in pids]
    return players, pids


def test_mixed_top_32_exactly_as_written():
    players, pids = open_field()
    rep = compute_prizes(results(shanhai(), players, [table("open", "mixed", pids)]))
    mixed = rep.list("open-mixed")
    assert [ln.amount for ln in mixed.lines] == MIXED
    assert [ln.player_id for ln in mixed.lines] == pids[:32]
    assert mixed.total == 160000
    assert rep.list("open-women").lines == ()


def test_woman_fifth_overall_takes_mixed_fifth_and_womens_first():
    # A woman 5th overall: she takes 5th place and its 5000 (名次不再顺延), the man 6th keeps
    # 6th (5000); and 女子选手获得混合名次奖金可累积 → she also gets women's 1st, 10000.
    players, pids = open_field({5: "w1"})
    rep = compute_prizes(results(shanhai(), players, [table("open", "mixed", pids)]))
    mixed = rep.list("open-mixed")
    assert mixed.lines[4].player_id == "w1" and mixed.lines[4].amount == 5000
    assert mixed.lines[5].player_id == "m6" and mixed.lines[5].amount == 5000
    assert mixed.lines[31].player_id == "m32"  # the 33rd is not pulled in
    assert len(mixed.lines) == 32
    women = rep.list("open-women")
    assert [(ln.player_id, ln.amount) for ln in women.lines] == [("w1", 10000)]
    assert rep.per_player()["w1"] == 15000
    assert rep.total == 160000 + 10000


def test_womens_top_6_from_women_only_order():
    # Eight women at overall places 5, 12, 20, 33, 34, 35, 36, 37.
    at = {5: "w1", 12: "w2", 20: "w3", 33: "w4", 34: "w5", 35: "w6", 36: "w7", 37: "w8"}
    players, pids = open_field(at)
    rep = compute_prizes(results(shanhai(), players, [table("open", "mixed", pids)]))
    women = rep.list("open-women")
    assert [(ln.player_id, ln.place, ln.amount) for ln in women.lines] == [
        ("w1", 1, 10000), ("w2", 2, 5000), ("w3", 3, 3000),
        ("w4", 4, 1000), ("w5", 5, 800), ("w6", 6, 600),
    ]
    per = rep.per_player()
    assert per["w1"] == 5000 + 10000
    assert per["w2"] == 1000 + 5000  # 12th overall: 第九名至第三十二名1000元
    assert per["w3"] == 1000 + 3000
    assert per["w4"] == 1000  # 33rd overall: women's prize only
    assert "w7" not in per and "w8" not in per


def test_mens_team_top_6_and_womens_team_top_3():
    # 8 city teams of 3 men + 2 women; the open ranking gives every player's score.
    # Team k's men score 10-k each, its women 8-k each, so team 1 is best on both.
    players, pids, scores, sos = [], [], [], []
    teams = []
    for k in range(1, 9):
        men = [f"t{k}m{j}" for j in range(3)]
        women = [f"t{k}w{j}" for j in range(2)]
        players += [player(m) for m in men] + [player(w, "F") for w in women]
        teams.append(team(f"city{k}", men + women))
        for m in men:
            pids.append(m), scores.append(10 - k), sos.append(50)
        for w in women:
            pids.append(w), scores.append(8 - k), sos.append(50)
    order = sorted(range(len(pids)), key=lambda i: -scores[i])
    places = []
    for pos, i in enumerate(order, start=1):
        places.append(pos if pos == 1 or scores[i] != scores[order[pos - 2]] else places[-1])
    t = table("open", "mixed", [pids[i] for i in order], [scores[i] for i in order],
              [sos[i] for i in order], places)
    rep = compute_prizes(results(shanhai(), players, [t], teams=teams))
    men = rep.list("men-team")
    # 3、冠军10000元，亚军6000元，季军4000元，第四名3000元，第五名800元，第六名600元。
    assert [(ln.team_id, ln.amount) for ln in men.lines] == [
        ("city1", 10000), ("city2", 6000), ("city3", 4000),
        ("city4", 3000), ("city5", 800), ("city6", 600),
    ]
    women = rep.list("women-team")
    # 4、冠军8000元，亚军5000元，季军2000元。
    assert [(ln.team_id, ln.amount) for ln in women.lines] == [
        ("city1", 8000), ("city2", 5000), ("city3", 2000),
    ]


def test_girl_inside_youth_top_16_keeps_place_but_prizes_do_not_cumulate():
    # 少年组男子个人录取前16名（如有女子选手进入前16名，名次不再顺延）: a girl 3rd takes 3rd;
    # boys 4th..16th keep their places; 17th gets nothing. Girls' list: she is 1st. Unlike
    # 十三(一)2 for open women, 十三(一)5(2) says nothing about 累积, so she is paid only the
    # larger prize (girls' 1st, 3000 > mixed 3rd, 2000); the mixed 3rd line pays 0 and
    # nobody moves up (the file's open point says so).
    pids = [f"b{i}" for i in range(1, 21)]
    pids[2] = "g1"
    pids[19] = "g2"
    players = [player(p, "F" if p.startswith("g") else "M", birth=date(2014, 1, 1)) for p in pids]
    rep = compute_prizes(results(shanhai(), players, [table("junior", "mixed", pids)]))
    boys = rep.list("junior-mixed")
    # 冠军6000元，亚军4000元，季军2000元，第四名至第十名1000元，第十一名至第十六名800元。
    assert [ln.amount for ln in boys.lines] == [6000, 4000, 0] + [1000] * 7 + [800] * 6
    assert boys.lines[2].player_id == "g1" and boys.lines[2].nominal == 2000
    assert boys.lines[3].player_id == "b4"
    assert boys.lines[15].player_id == "b16"
    girls = rep.list("junior-girls")
    # 冠军3000元，亚军2000元 …
    assert [(ln.player_id, ln.amount) for ln in girls.lines] == [("g1", 3000), ("g2", 2000)]
    assert rep.per_player()["g1"] == 3000


def test_only_open_women_cumulate_and_the_junior_reading_is_an_open_point():
    from yisai.formats.regulation_summary import summarize

    reg = shanhai()
    cumulative = {pl.id: pl.cumulative_with for pl in reg.prizes.lists if pl.cumulative_with}
    assert cumulative == {"open-women": ["open-mixed"]}
    shown = "\n".join(summarize(reg))
    assert "少年组女子个人奖金与少年组男子个人（混合）名次奖金" in shown


def test_kids_top_8_and_best_girl():
    # 幼儿组 冠军2000元，亚军1500元，季军800元，第四名至第八名500元; 最佳女棋手奖800元.
    pids = [f"k{i}" for i in range(1, 13)]
    pids[9] = "girl10"
    players = [player(p, "F" if p.startswith("girl") else "M", birth=date(2020, 1, 1)) for p in pids]
    rep = compute_prizes(results(shanhai(), players, [table("kids", "mixed", pids)]))
    assert [ln.amount for ln in rep.list("kids").lines] == [2000, 1500, 800, 500, 500, 500, 500, 500]
    best = rep.list("kids-best-girl")
    assert [(ln.player_id, ln.amount) for ln in best.lines] == [("girl10", 800)]
    assert rep.per_player()["girl10"] == 800

    pids[1], pids[9] = "girl10", "k2"  # now she is 2nd: 1500 and the 800 (单设, 可累积)
    rep = compute_prizes(results(shanhai(), players, [table("kids", "mixed", pids)]))
    assert rep.per_player()["girl10"] == 1500 + 800


def senior_field():
    """20 seniors; the final's first day is 2025-11-07 (八(二)3、总决赛 11月7日--11月11日)."""
    births = {}
    pids = [f"s{i}" for i in range(1, 21)]
    for i, pid in enumerate(pids, start=1):
        births[pid] = date(1960, 3, 1) if i % 2 else date(1975, 3, 1)  # odd places are 65
    births["s2"] = date(1965, 11, 7)  # 60 exactly on 2025-11-07
    births["s4"] = date(1965, 11, 8)  # turns 60 the day after the first day: 59
    births["s6"] = date(1965, 11, 11)  # 60 on the last day, 59 on the first
    return pids, births


def test_senior_top_16_best_woman_and_60_plus_gift_by_age_on_first_day():
    pids, births = senior_field()
    women = {"s7", "s18"}
    players = [player(p, "F" if p in women else "M", birth=births[p]) for p in pids]
    rep = compute_prizes(results(shanhai(), players, [table("senior", "mixed", pids)]))
    # 冠军5000元，亚军2000元，季军1000元，第四名至第八名600元，第九名至第十六名400元
    assert [ln.amount for ln in rep.list("senior").lines] == (
        [5000, 2000, 1000] + [600] * 5 + [400] * 8
    )
    best = rep.list("senior-best-woman")
    assert [(ln.player_id, ln.amount) for ln in best.lines] == [("s7", 800)]
    assert rep.per_player()["s7"] == 600 + 800
    gift = rep.list("senior-60plus")
    # 60岁以上 on 2025-11-07: s2 (60 that day) and the odd places; not s4/s6 (59 that day).
    assert [ln.player_id for ln in gift.lines] == ["s1", "s2", "s3", "s5", "s7", "s9", "s11", "s13"]
    assert all(ln.gift == "千岛湖特色农副产品大礼包" and ln.amount == 0 for ln in gift.lines)
    assert rep.gifts == 8


def test_payout_total_for_a_whole_final():
    # Open: 40 men; women: none; junior 20 boys; kids 12 boys; senior 20 men → no women's,
    # girls' or best-woman prizes, no teams.
    players, open_pids = open_field()
    junior = [f"j{i}" for i in range(20)]
    kids = [f"k{i}" for i in range(12)]
    senior = [f"s{i}" for i in range(20)]
    players += [player(p, birth=date(2014, 1, 1)) for p in junior]
    players += [player(p, birth=date(2020, 1, 1)) for p in kids]
    players += [player(p, birth=date(1970, 1, 1)) for p in senior]
    rep = compute_prizes(results(shanhai(), players, [
        table("open", "mixed", open_pids), table("junior", "mixed", junior),
        table("kids", "mixed", kids), table("senior", "mixed", senior),
    ]))
    junior_total = 6000 + 4000 + 2000 + 7 * 1000 + 6 * 800
    kids_total = 2000 + 1500 + 800 + 5 * 500
    senior_total = 5000 + 2000 + 1000 + 5 * 600 + 8 * 400
    assert rep.total == 160000 + junior_total + kids_total + senior_total
    assert rep.totals_by_kind == {"cash": rep.total}


def _without_cumulation(reg, list_id):
    lists = [pl.model_copy(update={"cumulative_with": []}) if pl.id == list_id else pl
             for pl in reg.prizes.lists]
    return reg.model_copy(update={"prizes": reg.prizes.model_copy(update={"lists": lists})})


def test_without_cumulation_the_larger_prize_is_kept_and_nobody_moves():
    # If a regulation did not allow 累积, the woman 5th keeps the larger prize (women's 1st,
    # 10000); her mixed 5th pays nothing and the man 6th is still 6th with 5000.
    reg = _without_cumulation(shanhai(), "open-women")
    players, pids = open_field({5: "w1"})
    rep = compute_prizes(results(reg, players, [table("open", "mixed", pids)]))
    mixed = rep.list("open-mixed")
    assert (mixed.lines[4].player_id, mixed.lines[4].amount) == ("w1", 0)
    assert "不与" in mixed.lines[4].note
    assert (mixed.lines[5].player_id, mixed.lines[5].amount) == ("m6", 5000)
    assert rep.per_player()["w1"] == 10000


def test_non_cumulative_special_award_passes_to_next_woman():
    reg = shanhai()
    special = [sa.model_copy(update={"cumulative": False}) if sa.id == "senior-best-woman" else sa
               for sa in reg.prizes.special]
    reg = reg.model_copy(update={"prizes": reg.prizes.model_copy(update={"special": special})})
    pids, births = senior_field()
    women = {"s7", "s18"}  # s7 is in the top 16 with 600; s18 is not
    players = [player(p, "F" if p in women else "M", birth=births[p]) for p in pids]
    rep = compute_prizes(results(reg, players, [table("senior", "mixed", pids)]))
    assert [ln.player_id for ln in rep.list("senior-best-woman").lines] == ["s18"]


def test_summary_says_pre_tax_because_seed_000_says_so():
    # 十三(一) 注：以上奖金均为税前奖金。
    from yisai.formats.awards_report import prize_summary

    players, pids = open_field()
    rep = compute_prizes(results(shanhai(), players, [table("open", "mixed", pids)]))
    assert "以上金额均为税前（元）" in prize_summary(rep).notes


def test_tied_teams_share_the_money_of_the_places_they_take_when_the_file_says_so():
    # Issue 23: two men's teams tied for 2nd took 6,000 each (12,000 for places worth 10,000).
    # With prizes.tied_places = "share" they split 2nd + 3rd = 6,000 + 4,000 → 5,000 each.
    reg = shanhai()
    men = reg.teams.competitions[0].model_copy(update={"tie_breaks": ["sos"]})
    teams_rules = reg.teams.model_copy(update={"competitions": [men, *reg.teams.competitions[1:]]})
    data = {"a1": 16, "b1": 14, "c1": 14, "a2": 14, "b2": 12, "c2": 12, "a3": 10, "b3": 12, "c3": 12}
    order = list(data)
    players = [player(p) for p in order]
    t = table("open", "mixed", order, [data[p] for p in order], [50.0] * len(order),
              places=list(range(1, len(order) + 1)))
    teams = [team("A", ["a1", "a2", "a3"]), team("B", ["b1", "b2", "b3"]), team("C", ["c1", "c2", "c3"])]
    for tied, paid in (("each_full", [10000, 6000, 6000]), ("share", [10000, 5000, 5000])):
        r = reg.model_copy(update={"teams": teams_rules,
                                   "prizes": reg.prizes.model_copy(update={"tied_places": tied})})
        lines = compute_prizes(results(r, players, [t], teams=teams)).list("men-team").lines
        # A: 16+14+10 = 40; B: 14+12+12 = 38, C: 14+12+12 = 38, equal 对手分 → both 2nd
        assert [(ln.team_id, ln.place, ln.amount) for ln in lines] == [
            ("A", 1, paid[0]), ("B", 2, paid[1]), ("C", 2, paid[2])]
    assert lines[1].note == "2队并列第2名，平分第2至3名奖金共10000元"

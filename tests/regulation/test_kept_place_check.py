"""如有女子选手进入前32名，名次不再顺延 (seed 000 十三(一)1): ``others_keep_place`` has a meaning
only on a list of one gender whose places are the mixed ranking's. ``regulation check`` refuses it
on a list that reads the mixed ranking and names no gender — even in a division that has a
women's ranking (issue 42 item 9) — and the seed states it as a men's list on the mixed places."""

from __future__ import annotations

from tests.awards.awardfields import player, results, shanhai, table
from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of, line_of
from yisai.awards.prizes import compute_prizes
from yisai.formats.regulation_summary import summarize
from yisai.regulation import loads

SEED = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")


def test_the_seed_states_it_on_the_mens_lists_and_passes() -> None:
    reg = loads(SEED, "seed.toml")
    kept = {pl.id: (pl.ranking, pl.gender) for pl in reg.prizes.lists if pl.others_keep_place}
    assert {k: (r, g.value if g else None) for k, (r, g) in kept.items()} == {
        "open-mixed": ("mixed", "M"), "junior-mixed": ("mixed", "M")}
    assert any("名次不再顺延" in line for line in summarize(reg))


def test_on_a_mixed_list_without_gender_it_is_refused_though_the_division_ranks_women() -> None:
    text = SEED.replace('gender = "M"\nothers_keep_place = true', "others_keep_place = true")
    issues = issues_of(text, "f.toml")
    # the open division has a women's ranking (``women``); the list still reads ``mixed``
    first = line_of(text, "others_keep_place = true")
    assert issues[0].startswith(f"f.toml:{first}: prizes.lists.0.others_keep_place: 名单读取不分性别的名次表 mixed")
    assert "这项设置不起作用" in issues[0] and 'gender = "M"' in issues[0]
    assert any("prizes.lists.4.others_keep_place" in i for i in issues)


def test_a_list_gender_without_kept_places_is_refused() -> None:
    text = SEED.replace('gender = "M"\nothers_keep_place = true', 'gender = "M"', 1)
    [issue] = issues_of(text, "f.toml")
    assert "prizes.lists.0.gender" in issue and "others_keep_place" in issue


def test_a_woman_inside_the_mens_places_keeps_hers_and_her_line_says_so() -> None:
    # 40 in the open final, a woman 5th overall: the men's list pays its 32 places as the mixed
    # ranking has them (5th: 5000, 第五名至第六名5000元), her line noting why she is on it.
    pids = [f"m{i}" for i in range(1, 41)]
    pids[4] = "w1"
    players = [player(p, "F" if p == "w1" else "M") for p in pids]
    mixed = compute_prizes(results(shanhai(), players, [table("open", "mixed", pids)])).list("open-mixed")
    assert [(ln.player_id, ln.amount) for ln in mixed.lines[3:6]] == [("m4", 10000), ("w1", 5000), ("m6", 5000)]
    assert "名次不再顺延" in mixed.lines[4].note and mixed.lines[5].note == ""

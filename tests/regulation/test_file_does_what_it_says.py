"""Issue 23 items 6–7: criterion names in Chinese in the file (the command line's one table),
settings with no effect refused with the reason, places and prize money that depend on the
entrant count and on ties, `regulation show` marking what it prints from a default."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from tests.awards.awardfields import player, results, table
from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of as _issues
from yisai.awards.prizes import awarded_places, compute_prizes
from yisai.formats.regulation_file import load
from yisai.formats.regulation_summary import summarize
from yisai.registry.person import Gender, Player
from yisai.regulation import loads
from yisai.regulation.prizes import EntrantRule
from yisai.regulation.rules import CRITERION_LABELS, Criterion, CriterionSpec
from yisai.services import entries, events
from yisai.services.context import open_context
from yisai.services.errors import Refused
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.standings.names import resolve
from yisai.store import event_rows
from yisai.vocabulary.rank import Rank

EXAMPLE = REGULATIONS / "examples" / "2026-kids-dan-grading.toml"
EXAMPLE_TEXT = EXAMPLE.read_text(encoding="utf-8")
XIAO_TEXT = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")



def _with(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# ------------------------------------------------------------------ criterion names


@pytest.mark.parametrize("criterion", list(Criterion))
def test_every_chinese_label_means_in_the_file_what_it_means_on_the_command_line(criterion: Criterion) -> None:
    label = CRITERION_LABELS[criterion]
    reg = loads(_with(EXAMPLE_TEXT, 'criteria = ["积分", "对手分", "累进分"]', f'criteria = ["积分", "{label}"]'), "f.toml")
    assert reg.ranking.criteria[1] == resolve(label).spec == CriterionSpec(criterion=criterion)


def test_aliases_tables_and_formula_terms_in_chinese() -> None:
    text = _with(EXAMPLE_TEXT, 'criteria = ["积分", "对手分", "累进分"]',
                 'criteria = ["总得分", "逐轮减去对手分(从最后一轮)", { criterion = "胜对手分" }, "直胜"]\n'
                 "total_score = { \"积分\" = 1, \"累进分\" = 2 }")
    rr = loads(text, "f.toml").ranking
    assert rr.criteria == [CriterionSpec(criterion=Criterion.TOTAL_SCORE),
                           CriterionSpec(criterion=Criterion.SOS_CUT, from_last_round=True),
                           CriterionSpec(criterion=Criterion.SODOS), CriterionSpec(criterion=Criterion.DIRECT)]
    assert rr.total_score == {Criterion.SCORE: 1, Criterion.CUMULATIVE: 2}
    assert resolve("逐轮减去对手分(从最后一轮)").spec == rr.criteria[1]


def test_an_unknown_chinese_name_is_refused_with_the_allowed_names() -> None:
    (issue,) = _issues(_with(EXAMPLE_TEXT, '"对手分", "累进分"]', '"对手分", "魔法分"]'))
    assert "ranking.criteria.2.criterion" in issue and "'魔法分'" in issue and "'cumulative'" in issue
    assert "或中文名: 积分、总得分、对手分、累进分、胜对手分、直胜、逐轮减去对手分" in issue


# ------------------------------------------------------------------ settings with no effect


NO_EFFECT = [
    ("from_last_round on another criterion",
     'criteria = ["积分", "对手分", "累进分"]', 'criteria = ["积分", { criterion = "对手分", from_last_round = true }]',
     "ranking.criteria.1.from_last_round: from_last_round 只用于逐轮减去对手分"),
    ("formula without total_score", '[ranking]\n', '[ranking]\ntotal_score = { \"积分\" = 1, \"对手分\" = 1 }\n',
     "ranking.total_score: 名次指标中没有总得分"),
    ("avoidance without rounds", "avoid_rounds = 2\n", "", "pairing.avoid_rounds: 设置了回避同单位"),
    ("rounds without avoidance", 'avoid_same = "club"\n', "", "pairing.avoid_rounds: 回避轮数为 2, 但没有设置回避什么"),
    ("seeding for a random round 1", 'round1_method = "slide"', 'round1_method = "random"',
     "pairing.round1_seeding: 第一轮完全随机配对"),
    ("cycle result under positional superko", 'superko = "simple_ko"', 'superko = "positional"',
     "rules.cycle_result: 全局同形禁止"),
    ("provisional without rounds", "kind = \"swiss\"\nrounds = 7\n", "kind = \"swiss\"\nrounds_provisional = true\n",
     "stages.0.format.rounds_provisional: 没有写轮数"),
    ("others keep place in a division without gender lists", 'by_entrants = [{ below = 16, places = 6 }]\n\n[[prizes.lists]]\nid = "kyu"',
     'by_entrants = [{ below = 16, places = 6 }]\nothers_keep_place = true\n\n[[prizes.lists]]\nid = "kyu"',
     "prizes.lists.1.others_keep_place: 团体名单或不分性别的组别"),
    ("a conditional rule that never cuts", "by_entrants = [{ below = 16, places = 6 }]",
     "by_entrants = [{ below = 16, places = 8 }]", "prizes.lists.1.by_entrants.0.places: 录取前8名不少于本奖项的前8名"),
    ("an age date without an age", 'name = "定级组名次"', 'name = "定级组名次"\nage_reference = 2026-03-28',
     "divisions.2.rankings.0.age_reference: 名次表没有年龄限制"),
    ("disconnection rules over the board", "[stages.time_control]\nmain_minutes = 30",
     "[stages.disconnection]\nmax_disconnections = 2\n[stages.time_control]\nmain_minutes = 30",
     "stages.0.disconnection: 断线与逃跑规定只用于线上对局"),
    ("window divisions without enforce", 'enforce = true }', 'divisions = ["dan"] }',
     "registration.windows.0: divisions 只在 enforce = true 时起作用"),
]


@pytest.mark.parametrize(("why", "old", "new", "expected"), NO_EFFECT, ids=[n[0] for n in NO_EFFECT])
def test_a_setting_with_no_effect_is_refused_with_the_reason(why: str, old: str, new: str, expected: str) -> None:
    issues = _issues(_with(EXAMPLE_TEXT, old, new))
    assert any(expected in i for i in issues), issues


def test_the_seed_files_and_the_example_pass_the_audit() -> None:
    for path in [*REGULATIONS.glob("*.toml"), *REGULATIONS.glob("examples/*.toml")]:
        load(path)


def test_merge_by_count_is_refused_as_not_applied() -> None:
    text = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
    text = _with(text, "[divisions.merge]\n", "[divisions.merge]\nwhen_entries_below = 16\n")
    assert any("when_entries_below: 按人数自动合并组别尚未执行" in i for i in _issues(text))


# ------------------------------------------------------------------ promotions in the file


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('name = "定级"\nranked = false\nunranked = true', 'name = "定级"\nranked = false\nunranked = true\nmin_rank = "5级"',
     "min_rank/max_rank 不起作用"),
    ('steps = [{ wins = 5, rank = "1段" }]', 'steps = [{ wins = 5, promote = 1, rank = "1段" }]',
     "promote (升N段) 与 rank (定为X段/级) 须写且只写一个"),
    ('min_rank = "1级"\nmax_rank = "1级"', 'min_rank = "2级"\nmax_rank = "1级"', "与 promotions.1 的适用段级位重叠"),
    ('steps = [{ wins = 7, promote = 2 }', 'steps = [{ wins = 8, promote = 2 }', "胜8局超过局数 7"),
])
def test_promotion_rules_are_checked(old: str, new: str, expected: str) -> None:
    issues = _issues(_with(EXAMPLE_TEXT, old, new))
    assert any(expected in i for i in issues), issues


def test_a_promotion_rule_for_7_games_in_a_6_round_division_is_refused() -> None:
    text = _with(EXAMPLE_TEXT, "kind = \"swiss\"\nrounds = 7\n", "kind = \"swiss\"\nrounds = 6\n")
    issues = _issues(text)
    assert any("promotions.0.rounds: 规则写7局, 但该组别比赛共6轮" in i for i in issues), issues


# ------------------------------------------------------------------ places and money


def test_places_depend_on_the_entrant_count() -> None:
    # 各组录取前8名; 参赛不足16人的组只录取前6名 — and never more than the entrants.
    rules = [EntrantRule(below=16, places=6)]
    assert [awarded_places(8, n, rules)[0] for n in (40, 16, 15, 7, 5)] == [8, 8, 6, 6, 5]
    # Both rules of one list: fewer than 16 → 6; fewer than 8 → n−1 (the smaller threshold wins).
    both = [EntrantRule(below=16, places=6), EntrantRule(below=8, minus=1)]
    assert [awarded_places(8, n, both)[0] for n in (16, 15, 8, 7, 3)] == [8, 6, 6, 6, 2]


def _dan_field(n: int, places: list[int] | None = None) -> tuple[list[Player], object]:
    ids = [f"p{i}" for i in range(1, n + 1)]
    return [player(p, rank="2段", birth=date(2015, 1, 1)) for p in ids], table("dan", "all", ids, places=places)


def test_a_small_division_awards_only_the_top_6() -> None:
    reg = load(EXAMPLE)
    players, t = _dan_field(12)
    honour = compute_prizes(results(reg, players, [t])).list("dan")
    assert [ln.player_id for ln in honour.lines] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert honour.note == "参赛12人，不足16人，只录取前6名"


def test_tied_places_share_the_money_of_the_places_they_take() -> None:
    # 图书卡 500/300/200, "名次并列时奖励平分": two tied 2nd share 300 + 200 → 250 each.
    reg = load(EXAMPLE)
    players, t = _dan_field(20, places=[1, 2, 2, *range(4, 21)])
    cards = compute_prizes(results(reg, players, [t])).list("dan-cards")
    assert [(ln.player_id, ln.amount) for ln in cards.lines] == [("p1", 500), ("p2", 250), ("p3", 250)]
    assert cards.lines[1].note == "2人并列第2名，平分第2至3名奖金共500元"
    # Three tied 1st share 500 + 300 + 200 = 1000 → 333 each, 1 yuan that does not split is said.
    players, t = _dan_field(20, places=[1, 1, 1, *range(4, 21)])
    cards = compute_prizes(results(reg, players, [t])).list("dan-cards")
    assert [ln.amount for ln in cards.lines] == [333, 333, 333]
    assert cards.lines[0].note.endswith("（余1元不可均分）")
    # Without the setting each tied player takes the full prize of the shared place.
    each = reg.model_copy(update={"prizes": reg.prizes.model_copy(update={"tied_places": "each_full"})})
    players, t = _dan_field(20, places=[1, 2, 2, *range(4, 21)])
    assert [ln.amount for ln in compute_prizes(results(each, players, [t])).list("dan-cards").lines] == [500, 300, 300]


# ------------------------------------------------------------------ regulation show


def test_show_marks_what_it_prints_from_a_default() -> None:
    lines = summarize(load(EXAMPLE))
    scoring = next(x for x in lines if x.startswith("积分: 胜2分"))
    assert scoring.endswith("（其中双方弃权得分为默认）")  # the file writes every other point value
    assert next(x for x in lines if x.startswith("个人名次:")) == "个人名次: 依次比较 积分、对手分、累进分"
    promotions = [x for x in lines if x.startswith(("段位组: 升段", "级位组: 升", "定级组: 定级"))]
    assert len(promotions) == 4 and not any("默认" in x for x in promotions)
    bare = loads(_with(EXAMPLE_TEXT, "[scoring]\nwin = 2\ndraw = 1\nloss = 0\nbye = 2\nforfeit_win = 2\nforfeit_loss = 0\n", ""),
                 "f.toml")
    assert next(x for x in summarize(bare) if x.startswith("积分: 胜2分")).endswith("（默认）")


def test_show_prints_the_new_rules() -> None:
    text = "\n".join(summarize(load(EXAMPLE)))
    assert "  - 若参赛人数不足16人, 只录取前6名" in text
    assert "名次并列时, 合并所占各名次的奖金平均分配" in text
    assert "段位组: 升段（1段至4段）：7局胜7局升二段；7局胜5局升一段（最高升至5段" in text
    assert "参赛棋手: 2026-02-20 至 2026-03-20 途径: “宁波围棋”公众号 (时间以外的报名不予接受: 全部组别)" in text


# ------------------------------------------------------------------ registration window


def _kid(name: str) -> Player:
    return Player(id="", name=name, gender=Gender.MALE, birth_date=date(2015, 3, 3), rank=Rank.parse("2段"),
                  certificate_no="C1", region="中国大陆")


def test_entries_after_the_stated_close_are_refused_with_the_date(tmp_path: Path) -> None:
    db = str(tmp_path / "w.sqlite")
    chief = Actor.cli("裁判长", Role.CHIEF_REFEREE)
    moments = iter([datetime(2026, 3, 1, 10), datetime(2026, 3, 20, 23, 0), datetime(2026, 3, 21, 8, 0),
                    datetime(2026, 2, 19, 8, 0)])
    start = Settings(database=db, actor=chief, clock=lambda: datetime(2026, 3, 1, 9))
    with open_context(start) as ctx, ctx.work() as w:
        event = events.create_event(w, EXAMPLE, seed=3)
    for k, now in enumerate(moments):
        with open_context(Settings(database=db, actor=chief, clock=lambda now=now: now)) as ctx, ctx.work() as w:
            ev = event_rows.get_event(w.session, event.id)
            if now <= datetime(2026, 3, 20, 23, 59, 59) and now >= datetime(2026, 2, 20):
                entries.register_player(w, ev, _kid(f"棋手{k}"), division="段位组")
                continue
            with pytest.raises(Refused) as info:
                entries.register_player(w, ev, _kid(f"棋手{k}"), division="段位组")
            if now > datetime(2026, 3, 20):
                assert info.value.code == "registration_closed"
                assert info.value.message.startswith("段位组报名已于2026-03-20 23:59截止")
                assert "现在是2026-03-21 08:00" in info.value.message
            else:
                assert info.value.code == "registration_not_open"
    with open_context(Settings(database=db, actor=chief)) as ctx, ctx.work() as w:
        assert len(entries.list_entries(w, event_rows.get_event(w.session, event.id))) == 2


def test_a_short_name_that_makes_a_notice_two_sms_parts_is_refused() -> None:
    """Issue 43: notices name the event by the regulation's ``short_name``. The place notice has
    41 fixed characters, the signature 【弈赛】 4, period "6" 1 and the date 10 (by hand): a
    short name of more than 14 characters makes it longer than one 70-character SMS part."""
    text = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
    assert loads(text, "f.toml").short_name == "山海杯棋王争霸赛"  # 8 characters: accepted
    fits = _with(text, 'short_name = "山海杯棋王争霸赛"', 'short_name = "山海杯全国业余围棋棋王争霸赛"')  # 14
    assert loads(fits, "f.toml").short_name is not None
    long = _with(text, 'short_name = "山海杯棋王争霸赛"', 'short_name = "山海杯全国业余围棋棋王争霸赛总"')  # 15
    assert any("short_name: 简称「山海杯全国业余围棋棋王争霸赛总」使通知超过一条短信 (71字 > 70字" in i
               and "须不超过14个字" in i for i in _issues(long)), _issues(long)


def test_the_checks_count_the_notices_as_the_notices_read() -> None:
    """regulation.checks cannot import the notice wording (a package above it): its figures must
    be those of ``yisai.qualifier.notices``, as the phone receives the message."""
    from yisai.qualifier.notices import (
        CONFIRM_REMINDER,
        FINAL_ENTRY_CONFIRMED,
        PLACE_TO_CONFIRM,
        sms_length,
    )
    from yisai.regulation.checks import notice_lengths

    reg = load(REGULATIONS / "2025-shanhai-cup.toml")
    longest = max((d.name for d in reg.divisions), key=len)
    for name in ("山海杯棋王争霸赛", reg.name):
        got = notice_lengths(reg, name)
        assert got == {
            PLACE_TO_CONFIRM: sms_length(PLACE_TO_CONFIRM, {"event": name, "period": "6", "deadline": "2025-06-10"}),
            CONFIRM_REMINDER: sms_length(CONFIRM_REMINDER, {"event": name, "deadline": "2025-06-10"}),
            FINAL_ENTRY_CONFIRMED: sms_length(FINAL_ENTRY_CONFIRMED, {"event": name, "division": longest}),
        }

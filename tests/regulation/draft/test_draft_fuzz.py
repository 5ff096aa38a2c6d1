"""The drafter never crashes or hangs on hostile text: any mix of 规程 phrases, numbers, markers
and noise drafts within a time bound to TOML that parses, and that the loader accepts or refuses
with its own RegulationError (never another exception)."""

from __future__ import annotations

import contextlib
import itertools
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hangs import no_hang
from yisai.formats.regulation_draft import coverage, to_toml
from yisai.regulation import RegulationError, loads
from yisai.regulation.draft import MAX_TEXT_CHARS, TextTooLong, draft

PHRASES = [
    "一、", "二、", "十三、", "（一）", "(二)", "1、", "2.", "（1）", "主办单位", "承办单位：", "竞赛组别：",
    "甲组", "乙组、丙组", "少儿组分为少年和幼儿两个小组", "出生", "2013年1月1日至2014年12月31日出生",
    "2019年9月1日及以后出生", "录取前", "三十二", "两", "名", "冠军", "亚军", "第四到八名价值", "第五名至第六名",
    "元", "第", "至", "到", "-", "—", "--", "参赛6段（含）以上棋手达到", "不足", "人", "顺延到前", "可申报业余",
    "段", "或职业初段(", "每方", "分钟后，", "次", "秒读秒", "超时判负", "积分编排制", "分AB组赛9轮",
    "第10轮各组前16名同名次决赛", "暂定赛7轮", "全胜者冠军", "按总得分、积分、胜对手分、直胜的顺序区分个人名次",
    "团体成绩比较各队甲乙丙组男、女棋手个人名次之和", "报满6人", "每队限报1名领队，1名教练，6名队员",
    "（3男2女）", "男子团体3人组队", "每期录取前38名", "胜得2分，负-2分；逃跑扣除2分", "十个工作日内",
    "断线总时长超过2分钟，或断线次数大于2次", "申诉费2000元，胜诉退还", "20分钟内", "赛事服务费260元",
    "于4月18日17:00前填写比赛报名信息并上传报名附件", "报到时间：5月1日", "报到地点：", "第1期 5月6日 - 5月25日",
    "单设最佳女棋手奖，奖金800元", "60岁以上选手第一名至第八名奖励", "税前", "其余棋手获参赛奖，奖励价值500元",
    "2月30日", "13月45日", "99点", "25:99", "第0名", "前零名", "万万万万", "九千九百九十九万", "（", "）", "《", "》",
    "“", "”", "\n", "。", "，", "；", "：", "\u3000", "１２３", "ＡＢ", "\x00", "\x7f", "\\", "\"", "'", "#", "[[", "]]",
]

fragments = st.one_of(st.sampled_from(PHRASES), st.text(max_size=8))
texts = st.lists(fragments, max_size=120).map("".join)


def _drafts_cleanly(text: str) -> None:
    with no_hang():  # bounded by MAX_TEXT_CHARS and the readers' caps; this only catches a hang
        result = draft(text)
        toml = to_toml(result, "fuzz.txt")
    tomllib.loads(toml)  # the writer always writes TOML
    with contextlib.suppress(RegulationError):  # refused with its line and field: fine here
        loads(toml, "fuzz.toml")
    figures = coverage(result)
    assert figures["sentences_used"] + figures["sentences_unused"] == figures["sentences"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_any_phrase_soup_drafts_cleanly(text: str) -> None:
    _drafts_cleanly(text)


@pytest.mark.parametrize("text", [
    "第" * 150_000,
    "（" * 150_000,
    "一、" * 90_000,
    "参赛6段（含）以上棋手达到" * 10_000,
    ("冠军" + "9" * 30 + "元，") * 5_000,
    "1、甲组：" + "2013年1月1日至" * 10_000,
    "x" * 150_000,  # one line without breaks
])
def test_long_hostile_texts_finish_quickly(text: str) -> None:
    assert len(text) <= MAX_TEXT_CHARS
    _drafts_cleanly(text)


_CN = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"
_NAMES = ["".join(p) for p in itertools.product(_CN, repeat=3)][:3000]
_MANY_DIVISIONS = "七、资格\n" + "\n".join(
    f"{i % 9 + 1}、{n}组：2013年1月1日至2014年12月31日出生。" for i, n in enumerate(_NAMES))
_MANY_PRIZES = "九、录取名次与奖励\n" + "\n".join(f"{n}组个人录取前8名，颁发奖牌和奖金。冠军100元。" for n in _NAMES)


@pytest.mark.parametrize("text", [
    _MANY_DIVISIONS[:MAX_TEXT_CHARS],
    _MANY_PRIZES[:MAX_TEXT_CHARS],
    (_MANY_DIVISIONS[:100_000] + "\n" + _MANY_PRIZES[:99_000]),  # every division × every prize list
    "九、段位授予\n（一）x\n" + "\n".join(
        f"{i % 9 + 1}、{n}组参赛6段（含）以上棋手达到30人，个人第1名可申报业余7段（顺延到前8名）。"
        for i, n in enumerate(_NAMES[:1400])),
])
def test_thousands_of_divisions_and_lists_stay_bounded(text: str) -> None:
    """Readers that look at every division for every sentence are bounded by the caps."""
    _drafts_cleanly(text)


def test_text_past_the_bound_is_refused_before_it_is_read() -> None:
    with pytest.raises(TextTooLong):
        draft("一" * (MAX_TEXT_CHARS + 1))

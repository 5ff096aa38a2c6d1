"""Both seed regulations load, and `show` contains every figure of the printed 规程.

The expected strings are transcribed by hand from ../shared/seeds/*.txt in the summary's fixed
formats (amounts ``60000元``, dates ``YYYY-MM-DD``, times ``HH:MM``).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.formats.regulation_file import load
from yisai.formats.regulation_summary import summarize
from yisai.regulation import Regulation

SHANHAI = REGULATIONS / "2025-shanhai-cup.toml"
XIAOQIWANG = REGULATIONS / "2025-xiaoqiwang.toml"

runner = CliRunner()

SHANHAI_FACTS = [
    # 八 dates of the six periods, first day from 10:00
    "第1期 2025-05-06 至 2025-05-25, 首日 10:00 开始",
    "第2期 2025-05-26 至 2025-06-14",
    "第3期 2025-06-15 至 2025-07-04",
    "第4期 2025-07-05 至 2025-07-24",
    "第5期 2025-07-25 至 2025-08-13",
    "第6期 2025-08-14 至 2025-09-03",
    "2025-11-07 至 2025-11-11",
    "浙江省杭州市淳安县枫树岭镇雷迪森维嘉酒店",
    # 十 ladder and time control
    "胜得+2分, 负-2分; 逃跑-2分, 对手+2分",
    "公开组每期录取前38名",
    "少年组、幼儿组合计每期录取前30名",
    "胜局数也相同则并列一同晋级",
    # "逃跑扣除2分，对手得2分" never calls the opponent a winner: stated, not silently a 胜局
    "积分相同胜局数多者列前 (对手逃跑的一局不计入胜局数)",
    "10个工作日",
    "30分钟 + 3次20秒读秒",
    "每次中断超过60秒算一次断线",
    "断线次数大于2次",
    "超过120秒(2分钟)",
    "分AB组",
    "各赛9轮, 第10轮各组前16名同名次决赛",
    # 十一 eligibility
    "出生日期: 2011-09-01 至 2019-08-31",
    "出生日期: 2019-09-01 及以后",
    "出生日期: 1955-01-01 至 1980-12-31",
    "当年新定段的职业棋手按业余棋手身份参赛",
    "每队最多5人(3男2女)",
    "2025-06-01 00:00 至 2025-10-08 23:59",
    # 十二 fees
    "260元",
    "不予退还",
    # 十三 prizes
    "第1名: 60000元", "第2名: 30000元", "第3名: 20000元", "第4名: 10000元",
    "第5名至第6名: 5000元", "第7名至第8名: 3000元", "第9名至第32名: 1000元",
    "第1名: 10000元", "第2名: 5000元", "第3名: 3000元", "第4名: 1000元", "第5名: 800元",
    "第6名: 600元", "第2名: 6000元", "第3名: 4000元", "第4名: 3000元",
    "第1名: 8000元", "第3名: 2000元",
    "第1名: 6000元", "第2名: 4000元", "第4名至第10名: 1000元", "第11名至第16名: 800元",
    "第1名: 3000元", "第2名: 2000元", "第4名至第8名: 500元",
    "第1名: 2000元", "第2名: 1500元", "第3名: 800元",
    "第1名: 5000元", "第4名至第8名: 600元", "第9名至第16名: 400元",
    "幼儿组最佳女棋手奖 (幼儿组): 第1名 800元",
    "中老年组最佳女棋手奖 (中老年组): 第1名 800元",
    "千岛湖特色农副产品大礼包",
    "名次不再顺延",
    "税前",
    # 十三(二) rank awards
    "个人第1名可申报业余8段(顺延到前4名)",
    "职业初段",
    "一年内",
    "达到90人, 个人第2名至第4名可申报业余7段(顺延到前20名)",
    "达到60人, 个人第2名至第3名可申报业余7段(顺延到前16名)",
    "达到30人, 个人第2名可申报业余7段(顺延到前12名)",
    "个人第3名至第10名可申报业余6段(顺延到前32名)",
    "个人第1名可申报业余7段(顺延到前8名)",
    "个人第2名可申报业余6段(顺延到前20名)",
    "达到100人, 个人第1名至第2名可申报业余6段(顺延到前20名)",
    "达到50人不足100人, 个人第1名可申报业余6段(顺延到前10名)",
    "不含当年新定段的职业棋手",
    # 十五 appeals
    "20分钟内", "申诉费2000元",
    "2025-04-30",
]

XIAOQIWANG_FACTS = [
    "2025-05-01 至 2025-05-04",
    "报到: 2025-05-01",
    "2025-05-04 中午离会",
    "慈溪市宗汉街道",
    "出生日期: 2013-01-01 至 2014-12-31",
    "出生日期: 2015-01-01 至 2017-12-31",
    "出生日期: 2018-01-01 至 2019-12-31",
    "不得以大打小或以小打大",
    "仅限业余棋手",
    "仅限: 中国大陆棋手",
    "限报38支队",
    "领队1名, 教练1名",
    "甲组男、甲组女、乙组男、乙组女、丙组男、丙组女",
    "暂定7轮",
    "40分钟 + 3次20秒读秒",
    "全胜者冠军",
    "总得分、积分、胜对手分、直胜、逐轮减去对手分",
    "总得分 = 积分 + 对手分",
    "队员个人名次之和, 低者列前; 只计报满人数的队; 相同依次比较最高个人名次",
    "第1名: 12000元", "第2名: 6000元", "第3名: 3000元", "第4名至第8名: 1000元",
    "第1名: 8000元", "第2名: 4000元", "第3名: 2000元",
    "第1名: 6000元", "第2名: 3000元", "第3名: 1500元", "第4名至第8名: 800元",
    "按照总人数减1录取",
    "奖励价值500元",
    "团体 (甲组、乙组、丙组): 录取前8名, 颁发奖牌、荣誉证书",  # 八(六): 甲乙丙组男、女棋手个人名次之和
    "达到60人, 个人第1名至第2名可申报业余7段(顺延到前8名)",
    "达到60人, 个人第3名至第5名可申报业余6段(顺延到前30名)",
    "达到30人不足60人, 个人第1名可申报业余7段(顺延到前4名)",
    "达到30人不足60人, 个人第2名至第4名可申报业余6段(顺延到前20名)",
    "不足30人且参赛棋手达到50人, 个人第1名可申报业余6段(顺延到前10名)",
    "截止 2025-04-18 17:00",
    "172741177@qq.com",
    "15058412375",
    "申诉费1000元",
    "中途离会不退剩余食宿费",
    "2025-03-18",
]


@pytest.mark.parametrize(("path", "facts"), [(SHANHAI, SHANHAI_FACTS), (XIAOQIWANG, XIAOQIWANG_FACTS)])
def test_show_contains_every_figure(path, facts) -> None:
    result = runner.invoke(app, ["regulation", "show", str(path)])
    assert result.exit_code == 0, result.output
    missing = [f for f in facts if f not in result.output]
    assert not missing, missing


def test_check_accepts_both_seeds() -> None:
    result = runner.invoke(app, ["regulation", "check", str(SHANHAI), str(XIAOQIWANG)])
    assert result.exit_code == 0, result.output
    assert result.output.count("通过") == 2


def test_json_is_the_normalised_model_and_round_trips() -> None:
    result = runner.invoke(app, ["regulation", "show", str(SHANHAI), "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["stages"][0]["format"]["qualifiers"] == {"open": 38, "youth": 30}
    assert Regulation.model_validate(data) == load(SHANHAI)


def test_seed_structures() -> None:
    reg = load(SHANHAI)
    final = reg.stage("final")
    assert final.format.kind == "two_group_swiss"
    assert final.format.group_rounds == 9
    assert final.format.placement_final.round == 10
    assert final.format.placement_final.top == 16
    assert [p.number for p in reg.stage("online").periods] == [1, 2, 3, 4, 5, 6]
    assert reg.division("senior").merge is not None
    assert reg.teams is not None and (reg.teams.max_men, reg.teams.max_women) == (3, 2)
    kid = load(XIAOQIWANG)
    assert kid.ranking.undefeated_champion is True
    assert [c.criterion.value for c in kid.ranking.criteria] == [
        "total_score", "score", "sodos", "direct", "sos_cut",
    ]
    assert kid.teams is not None and len(kid.teams.slots) == 6 and kid.teams.max_teams == 38


def test_every_open_point_is_printed() -> None:
    for path in (SHANHAI, XIAOQIWANG):
        reg = load(path)
        text = "\n".join(summarize(reg))
        assert reg.open_points
        for op in reg.open_points:
            assert op.topic in text and op.choice in text

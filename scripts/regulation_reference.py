"""Print a skeleton of the field reference of docs/regulation.md: one table per section of the
schema (yisai.regulation.fields), each field with its type, default, the schema's description
and an example taken from the shipped regulation files when one of them writes it.

    PYTHONPATH=src .venv/bin/python scripts/regulation_reference.py > /tmp/fields.md

The doc itself is edited by hand from this skeleton (better wording, examples for the fields no
file writes); tests/regulation/test_field_reference.py checks that no field is missing.
"""

from __future__ import annotations

import enum
import tomllib
import types
import typing
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from yisai.regulation.fields import sections
from yisai.vocabulary.rank import Rank

ROOT = Path(__file__).resolve().parents[1] / "regulations"
FILES = [*sorted(ROOT.glob("*.toml")), *sorted(ROOT.glob("examples/*.toml"))]


def _instances(doc: dict[str, Any], path: list[str], kind: str | None) -> list[dict[str, Any]]:
    found: list[Any] = [doc]
    for key in path:
        nxt: list[Any] = []
        for x in found:
            v = x.get(key) if isinstance(x, dict) else None
            if isinstance(v, list):
                nxt += v
            elif v is not None:
                nxt.append(v)
        found = nxt
    return [x for x in found if isinstance(x, dict) and (kind is None or x.get("kind") == kind)]


def _inline(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    return tomli_w.dumps({"x": value}).strip()[4:]


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else f'"{k}"'


def _toml(name: str, value: Any) -> str:
    text = f"{name} = {_inline(value)}"
    return text if len(text) <= 100 else text[:97] + " …"


_NAMES = {int: "整数", str: "文字", bool: "true/false", float: "数", date: "日期", datetime: "日期时间",
          time: "时间", Rank: "段级位"}


def _type(ann: Any) -> str:
    """A field's type as a reader of the file sees it."""
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin is typing.Annotated:
        return _type(args[0])
    if origin in (typing.Union, types.UnionType):
        return " 或 ".join(dict.fromkeys(_type(a) for a in args if a is not type(None)))
    if origin is typing.Literal:
        return "/".join(f'"{a}"' for a in args)
    if origin is list:
        return f"{_type(args[0])}的列表"
    if origin is dict:
        return f"表 {{ {_type(args[0])} = {_type(args[1])} }}"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return "表"
    if isinstance(ann, type) and issubclass(ann, enum.Enum):
        return "/".join(f'"{m.value}"' for m in ann) if len(ann) <= 4 else "指标名"
    return _NAMES.get(ann, getattr(ann, "__name__", str(ann)))


def _default(f: Any) -> str:
    if f.is_required():
        return "必填"
    if f.default_factory is not None:
        v = f.default_factory()
        return "空" if v in ([], {}) else "见说明"
    if f.default is None or f.default is PydanticUndefined:
        return "不填"
    v = f.default
    return f"`{tomli_w.dumps({'x': v}).strip()[4:]}`" if not hasattr(v, "model_dump") else "见说明"


def _nested(ann: Any) -> set[type]:
    from yisai.regulation.fields import _models

    return {m for m, _ in _models(ann)}


EXAMPLES: dict[str, str] = {
    "PlayRules.suicide_allowed": "false",
    "Registration.approval_required": "true",
    "PromotionRule.ranked": "false",
    "RegistrationWindow.enforce": "true",
    "RegistrationWindow.divisions": '["dan", "kyu"]',
    "Stage.departure": '"2025-05-04 中午"',
    "MergeRule.when_entries_below": "16",
    "CriterionSpec.criterion": '"逐轮减去对手分"',
    "Eligibility.genders": '["F"]',
    "LadderFormat.confirm_reminder_days": "[3, 1]",
    "SpecialAward.gift": '"围棋书籍"',
    "PrizeRow.gift": '"围棋书籍一套"',
    "EntrantRule.minus": "1",
}

DESCRIPTIONS: dict[str, str] = {
    "Regulation.schema_version": "文件格式版本, 目前为 1",
    "Regulation.name": "比赛全称 (按规程标题)",
    "Regulation.year": "年度",
    "Regulation.issued": "发布单位与日期",
    "Regulation.organisers": "主办、支持、冠名、承办单位",
    "Regulation.website": "官方网站或报名平台",
    "Regulation.rules": "对局规则 (贴目、劫、自杀)",
    "Regulation.scoring": "积分 (胜/和/负/轮空/弃权); 组别可另设",
    "Regulation.ranking": "个人名次的指标顺序; 组别可另设",
    "Regulation.pairing": "积分编排的设置; 组别可另设",
    "Regulation.divisions": "组别 (至少一个)",
    "Regulation.stages": "赛程阶段 (至少一个)",
    "Regulation.teams": "代表队的组成与团体名次; 不填表示没有团体",
    "Regulation.prizes": "录取名次与奖励",
    "Regulation.rank_awards": "按名次授予段位 (段位申报, 含顺延)",
    "Regulation.fees": "费用",
    "Regulation.registration": "报名、附件、报到",
    "Regulation.appeals": "申诉; 不填表示规程未写",
    "Regulation.officials": "裁判长与技术官员",
    "Regulation.obligations": "参赛义务与处罚",
    "Regulation.disputes": "非裁判类争议的处理",
    "Issued.by": "发布单位",
    "Issued.on": "发布日期",
    "PlayRules.board_size": "棋盘路数",
    "PlayRules.komi": "贴目 (目数; 7.5 = 贴3又3/4子)",
    "PlayRules.suicide_allowed": "是否允许自杀 (中国规则禁止)",
    "PlayRules.rules_text": "规程所引的规则名称 (原文)",
    "Scoring.win": "胜一局得分",
    "Scoring.draw": "和棋得分",
    "Scoring.loss": "负一局得分",
    "RankingRules.criteria": "名次指标, 依次比较; 写代码名或中文名 (积分、对手分 …), 也可写表 { criterion = …, from_last_round = true }",
    "Division.id": "组别代码 (小写字母、数字、-、_)",
    "Division.name": "组别名称, 如 甲组",
    "Division.eligibility": "参赛资格",
    "Division.rankings": "组别内的名次表 (至少一个; 第一个不分性别年龄的为总名次)",
    "Division.merge": "人数少时并入其他组别的规定",
    "Stage.id": "阶段代码",
    "Stage.name": "阶段名称, 如 总决赛",
    "Stage.kind": "online_qualifier 线上海选; regional 分站赛; semi_final 复赛; final 总决赛; main 单一阶段的比赛",
    "Stage.divisions": "参加本阶段的组别",
    "Stage.start": "开始日期",
    "Stage.end": "结束日期",
    "Stage.venue": "地点",
    "Stage.periods": "线上海选的各期",
    "Stage.fee_note": "本阶段费用说明",
    "Stage.format": "赛制 (kind 决定是哪一种, 见下面 [stages.format] 各节)",
    "Stage.time_control": "比赛用时",
    "Stage.disconnection": "线上对局的断线与逃跑规定",
    "TeamRules.kind": "代表队单位: city 城市, province 省, club 俱乐部, school 学校",
    "TeamRules.max_teams": "限报队数",
    "TeamRules.max_players": "每队最多人数",
    "TeamRules.max_men": "每队男棋手上限",
    "TeamRules.max_women": "每队女棋手上限",
    "TeamRules.registration_from": "代表队报名开始 (报名表提交时检查)",
    "TeamRules.registration_to": "代表队报名截止 (00:00 表示当天结束)",
    "TeamRules.competitions": "团体名次项目",
    "Prizes.currency": "货币 (人民币)",
    "Prizes.lists": "录取名单与奖金表",
    "Prizes.special": "单设奖项 (最佳女子、60岁以上前8名 …)",
    "Prizes.participation": "参赛奖",
    "RankAwardRule.division": "组别",
    "RankAwardRule.grants": "各名次可申报的段位",
    "PromotionRule.division": "组别",
    "Fees.items": "各项费用",
    "Fees.notes": "费用的其他说明",
    "Registration.windows": "报名时间 (写 enforce = true 的据此拒绝时间以外的报名)",
    "Registration.required_documents": "须提交的材料",
    "Registration.attachment_name_pattern": "附件命名 (规程原文)",
    "Registration.contacts": "报名联系方式",
    "Registration.check_in": "报到 (文字)",
    "Registration.approval_required": "报名须经审核: 适用于资格中没有写 approval_required 的组别",
    "Registration.notes": "其他说明",
    "Registration.attachments": "报名附件 (上传的报名表和身份证明)",
    "Registration.arrival": "报到日与报到规定 (第一轮只编已报到者)",
    "Appeals.written": "须书面申诉",
    "Appeals.refunded_if_upheld": "申诉成立退还申诉费",
    "Appeals.handled_by": "受理申诉的机构",
    "Appeals.non_referee_disputes": "非裁判类争议的去向",
    "Officials.chief_referee": "裁判长的产生",
    "Officials.others": "其他技术官员的产生",
    "Officials.roles": "技术官员的职务",
    "Obligation.duty": "义务",
    "Obligation.penalties": "不履行的处罚",
    "OpenPoint.topic": "规程未写明的问题",
    "OpenPoint.choice": "本文件的选择 (regulation show 最后一节列出)",
    "CriterionSpec.criterion": "指标 (代码名或中文名)",
    "RankingList.id": "名次表代码",
    "RankingList.name": "名次表名称, 如 甲组女子",
    "RankingList.gender": "只列该性别 (M 男 / F 女)",
    "MergeRule.into": "并入的组别",
    "Period.number": "期数, 从1起连续",
    "Period.start": "开始日期",
    "Period.end": "结束日期",
    "LadderFormat.kind": "online_ladder 线上积分晋级赛",
    "LadderFormat.matching": "匹配方式 (随机)",
    "LadderFormat.win": "胜一局得分",
    "LadderFormat.loss": "负一局得分 (可为负)",
    "LadderFormat.tie_break": "积分相同比较的指标 (胜局数)",
    "SwissFormat.kind": "swiss 积分编排制",
    "TwoGroupSwissFormat.kind": "two_group_swiss 分两组积分编排, 再同名次决赛",
    "TwoGroupSwissFormat.groups": "两个组的名称",
    "TwoGroupSwissFormat.group_rounds": "各组轮数",
    "TwoGroupSwissFormat.placement_final": "同名次决赛",
    "AnnouncedLaterFormat.kind": "announced_later 组织形式另行通知 (不能编排, 也不能模拟)",
    "AnnouncedLaterFormat.note": "规程原文",
    "TeamSlot.label": "席位名称, 如 甲组男",
    "TeamSlot.division": "席位所属组别",
    "TeamSlot.gender": "席位性别",
    "TeamCompetition.id": "团体项目代码",
    "TeamCompetition.name": "团体项目名称, 如 男子团体",
    "PrizeList.id": "奖项代码",
    "PrizeList.name": "奖项名称, 如 甲组男子",
    "PrizeList.division": "组别",
    "PrizeList.kind": "cash 奖金; ecard 电商卡/购物卡; gift 实物; honour 荣誉 (奖杯、证书)",
    "PrizeList.rows": "奖金表: 各名次区间的金额或实物",
    "SpecialAward.id": "奖项代码",
    "SpecialAward.name": "奖项名称, 如 最佳女子棋手",
    "SpecialAward.division": "组别",
    "SpecialAward.gender": "只评该性别",
    "SpecialAward.min_age": "年龄不小于 (以 age_reference 计)",
    "SpecialAward.places": "评前N名",
    "SpecialAward.kind": "奖励形式, 同 prizes.lists 的 kind",
    "SpecialAward.amount": "每人金额 (元)",
    "SpecialAward.gift": "实物奖励",
    "ParticipationAward.divisions": "发参赛奖的组别",
    "ParticipationAward.kind": "奖励形式",
    "ParticipationAward.amount": "每人金额/价值 (元)",
    "Grant.from": "名次区间起",
    "Grant.to": "名次区间止",
    "Fee.name": "费用名称",
    "Fee.note": "说明",
    "RegistrationWindow.who": "报名对象 (规程原文, 如 各队负责人)",
    "RegistrationWindow.opens": "开始 (日期或日期时间)",
    "RegistrationWindow.closes": "截止 (日期表示当天结束)",
    "RegistrationWindow.note": "说明",
    "Arrival.place": "报到地点",
    "Arrival.insurance_wording": "保险要求的规程原文 (insurance_required 时在报到页显示)",
    "PlacementFinal.round": "同名次决赛是第几轮 (分组轮数 + 1)",
    "PrizeRow.from": "名次区间起",
    "PrizeRow.to": "名次区间止",
    "CountCondition.at_least": "人数达到",
    "CountCondition.below": "人数不足",
}


def main() -> None:
    docs = [tomllib.loads(p.read_text(encoding="utf-8")) for p in FILES]
    for s in sections():
        path = [] if s.path == "(顶层)" else s.path.strip("[]").split(".")
        title = f"`{s.path}`" + (f' kind = "{s.kind}"' if s.kind else "")
        print(f"### {title} — `{s.model.__name__}`\n")
        print("| 字段 | 类型 | 默认 | 含义 | 示例 |")
        print("|---|---|---|---|---|")
        inst = [i for d in docs for i in _instances(d, path, s.kind)]
        for name, f in s.fields:
            ex = next((i[name] for i in inst if name in i), None)
            subs = [x.path for x in sections() if x.model in _nested(f.annotation)]
            key = f"{s.model.__name__}.{name}"
            if subs:
                example = "见 " + "、".join(f"`{p}`" for p in dict.fromkeys(subs))
            elif key in EXAMPLES:
                example = f"`{name} = {EXAMPLES[key]}`"
            elif ex is not None:
                example = f"`{_toml(name, ex)}`"
            elif not f.is_required() and f.default_factory is None:
                example = f"`{name} = {_inline(f.default)}`" if f.default is not None else ""
            else:
                example = ""
            desc = (f.description or DESCRIPTIONS.get(key, "")).replace("|", "/")
            print(f"| `{name}` | {_type(f.annotation)} | {_default(f)} | {desc} | {example} |")
        print()


if __name__ == "__main__":
    main()

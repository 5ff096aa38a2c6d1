"""A Chinese summary a referee can hold next to the printed 规程 and tick off line by line.

Formats are fixed so lines can be compared with the text: amounts ``60000元``, dates
``YYYY-MM-DD``, times ``HH:MM``, time controls ``30分钟 + 3次20秒读秒``.
"""

from __future__ import annotations

from datetime import date, datetime, time

from yisai.regulation.divisions import Division, Eligibility
from yisai.regulation.prizes import PrizeList
from yisai.regulation.rank_awards import CountCondition, Grant, RankAwardRule
from yisai.regulation.rules import CRITERION_LABELS, Criterion, RankingRules, TimeControl
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import (
    AnnouncedLaterFormat,
    LadderFormat,
    Stage,
    SwissFormat,
    TwoGroupSwissFormat,
)

_KIND_LABELS = {
    "online_qualifier": "网络海选赛",
    "regional": "分站赛",
    "semi_final": "复赛",
    "final": "总决赛",
    "main": "比赛",
}
_PRO_LABELS = {
    "forbidden": "仅限业余棋手",
    "new_pro_as_amateur": "当年新定段的职业棋手按业余棋手身份参赛",
    "allowed": "职业棋手可参赛",
}
_ROUTE_LABELS = {
    "open": "公开报名",
    "qualified": "选拔产生",
    "team": "代表队",
    "invited": "特邀",
    "wildcard": "外卡",
    "direct": "直接报名",
}
_PRIZE_KIND = {"cash": "奖金", "ecard": "价值(电商卡)", "gift": "实物", "honour": "荣誉"}
_TEAM_METHOD = {
    "sum_of_places": "队员个人名次之和, 低者列前",
    "sum_of_scores": "队员个人积分之和, 高者列前",
    "match_points": "场分(胜2 和1 负0, 由局分决定)",
}
_TEAM_TIE = {
    "best_place": "最高个人名次",
    "next_place": "次高个人名次",
    "sos": "对手分之和",
    "cumulative": "累进分之和",
    "lot": "抽签",
}


def yuan(amount: int) -> str:
    return f"{amount}元"


def fmt_date(d: date | datetime | None) -> str:
    if d is None:
        return "未定"
    if isinstance(d, datetime):
        return d.strftime("%Y-%m-%d %H:%M")
    return d.isoformat()


def fmt_time(t: time) -> str:
    return t.strftime("%H:%M")


def time_control(tc: TimeControl) -> str:
    text = f"{tc.main_minutes}分钟"
    if tc.byoyomi_periods:
        text += f" + {tc.byoyomi_periods}次{tc.byoyomi_seconds}秒读秒"
    if tc.loss_on_time:
        text += ", 超时判负"
    return text


def places(a: int, b: int) -> str:
    return f"第{a}名" if a == b else f"第{a}名至第{b}名"


def summarize(reg: Regulation) -> list[str]:
    """The whole summary as lines (sections start with 【…】)."""
    out: list[str] = [reg.name, f"发布: {reg.issued.by} {fmt_date(reg.issued.on)}"]
    o = reg.organisers
    out += ["", "【单位】", f"主办单位: {'、'.join(o.hosts)}"]
    if o.supporters:
        out.append(f"支持单位: {'、'.join(o.supporters)}")
    if o.title_sponsors:
        out.append(f"冠名单位: {'、'.join(o.title_sponsors)}")
    if o.organisers:
        out.append(f"承办单位: {'、'.join(o.organisers)}")
    if reg.events:
        out += ["", "【竞赛项目】", *[f"- {e}" for e in reg.events]]
    out += ["", "【组别与参赛资格】"]
    for d in reg.divisions:
        out += _division(d, reg)
    out += ["", "【赛程】"]
    for s in reg.stages:
        out += _stage(s, reg)
    out += ["", "【规则与计分】"]
    r = reg.rules
    out.append(
        f"棋盘{r.board_size}路, 中国规则数子法, 贴{r.komi}目({_stones(r.komi)}子), "
        f"{'全局同形禁止' if r.superko == 'positional' else '简单劫规则, 循环劫' + ('无胜负' if r.cycle_result == 'void' else '和棋')}, "
        f"{'允许' if r.suicide_allowed else '禁止'}自杀; {r.rules_text}"
    )
    sc = reg.scoring
    out.append(
        f"积分: 胜{sc.win}分 和{sc.draw}分 负{sc.loss}分; 轮空{sc.bye}分(不计入任何人的对手分); "
        f"对方弃权{sc.forfeit_win}分, 弃权方{sc.forfeit_loss}分, 双方弃权各{sc.both_forfeit}分"
    )
    out.append(
        "弃权局计入对手分" if sc.forfeit_counts_in_sos else "未下的弃权局不计入对手分(与轮空相同); 超时判负计入"
    )
    out += _ranking("个人名次", reg.ranking)
    for d in reg.divisions:
        if d.ranking_rules:
            out += _ranking(f"{d.name}个人名次", d.ranking_rules)
    p = reg.pairing
    out.append(
        "编排: 第一轮按"
        + "、".join({"rank": "段位", "rating": "等级分", "lot": "抽签"}[k] for k in p.round1_seeding)
        + f"排序, {_ROUND1[p.round1_method]}; 同分组内{'上半区对下半区' if p.in_group == 'split' else '相邻配对'}; "
        + "不重复对局; 平衡黑白"
        + (f"; 前{p.avoid_rounds}轮回避同{_AVOID[p.avoid_same]}" if p.avoid_same and p.avoid_rounds else "")
    )
    if reg.teams:
        out += ["", "【团体】", *_teams(reg)]
    out += ["", "【录取名次与奖励】", *_prizes(reg)]
    if reg.rank_awards:
        out += ["", "【段位授予/申报】"]
        for ra in reg.rank_awards:
            out += _rank_award(ra, reg)
    out += ["", "【费用】", *_fees(reg)]
    out += ["", "【报名】", *_registration(reg)]
    out += ["", "【裁判与申诉】", *_officials(reg)]
    if reg.obligations or reg.conduct:
        out += ["", "【义务与纪律】"]
        for ob in reg.obligations:
            out.append(f"- 义务: {ob.duty}; 否则: {'、'.join(ob.penalties)}")
        out += [f"- {c}" for c in reg.conduct]
    if reg.disputes or reg.interpretation:
        out += ["", "【其他】"]
        if reg.disputes:
            out.append(f"非裁判类争议: {reg.disputes}")
        if reg.interpretation:
            out.append(reg.interpretation)
    out += ["", "【规程未明确之处及所选默认】"]
    out += [f"- {op.topic}: {op.choice}" for op in reg.open_points] or ["- (无)"]
    return out


_ROUND1 = {
    "slide": "上半区对下半区(1对n/2+1)",
    "fold": "折叠配对(1对n)",
    "split_lot": "上下半区抽签配对",
    "random": "完全随机配对",
}
_AVOID = {"team": "队", "province": "省", "city": "市", "club": "俱乐部"}


def _stones(komi: float) -> str:
    quarters = round(komi * 2)  # komi/2 stones, in quarters
    whole, rest = divmod(quarters, 4)
    frac = {0: "", 1: "1/4", 2: "1/2", 3: "3/4"}[rest]
    if whole and frac:
        return f"{whole}又{frac}"
    return frac or str(whole)


def _eligibility(e: Eligibility) -> list[str]:
    lines: list[str] = []
    if e.born_from or e.born_to:
        if e.born_from and e.born_to:
            lines.append(f"出生日期: {fmt_date(e.born_from)} 至 {fmt_date(e.born_to)}")
        elif e.born_from:
            lines.append(f"出生日期: {fmt_date(e.born_from)} 及以后")
        else:
            lines.append(f"出生日期: {fmt_date(e.born_to)} 及以前")
    if e.exact_age_group:
        lines.append("须按出生日期对应组别参赛, 不得以大打小或以小打大")
    if e.genders:
        lines.append("性别: " + "、".join(g.label for g in e.genders))
    if e.min_rank or e.max_rank:
        lines.append(f"段级位: {e.min_rank or '不限'} 至 {e.max_rank or '不限'}")
    if e.certificate_required:
        lines.append("须持有中国围棋协会监制的业余段级位证书")
    lines.append(_PRO_LABELS[e.professionals])
    if e.regions:
        lines.append("仅限: " + "、".join(e.regions) + "棋手")
    lines += [f"{k}: {v}" for k, v in e.region_notes.items()]
    lines.append("参赛途径: " + "、".join(_ROUTE_LABELS[r] for r in e.routes))
    if e.represent_rule:
        lines.append(e.represent_rule)
    if e.approval_required:
        lines.append("报名后, 主办方审核通过后方可参赛")
    return lines


def _division(d: Division, reg: Regulation) -> list[str]:
    head = f"{d.name} ({d.id})" + (f", 属{d.parent}" if d.parent else "")
    lines = [head]
    lines += [f"  - {x}" for x in _eligibility(d.eligibility)]
    names = []
    for r in d.rankings:
        extra = ""
        if r.min_age is not None:
            extra = f", {r.min_age}岁以上(以{fmt_date(r.age_reference)}计)"
        names.append(f"{r.name}{extra}")
    lines.append("  - 名次表: " + "; ".join(names))
    if d.may_enter_instead:
        lines.append(
            "  - 棋手也可选择参加: " + "、".join(reg.division(x).name for x in d.may_enter_instead)
        )
    if d.merge:
        m = d.merge
        cond = f"(参赛人数少于{m.when_entries_below}人时)" if m.when_entries_below else ""
        lines.append(
            f"  - {m.decided_by}{cond}: 可并入{reg.division(m.into).name}"
            + (", 分别计算名次" if m.separate_ranking else "")
        )
    if d.platform:
        lines.append(f"  - 线上平台: {d.platform}")
    return lines


def _stage(s: Stage, reg: Regulation) -> list[str]:
    when = ""
    if s.start or s.end:
        when = f" {fmt_date(s.start)} 至 {fmt_date(s.end)}"
    lines = [f"第{s.phase}阶段 {s.name} [{_KIND_LABELS[s.kind]}]{when}"]
    lines.append("  - 组别: " + "、".join(reg.division(x).name for x in s.divisions))
    if s.venue:
        lines.append(f"  - 地点: {s.venue}")
    if s.check_in:
        lines.append(f"  - 报到: {fmt_date(s.check_in)}")
    if s.departure:
        lines.append(f"  - 离会: {s.departure}")
    for did, platform in s.platforms.items():
        lines.append(f"  - {reg.division(did).name}平台: {platform}")
    if s.entry_note:
        lines.append(f"  - 参赛资格: {s.entry_note}")
    if s.fee_note:
        lines.append(f"  - 费用: {s.fee_note}")
    for p in s.periods:
        start = f", 首日 {fmt_time(p.first_day_start)} 开始" if p.first_day_start else ""
        lines.append(f"  - 第{p.number}期 {fmt_date(p.start)} 至 {fmt_date(p.end)}{start}")
    lines += [f"  - {x}" for x in _format(s.format, reg)]
    for did, fmt in s.formats_by_division.items():
        lines += [f"  - {reg.division(did).name}: {x}" for x in _format(fmt, reg)]
    if s.time_control:
        lines.append(f"  - 用时: {time_control(s.time_control)}")
    else:
        lines.append("  - 用时: 规程未规定(见补充规定)")
    if s.disconnection:
        dc = s.disconnection
        lines.append(
            f"  - 断线: 每次中断超过{dc.disconnection_after_seconds}秒算一次断线; "
            f"断线次数大于{dc.max_disconnections}次, 或一局中断总时长超过{dc.max_total_absence_seconds}秒"
            f"({_minutes(dc.max_total_absence_seconds)}), 即视为逃跑; 中断: {dc.absence_definition}; "
            + ("总时长计入每一次中断" if dc.short_absences_count_in_total else "总时长只计超过时限的断线")
            + "; 断线期间钟表继续走"
        )
    if s.details_note:
        lines.append(f"  - 说明: {s.details_note}")
    return lines


def _minutes(seconds: int) -> str:
    return f"{seconds // 60}分钟" if seconds % 60 == 0 else f"{seconds}秒"


def _format(fmt: object, reg: Regulation) -> list[str]:
    if isinstance(fmt, LadderFormat):
        quota = []
        for key, n in fmt.qualifiers.items():
            if key in fmt.pools:
                names = "、".join(reg.division(x).name for x in fmt.pools[key])
                quota.append(f"{names}合计每期录取前{n}名")
            else:
                quota.append(f"{reg.division(key).name}每期录取前{n}名")
        lines = [
            f"赛制: 积分晋级制, 随机匹配; 胜得{fmt.win:+d}分, 负{fmt.loss:+d}分; "
            f"逃跑{fmt.escape:+d}分, 对手{fmt.escape_opponent:+d}分",
            "录取: " + "; ".join(quota)
            + "; 积分相同胜局数多者列前"
            + ("; 胜局数也相同则并列一同晋级" if fmt.all_tied_qualify else ""),
            f"比赛时间: {fmt.play_hours}",
        ]
        if fmt.confirm_within_working_days:
            lines.append(
                f"晋级选手须在{fmt.confirm_within_working_days}个工作日内完善参赛信息, 逾期视为弃权"
            )
        if fmt.may_replay_next_period:
            lines.append("成绩不理想可重新参加下一期")
        lines.append("前期已晋级者再次名列前茅: " + ("名额顺延给下一名" if fmt.earlier_qualifier_place == "passed_on"
                                               else "仍占名次, 名额不顺延"))
        if fmt.guardian_under_age:
            lines.append(f"未满{fmt.guardian_under_age}周岁的晋级选手须填写监护人信息")
        return lines
    if isinstance(fmt, SwissFormat):
        if fmt.rounds is None:
            return ["赛制: 积分编排制, 轮次视报名情况而定"]
        extra = ", 具体轮次视报名人数确定" if fmt.rounds_provisional else ""
        return [f"赛制: 积分编排制, {'暂定' if fmt.rounds_provisional else ''}{fmt.rounds}轮{extra}"]
    if isinstance(fmt, TwoGroupSwissFormat):
        pf = fmt.placement_final
        split = "按段位/等级分蛇形分组" if fmt.split == "snake" else "抽签分组"
        return [
            f"赛制: 积分编排制, 分{''.join(fmt.groups)}组({split})各赛{fmt.group_rounds}轮, "
            f"第{pf.round}轮各组前{pf.top}名同名次决赛({fmt.groups[0]}1对{fmt.groups[1]}1决定第1、2名, "
            f"{fmt.groups[0]}2对{fmt.groups[1]}2决定第3、4名 …)",
            f"同名次决赛以外的名次: 按组内名次交替排列{'、'.join(fmt.groups)}组",
        ]
    if isinstance(fmt, AnnouncedLaterFormat):
        return [f"赛制: {fmt.note}"]
    return []


def _ranking(title: str, rr: RankingRules) -> list[str]:
    names = []
    for spec in rr.criteria:
        label = CRITERION_LABELS[spec.criterion]
        if spec.criterion is Criterion.SOS_CUT:
            label += "(从最后一轮起)" if spec.from_last_round else "(从第1轮起)"
        names.append(label)
    lines = [
        f"{title}: "
        + ("全胜者冠军, 除全胜者外 " if rr.undefeated_champion else "")
        + "依次比较 "
        + "、".join(names)
    ]
    if Criterion.TOTAL_SCORE in {c.criterion for c in rr.criteria}:
        terms = " + ".join(
            (f"{w}×" if w != 1 else "") + CRITERION_LABELS[c] for c, w in rr.total_score.items()
        )
        lines.append(f"总得分 = {terms}")
    return lines


def _teams(reg: Regulation) -> list[str]:
    t = reg.teams
    assert t is not None
    lines = [f"{t.name}: 每队最多{t.max_players}人"]
    if t.max_men is not None or t.max_women is not None:
        lines[-1] += f"({t.max_men or 0}男{t.max_women or 0}女)"
    if t.slots:
        lines.append("席位: " + "、".join(s.label for s in t.slots))
    if t.leaders or t.coaches:
        lines.append(f"领队{t.leaders}名, 教练{t.coaches}名")
    if t.max_teams:
        lines.append(f"限报{t.max_teams}支队" + (f", 每个地区{t.per_region}支" if t.per_region else ""))
    if t.registration_from or t.registration_to:
        lines.append(f"报名时间: {fmt_date(t.registration_from)} 至 {fmt_date(t.registration_to)}")
    if t.own_associations:
        lines.append("单独组队的参赛单位(不计入所在省): " + "、".join(t.own_associations))
    if t.extra_players_play_individually:
        lines.append("不足或超过团体人数的可以以个人名义参赛")
    if t.backfill_rule:
        lines.append(t.backfill_rule)
    for c in t.competitions:
        ties = "、".join(_TEAM_TIE[x] for x in c.tie_breaks)
        scope = "、".join(reg.division(d).name for d in c.divisions) if c.divisions else ""
        lines.append(
            f"{c.name}{'(' + scope + ')' if scope else ''}: {c.size}人, {_TEAM_METHOD[c.method]}"
            + ("; 只计报满人数的队" if c.complete_only else "")
            + f"; 相同依次比较{ties}"
        )
        if c.method_note:
            lines.append(f"  ({c.method_note})")
    return lines


def _prizes(reg: Regulation) -> list[str]:
    pz = reg.prizes
    lines: list[str] = []
    for pl in pz.lists:
        lines += _prize_list(pl, reg)
    for sa in pz.special:
        value = yuan(sa.amount) if sa.amount is not None else (sa.gift or "")
        who = f"前{sa.places}名" if sa.places > 1 else "第1名"
        age = f", {sa.min_age}岁以上(年龄以{_age_ref(sa.age_reference, reg)}计)" if sa.min_age else ""
        lines.append(
            f"{sa.name} ({reg.division(sa.division).name}{age}): {who} {value}"
            + ("; 可与名次奖累积" if sa.cumulative else "")
        )
    for pa in pz.participation:
        names = "、".join(reg.division(d).name for d in pa.divisions)
        lines.append(f"参赛奖 ({names}): 其余棋手获参赛奖, 奖励价值{yuan(pa.amount)}")
    if pz.pre_tax:
        lines.append("注: 以上奖金均为税前奖金")
    if pz.value_note:
        lines.append(f"注: {pz.value_note}")
    return lines


def _age_ref(ref: str | None, reg: Regulation) -> str:
    if ref is None:
        return "比赛首日"
    try:
        stage = reg.stage(ref)
    except KeyError:
        return ref
    return f"{stage.name}首日 {fmt_date(stage.start)}"


def _prize_list(pl: PrizeList, reg: Regulation) -> list[str]:
    div = reg.division(pl.division).name
    head = f"{pl.name} ({div}): 录取前{pl.places}名"
    if pl.items:
        head += ", 颁发" + "、".join(pl.items)
    lines = [head]
    for row in sorted(pl.rows, key=lambda r: r.place_from):
        value = yuan(row.amount) if row.amount is not None else (row.gift or "")
        lines.append(f"  - {places(row.place_from, row.place_to)}: {value}")
    if pl.kind != "cash" and pl.rows:
        lines.append(f"  - 奖励形式: {_PRIZE_KIND[pl.kind]}")
    if pl.others_keep_place:
        lines.append("  - 如有女子选手进入录取名次, 名次不再顺延")
    if pl.cumulative_with:
        names = "、".join(_list_name(x, reg) for x in pl.cumulative_with)
        lines.append(f"  - 可与{names}奖金累积")
    if pl.fewer_entrants == "n_minus_1":
        lines.append(f"  - 若报名人数不足{pl.places}人, 按照总人数减1录取")
    total = sum((r.amount or 0) * (r.place_to - r.place_from + 1) for r in pl.rows)
    if total:
        lines.append(f"  - 合计: {yuan(total)}")
    return lines


def _list_name(list_id: str, reg: Regulation) -> str:
    for pl in reg.prizes.lists:
        if pl.id == list_id:
            return pl.name
    return list_id


def _condition(c: CountCondition) -> str:
    who = f"参赛{c.min_rank}(含)以上棋手" if c.min_rank else "参赛棋手"
    if c.at_least is not None and c.below is not None:
        return f"{who}达到{c.at_least}人不足{c.below}人"
    if c.at_least is not None:
        return f"{who}达到{c.at_least}人"
    return f"{who}不足{c.below}人"


def grant_text(g: Grant) -> str:
    """One grant as the regulation words it; also used by the rank-award report."""
    rank = g.rank if g.professional else f"业余{g.rank}"
    text = f"个人{places(g.place_from, g.place_to)}可申报{rank}"
    if g.alternative_to:
        text += f"(与业余{g.alternative_to}二选一)"
    if g.extend_to:
        text += f"(顺延到前{g.extend_to}名)"
    if g.note:
        text += f"; {g.note}"
    return text


def _rank_award(ra: RankAwardRule, reg: Regulation) -> list[str]:
    d = reg.division(ra.division)
    ranking = next(r.name for r in d.rankings if r.id == ra.ranking)
    lines = [f"{d.name} (按{ranking}):"]
    for g in ra.grants:
        cond = "且".join(_condition(c) for c in g.when)
        tier = f" [分档 {g.tier_group}: 取第一个成立的档]" if g.tier_group else ""
        lines.append(f"  - {cond + ', ' if cond else ''}{grant_text(g)}{tier}")
    rules = []
    if ra.amateurs_only:
        rules.append("名次和顺延仅限业余棋手的排名")
    if ra.exclude_new_pros:
        rules.append("不含当年新定段的职业棋手")
    if ra.skip_if_already_holding:
        rules.append("已持有该段位或更高者顺延给下一名")
    if rules:
        lines.append("  - " + "; ".join(rules))
    lines.append(f"  - {ra.procedure}")
    return lines


def _fees(reg: Regulation) -> list[str]:
    lines = []
    for f in reg.fees.items:
        scope = ""
        if f.applies_to:
            names = []
            for ref in f.applies_to:
                try:
                    names.append(reg.stage(ref).name)
                except KeyError:
                    names.append(reg.division(ref).name)
            scope = f" ({'、'.join(names)})"
        line = f"{f.name}{scope}: {yuan(f.amount)}"
        if not f.refundable_if_absent:
            line += "; 报名后无故不参加比赛者不予退还"
        if f.note:
            line += f" — {f.note}"
        lines.append(line)
    if reg.fees.self_paid:
        lines.append("自理: " + "、".join(reg.fees.self_paid))
    lines += reg.fees.notes
    return lines or ["(规程未规定)"]


def _registration(reg: Regulation) -> list[str]:
    rg = reg.registration
    lines = []
    for w in rg.windows:
        span = ""
        if w.opens and w.closes:
            span = f" {fmt_date(w.opens)} 至 {fmt_date(w.closes)}"
        elif w.closes:
            span = f" 截止 {fmt_date(w.closes)}"
        elif w.opens:
            span = f" 自 {fmt_date(w.opens)} 起"
        line = f"{w.who}:{span}"
        if w.channel:
            line += f" 途径: {w.channel}"
        if w.note:
            line += f"; {w.note}"
        lines.append(line)
    if rg.required_documents:
        lines.append("须提交: " + "; ".join(rg.required_documents))
    if rg.attachment_name_pattern:
        lines.append(f"附件命名: {rg.attachment_name_pattern}")
    lines += [f"联系: {c}" for c in rg.contacts]
    if rg.check_in:
        lines.append(f"报到: {rg.check_in}")
    lines += rg.notes
    return lines or ["(规程未规定)"]


def _officials(reg: Regulation) -> list[str]:
    of = reg.officials
    lines = [f"裁判长: {of.chief_referee}", f"其他技术官员: {of.others}"]
    if reg.appeals:
        a = reg.appeals
        lines.append(
            f"申诉: 该轮比赛结束{a.window_minutes}分钟内{'以书面形式' if a.written else ''}递交, "
            f"申诉费{yuan(a.fee)}, {'胜诉退还, 败诉不予退还' if a.refunded_if_upheld else '不予退还'}, "
            f"交与{a.handled_by}处置"
        )
        lines.append(f"非裁判类争议: {a.non_referee_disputes}")
    return lines

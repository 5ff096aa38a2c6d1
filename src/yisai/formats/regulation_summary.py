"""A summary a referee can hold next to the printed 规程 and tick off line by line.

Chinese by default, English in the caller's language (``yisai.i18n``): the framing words are
translated, the regulation's own content (names of divisions and prizes, notes, rules text) is
printed as written. Sections start with 【…】 in both languages (the web and print split on it).
Formats are fixed so lines can be compared with the text: amounts ``60000元``, dates
``YYYY-MM-DD``, times ``HH:MM``, time controls ``30分钟 + 3次20秒读秒``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from yisai.formats.summary_prizes import (
    _fees,
    _officials,
    _prizes,
    _rank_award,
    _registration,
)
from yisai.formats.summary_words import (
    _KIND_LABELS,
    _PRO_LABELS,
    _ROUTE_LABELS,
    _TEAM_METHOD,
    _default,
    _defaults_note,
    _join,
    _section,
    _span,
    fmt_date,
    fmt_time,
    time_control,
)
from yisai.i18n import Text, tr
from yisai.regulation.criteria import CRITERIA, Scope, labels_text
from yisai.regulation.divisions import Division, Eligibility, stones_to_win
from yisai.regulation.format_base import StageFormat
from yisai.regulation.rules import Criterion, RankingRules, criterion_label
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import (
    AnnouncedLaterFormat,
    DoubleRoundRobinFormat,
    Elimination,
    KnockoutFormat,
    KnockoutRules,
    LadderFormat,
    RoundRobinFormat,
    Stage,
    SwissFormat,
    TimetableEntry,
    TwoGroupSwissFormat,
)
from yisai.regulation.team_match import TeamMatchFormat
from yisai.regulation.wording import promotion_text
from yisai.vocabulary.people import Gender


def summarize(reg: Regulation, *, ids: bool = True) -> list[str]:
    """The whole summary as lines (sections start with 【…】). ``ids``: show each division's
    id next to its name (``甲组 (jia)``, what a referee types after ``-d``); printed papers
    for players and parents leave them out."""
    out: list[str] = [reg.name, tr("发布", "Issued") + f": {reg.issued.by} {fmt_date(reg.issued.on)}"]
    o = reg.organisers
    out += ["", _section("单位", "Organisations"), tr("主办单位", "Hosts") + f": {_join(o.hosts)}"]
    if o.supporters:
        out.append(tr("支持单位", "Supporters") + f": {_join(o.supporters)}")
    if o.title_sponsors:
        out.append(tr("冠名单位", "Title sponsors") + f": {_join(o.title_sponsors)}")
    if o.organisers:
        out.append(tr("承办单位", "Organisers") + f": {_join(o.organisers)}")
    if o.co_organisers:
        out.append(tr("协办单位", "Co-organisers") + f": {_join(o.co_organisers)}")
    if reg.events:
        out += ["", _section("竞赛项目", "Events"), *[f"- {e}" for e in reg.events]]
    out += ["", _section("组别与参赛资格", "Divisions and eligibility")]
    for d in reg.divisions:
        out += _division(d, reg, ids)
    out += ["", _section("赛程", "Schedule")]
    for s in reg.stages:
        out += _stage(s, reg)
    out += ["", _section("规则与计分", "Rules and scoring")]
    out.append(_play_rules(reg))
    sc = reg.scoring
    out.append(tr(
        f"积分: 胜{sc.win}分 和{sc.draw}分 负{sc.loss}分; 轮空{sc.bye}分(不计入任何人的对手分); "
        f"对方弃权{sc.forfeit_win}分, 弃权方{sc.forfeit_loss}分, 双方弃权各{sc.both_forfeit}分",
        f"Points: win {sc.win}, draw {sc.draw}, loss {sc.loss}; bye {sc.bye} (not counted in anyone's SOS); "
        f"opponent forfeits {sc.forfeit_win}, the player who forfeits {sc.forfeit_loss}, "
        f"both forfeit {sc.both_forfeit} each",
    ) + _defaults_note(sc, _SCORING_FIELDS))
    out.append((
        tr("弃权局计入对手分", "Forfeited games count in SOS") if sc.forfeit_counts_in_sos
        else tr("未下的弃权局不计入对手分(与轮空相同); 超时判负计入",
                "Forfeited games not played do not count in SOS (as a bye); losses on time count")
    ) + _default(sc, "forfeit_counts_in_sos"))
    wd = reg.withdrawal
    out.append((tr("中途退赛者保留已赛成绩和名次(标注“退赛”)", "Players who withdraw keep their games and a place (marked)")
                if wd.withdrawn_ranked else
                tr("中途退赛者已赛对局有效(计入对手分), 但不计名次、不参加录取",
                   "Players who withdraw: their games stand (in SOS), but they take no place or prize"))
               + _default(wd, "withdrawn_ranked"))
    out.append((tr("被取消资格者不计名次, 已赛对局成绩有效", "Disqualified players take no place; their games stand")
                if wd.disqualified_games == "stand" else
                tr("被取消资格者不计名次, 已赛对局全部判负 (对手计胜)",
                   "Disqualified players take no place; all their games count as their losses"))
               + _default(wd, "disqualified_games"))
    out += _absence(reg)
    out += _ranking(tr("个人名次", "Individual ranking"), reg.ranking)
    for d in reg.divisions:
        if d.ranking_rules:
            out += _ranking(tr(f"{d.name}个人名次", f"{d.name} individual ranking"), d.ranking_rules)
    out.append(_pairing(reg))
    if reg.teams:
        out += ["", _section("团体", "Teams"), *_teams(reg)]
    out += ["", _section("录取名次与奖励", "Places and prizes"), *_prizes(reg)]
    if reg.rank_awards:
        out += ["", _section("段位授予/申报", "Rank awards")]
        for ra in reg.rank_awards:
            out += _rank_award(ra, reg, ids)
    if reg.promotions:
        out += ["", _section("升段/定级", "Promotion by wins")]
        for pr in reg.promotions:
            mark = _defaults_note(pr, ("forfeit_wins_count", "byes_count", "must_play_all_rounds",
                                       "withdrawn_excluded"))
            out.append(f"{reg.division(pr.division).name}: {promotion_text(pr, mark)}")
    out += ["", _section("费用", "Fees"), *_fees(reg)]
    out += ["", _section("报名", "Registration"), *_registration(reg)]
    out += ["", _section("裁判与申诉", "Referees and appeals"), *_officials(reg)]
    if reg.obligations or reg.conduct:
        out += ["", _section("义务与纪律", "Duties and conduct")]
        for ob in reg.obligations:
            out.append(tr(f"- 义务: {ob.duty}; 否则: ", f"- duty: {ob.duty}; otherwise: ") + _join(ob.penalties))
        out += [f"- {c}" for c in reg.conduct]
    if reg.disputes or reg.interpretation:
        out += ["", _section("其他", "Other")]
        if reg.disputes:
            out.append(tr("非裁判类争议", "Disputes not about refereeing") + f": {reg.disputes}")
        if reg.interpretation:
            out.append(reg.interpretation)
    out += ["", _section("规程未明确之处及所选默认", "Points the regulation leaves open, and the defaults chosen")]
    out += [f"- {op.topic}: {op.choice}" + (f" — {op.question}" if op.question else "")
            for op in reg.open_points] or [tr("- (无)", "- (none)")]
    return out


_SCORING_FIELDS: Sequence[str] = ("win", "draw", "loss", "bye", "forfeit_win", "forfeit_loss", "both_forfeit")


def _play_rules(reg: Regulation) -> str:
    r = reg.rules
    if r.superko == "positional":
        ko = tr("全局同形禁止", "positional superko")
    elif r.cycle_result == "void":
        ko = tr("简单劫规则, 循环劫无胜负", "simple ko rule, a repeating cycle means no result")
    else:
        ko = tr("简单劫规则, 循环劫和棋", "simple ko rule, a repeating cycle is a draw")
    suicide = tr("允许" if r.suicide_allowed else "禁止", "allowed" if r.suicide_allowed else "forbidden")
    return tr(
        f"棋盘{r.board_size}路, 中国规则数子法, 贴{r.komi}目({_stones(r.komi)}子), {ko}, {suicide}自杀; {r.rules_text}",
        f"Board {r.board_size}×{r.board_size}, Chinese rules (area counting), komi {r.komi} points "
        f"({_stones(r.komi)} stones), {ko}, suicide {suicide}; {r.rules_text}",
    ) + _defaults_note(r, ("board_size", "komi", "superko", "suicide_allowed", "rules_text"))


def _pairing(reg: Regulation) -> str:
    p = reg.pairing
    seeding = _join(_SEED[k].render() for k in p.round1_seeding)
    formats = [f for s in reg.stages for f in (s.format, *s.formats_by_division.values())]
    if formats and not any(f.swiss_rules for f in formats) and any(f.crosstables for f in formats):
        # No Swiss stage: only the seeding order is used (groups, seats, bracket seeds).
        return tr(f"种子顺序 (分组、淘汰赛种子): 按{seeding}排序",
                  f"Seeding order (groups, knockout seeds): by {seeding}")
    in_group = (tr("上半区对下半区", "top half against bottom half") if p.in_group == "split"
                else tr("相邻配对", "neighbours paired"))
    avoid = "; " + p.avoid_policy() if p.avoid_policy() else ""
    colours = (tr("平衡黑白", "colours balanced") if p.colour_balance
               else tr("不考虑黑白平衡", "colours not balanced"))
    return tr(
        f"编排: 第一轮按{seeding}排序, {_ROUND1[p.round1_method].zh}; 同分组内{in_group}; 不重复对局; {colours}",
        f"Pairing: round 1 sorted by {seeding}; {_ROUND1[p.round1_method].en}; within a score group {in_group}; "
        f"no repeat games; {colours}",
    ) + avoid + _defaults_note(p, ("round1_seeding", "round1_method", "in_group", "colour_balance"))


_SEED = {"rank": Text("段位", "rank"), "rating": Text("等级分", "rating"), "lot": Text("抽签", "lot")}
_ROUND1 = {
    "slide": Text("上半区对下半区(1对n/2+1)", "top half against bottom half (1 v n/2+1)"),
    "fold": Text("折叠配对(1对n)", "folded (1 v n)"),
    "split_lot": Text("上下半区抽签配对", "halves paired by lot"),
    "random": Text("完全随机配对", "fully random"),
}
def _stones(komi: float) -> str:
    quarters = round(komi * 2)  # komi/2 stones, in quarters
    whole, rest = divmod(quarters, 4)
    frac = {0: "", 1: "1/4", 2: "1/2", 3: "3/4"}[rest]
    if whole and frac:
        return tr(f"{whole}又{frac}", f"{whole} {frac}")
    return frac or str(whole)


def _gender(g: Gender) -> str:
    return tr(g.label, "male" if g is Gender.MALE else "female")


def _eligibility(e: Eligibility) -> list[str]:
    lines: list[str] = []
    if e.born_from or e.born_to:
        if e.born_from and e.born_to:
            lines.append(tr("出生日期", "born") + f": {_span(e.born_from, e.born_to)}")
        elif e.born_from:
            lines.append(tr(f"出生日期: {fmt_date(e.born_from)} 及以后", f"born: {fmt_date(e.born_from)} or later"))
        else:
            lines.append(tr(f"出生日期: {fmt_date(e.born_to)} 及以前", f"born: {fmt_date(e.born_to)} or earlier"))
    if e.exact_age_group:
        lines.append(tr("须按出生日期对应组别参赛, 不得以大打小或以小打大",
                        "players must enter the division of their birth date, neither an older nor a younger one"))
    if e.genders:
        lines.append(tr("性别", "gender") + ": " + _join(_gender(g) for g in e.genders))
    if e.min_rank or e.max_rank:
        anyone = tr("不限", "any")
        lines.append(tr("段级位", "rank") + f": {e.min_rank or anyone} {tr('至', 'to')} {e.max_rank or anyone}")
    if e.certificate_required:
        lines.append(tr("须持有中国围棋协会监制的业余段级位证书",
                        "an amateur rank certificate issued under the Chinese Weiqi Association is required"))
    if e.members_of:
        lines.append(tr(f"须为{e.members_of} (按主办方导入的会员名单核对)",
                        f"membership required: {e.members_of} (checked against the register the organisers import)"))
    lines.append(_PRO_LABELS[e.professionals].render() + _default(e, "professionals"))
    if e.regions:
        lines.append(tr("仅限: " + "、".join(e.regions) + "棋手", "only players from: " + ", ".join(e.regions)))
    lines += [f"{k}: {v}" for k, v in e.region_notes.items()]
    lines.append(tr("参赛途径", "entry routes") + ": " + _join(_ROUTE_LABELS[r].render() for r in e.routes)
                 + _default(e, "routes"))
    if e.represent_rule:
        lines.append(e.represent_rule)
    if e.approval_required:
        lines.append(tr("报名后, 主办方审核通过后方可参赛", "entries play only after the organisers approve them"))
    return lines


def _division(d: Division, reg: Regulation, ids: bool = True) -> list[str]:
    head = (f"{d.name} ({d.id})" if ids else d.name) + (tr(f", 属{d.parent}", f", part of {d.parent}") if d.parent else "")
    lines = [head]
    lines += [f"  - {x}" for x in _eligibility(d.eligibility)]
    names = []
    for r in d.rankings:
        extra = ""
        if r.min_age is not None:
            ref = fmt_date(r.age_reference)
            extra = tr(f", {r.min_age}岁以上(以{ref}计)", f", aged {r.min_age} and over (on {ref})")
        names.append(f"{r.name}{extra}")
    lines.append(tr("  - 名次表: ", "  - rankings: ") + "; ".join(names))
    if d.may_enter_instead:
        lines.append(
            tr("  - 棋手也可选择参加: ", "  - players may enter instead: ")
            + _join(reg.division(x).name for x in d.may_enter_instead)
        )
    if d.merge:
        m = d.merge
        into = reg.division(m.into).name
        n = m.when_entries_below
        cond = tr(f"(参赛人数少于{n}人时)", f" (when fewer than {n} enter)") if n else ""
        lines.append(
            tr(f"  - {m.decided_by}{cond}: 可并入{into}", f"  - {m.decided_by}{cond}: may be merged into {into}")
            + (tr(", 分别计算名次", ", ranked separately") if m.separate_ranking else "")
            + _defaults_note(m, ("decided_by", "separate_ranking"))
        )
    if d.platform:
        lines.append(tr("  - 线上平台: ", "  - online platform: ") + d.platform)
    lines += _division_board(d, reg)
    return lines


def _division_board(d: Division, reg: Regulation) -> list[str]:
    """A division's own board, komi (with the stones Black needs) and clock, when it has them."""
    lines = []
    if d.board_size is not None or d.komi is not None:
        r = d.play_rules(reg.rules)
        lines.append(tr(
            f"  - 本组棋盘{r.board_size}路, 贴{r.komi:g}目({_stones(r.komi)}子), 黑{stones_to_win(r)}子胜",
            f"  - this division plays on {r.board_size}×{r.board_size}, komi {r.komi:g} points "
            f"({_stones(r.komi)} stones): Black needs {stones_to_win(r)} stones"))
    if d.time_control is not None:
        lines.append(tr("  - 本组用时: ", "  - this division's clock: ") + time_control(d.time_control))
    return lines


def _absence(reg: Regulation) -> list[str]:
    """迟到 and 弃权满N轮: the rules the engine applies as results are entered."""
    out = []
    rule = reg.lateness
    if rule is not None:
        what = (tr("该局判负(迟到判负)", "loses the game (loss by lateness)") if rule.outcome == "loss"
                else tr("该轮按弃权处理", "forfeits the round"))
        line = (tr(f"{rule.limit_text}者{what}; 计分与对手分同弃权局, 但不算弃权次数",
                   f"A player {rule.limit_text_en} {what}; scored and counted in SOS as a forfeit, "
                   "but not counted as one") if rule.outcome == "loss"
                else tr(f"{rule.limit_text}者{what}, 计入弃权次数",
                        f"A player {rule.limit_text_en} {what}, counted as a forfeit"))
        if rule.clock_factor > 1:
            line += tr(f"; 未到时限者迟到时间按{rule.clock_factor}倍从其用时中扣除",
                       f"; below the limit, {rule.clock_factor} times the minutes late come off the clock")
        out.append(line + _defaults_note(rule, ("inclusive", "outcome", "clock_factor")))
    wd = reg.withdrawal
    if wd.exclude_after_forfeits is not None:
        n = wd.exclude_after_forfeits
        as_ = (tr("按退赛处理", "treated as withdrawn") if wd.excluded_as == "withdrawn"
               else tr("按取消资格处理", "treated as disqualified"))
        out.append(tr(f"弃权满{n}轮者取消其后比赛资格, 不再编排, 已赛成绩有效 ({as_})",
                      f"A player who forfeits {n} rounds is excluded from the rest of the event and not "
                      f"paired again; the games played stand ({as_})") + _default(wd, "excluded_as"))
    return out


def _stage(s: Stage, reg: Regulation) -> list[str]:
    when = f" {_span(s.start, s.end)}" if s.start or s.end else ""
    kind = _KIND_LABELS[s.kind].render()
    lines = [tr(f"第{s.phase}阶段 {s.name} [{kind}]{when}", f"Phase {s.phase} {s.name} [{kind}]{when}")]
    lines.append(tr("  - 组别: ", "  - divisions: ") + _join(reg.division(x).name for x in s.divisions))
    if s.venue:
        lines.append(tr("  - 地点: ", "  - venue: ") + s.venue)
    if s.check_in:
        lines.append(tr("  - 报到: ", "  - check-in: ") + fmt_date(s.check_in))
    if s.departure:
        lines.append(tr("  - 离会: ", "  - departure: ") + s.departure)
    for did, platform in s.platforms.items():
        name = reg.division(did).name
        lines.append(tr(f"  - {name}平台: {platform}", f"  - {name} platform: {platform}"))
    if s.entry_note:
        lines.append(tr("  - 参赛资格: ", "  - entry: ") + s.entry_note)
    if s.fee_note:
        lines.append(tr("  - 费用: ", "  - fees: ") + s.fee_note)
    for p in s.periods:
        start = ""
        if p.first_day_start:
            t = fmt_time(p.first_day_start)
            start = tr(f", 首日 {t} 开始", f", first day starts {t}")
        lines.append(tr(f"  - 第{p.number}期 ", f"  - period {p.number} ") + _span(p.start, p.end) + start)
    lines += [f"  - {x}" for x in _format(s.format, reg)]
    for did, fmt in s.formats_by_division.items():
        lines += [f"  - {reg.division(did).name}: {x}" for x in _format(fmt, reg)]
    if s.time_control:
        lines.append(tr("  - 用时: ", "  - time: ") + time_control(s.time_control))
    else:
        lines.append(tr("  - 用时: 规程未规定(见补充规定)", "  - time: not set by the regulation (see the supplementary rules)"))
    if s.disconnection:
        lines.append(_disconnection(s))
    if s.details_note:
        lines.append(tr("  - 说明: ", "  - notes: ") + s.details_note)
    for e in sorted(s.timetable, key=lambda e: e.at):
        lines.append(tr("  - 日程: ", "  - timetable: ") + timetable_line(e))
    return lines


def timetable_item(e: TimetableEntry) -> str:
    """第1轮 / 开幕式 / 第1轮 (领队会): what a timetable line is about."""
    parts = [tr(f"第{e.round}轮", f"round {e.round}")] if e.round is not None else []
    if e.what:
        parts.append(e.what)
    return " ".join(parts)


def timetable_line(e: TimetableEntry) -> str:
    return f"{fmt_date(e.at)} {timetable_item(e)}" + (f" ({e.place})" if e.place else "")


def _disconnection(s: Stage) -> str:
    dc = s.disconnection
    assert dc is not None
    after, most, total = dc.disconnection_after_seconds, dc.max_disconnections, dc.max_total_absence_seconds
    return tr(
        f"  - 断线: 每次中断超过{after}秒算一次断线; "
        f"断线次数大于{most}次, 或一局中断总时长超过{total}秒"
        f"({_minutes(total)}), 即视为逃跑; 中断: {dc.absence_definition}; "
        + ("总时长计入每一次中断" if dc.short_absences_count_in_total else "总时长只计超过时限的断线")
        + "; 断线期间钟表继续走",
        f"  - disconnection: an interruption over {after} s counts as one disconnection; "
        f"more than {most} disconnections, or interruptions over {total} s ({_minutes(total)}) in total "
        f"in one game, count as escaping the game; interruption: {dc.absence_definition}; "
        + ("every interruption counts towards the total" if dc.short_absences_count_in_total
           else "only disconnections over the limit count towards the total")
        + "; the clock runs during a disconnection",
    ) + _defaults_note(dc, ("disconnection_after_seconds", "max_disconnections", "max_total_absence_seconds",
                            "absence_definition", "short_absences_count_in_total"))


def _minutes(seconds: int) -> str:
    if seconds % 60 == 0:
        return tr(f"{seconds // 60}分钟", f"{seconds // 60} min")
    return tr(f"{seconds}秒", f"{seconds} s")


def _format(fmt: StageFormat, reg: Regulation) -> list[str]:
    """The format's lines, by its kind (a new format adds its wording to ``_FORMAT_LINES``)."""
    return _FORMAT_LINES[fmt.kind](fmt, reg)


def _swiss(fmt: SwissFormat) -> list[str]:
    if fmt.rounds is None:
        lines = [tr("赛制: 积分编排制, 轮次视报名情况而定", "format: Swiss, the number of rounds depends on the entries")]
    elif fmt.rounds_provisional:
        lines = [tr(f"赛制: 积分编排制, 暂定{fmt.rounds}轮, 具体轮次视报名人数确定",
                    f"format: Swiss, provisionally {fmt.rounds} rounds, the final number depends on the entries")]
    else:
        lines = [tr(f"赛制: 积分编排制, {fmt.rounds}轮", f"format: Swiss, {fmt.rounds} rounds")]
    return lines + _elimination(fmt.elimination)


def _elimination(rule: Elimination | None) -> list[str]:
    """积分编排淘汰制: each condition, and where the eliminated are placed."""
    if rule is None:
        return []
    zh: list[str] = []
    en: list[str] = []
    for step in rule.after_rounds:
        zh.append(f"第{step.round}轮后积分{step.score_at_most}分及以下者淘汰")
        en.append(f"after round {step.round}, players with {step.score_at_most} points or fewer are eliminated")
    if rule.losses is not None:
        zh.append(f"负满{rule.losses}局者淘汰 (弃权负计入)")
        en.append(f"a player who has lost {rule.losses} games (forfeits included) is eliminated")
    lines = []
    if zh:
        lines.append(tr("淘汰: " + "; ".join(zh) + "; 淘汰者不再参加编排, 已赛成绩有效; 名次列于未淘汰者之后, "
                        "较晚淘汰者在前, 同一轮淘汰者按排名办法排列",
                        "elimination: " + "; ".join(en) + "; the eliminated are paired no more and their games "
                        "stand; they are placed below the survivors, the later eliminated first, those "
                        "eliminated after the same round by the ranking criteria"))
    if rule.stop_at_wins is not None:
        lines.append(tr(f"胜满{rule.stop_at_wins}局者 (达到升段、升级标准) 不再参加以后各轮编排, 不算淘汰, "
                        "按排名办法与未淘汰者一同排列",
                        f"a player who has won {rule.stop_at_wins} games (the promotion mark) is paired no "
                        "more; not eliminated, ranked with the survivors by the ranking criteria"))
    return lines


def _two_groups(fmt: TwoGroupSwissFormat) -> list[str]:
    pf = fmt.placement_final
    a, b = fmt.groups[0], fmt.groups[1]
    split = (tr("按段位/等级分蛇形分组", "snake seeding by rank/rating") if fmt.split == "snake"
             else tr("抽签分组", "groups drawn by lot")) + _defaults_note(fmt, ("groups", "split"))
    return [
        tr(f"赛制: 积分编排制, 分{''.join(fmt.groups)}组({split})各赛{fmt.group_rounds}轮, "
           f"第{pf.round}轮各组前{pf.top}名同名次决赛({a}1对{b}1决定第1、2名, {a}2对{b}2决定第3、4名 …)",
           f"format: Swiss in groups {', '.join(fmt.groups)} ({split}), {fmt.group_rounds} rounds each; "
           f"in round {pf.round} the top {pf.top} of each group play placement finals "
           f"({a}1 v {b}1 for places 1 and 2, {a}2 v {b}2 for places 3 and 4 …)"),
        tr(f"同名次决赛以外的名次: 按组内名次交替排列{'、'.join(fmt.groups)}组",
           f"places outside the placement finals: groups {', '.join(fmt.groups)} alternate by place in group")
        + _default(pf, "below_rule"),
    ]


def _double_round_robin(fmt: DoubleRoundRobinFormat) -> list[str]:
    seats = (tr("序号抽签", "seats drawn by lot") if fmt.seats == "lot"
             else tr("序号按种子顺序", "seats in seeding order")) + _default(fmt, "seats")
    return [tr(f"赛制: 双循环 (贝格尔编排表); 第一循环先列者执黑, 第二循环重复第一循环的对阵, 双方执黑执白互换; "
               f"两个循环合计排名; {seats}",
               "format: double round robin (Berger tables); in the first cycle the seat named first takes "
               "Black, the second cycle repeats the pairs with colours swapped; one ranking over both cycles; "
               f"{seats}")]


def _knockout(fmt: KnockoutFormat) -> list[str]:
    seeding = (tr("按种子顺序定种子", "seeded in seeding order") if fmt.seeding == "rank"
               else tr("抽签定种子", "seeds drawn by lot")) + _default(fmt, "seeding")
    who = tr(f"种子顺序前{fmt.players}名", f"the top {fmt.players} seeds") if fmt.players else tr(
        "全部报名者", "every entrant")
    return [tr(f"赛制: 淘汰赛, {who}, {seeding}; 人数不是2的幂时高位种子首轮轮空",
               f"format: knockout, {who}, {seeding}; when the number is not a power of two the top "
               "seeds have a first-round bye"), *_knockout_rules(fmt)]


def _announced_later(fmt: AnnouncedLaterFormat) -> list[str]:
    return [tr("赛制: ", "format: ") + fmt.note]


def _round_robin(fmt: RoundRobinFormat) -> list[str]:
    split = (tr("按种子顺序蛇形分组", "snake seeding in seeding order") if fmt.split == "snake"
             else tr("抽签分组", "groups drawn by lot")) + _default(fmt, "split")
    seats = (tr("组内序号抽签", "seats in each group drawn by lot") if fmt.seats == "lot"
             else tr("组内序号按种子顺序", "seats in each group in seeding order")) + _default(fmt, "seats")
    if len(fmt.groups) == 1:
        lines = [tr(f"赛制: 单循环 (贝格尔编排表, 先列者执黑); {seats}",
                    f"format: round robin (Berger tables, the seat named first takes Black); {seats}")]
    else:
        lines = [tr(f"赛制: 分{'、'.join(fmt.groups)}{len(fmt.groups)}组单循环 ({split}; {seats}; "
                    "贝格尔编排表, 先列者执黑; 单数组每轮一人轮空)",
                    f"format: round robin in groups {', '.join(fmt.groups)} ({split}; {seats}; Berger tables, "
                    "the seat named first takes Black; in an odd group one player rests each round)")]
    ko = fmt.knockout
    if ko is not None:
        q = ko.qualifiers_per_group
        if ko.bracket == "cross":
            pairs = []
            tops: list[str] = []
            bottoms: list[str] = []
            for j in range(0, len(fmt.groups) - 1, 2):
                x, y = fmt.groups[j], fmt.groups[j + 1]
                tops.append(f"{x}1–{y}2")
                bottoms.append(f"{y}1–{x}2")
            pairs = tops + bottoms
            bracket = tr(f"交叉对阵 {'、'.join(pairs)}", f"crossed bracket {', '.join(pairs)}")
        else:
            bracket = tr("各组第1名为前几号种子, 第2名接着排, 按种子位置排入对阵表",
                         "group winners are the first seeds, the runners-up next, placed by seed")
        lines.append(tr(f"第二阶段: 各组前{q}名进入淘汰赛, {bracket}",
                        f"second stage: the top {q} of each group play a knockout, {bracket}"))
        lines += _knockout_rules(ko)
        for rule in ko.places_below:
            span = (tr(f"第{rule.place_from}名以后", f"places {rule.place_from} on") if rule.place_to is None
                    else tr(f"第{rule.place_from}–{rule.place_to}名", f"places {rule.place_from}–{rule.place_to}"))
            zh, en = labels_text(rule.criteria, Scope.PLACEMENT)
            lines.append(tr(f"{span}按{zh}排列 (小组赛成绩), 仍相同者并列",
                            f"{span} by {en} (group stage), a remaining tie shared"))
        if not ko.places_below:
            lines.append(tr("未出线者按小组名次排列, 各组同名次者并列",
                            "players who do not qualify are placed by group place, equal group places shared"))
    return lines


def _knockout_rules(ko: KnockoutRules) -> list[str]:
    draw = {"replay": tr("重赛", "replayed"), "black_wins": tr("黑方晋级", "Black goes on"),
            "white_wins": tr("白方晋级", "White goes on"),
            "higher_seed": tr("种子序号靠前者晋级", "the higher seed goes on")}[ko.on_draw]
    both = {"replay": tr("重赛", "replayed"), "higher_seed": tr("种子序号靠前者晋级", "the higher seed goes on"),
            "both_out": tr("两人均淘汰, 下一轮对手轮空晋级", "both are out, the next opponent goes on with a bye")
            }[ko.on_both_lose]
    third = (tr("半决赛负者进行季军赛, 决出第3、4名", "the semi-final losers play for places 3 and 4")
             if ko.third_place else tr("不设季军赛, 半决赛负者并列第3名", "no third-place match: both semi-final losers are 3rd"))
    return [
        tr("淘汰赛: 每场抽签定黑白; ", "knockout: colours by lot; ") + third + _default(ko, "third_place"),
        tr(f"淘汰赛和棋: {draw}", f"knockout, drawn game: {draw}") + _default(ko, "on_draw")
        + tr(f"; 双方弃权或双方判负: {both}", f"; both forfeit or both lose: {both}") + _default(ko, "on_both_lose"),
        tr("淘汰赛名次: 决赛负者第2名; 各轮负者并列 (如八强负者并列第5名)",
           "knockout places: the final's loser 2nd; the losers of a round share a place (quarter-final losers 5th=)"),
    ]


_BOARD_RULE: dict[str, Text] = {
    "board_points": Text("该台局分最多", "most board points on that board"),
    "percentage": Text("该台胜率最高", "best winning percentage on that board"),
    "wins": Text("该台胜局最多", "most wins on that board"),
}
_BOARD_TIE: dict[str, Text] = {
    "team_place": Text("所在队团体名次", "the team's place"), "board_points": Text("该台局分", "board points"),
    "percentage": Text("该台胜率", "winning percentage"), "wins": Text("该台胜局数", "wins"),
    "lot": Text("抽签", "lot"),
}


def _team_match(fmt: TeamMatchFormat) -> list[str]:
    system = (tr("单循环 (贝格尔编排表)", "single round robin (Berger tables)") if fmt.system == "round_robin"
              else tr("双循环 (贝格尔编排表; 第二循环重复第一循环的对阵, 每台双方执黑执白互换)",
                      "double round robin (Berger tables; the second cycle repeats the matches with colours "
                      "swapped on every board)") if fmt.system == "double_round_robin"
              else tr(f"按场分积分编排 {fmt.rounds}轮, 不重复相遇", f"Swiss by match points, {fmt.rounds} rounds, no rematch"))
    mp, bp = fmt.match_points, fmt.board_points
    lines = [
        tr(f"赛制: 团体赛, {system}, 每场{fmt.boards}台", f"format: team matches, {system}, {fmt.boards} boards a match"),
        tr(f"场分: 胜{mp.win} 平{mp.draw} 负{mp.loss} (局分多者胜该场, 相同为平)",
           f"match points: win {mp.win}, draw {mp.draw}, loss {mp.loss} (more board points wins the match, equal is a draw)")
        + _default(fmt, "match_points"),
        tr(f"局分: 每盘胜{bp.win:g} 和{bp.draw:g} 负{bp.loss:g}; 缺人或弃权的台次判负",
           f"board points: win {bp.win:g}, draw {bp.draw:g}, loss {bp.loss:g}; an empty or forfeited board is lost")
        + _default(fmt, "board_points"),
    ]
    use = tr("贝格尔表位置", "Berger positions") if fmt.cycles else tr("第一轮排序", "round-1 seeding")
    lines.append(tr(f"队号 ({use}): " + ("按比赛种子抽签" if fmt.seating == "lot" else "按报名顺序"),
                    f"team numbers ({use}): " + ("drawn with the event's seed" if fmt.seating == "lot"
                                                 else "registered order"))
                 + _default(fmt, "seating"))
    lines.append(tr("台次颜色: 对阵表上方的队单数轮单数台执黑、双数台执白, 双数轮相反",
                    "colours: the first-named team has Black on odd boards in odd rounds, on even boards in even rounds")
                 + _default(fmt, "colours"))
    order = (tr("按报名顺序排台 (替补可上场, 不得颠倒)", "boards in the registered order (substitutes may play, no swapping)")
             if fmt.fixed_order else tr("台次顺序不限", "any board order"))
    lines.append(tr("出场名单: ", "line-up: ") + order + _default(fmt, "fixed_order"))
    if fmt.min_women:
        lines.append(tr(f"每场至少{fmt.min_women}名女棋手上场", f"at least {fmt.min_women} {'woman plays' if fmt.min_women == 1 else 'women play'} each match"))
    who = (tr("领队或裁判长", "the team leader or the chief referee") if fmt.lineup_by == "leader_or_director"
           else tr("裁判长", "the chief referee"))
    lines.append(tr(f"出场名单由{who}在每轮编排前提交; 未提交的按报名顺序出场",
                    f"line-ups are submitted by {who} before the round is paired; a team without one plays "
                    "in the registered order") + _default(fmt, "lineup_default"))
    if fmt.youth_quota is not None:
        q = fmt.youth_quota
        lines.append(tr(f"每场至少{q.players}名{q.under_age}岁以下棋手出场 (按本阶段开始日期未满{q.under_age}周岁)",
                        f"at least {q.players} player(s) under {q.under_age} (on the stage's first day) play "
                        "each match"))
    if fmt.lineup_deadline_minutes is not None:
        lines.append(tr(f"出场名单须在赛前{fmt.lineup_deadline_minutes}分钟提交 (按日程中该轮时间), 逾时不再受理",
                        f"line-ups are due {fmt.lineup_deadline_minutes} minutes before the round (by the "
                        "timetable); none is taken after that"))
    if not fmt.leader_may_play:
        lines.append(tr("领队不得兼任队员出场", "a team leader may not play"))
    lines.append(tr("轮空: 记胜一场, 各台记胜局局分", "bye: a won match, every board scored as won") + _default(fmt, "bye"))
    for p in fmt.board_prizes:
        rule = _BOARD_RULE[p.rule].render()
        value = tr(f", 奖金{p.amount}元", f", {p.amount} yuan") if p.amount is not None else ""
        value += f", {p.gift}" if p.gift else ""
        ties = ""
        if p.tie_breaks:
            ties = tr(f"; 相同依次比较{'、'.join(_BOARD_TIE[x].zh for x in p.tie_breaks)}",
                      f"; ties broken by {', '.join(_BOARD_TIE[x].en for x in p.tie_breaks)}")
        ties += (tr("; 只评此名额, 仍相同抽签", "; exactly this many, a lot decides a remaining tie") if p.single
                 else tr("; 仍相同者并列", "; a remaining tie is shared"))
        lines.append(tr(f"{p.name}: 第{p.board}台{rule} (至少{p.min_games}场), 取{p.places}名{value}{ties}",
                        f"{p.name}: board {p.board}, {rule} (at least {p.min_games} games), {p.places} place(s){value}{ties}"))
    return lines


def _ladder(fmt: LadderFormat, reg: Regulation) -> list[str]:
    quota = []
    for key, n in fmt.qualifiers.items():
        if key in fmt.pools:
            names = _join(reg.division(x).name for x in fmt.pools[key])
            quota.append(tr(f"{names}合计每期录取前{n}名", f"{names} together: the top {n} of each period"))
        else:
            name = reg.division(key).name
            quota.append(tr(f"{name}每期录取前{n}名", f"{name}: the top {n} of each period"))
    lines = [
        tr(f"赛制: 积分晋级制, 随机匹配; 胜得{fmt.win:+d}分, 负{fmt.loss:+d}分; "
           f"逃跑{fmt.escape:+d}分, 对手{fmt.escape_opponent:+d}分",
           f"format: points ladder, random matching; win {fmt.win:+d}, loss {fmt.loss:+d}; "
           f"escaping a game {fmt.escape:+d}, the opponent {fmt.escape_opponent:+d}")
        + _defaults_note(fmt, ("matching", "win", "loss", "escape", "escape_opponent")),
        tr("录取: ", "qualify: ") + "; ".join(quota)
        + tr("; 积分相同胜局数多者列前", "; on equal points more wins rank higher")
        + (tr(" (对手逃跑的一局计入胜局数)", " (a game won by the opponent's escape counts as a win)")
           if fmt.escape_win_counts else
           tr(" (对手逃跑的一局不计入胜局数)", " (a game won by the opponent's escape is not a win)"))
        + _default(fmt, "escape_win_counts")
        + (tr("; 胜局数也相同则并列一同晋级", "; players equal in wins too all qualify") if fmt.all_tied_qualify else "")
        + _defaults_note(fmt, ("tie_break", "all_tied_qualify")),
        tr("比赛时间: ", "playing hours: ") + fmt.play_hours + _default(fmt, "play_hours"),
    ]
    if fmt.confirm_within_working_days:
        n = fmt.confirm_within_working_days
        lines.append(tr(f"晋级选手须在{n}个工作日内完善参赛信息, 逾期视为弃权",
                        f"qualifiers must complete their entry details within {n} working days, "
                        "or are treated as withdrawn"))
    if fmt.may_replay_next_period:
        lines.append(tr("成绩不理想可重新参加下一期", "players may play again in the next period")
                     + _default(fmt, "may_replay_next_period"))
    lines.append(tr("前期已晋级者再次名列前茅: ", "an earlier qualifier placing again: ")
                 + (tr("名额顺延给下一名", "the place passes to the next player")
                    if fmt.earlier_qualifier_place == "passed_on"
                    else tr("仍占名次, 名额不顺延", "keeps the place, which is not passed on"))
                 + _default(fmt, "earlier_qualifier_place"))
    if fmt.guardian_under_age:
        n = fmt.guardian_under_age
        lines.append(tr(f"未满{n}周岁的晋级选手须填写监护人信息", f"qualifiers under {n} must give a guardian's details")
                     + _default(fmt, "guardian_under_age"))
    return lines


def _ranking(title: str, rr: RankingRules) -> list[str]:
    names = []
    for spec in rr.criteria:
        label = criterion_label(spec.criterion)
        if spec.criterion is Criterion.SOS_CUT:
            label += (tr("(从最后一轮起)", " (from the last round)") if spec.from_last_round
                      else tr("(从第1轮起)", " (from round 1)"))
        names.append(label)
    if rr.mini_league and names:
        names.insert(1, tr("小循环(并列者之间的对局积分, 分不开的再在仍相同者之间比)",
                           "mini-league (points in the games among the tied, again among those still tied)"))
    lines = [
        f"{title}: "
        + (tr("全胜者冠军, 除全胜者外 ", "a player winning every game is champion; the others ")
           if rr.undefeated_champion else "")
        + tr("依次比较 ", "compared in order by ")
        + _join(names)
        + _default(rr, "criteria")
    ]
    if Criterion.TOTAL_SCORE in {c.criterion for c in rr.criteria}:
        terms = " + ".join(
            (f"{w}×" if w != 1 else "") + criterion_label(c) for c, w in rr.total_score.items()
        )
        lines.append(tr("总得分", "Total score") + f" = {terms}" + _default(rr, "total_score"))
    return lines


def _teams(reg: Regulation) -> list[str]:
    t = reg.teams
    assert t is not None
    lines = [tr(f"{t.name}{_default(t, 'name')}: 每队最多{t.max_players}人",
                f"{t.name}{_default(t, 'name')}: at most {t.max_players} players per team")]
    if t.max_men is not None or t.max_women is not None:
        men, women = t.max_men or 0, t.max_women or 0
        lines[-1] += tr(f"({men}男{women}女)", f" ({men} men, {women} women)")
    if t.min_women is not None:
        lines[-1] += tr(f"(其中至少{t.min_women}名女棋手, 报名时检查)",
                        f" (at least {t.min_women} {'woman' if t.min_women == 1 else 'women'}, checked at registration)")
    if t.slots:
        lines.append(tr("席位: ", "Seats: ") + _join(s.label for s in t.slots))
    if t.leaders or t.coaches:
        lines.append(tr(f"领队{t.leaders}名, 教练{t.coaches}名", f"Team leaders: {t.leaders}, coaches: {t.coaches}"))
    if t.max_teams or t.per_region:
        limits = []
        if t.max_teams:
            limits.append(tr(f"限报{t.max_teams}支队", f"At most {t.max_teams} teams"))
        if t.per_region:
            limits.append(tr(f"每个参赛单位(地区)限报{t.per_region}支队", f"at most {t.per_region} teams per region"))
        lines.append(tr("，", "; ").join(limits))
    if t.registration_from or t.registration_to:
        lines.append(tr("报名时间: ", "Registration: ") + _span(t.registration_from, t.registration_to))
    if t.own_associations:
        lines.append(tr("单独组队的参赛单位(不计入所在省): ",
                        "Associations entering their own teams (not counted with their province): ")
                     + _join(t.own_associations))
    if t.extra_players_play_individually:
        lines.append(tr("不足或超过团体人数的可以以个人名义参赛",
                        "Players short of or beyond a full team may play as individuals"))
    if t.backfill_rule:
        lines.append(t.backfill_rule)
    for c in t.competitions:
        ties = _join(CRITERIA[x].detail_in(Scope.TEAM).render() for x in c.tie_breaks)
        scope = _join(reg.division(d).name for d in c.divisions) if c.divisions else ""
        method = _TEAM_METHOD[c.method].render()
        lines.append(
            tr(f"{c.name}{'(' + scope + ')' if scope else ''}: {c.size}人, {method}",
               f"{c.name}{' (' + scope + ')' if scope else ''}: {c.size} players, {method}")
            + (tr("; 只计报满人数的队", "; only full teams are ranked") + _default(c, "complete_only")
               if c.complete_only and c.method != "match_points" else "")
            + tr(f"; 相同依次比较{ties}", f"; ties broken by {ties}") + _default(c, "tie_breaks")
        )
        if c.method_note:
            lines.append(f"  ({c.method_note})")
    return lines


_FORMAT_LINES: dict[str, Callable[[Any, Regulation], list[str]]] = {
    "online_ladder": _ladder,
    "swiss": lambda fmt, _reg: _swiss(fmt),
    "two_group_swiss": lambda fmt, _reg: _two_groups(fmt),
    "round_robin": lambda fmt, _reg: _round_robin(fmt),
    "double_round_robin": lambda fmt, _reg: _double_round_robin(fmt),
    "knockout": lambda fmt, _reg: _knockout(fmt),
    "announced_later": lambda fmt, _reg: _announced_later(fmt),
    "team_match": lambda fmt, _reg: _team_match(fmt),
}
"""Each stage format's wording, by its ``kind`` (the seam: ``regulation/format_base.py``)."""

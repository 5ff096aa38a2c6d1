"""Consistency checks across a loaded regulation that single fields cannot express.

Each finding names the field path, what is wrong and what is allowed (both in Chinese and
English), so the loader can attach a line number; all findings are returned at once.
"""

from __future__ import annotations

from datetime import date

from yisai.i18n import Text
from yisai.regulation.absence_checks import check_absence
from yisai.regulation.bracket_checks import check_mini_league
from yisai.regulation.findings import Finding, Path, allowed_values
from yisai.regulation.findings import useless as _useless
from yisai.regulation.format_base import as_kind
from yisai.regulation.organiser_checks import check_organisers
from yisai.regulation.prize_checks import check_kept_places, check_pool, check_prize_rules
from yisai.regulation.prizes import PrizeList
from yisai.regulation.promotions import PromotionRule
from yisai.regulation.rules import Criterion, PairingRules, RankingRules, Scoring, TimeControl
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import LadderFormat, Stage
from yisai.regulation.team_checks import check_teams


def check(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    out += _unique_ids(reg)
    out += _age_windows(reg)
    out += _stages(reg)
    out += _references(reg)
    out += _place_tables(reg)
    out += _numbers(reg)
    out += _avoidance(reg)
    out += _timetables(reg)
    out += _formats(reg)
    out += check_mini_league(reg)
    out += _promotions(reg)
    out += _no_effect(reg)
    out += check_teams(reg)
    out += check_pool(reg)
    out += check_prize_rules(reg)
    out += check_kept_places(reg)
    out += check_organisers(reg)
    out += check_absence(reg)
    out += _short_name(reg)
    return out


def _formats(reg: Regulation) -> list[Finding]:
    """Each stage format checks its own settings (``StageFormat.findings``)."""
    out: list[Finding] = []
    for i, s in enumerate(reg.stages):
        out += s.format.findings(("stages", i, "format"))
        for did, f in s.formats_by_division.items():
            out += f.findings(("stages", i, "formats_by_division", did))
    return out


# One SMS part: 70 characters with the signature, when the text holds Chinese (the providers'
# rule). The notices whose other variables the regulation fixes, as ``yisai.qualifier.notices``
# words them (a package above this one; tests/regulation keeps these figures equal to its
# templates): characters around the variables, and the variables besides the name.
SMS_PART = 70
_SIGNATURE = len("【弈赛】")
_DATE = len("2025-06-10")
_NOTICES_AROUND_NAME = {"place_to_confirm": 41, "confirm_reminder": 37, "final_entry_confirmed": 17}


def notice_lengths(reg: Regulation, name: str) -> dict[str, int]:
    """The characters a phone receives for each notice whose variables the regulation fixes,
    the event named ``name`` (an online qualifier's place, reminder and final entry)."""
    ladders = [s for s in reg.stages if s.format.online]
    if not ladders:
        return {}
    period = len(str(max((p.number for s in ladders for p in s.periods), default=1)))
    division = max(len(d.name) for d in reg.divisions)
    extra = {"place_to_confirm": period + _DATE, "confirm_reminder": _DATE, "final_entry_confirmed": division}
    return {k: _SIGNATURE + n + len(name) + extra[k] for k, n in _NOTICES_AROUND_NAME.items()}


def _short_name(reg: Regulation) -> list[Finding]:
    """The name notices use must keep each notice one SMS part wherever its other variables
    are known from the regulation, counted with the default signature 【弈赛】 (a longer
    signature configured for the provider costs more)."""
    if reg.short_name is None:
        return []
    name = reg.short_name
    length = max(notice_lengths(reg, name).values(), default=0)
    if length <= SMS_PART:
        return []
    room = len(name) - (length - SMS_PART)
    return [Finding(("short_name",),
                    Text(f"简称「{name}」使通知超过一条短信 ({length}字 > {SMS_PART}字, 按两条计费)",
                         f"the short name {name!r} makes a notice longer than one SMS part "
                         f"({length} > {SMS_PART} characters, billed as two)"),
                    Text(f"须不超过{max(room, 0)}个字", f"at most {max(room, 0)} characters"))]


def _timetables(reg: Regulation) -> list[Finding]:
    """A timetable line must fall inside its stage's dates and name a round the stage has."""
    out: list[Finding] = []
    for i, s in enumerate(reg.stages):
        seen: dict[int, int] = {}
        for j, e in enumerate(s.timetable):
            path: Path = ("stages", i, "timetable", j)
            day = e.at.date()
            if (s.start and day < s.start) or (s.end and day > s.end):
                out.append(Finding((*path, "at"),
                                   Text(f"日程日期 {day} 不在阶段「{s.name}」的日期内",
                                        f"timetable date {day} is outside {s.name}'s dates"),
                                   Text(f"允许: {s.start or '…'} 至 {s.end or '…'}",
                                        f"allowed: {s.start or '…'} to {s.end or '…'}")))
            if e.round is None:
                continue
            rounds = _max_rounds(s)
            if rounds is not None and e.round > rounds:
                out.append(Finding((*path, "round"),
                                   Text(f"{s.name}共{rounds}轮, 没有第{e.round}轮",
                                        f"{s.name} has {rounds} rounds: there is no round {e.round}"),
                                   allowed_values(f"1–{rounds}")))
            if e.round in seen:
                out.append(Finding((*path, "round"),
                                   Text(f"第{e.round}轮在日程中出现两次 (另见第{seen[e.round] + 1}项)",
                                        f"round {e.round} is in the timetable twice (see line {seen[e.round] + 1})")))
            seen.setdefault(e.round, j)
    if reg.prizes.award_day is not None:
        first = min((s.start for s in reg.stages if s.start), default=None)
        if first is not None and reg.prizes.award_day < first:
            out.append(Finding(("prizes", "award_day"),
                               Text(f"颁奖日期 {reg.prizes.award_day} 早于比赛开始 {first}",
                                    f"award day {reg.prizes.award_day} is before the event starts on {first}"),
                               Text(f"须不早于 {first}", f"must be on or after {first}")))
    return out


def _max_rounds(s: Stage) -> int | None:
    """The most rounds any division plays in a stage (None: not fixed by the regulation)."""
    counts: list[int] = []
    for fmt in [s.format, *s.formats_by_division.values()]:
        if not fmt.plays_rounds:
            continue
        last = fmt.last_round()
        if last is None:
            return None  # rounds by entries, or the count follows the field (round robin, knockout)
        counts.append(last)
    return max(counts) if counts else None


def _avoidance(reg: Regulation) -> list[Finding]:
    """Same-team avoidance must have an effect: a key and at least one round, and teams to
    avoid when the key is ``team`` (a setting that would do nothing is refused, not ignored)."""
    out: list[Finding] = []
    settings: list[tuple[Path, PairingRules]] = [(("pairing",), reg.pairing)]
    settings += [(("divisions", i, "pairing"), d.pairing) for i, d in enumerate(reg.divisions)
                 if d.pairing is not None]
    for path, p in settings:
        if p.avoid_same is not None and not p.avoid_rounds:
            out.append(Finding((*path, "avoid_rounds"),
                               Text(f"设置了回避同单位 (avoid_same = \"{p.avoid_same}\"), 但回避轮数为0, 不起作用",
                                    f"avoid_same = \"{p.avoid_same}\" is set but avoid_rounds is 0: it has no effect"),
                               Text("avoid_rounds = 1…50 (前k轮) 或 \"all\" (每轮尽量回避); 或删去 avoid_same",
                                    "avoid_rounds = 1…50 (first k rounds) or \"all\" (every round when possible); "
                                    "or remove avoid_same")))
        if p.avoid_same is None and p.avoid_rounds:
            out.append(Finding((*path, "avoid_rounds"),
                               Text(f"回避轮数为 {p.avoid_rounds}, 但没有设置回避什么 (avoid_same), 不起作用",
                                    f"avoid_rounds is {p.avoid_rounds} but avoid_same is not set: it has no effect"),
                               allowed_values("avoid_same = \"team\" | \"province\" | \"city\" | \"club\"")))
        if p.avoid_same == "team" and reg.teams is None:
            out.append(Finding((*path, "avoid_same"),
                               Text("回避同队 (avoid_same = \"team\"), 但本赛事没有参赛队 (规程无 [teams]), 不起作用",
                                    "avoid_same = \"team\", but this event has no teams (no [teams] section): "
                                    "it has no effect"),
                               Text("删去 avoid_same, 或按单位回避: \"province\" | \"city\" | \"club\"",
                                    "remove avoid_same, or avoid by unit: \"province\" | \"city\" | \"club\"")))
    return out


def _no_effect(reg: Regulation) -> list[Finding]:
    """Settings the file states that would change nothing (a file that says something must do
    it): refused with the reason and what to write instead. Team settings are checked with the
    team section."""
    out: list[Finding] = []
    rankings: list[tuple[Path, RankingRules]] = [(("ranking",), reg.ranking)]
    pairings: list[tuple[Path, PairingRules]] = [(("pairing",), reg.pairing)]
    for i, d in enumerate(reg.divisions):
        if d.ranking_rules is not None:
            rankings.append((("divisions", i, "ranking_rules"), d.ranking_rules))
        if d.pairing is not None:
            pairings.append((("divisions", i, "pairing"), d.pairing))
        for j, rl in enumerate(d.rankings):
            if rl.age_reference is not None and rl.min_age is None:
                out.append(_useless(("divisions", i, "rankings", j, "age_reference"),
                                    "名次表没有年龄限制 (min_age), 计算年龄的日期用不上",
                                    "the ranking has no age limit (min_age), so no age is computed",
                                    "写 min_age 或删去 age_reference", "add min_age or remove age_reference"))
        if d.merge is not None and d.merge.when_entries_below is not None:
            out.append(_useless(("divisions", i, "merge", "when_entries_below"),
                                "按人数自动合并组别尚未执行 (合并与否由裁判长按 decided_by 决定)",
                                "merging by entry count is not applied automatically (the chief referee "
                                "decides, as decided_by says)",
                                "删去 when_entries_below, 把人数写进 decided_by 的文字",
                                "remove when_entries_below and write the count into decided_by"))
    for path, rr in rankings:
        for j, spec in enumerate(rr.criteria):
            if spec.from_last_round and spec.criterion is not Criterion.SOS_CUT:
                out.append(_useless((*path, "criteria", j, "from_last_round"),
                                    f"from_last_round 只用于逐轮减去对手分 (sos_cut), 不用于 {spec.criterion.value}",
                                    f"from_last_round only applies to sos_cut, not {spec.criterion.value}",
                                    "删去 from_last_round", "remove from_last_round"))
        used = {c.criterion for c in rr.criteria}
        if "total_score" in rr.model_fields_set and Criterion.TOTAL_SCORE not in used:
            out.append(_useless((*path, "total_score"), "名次指标中没有总得分 (total_score), 公式用不上",
                                "the criteria do not include total_score, so the formula is unused",
                                "把 \"total_score\" 加入 criteria, 或删去 total_score",
                                "add \"total_score\" to criteria, or remove total_score"))
    for path, pr in pairings:
        if "round1_seeding" in pr.model_fields_set and pr.round1_method == "random":
            out.append(_useless((*path, "round1_seeding"), "第一轮完全随机配对 (round1_method = \"random\") 不看排序",
                                "a fully random round 1 ignores the seeding order",
                                "删去 round1_seeding 或改用其他 round1_method",
                                "remove round1_seeding or choose another round1_method"))
    if "cycle_result" in reg.rules.model_fields_set and reg.rules.superko == "positional":
        out.append(_useless(("rules", "cycle_result"), "全局同形禁止 (superko = \"positional\") 下不会出现循环劫",
                            "with positional superko no cycle can occur",
                            "删去 cycle_result, 或 superko = \"simple_ko\"",
                            "remove cycle_result, or set superko = \"simple_ko\""))
    for i, s in enumerate(reg.stages):
        if s.disconnection is not None and not any(f.online for f in (s.format, *s.formats_by_division.values())):
            out.append(_useless(("stages", i, "disconnection"), "断线与逃跑规定只用于线上对局 (online_ladder), 本阶段没有线上对局",
                                "disconnection rules apply to online games (online_ladder); this stage has none",
                                "删去 disconnection", "remove disconnection"))
    for j, sa in enumerate(reg.prizes.special):
        if sa.age_reference is not None and sa.min_age is None:
            out.append(_useless(("prizes", "special", j, "age_reference"), "特别奖没有年龄限制 (min_age), 计算年龄的日期用不上",
                                "the award has no age limit (min_age), so no age is computed",
                                "写 min_age 或删去 age_reference", "add min_age or remove age_reference"))
    return out + _registration_no_effect(reg)


def _registration_no_effect(reg: Regulation) -> list[Finding]:
    """The registration section's settings that would change nothing: an upload wording without
    its deadline, 额满截止 without a limit, a division limit the event's limit always reaches first,
    arrival wording without the check it words."""
    out: list[Finding] = []
    att = reg.registration.attachments
    if att is not None and att.deadline_wording and att.deadline is None:
        out.append(_useless(("registration", "attachments", "deadline_wording"), "没有上传截止时间 (deadline), 原文无处引用",
                            "no upload deadline (deadline) for the wording to quote",
                            "写 deadline 或删去 deadline_wording", "set deadline or remove deadline_wording"))
    limited = reg.registration.capacity is not None or any(d.capacity is not None for d in reg.divisions)
    if "close_when_full" in reg.registration.model_fields_set and not limited:
        out.append(_useless(("registration", "close_when_full"), "没有限报人数 (capacity), 不会额满",
                            "no limit of entries (capacity), so it is never full",
                            "写 registration.capacity 或组别的 capacity, 或删去 close_when_full",
                            "set registration.capacity or a division's capacity, or remove close_when_full"))
    cap = reg.registration.capacity
    for i, d in enumerate(reg.divisions):
        if cap is not None and d.capacity is not None and d.capacity >= cap:
            out.append(_useless(("divisions", i, "capacity"),
                                f"{d.name}限报{d.capacity}人, 不少于全部组别合计的限报{cap}人, 本组永远不会先满",
                                f"{d.name} takes {d.capacity}, not fewer than the {cap} of all divisions together, "
                                "so it is never full first",
                                f"把本组 capacity 改为小于{cap}的人数, 或删去", f"make it fewer than {cap}, or remove it"))
    arr = reg.registration.arrival
    if arr is not None:
        if arr.insurance_wording and not arr.insurance_required:
            out.append(_useless(("registration", "arrival", "insurance_wording"), "报到时不确认保险 (insurance_required = false)",
                                "insurance is not confirmed on arrival (insurance_required = false)",
                                "写 insurance_required = true 或删去 insurance_wording",
                                "set insurance_required = true or remove insurance_wording"))
        if "late_entry_from_round" in arr.model_fields_set and not arr.check_in_required:
            out.append(_useless(("registration", "arrival", "late_entry_from_round"),
                                "不要求报到 (check_in_required = false), 就没有未报到者补入",
                                "check-in is not required, so nobody joins late for missing it",
                                "写 check_in_required = true 或删去 late_entry_from_round",
                                "set check_in_required = true or remove late_entry_from_round"))
    return out


def _promotions(reg: Regulation) -> list[Finding]:
    """升段/定级: the division exists and plays games; a stated game count is its round count;
    the rank ranges of one division's rules do not overlap (a player gets one grant)."""
    out: list[Finding] = []
    divisions = {d.id for d in reg.divisions}
    seen: dict[str, list[tuple[int, PromotionRule]]] = {}
    for i, rule in enumerate(reg.promotions):
        path: Path = ("promotions", i)
        if rule.division not in divisions:
            out.append(Finding((*path, "division"), Text(f"未知组别: {rule.division}",
                                                         f"unknown division: {rule.division}"),
                               allowed_values(", ".join(divisions))))
            continue
        stages = [s for s in reg.stages if rule.division in s.divisions]
        fmts = [s.format_for(rule.division) for s in stages]
        if fmts and not any(f.plays_rounds for f in fmts):
            out.append(Finding((*path, "division"),
                               Text(f"组别 {rule.division} 没有按轮次下的比赛 (线上积分赛或赛制另行通知), "
                                    "按胜局数升段无从计算",
                                    f"division {rule.division} plays no rounds (online ladder or format "
                                    "announced later): promotion by wins cannot be computed")))
        fixed = {n for n in (f.fixed_rounds() for f in fmts) if n is not None}
        if rule.rounds is not None and fixed and rule.rounds not in fixed:
            out.append(Finding((*path, "rounds"),
                               Text(f"规则写{rule.rounds}局, 但该组别比赛共{min(fixed)}轮",
                                    f"the rule says {rule.rounds} games, but the division plays "
                                    f"{min(fixed)} rounds"),
                               Text(f"应为 {min(fixed)}", f"should be {min(fixed)}")))
        for j, other in seen.get(rule.division, []):
            if _ranks_overlap(rule, other):
                out.append(Finding((*path, "min_rank"),
                                   Text(f"与 promotions.{j} 的适用段级位重叠: 同一棋手只能适用一条规则",
                                        f"overlaps the ranks of promotions.{j}: a player may match one rule "
                                        "only")))
        seen.setdefault(rule.division, []).append((i, rule))
    return out


def _ranks_overlap(a: PromotionRule, b: PromotionRule) -> bool:
    if a.unranked and b.unranked:
        return True
    if not (a.ranked and b.ranked):
        return False
    low = max(a.min_rank.value if a.min_rank else -10_000, b.min_rank.value if b.min_rank else -10_000)
    high = min(a.max_rank.value if a.max_rank else 10_000, b.max_rank.value if b.max_rank else 10_000)
    return low <= high


def _numbers(reg: Regulation) -> list[Finding]:
    """Ranges that tie one number to another (single-field ranges live on the fields)."""
    out: list[Finding] = []
    out += _scoring(("scoring",), reg.scoring)
    for i, d in enumerate(reg.divisions):
        if d.scoring is not None:
            out += _scoring(("divisions", i, "scoring"), d.scoring)
        if d.time_control is not None:
            out += _time_control(("divisions", i, "time_control"), d.time_control)
    for i, s in enumerate(reg.stages):
        if s.time_control is not None:
            out += _time_control(("stages", i, "time_control"), s.time_control)
    t = reg.teams
    if t is not None:
        tp: Path = ("teams",)
        within_team = Text(f"须 ≤ max_players ({t.max_players})", f"must be ≤ max_players ({t.max_players})")
        for key, value in (("max_men", t.max_men), ("max_women", t.max_women)):
            if value is not None and value > t.max_players:
                out.append(Finding((*tp, key), Text(f"{value} 超过每队人数上限 {t.max_players}",
                                                    f"{value} is more than the team size limit {t.max_players}"),
                                   within_team))
        if len(t.slots) > t.max_players:
            out.append(Finding((*tp, "slots"),
                               Text(f"{len(t.slots)} 个席位超过每队人数上限 {t.max_players}",
                                    f"{len(t.slots)} seats are more than the team size limit {t.max_players}")))
        if t.per_region is not None and t.max_teams is not None and t.per_region > t.max_teams:
            out.append(Finding((*tp, "per_region"),
                               Text(f"每地区{t.per_region}队超过总队数上限 {t.max_teams}",
                                    f"{t.per_region} teams per region are more than the limit of "
                                    f"{t.max_teams} teams"),
                               Text(f"须 ≤ max_teams ({t.max_teams})", f"must be ≤ max_teams ({t.max_teams})")))
        if t.registration_from and t.registration_to and t.registration_from > t.registration_to:
            out.append(Finding((*tp, "registration_to"),
                               Text("报名截止早于报名开始", "registration closes before it opens")))
        for j, c in enumerate(t.competitions):
            if c.size > t.max_players:
                out.append(Finding((*tp, "competitions", j, "size"),
                                   Text(f"计算成绩{c.size}人超过每队人数上限 {t.max_players}",
                                        f"{c.size} players counting for the result are more than the team "
                                        f"size limit {t.max_players}"),
                                   within_team))
    return out


def _scoring(path: Path, sc: Scoring) -> list[Finding]:
    """积分: a win scores more than a draw, a draw at least a loss; the same for forfeits."""
    out: list[Finding] = []
    order = Text("须 win > draw ≥ loss", "must be win > draw ≥ loss")
    if sc.draw >= sc.win:
        out.append(Finding((*path, "draw"), Text(f"和棋得分 {sc.draw} 不低于胜局得分 {sc.win}",
                                                 f"a draw scores {sc.draw}, no less than the {sc.win} for a win"), order))
    if sc.loss >= sc.win:
        out.append(Finding((*path, "loss"), Text(f"负局得分 {sc.loss} 不低于胜局得分 {sc.win}",
                                                 f"a loss scores {sc.loss}, no less than the {sc.win} for a win"), order))
    if sc.loss > sc.draw:
        out.append(Finding((*path, "loss"), Text(f"负局得分 {sc.loss} 高于和棋得分 {sc.draw}",
                                                 f"a loss scores {sc.loss}, more than the {sc.draw} for a draw"), order))
    if sc.forfeit_loss >= sc.forfeit_win:
        out.append(Finding((*path, "forfeit_loss"),
                           Text(f"弃权方得分 {sc.forfeit_loss} 不低于对方得分 {sc.forfeit_win}",
                                f"the player who forfeits scores {sc.forfeit_loss}, no less than the "
                                f"{sc.forfeit_win} for the opponent"),
                           Text("须 forfeit_win > forfeit_loss", "must be forfeit_win > forfeit_loss")))
    if sc.bye > sc.win:
        out.append(Finding((*path, "bye"), Text(f"轮空得分 {sc.bye} 高于胜局得分 {sc.win}",
                                                f"a bye scores {sc.bye}, more than the {sc.win} for a win"),
                           Text("须 bye ≤ win", "must be bye ≤ win")))
    if sc.absent > sc.win:
        out.append(Finding((*path, "absent"), Text(f"未参加轮次得分 {sc.absent} 高于胜局得分 {sc.win}",
                                                   f"a round not played scores {sc.absent}, more than the "
                                                   f"{sc.win} for a win"),
                           Text("须 absent ≤ win", "must be absent ≤ win")))
    return _dedupe_paths(out)


def _dedupe_paths(found: list[Finding]) -> list[Finding]:
    seen: set[Path] = set()
    out = []
    for f in found:
        if f.path not in seen:
            seen.add(f.path)
            out.append(f)
    return out


def _time_control(path: Path, tc: TimeControl) -> list[Finding]:
    out: list[Finding] = []
    if tc.byoyomi_periods > 0 and tc.byoyomi_seconds == 0:
        out.append(Finding((*path, "byoyomi_seconds"),
                           Text(f"有{tc.byoyomi_periods}次读秒, 但每次读秒为0秒",
                                f"{tc.byoyomi_periods} byo-yomi periods, but each lasts 0 seconds"),
                           Text("须 > 0 秒", "must be > 0 seconds")))
    if tc.byoyomi_seconds > 0 and tc.byoyomi_periods == 0:
        out.append(Finding((*path, "byoyomi_periods"),
                           Text(f"每次读秒{tc.byoyomi_seconds}秒, 但读秒次数为0",
                                f"byo-yomi periods of {tc.byoyomi_seconds} seconds, but 0 periods"),
                           Text("须 ≥ 1, 或把 byoyomi_seconds 设为 0 表示不读秒",
                                "must be ≥ 1, or set byoyomi_seconds to 0 for no byo-yomi")))
    if tc.main_minutes == 0 and tc.byoyomi_periods == 0:
        out.append(Finding((*path, "main_minutes"), Text("基本用时为0且没有读秒", "no main time and no byo-yomi"),
                           Text("须有基本用时或读秒", "needs main time or byo-yomi")))
    return out


def _place_tables(reg: Regulation) -> list[Finding]:
    """Prize tables cover exactly the places awarded; place ranges and 顺延 limits are sane."""
    out: list[Finding] = []
    for i, pl in enumerate(reg.prizes.lists):
        path: Path = ("prizes", "lists", i)
        expected = 1
        for j, row in sorted(enumerate(pl.rows), key=lambda t: t[1].place_from):
            if row.place_to < row.place_from:
                out.append(Finding((*path, "rows", j), _reversed(row.place_from, row.place_to),
                                   Text("from 须不大于 to", "from must not be greater than to")))
            if row.place_from != expected:
                out.append(Finding((*path, "rows", j),
                                   Text(f"奖金表名次不连续: 应从第{expected}名开始, 实为第{row.place_from}名",
                                        f"prize table places are not consecutive: the row should start at "
                                        f"place {expected}, it starts at place {row.place_from}")))
            expected = row.place_to + 1
        if pl.rows and expected - 1 != pl.places:
            out.append(Finding((*path, "places"),
                               Text(f"奖金表覆盖前{expected - 1}名, 但录取前{pl.places}名",
                                    f"the prize table covers the top {expected - 1}, but the top {pl.places} "
                                    "are awarded"),
                               Text("rows 须恰好覆盖第1名至第places名",
                                    "rows must cover exactly places 1 to places")))
        out += _entrant_rules(path, pl)
    for i, ra in enumerate(reg.rank_awards):
        for j, g in enumerate(ra.grants):
            path = ("rank_awards", i, "grants", j)
            if g.place_to < g.place_from:
                out.append(Finding((*path, "to"), _reversed(g.place_from, g.place_to)))
            if g.extend_to is not None and g.extend_to < g.place_to:
                out.append(Finding((*path, "extend_to"),
                                   Text(f"顺延到前{g.extend_to}名, 但授予名次到第{g.place_to}名",
                                        f"passed down to the top {g.extend_to} only, but the award goes to "
                                        f"place {g.place_to}"),
                                   Text(f"extend_to 须 ≥ {g.place_to}", f"extend_to must be ≥ {g.place_to}")))
            for k, c in enumerate(g.when):
                cpath = (*path, "when", k)
                if c.at_least is None and c.below is None:
                    out.append(Finding(cpath, Text("条件至少需要 at_least 或 below",
                                                   "a condition needs at_least or below")))
                elif c.at_least is not None and c.below is not None and c.below <= c.at_least:
                    out.append(Finding(cpath, Text(f"区间为空: 达到{c.at_least}人且不足{c.below}人",
                                                   f"empty range: at least {c.at_least} and fewer than "
                                                   f"{c.below} players")))
    return out


def _entrant_rules(path: Path, pl: PrizeList) -> list[Finding]:
    """按参赛人数录取: a rule must cut the list (else it says nothing), one rule per threshold."""
    out: list[Finding] = []
    seen: set[int] = set()
    if pl.fewer_entrants == "n_minus_1":
        seen.add(pl.places)
    for k, rule in enumerate(pl.by_entrants):
        rpath = (*path, "by_entrants", k)
        if rule.below in seen:
            out.append(Finding((*rpath, "below"),
                               Text(f"“不足{rule.below}人”已有一条规则"
                                    + ("（fewer_entrants = \"n_minus_1\" 即不足录取名额时减1）"
                                       if rule.below == pl.places and pl.fewer_entrants == "n_minus_1" else ""),
                                    f"there is already a rule for fewer than {rule.below} entrants")))
        seen.add(rule.below)
        if rule.places is not None and rule.places >= pl.places:
            out.append(Finding((*rpath, "places"),
                               Text(f"录取前{rule.places}名不少于本奖项的前{pl.places}名: 这条规则不起作用",
                                    f"the top {rule.places} are no fewer than the list's {pl.places}: "
                                    "the rule has no effect"),
                               Text(f"须 < {pl.places}", f"must be < {pl.places}")))
        if rule.minus is not None and rule.below - 1 - rule.minus >= pl.places:
            out.append(Finding((*rpath, "minus"),
                               Text(f"不足{rule.below}人减{rule.minus}也不少于前{pl.places}名: 这条规则不起作用",
                                    f"n−{rule.minus} below {rule.below} entrants is never under {pl.places}: "
                                    "the rule has no effect")))
    return out


def _reversed(place_from: int, place_to: int) -> Text:
    return Text(f"名次区间颠倒: 第{place_from}名至第{place_to}名",
                f"place range reversed: place {place_from} to place {place_to}")


def _unique_ids(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    seen: set[str] = set()
    for i, d in enumerate(reg.divisions):
        if d.id in seen:
            out.append(Finding(("divisions", i, "id"), Text(f"组别 id 重复: {d.id}", f"duplicate division id: {d.id}"),
                               Text("每个组别 id 唯一", "each division id must be unique")))
        seen.add(d.id)
        ranking_ids: set[str] = set()
        for j, r in enumerate(d.rankings):
            if r.id in ranking_ids:
                out.append(Finding(("divisions", i, "rankings", j, "id"),
                                   Text(f"名次表 id 重复: {r.id}", f"duplicate ranking id: {r.id}")))
            ranking_ids.add(r.id)
    stage_ids: set[str] = set()
    for i, s in enumerate(reg.stages):
        if s.id in stage_ids:
            out.append(Finding(("stages", i, "id"), Text(f"阶段 id 重复: {s.id}", f"duplicate stage id: {s.id}"),
                               Text("每个阶段 id 唯一", "each stage id must be unique")))
        stage_ids.add(s.id)
    return out


def _age_windows(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    windows: list[tuple[int, date, date]] = []
    for i, d in enumerate(reg.divisions):
        e = d.eligibility
        if e.born_from and e.born_to and e.born_from > e.born_to:
            out.append(
                Finding(
                    ("divisions", i, "eligibility", "born_to"),
                    Text(f"出生日期范围颠倒: {e.born_from} 晚于 {e.born_to}",
                         f"birth date range reversed: {e.born_from} is after {e.born_to}"),
                    Text("born_from 须早于或等于 born_to", "born_from must be on or before born_to"),
                )
            )
        elif e.born_from or e.born_to:
            windows.append((i, e.born_from or date.min, e.born_to or date.max))
    for i, d in enumerate(reg.divisions):  # an age-band list is nobody without its reference day
        for j, r in enumerate(d.rankings):
            if r.min_age is not None and r.age_reference is None:
                out.append(Finding(
                    ("divisions", i, "rankings", j, "age_reference"),
                    Text(f"名次表“{r.name}”限{r.min_age}岁以上, 但未给出计算年龄的日期",
                         f"ranking list {r.name} is limited to {r.min_age}+ but has no date to compute ages"),
                    Text("加上 age_reference = YYYY-MM-DD (如总决赛首日)", "add age_reference = YYYY-MM-DD (e.g. the final's first day)"),
                ))
    # Divisions that split one field by age (same parent, or exact age groups) must not overlap.
    for a in range(len(windows)):
        for b in range(a + 1, len(windows)):
            ia, fa, ta = windows[a]
            ib, fb, tb = windows[b]
            da, db = reg.divisions[ia], reg.divisions[ib]
            related = (da.parent is not None and da.parent == db.parent) or (
                da.eligibility.exact_age_group and db.eligibility.exact_age_group
            )
            if related and fa <= tb and fb <= ta:
                out.append(
                    Finding(
                        ("divisions", ib, "eligibility", "born_from"),
                        Text(f"年龄段与{da.name}重叠: {max(fa, fb)} 至 {min(ta, tb)}",
                             f"age range overlaps {da.name}: {max(fa, fb)} to {min(ta, tb)}"),
                        Text("同一组别划分下的出生日期范围不得重叠",
                             "divisions split by birth date must not overlap"),
                    )
                )
    return out


def _stages(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    for i, s in enumerate(reg.stages):
        if s.start and s.end and s.start > s.end:
            out.append(Finding(("stages", i, "end"), Text(f"结束日期 {s.end} 早于开始日期 {s.start}",
                                                          f"end date {s.end} is before start date {s.start}")))
        previous_end: date | None = None
        for j, p in enumerate(s.periods):
            if p.start > p.end:
                out.append(
                    Finding(("stages", i, "periods", j, "end"),
                            Text(f"第{p.number}期结束日期早于开始日期", f"period {p.number} ends before it starts"))
                )
            if previous_end and p.start <= previous_end:
                out.append(
                    Finding(
                        ("stages", i, "periods", j, "start"),
                        Text(f"第{p.number}期开始日期 {p.start} 与上一期重叠",
                             f"period {p.number} starts on {p.start}, overlapping the previous period"),
                        Text(f"应晚于 {previous_end}", f"should be after {previous_end}"),
                    )
                )
            if j and p.number != s.periods[j - 1].number + 1:
                out.append(Finding(("stages", i, "periods", j, "number"),
                                   Text("期数应连续递增", "period numbers should go up one by one")))
            previous_end = p.end
        if s.start and s.periods and s.periods[0].start < s.start:
            out.append(Finding(("stages", i, "periods", 0, "start"),
                               Text("第1期早于阶段开始日期", "period 1 starts before the stage")))
        if s.end and s.periods and s.periods[-1].end > s.end:
            out.append(Finding(("stages", i, "periods", len(s.periods) - 1, "end"),
                               Text("最后一期晚于阶段结束日期", "the last period ends after the stage")))
        if s.format.online and not s.periods:
            out.append(Finding(("stages", i, "periods"), Text("线上积分晋级赛须列出各期日期",
                                                              "an online ladder stage must list each period's dates")))
    return out


def _references(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    divisions = {d.id: d for d in reg.divisions}
    allowed_divs = ", ".join(divisions)
    stage_ids = {s.id for s in reg.stages}

    def need_division(path: Path, did: str) -> bool:
        if did not in divisions:
            out.append(Finding(path, Text(f"未知组别: {did}", f"unknown division: {did}"), allowed_values(allowed_divs)))
            return False
        return True

    def need_ranking(path: Path, did: str, rid: str | None) -> None:
        if rid is None or did not in divisions:
            return
        ids = [r.id for r in divisions[did].rankings]
        if rid not in ids:
            out.append(Finding(path, Text(f"组别 {did} 没有名次表: {rid}", f"division {did} has no ranking: {rid}"),
                               allowed_values(", ".join(ids))))

    for i, d in enumerate(reg.divisions):
        for j, other in enumerate(d.may_enter_instead):
            need_division(("divisions", i, "may_enter_instead", j), other)
        if d.merge:
            need_division(("divisions", i, "merge", "into"), d.merge.into)
    for i, s in enumerate(reg.stages):
        for j, did in enumerate(s.divisions):
            need_division(("stages", i, "divisions", j), did)
        for did in s.formats_by_division:
            need_division(("stages", i, "formats_by_division", did), did)
        for did in s.platforms:
            need_division(("stages", i, "platforms", did), did)
        fmt = as_kind(s.format, LadderFormat)
        if fmt is not None:
            for pool, members in fmt.pools.items():
                for k, did in enumerate(members):
                    need_division(("stages", i, "format", "pools", pool, k), did)
            for did in fmt.qualifiers:
                if did in fmt.pools:
                    continue
                if need_division(("stages", i, "format", "qualifiers", did), did) and did not in s.divisions:
                    out.append(Finding(("stages", i, "format", "qualifiers", did),
                                       Text(f"组别 {did} 不在本阶段", f"division {did} is not in this stage")))
            if fmt.qualifies_for and fmt.qualifies_for not in stage_ids:
                out.append(
                    Finding(("stages", i, "format", "qualifies_for"),
                            Text(f"未知阶段: {fmt.qualifies_for}", f"unknown stage: {fmt.qualifies_for}"),
                            allowed_values(", ".join(sorted(stage_ids))))
                )
    team_comps: set[str] = set()
    if reg.teams:
        for j, c in enumerate(reg.teams.competitions):
            team_comps.add(c.id)
            if need_division(("teams", "competitions", j, "division"), c.division):
                need_ranking(("teams", "competitions", j, "ranking"), c.division, c.ranking)
            for k, did in enumerate(c.divisions):
                if need_division(("teams", "competitions", j, "divisions", k), did):
                    for g, rid in c.place_rankings.items():
                        need_ranking(("teams", "competitions", j, "place_rankings", g), did, rid)
        for j, slot in enumerate(reg.teams.slots):
            if slot.division:
                need_division(("teams", "slots", j, "division"), slot.division)
    list_ids: set[str] = set()
    for j, pl in enumerate(reg.prizes.lists):
        path: Path = ("prizes", "lists", j)
        if pl.id in list_ids:
            out.append(Finding((*path, "id"), Text(f"奖项 id 重复: {pl.id}", f"duplicate prize id: {pl.id}")))
        list_ids.add(pl.id)
        if need_division((*path, "division"), pl.division):
            need_ranking((*path, "ranking"), pl.division, pl.ranking)
        if (pl.ranking is None) == (pl.team_competition is None):
            out.append(Finding(path, Text("须且只能指定 ranking 或 team_competition 之一",
                                          "give exactly one of ranking or team_competition")))
        if pl.team_competition and pl.team_competition not in team_comps:
            out.append(
                Finding((*path, "team_competition"),
                        Text(f"未知团体项目: {pl.team_competition}", f"unknown team competition: {pl.team_competition}"),
                        Text(f"允许: {', '.join(sorted(team_comps)) or '(未定义 teams.competitions)'}",
                             f"allowed: {', '.join(sorted(team_comps)) or '(no teams.competitions defined)'}"))
            )
    for j, pl in enumerate(reg.prizes.lists):
        for k, other in enumerate(pl.cumulative_with):
            if other not in list_ids:
                out.append(Finding(("prizes", "lists", j, "cumulative_with", k), _unknown_prize(other),
                                   allowed_values(", ".join(sorted(list_ids)))))
    for j, sa in enumerate(reg.prizes.special):
        path = ("prizes", "special", j)
        if need_division((*path, "division"), sa.division):
            need_ranking((*path, "ranking"), sa.division, sa.ranking)
        ref = sa.age_reference
        if ref and ref not in stage_ids:
            try:
                date.fromisoformat(ref)
            except ValueError:
                out.append(Finding((*path, "age_reference"),
                                   Text(f"无效的年龄计算日: {ref}", f"invalid date for computing ages: {ref}"),
                                   Text("阶段 id 或 YYYY-MM-DD", "a stage id or YYYY-MM-DD")))
    for j, pa in enumerate(reg.prizes.participation):
        for k, did in enumerate(pa.divisions):
            need_division(("prizes", "participation", j, "divisions", k), did)
        for k, lid in enumerate(pa.excluding_lists):
            if lid not in list_ids:
                out.append(Finding(("prizes", "participation", j, "excluding_lists", k), _unknown_prize(lid)))
    for j, ra in enumerate(reg.rank_awards):
        if need_division(("rank_awards", j, "division"), ra.division):
            need_ranking(("rank_awards", j, "ranking"), ra.division, ra.ranking)
    for j, w in enumerate(reg.registration.windows):
        for k, did in enumerate(w.divisions):
            need_division(("registration", "windows", j, "divisions", k), did)
    for j, fee in enumerate(reg.fees.items):
        for k, ref in enumerate(fee.applies_to):
            if ref not in divisions and ref not in stage_ids:
                out.append(Finding(("fees", "items", j, "applies_to", k),
                                   Text(f"未知阶段或组别: {ref}", f"unknown stage or division: {ref}")))
    return out


def _unknown_prize(list_id: str) -> Text:
    return Text(f"未知奖项: {list_id}", f"unknown prize: {list_id}")

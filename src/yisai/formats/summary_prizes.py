"""The regulation summary's money and paper sections: 录取与奖励, 段位授予, 费用, 报名, 组织与裁判."""

from __future__ import annotations

from yisai.formats.summary_words import (
    _PRIZE_KIND,
    _default,
    _defaults_note,
    _join,
    _span,
    fmt_date,
    yuan,
)
from yisai.i18n import tr
from yisai.regulation.prizes import PrizeList
from yisai.regulation.rank_awards import CountCondition, RankAwardRule
from yisai.regulation.schema import Regulation
from yisai.regulation.team_checks import team_match_stages
from yisai.regulation.wording import grant_text, places


def _prizes(reg: Regulation) -> list[str]:
    pz = reg.prizes
    lines: list[str] = []
    for pl in pz.lists:
        lines += _prize_list(pl, reg)
    for sa in pz.special:
        value = yuan(sa.amount) if sa.amount is not None else (sa.gift or "")
        who = tr(f"前{sa.places}名", f"top {sa.places}") if sa.places > 1 else places(1, 1)
        age = ""
        if sa.min_age:
            ref = _age_ref(sa.age_reference, reg)
            age = tr(f", {sa.min_age}岁以上(年龄以{ref}计)", f", aged {sa.min_age} and over (age on {ref})")
        lines.append(
            f"{sa.name} ({reg.division(sa.division).name}{age}): {who} {value}"
            + (tr("; 可与名次奖累积", "; may be combined with place prizes") + _default(sa, "cumulative")
               if sa.cumulative else "")
        )
    for pa in pz.participation:
        names = _join(reg.division(d).name for d in pa.divisions)
        lines.append(tr(f"参赛奖 ({names}): 其余棋手获参赛奖, 奖励价值{yuan(pa.amount)}",
                        f"Participation prize ({names}): every other player receives a prize worth {yuan(pa.amount)}"))
    lines += _judged_and_graded(reg)
    if pz.souvenir:
        lines.append(tr(f"参赛棋手均发给纪念品: {pz.souvenir}", f"every player receives a souvenir: {pz.souvenir}"))
    if pz.tied_places == "share":
        lines.append(tr("名次并列时, 合并所占各名次的奖金平均分配",
                        "Tied players share the prize money of the places they occupy equally"))
    elif any(pl.rows for pl in pz.lists):
        lines.append(tr("名次并列时, 各得该名次奖金", "Tied players each receive the prize of their place")
                     + _default(pz, "tied_places"))
    if pz.pool is not None:
        lines.append(tr(f"奖金总额: {yuan(pz.pool)} (各奖项发出的奖金之和不得超过)",
                        f"Prize pool: {yuan(pz.pool)} (the prizes paid may not exceed it)"))
    if pz.pre_tax and _pays_money(reg):
        lines.append(tr("注: 以上奖金均为税前奖金", "Note: all prize money above is before tax")
                     + _default(pz, "pre_tax"))
    if pz.value_note:
        lines.append(tr("注: ", "Note: ") + pz.value_note)
    if (ca := pz.ceremony_absence) is not None:
        lines.append(tr(f"未参加颁奖仪式者扣除{ca.percent}%奖金", f"{ca.percent}% of the prize is docked from a "
                        "winner who misses the award ceremony") if ca.docking == "fixed" else
                     tr(f"未参加颁奖仪式者由裁判长决定扣除部分奖金 (最多{ca.percent}%)", "the chief referee may dock "
                        f"part of the prize (at most {ca.percent}%) from a winner who misses the award ceremony"))
    if pz.tax_withheld_percent is not None:
        lines.append(tr(f"奖金由主办方按{pz.tax_withheld_percent}%代扣个人所得税, 名单列出税前、扣税与实发金额",
                        f"income tax of {pz.tax_withheld_percent}% is withheld from prize money; the lists show "
                        "gross, tax and net"))
    day = reg.award_day()
    if pz.award_day is not None:
        lines.append(tr(f"颁奖日期 (证书落款): {fmt_date(day)}", f"Award day (on certificates): {fmt_date(day)}"))
    elif day is not None:
        lines.append(tr(f"证书落款日期: {fmt_date(day)} (规程未写颁奖日期, 取比赛最后一天)",
                        f"Certificates dated {fmt_date(day)} (no award day given: the last day of play)"))
    return lines


def _judged_and_graded(reg: Regulation) -> list[str]:
    """最佳进步奖 (by the chief referee's judgement) and 等级奖 (by wins or share of entrants)."""
    lines = []
    for ja in reg.prizes.judged:
        scope = reg.division(ja.division).name if ja.division else tr("全体参赛者", "all players")
        value = yuan(ja.amount) if ja.amount else (ja.gift or "")
        lines.append(tr(f"{ja.name} ({scope}): 由裁判长评定, 至多{ja.count}名", f"{ja.name} ({scope}): named by "
                        f"the chief referee, at most {ja.count}") + (f", {value}" if value else ""))
    for ga in reg.prizes.graded:
        parts = []
        for g in ga.grades:
            value = f" {yuan(g.amount)}" if g.amount else (f" {g.gift}" if g.gift else "")
            if ga.by == "share":
                parts.append(tr(f"{g.percent}% {g.name}", f"{g.percent}% {g.name}") + value)
                continue
            lo, hi = g.min_wins, g.max_wins
            wins = (tr(f"{lo}胜", f"{lo} wins") if lo == hi else
                    tr(f"{lo}–{hi}胜", f"{lo}–{hi} wins") if lo is not None and hi is not None
                    else tr(f"{lo}胜以上", f"{lo}+ wins") if lo is not None else tr(f"{hi}胜以下", f"≤{hi} wins"))
            parts.append(f"{wins} {g.name}{value}")
        how = (tr("按参赛人数比例 (依名次)", "by share of entrants (in ranking order)") if ga.by == "share"
               else tr("按胜局数", "by wins"))
        lines.append(f"{ga.name} ({reg.division(ga.division).name}, {how}): " + _join(parts))
    return lines


def _pays_money(reg: Regulation) -> bool:
    """"以上奖金均为税前" only where some prize is money (奖杯、证书 carry no tax)."""
    pz = reg.prizes
    return (any(row.amount for pl in pz.lists for row in pl.rows) or any(sa.amount for sa in pz.special)
            or any(pa.amount for pa in pz.participation) or pz.pool is not None
            or any(bp.amount for _p, _s, f in team_match_stages(reg) for bp in f.board_prizes))


def _age_ref(ref: str | None, reg: Regulation) -> str:
    if ref is None:
        return tr("比赛首日", "the first day of play")
    try:
        stage = reg.stage(ref)
    except KeyError:
        return ref
    return tr(f"{stage.name}首日 {fmt_date(stage.start)}", f"the first day of {stage.name}, {fmt_date(stage.start)}")


def _prize_list(pl: PrizeList, reg: Regulation) -> list[str]:
    div = reg.division(pl.division).name
    comp = next((c for c in (reg.teams.competitions if reg.teams else []) if c.id == pl.team_competition), None)
    if comp is not None and comp.divisions:  # a team prize across divisions names them all
        div = _join(reg.division(d).name for d in comp.divisions)
    head = tr(f"{pl.name} ({div}): 录取前{pl.places}名", f"{pl.name} ({div}): top {pl.places} places")
    if pl.items:
        head += tr(", 颁发", ", awarded: ") + _join(pl.items)
    lines = [head]
    for row in sorted(pl.rows, key=lambda r: r.place_from):
        value = yuan(row.amount) if row.amount is not None else (row.gift or "")
        lines.append(f"  - {places(row.place_from, row.place_to)}: {value}")
    if pl.kind != "cash" and pl.rows:
        lines.append(tr("  - 奖励形式: ", "  - prize form: ") + _PRIZE_KIND[pl.kind].render())
    if pl.others_keep_place:
        lines.append(tr("  - 如有女子选手进入录取名次, 名次不再顺延",
                        "  - if women players reach these places, the places are not passed down"))
    if pl.cumulative_with:
        names = _join(_list_name(x, reg) for x in pl.cumulative_with)
        lines.append(tr(f"  - 可与{names}奖金累积", f"  - may be combined with the prize money of {names}"))
    for rule in sorted(pl.entrant_rules(), key=lambda r: r.below):
        if rule.minus is not None:
            lines.append(tr(f"  - 若参赛人数不足{rule.below}人, 按照总人数减{rule.minus}录取",
                            f"  - with fewer than {rule.below} entries, the places awarded are the entries minus {rule.minus}"))
        else:
            lines.append(tr(f"  - 若参赛人数不足{rule.below}人, 只录取前{rule.places}名",
                            f"  - with fewer than {rule.below} entries, only the top {rule.places} are awarded"))
    total = sum((r.amount or 0) * (r.place_to - r.place_from + 1) for r in pl.rows)
    if total:
        lines.append(tr("  - 合计: ", "  - total: ") + yuan(total))
    return lines


def _list_name(list_id: str, reg: Regulation) -> str:
    for pl in reg.prizes.lists:
        if pl.id == list_id:
            return pl.name
    return list_id


def _condition(c: CountCondition) -> str:
    who = (tr(f"参赛{c.min_rank}(含)以上棋手", f"players of {c.min_rank} or above") if c.min_rank
           else tr("参赛棋手", "players"))
    if c.at_least is not None and c.below is not None:
        return tr(f"{who}达到{c.at_least}人不足{c.below}人", f"at least {c.at_least} and fewer than {c.below} {who}")
    if c.at_least is not None:
        return tr(f"{who}达到{c.at_least}人", f"at least {c.at_least} {who}")
    return tr(f"{who}不足{c.below}人", f"fewer than {c.below} {who}")


def _rank_award(ra: RankAwardRule, reg: Regulation, ids: bool = True) -> list[str]:
    d = reg.division(ra.division)
    ranking = next(r.name for r in d.rankings if r.id == ra.ranking)
    lines = [tr(f"{d.name} (按{ranking}):", f"{d.name} (by {ranking}):")]
    if not ids and any(g.tier_group for g in ra.grants):  # said once, in words, for readers of the page
        lines.append(tr("  (以下按人数分档: 只适用条件成立的第一档)",
                        "  (tiers by numbers of entrants: only the first tier whose conditions hold applies)"))
    for g in ra.grants:
        cond = tr("且", " and ").join(_condition(c) for c in g.when)
        tier = (tr(f" [分档 {g.tier_group}: 取第一个成立的档]", f" [tier group {g.tier_group}: the first tier that holds]")
                if g.tier_group and ids else "")
        lines.append(f"  - {cond + ', ' if cond else ''}{grant_text(g)}{tier}")
    rules = []
    if ra.amateurs_only:
        rules.append(tr("名次和顺延仅限业余棋手的排名", "places and passing down count amateurs only"))
    if ra.exclude_new_pros:
        rules.append(tr("不含当年新定段的职业棋手", "players who turned professional this year are not included"))
    if ra.skip_if_already_holding:
        rules.append(tr("已持有该段位或更高者顺延给下一名", "a player already holding the rank or higher passes it down"))
    if rules:
        lines.append("  - " + "; ".join(rules) + _defaults_note(
            ra, ("amateurs_only", "exclude_new_pros", "skip_if_already_holding")))
    if ra.places_among_amateurs:
        lines.append(tr("  - 名次按业余棋手重新排列", "  - places are counted among amateurs")
                     + _default(ra, "places_among_amateurs"))
    lines.append(f"  - {ra.procedure}" + _default(ra, "procedure"))
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
            scope = f" ({_join(names)})"
        line = f"{f.name}{scope}: {yuan(f.amount)}" + (tr("/队", " per team") if f.per == "team" else "")
        if not f.refundable_if_absent:
            line += tr("; 报名后无故不参加比赛者不予退还", "; not refunded to an entered player who does not play without good reason")
        if f.note:
            line += f" — {f.note}"
        lines.append(line)
    if reg.fees.self_paid:
        lines.append(tr("自理: ", "Paid by the players: ") + _join(reg.fees.self_paid))
    lines += reg.fees.notes
    return lines or [tr("(规程未规定)", "(not set by the regulation)")]


def _capacity(reg: Regulation) -> list[str]:
    """名额: each division's limit and the event's, and what happens when full."""
    limits = [(d.name, d.capacity) for d in reg.divisions if d.capacity is not None]
    if reg.registration.capacity is not None:
        limits.append((tr("全部组别合计", "all divisions together"), reg.registration.capacity))
    if not limits:
        return []
    when_full = (tr("额满提前截止 (超额须裁判长批准)", "entries close when full (beyond: the chief referee's admission)")
                 if reg.registration.close_when_full
                 else tr("额满后的报名候补, 由裁判长决定", "entries past the limit wait as reserves"))
    return [tr("名额: ", "Places: ") + _join(tr(f"{name}限报{n}名", f"{name}: {n}") for name, n in limits)
            + f"; {when_full}"]


def _registration(reg: Regulation) -> list[str]:
    rg = reg.registration
    lines = []
    for w in rg.windows:
        span = ""
        if w.opens and w.closes:
            span = f" {_span(w.opens, w.closes)}"
        elif w.closes:
            span = tr(f" 截止 {fmt_date(w.closes)}", f" until {fmt_date(w.closes)}")
        elif w.opens:
            span = tr(f" 自 {fmt_date(w.opens)} 起", f" from {fmt_date(w.opens)}")
        line = f"{w.who}:{span}"
        if w.channel:
            line += tr(" 途径: ", " via: ") + w.channel
        if w.note:
            line += f"; {w.note}"
        if w.enforce:
            scope = _join(reg.division(d).name for d in w.divisions) if w.divisions else tr("全部组别", "every division")
            line += tr(f" (时间以外的报名不予接受: {scope})", f" (entries outside it are refused: {scope})")
        lines.append(line)
    lines += _capacity(reg)
    if rg.required_documents:
        lines.append(tr("须提交: ", "Documents: ") + "; ".join(rg.required_documents))
    if rg.attachments is not None:
        lines.append(tr("附件命名: ", "Attachment names: ") + rg.attachments.name_pattern)
    lines += [tr("联系: ", "Contact: ") + c for c in rg.contacts]
    if rg.check_in:
        lines.append(tr("报到: ", "Check-in: ") + rg.check_in)
    lines += rg.notes
    return lines or [tr("(规程未规定)", "(not set by the regulation)")]


def _officials(reg: Regulation) -> list[str]:
    of = reg.officials
    lines = [tr("裁判长: ", "Chief referee: ") + of.chief_referee + _default(of, "chief_referee"),
             tr("其他技术官员: ", "Other officials: ") + of.others + _default(of, "others")]
    if of.people:
        lines.append(tr("技术官员: ", "Officials: ") + "; ".join(
            f"{o.role} {o.name}" + (f" ({o.unit})" if o.unit else "") for o in of.people))
    if reg.appeals:
        a = reg.appeals
        lines.append(tr(
            f"申诉: 该轮比赛结束{a.window_minutes}分钟内{'以书面形式' if a.written else ''}递交, "
            f"申诉费{yuan(a.fee)}, {'胜诉退还, 败诉不予退还' if a.refunded_if_upheld else '不予退还'}, "
            f"交与{a.handled_by}处置",
            f"Appeals: {'in writing, ' if a.written else ''}within {a.window_minutes} minutes of the end of the round, "
            f"fee {yuan(a.fee)}, {'refunded if upheld, kept if not' if a.refunded_if_upheld else 'not refunded'}, "
            f"handled by {a.handled_by}",
        ) + _defaults_note(a, ("written", "refunded_if_upheld", "handled_by")))
        lines.append(tr("非裁判类争议: ", "Disputes not about refereeing: ") + a.non_referee_disputes
                     + _default(a, "non_referee_disputes"))
    return lines

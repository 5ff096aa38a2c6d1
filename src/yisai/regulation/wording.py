"""How the regulation words places and 段位 grants: shared by its summary (``formats``) and the
rank-award report (``awards``), so both print a grant exactly as the regulation states it."""

from __future__ import annotations

from yisai.i18n import tr
from yisai.regulation.promotions import PromotionRule, PromotionStep
from yisai.regulation.rank_awards import Grant


def places(a: int, b: int) -> str:
    if a == b:
        return tr(f"第{a}名", f"place {a}")
    return tr(f"第{a}名至第{b}名", f"places {a} to {b}")


def grant_text(g: Grant) -> str:
    """One grant as the regulation words it."""
    rank = g.rank if g.professional else tr(f"业余{g.rank}", f"amateur {g.rank}")
    text = tr(f"个人{places(g.place_from, g.place_to)}可申报{rank}",
              f"individual {places(g.place_from, g.place_to)}: may apply for {rank}")
    if g.alternative_to:
        text += tr(f"(与业余{g.alternative_to}二选一)", f" (or amateur {g.alternative_to}, one of the two)")
    if g.extend_to:
        text += tr(f"(顺延到前{g.extend_to}名)", f" (passed down to the top {g.extend_to})")
    if g.note:
        text += f"; {g.note}"
    return text


_CN_NUMBERS = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五"}


def promotion_rank_range(rule: PromotionRule) -> str:
    """Whom a promotion rule is for: ``1段至3段``, ``无段级位``, ``全部``."""
    parts = []
    if rule.ranked:
        lo, hi = rule.min_rank, rule.max_rank
        if lo is not None and hi is not None:
            parts.append(tr(f"{lo}", lo.short) if lo == hi else tr(f"{lo}至{hi}", f"{lo.short}–{hi.short}"))
        elif lo is not None:
            parts.append(tr(f"{lo}及以上", f"{lo.short} and above"))
        elif hi is not None:
            parts.append(tr(f"{hi}及以下", f"{hi.short} and below"))
        else:
            parts.append(tr("有段级位", "ranked"))
    if rule.unranked:
        parts.append(tr("无段级位", "unranked"))
    return tr("、", ", ").join(parts)


def promotion_step_text(rule: PromotionRule, step: PromotionStep) -> str:
    """``7局胜5局升一段`` / ``胜5局定1段`` as the regulation words it."""
    games = tr(f"{rule.rounds}局", f" of {rule.rounds}") if rule.rounds else ""
    if step.rank is not None:
        grant = tr(f"定{step.rank}", f"graded {step.rank.short}")
    else:
        unit = ("级" if rule.max_rank is not None and not rule.max_rank.is_dan
                else "段" if rule.min_rank is not None and rule.min_rank.is_dan else "段(级)")
        grant = tr(f"升{_CN_NUMBERS.get(step.promote or 0, str(step.promote))}{unit}", f"up {step.promote} rank(s)")
    return tr(f"{games}胜{step.wins}局{grant}", f"{step.wins} wins{games}: {grant}")


def promotion_text(rule: PromotionRule, settings_mark: str = "") -> str:
    """One promotion rule in a sentence, with its settings (``settings_mark``, e.g. （默认）,
    follows them)."""
    steps = tr("；", "; ").join(promotion_step_text(rule, s) for s in sorted(rule.steps, key=lambda s: -s.wins))
    text = tr(f"{rule.name}（{promotion_rank_range(rule)}）：{steps}",
              f"{rule.name} ({promotion_rank_range(rule)}): {steps}")
    extra = []
    if rule.highest is not None:
        extra.append(tr(f"最高升至{rule.highest}", f"up to {rule.highest.short} at most"))
    extra.append(tr("对方弃权的胜局计入", "forfeit wins count") if rule.forfeit_wins_count
                 else tr("对方弃权的胜局不计入", "forfeit wins do not count"))
    extra.append(tr("轮空计胜局", "byes count as wins") if rule.byes_count else tr("轮空不计胜局", "byes do not count"))
    if rule.must_play_all_rounds:
        extra.append(tr("须参加全部轮次", "must play every round"))
    extra.append(tr("中途退赛者不予授予", "not for players who withdraw") if rule.withdrawn_excluded
                 else tr("中途退赛者按已赛胜局授予", "players who withdraw are granted by the wins they have"))
    text += tr("（", " (") + tr("，", ", ").join(extra) + tr("）", ")") + settings_mark
    if rule.note:
        text += f"; {rule.note}"
    return text

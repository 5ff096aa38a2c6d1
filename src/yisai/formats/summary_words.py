"""The regulation summary's words: label tables, amounts, dates and times as the summary prints
them, and the （默认） marks for what the file left to a default."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time

from pydantic import BaseModel

from yisai.i18n import Text, tr
from yisai.regulation.rules import TimeControl

_KIND_LABELS = {
    "online_qualifier": Text("网络海选赛", "online qualifier"),
    "regional": Text("分站赛", "regional"),
    "semi_final": Text("复赛", "semi-final"),
    "final": Text("总决赛", "final"),
    "main": Text("比赛", "main event"),
}
_PRO_LABELS = {
    "forbidden": Text("仅限业余棋手", "amateurs only"),
    "new_pro_as_amateur": Text("当年新定段的职业棋手按业余棋手身份参赛",
                               "players who turned professional this year play as amateurs"),
    "allowed": Text("职业棋手可参赛", "professionals may play"),
}
_ROUTE_LABELS = {
    "open": Text("公开报名", "open entry"),
    "qualified": Text("选拔产生", "qualified"),
    "team": Text("代表队", "representative team"),
    "invited": Text("特邀", "invited"),
    "wildcard": Text("外卡", "wildcard"),
    "direct": Text("直接报名", "direct entry"),
}
_PRIZE_KIND = {
    "cash": Text("奖金", "cash"),
    "ecard": Text("价值(电商卡)", "value (e-commerce card)"),
    "gift": Text("实物", "goods"),
    "honour": Text("荣誉", "honour"),
}
_TEAM_METHOD = {
    "sum_of_places": Text("队员个人名次之和, 低者列前", "sum of the members' individual places, lower ranks higher"),
    "sum_of_scores": Text("队员个人积分之和, 高者列前", "sum of the members' individual points, higher ranks higher"),
    "match_points": Text("场分(由各场局分决定, 分值见团体赛阶段)",
                         "match points (from each match's board points; values in the team-match stage)"),
}


def _join(items: Iterable[str]) -> str:
    """A list in running text: 甲、乙、丙 / a, b, c."""
    return tr("、", ", ").join(items)


def yuan(amount: int) -> str:
    return tr(f"{amount}元", f"{amount} yuan")


def fmt_date(d: date | datetime | None) -> str:
    if d is None:
        return tr("未定", "to be decided")
    if isinstance(d, datetime):
        return d.strftime("%Y-%m-%d %H:%M")
    return d.isoformat()


def fmt_time(t: time) -> str:
    return t.strftime("%H:%M")


def _span(start: date | datetime | None, end: date | datetime | None) -> str:
    """A period; an open end reads as "截止 …" / "自 … 起" instead of "未定 至 …"."""
    if start is None and end is None:
        return fmt_date(None)
    if start is None:
        return tr(f"截止 {fmt_date(end)}", f"until {fmt_date(end)}")
    if end is None:
        return tr(f"自 {fmt_date(start)} 起", f"from {fmt_date(start)}")
    return tr(f"{fmt_date(start)} 至 {fmt_date(end)}", f"{fmt_date(start)} to {fmt_date(end)}")


def time_control(tc: TimeControl) -> str:
    text = tr(f"{tc.main_minutes}分钟", f"{tc.main_minutes} min")
    if tc.byoyomi_periods:
        text += tr(f" + {tc.byoyomi_periods}次{tc.byoyomi_seconds}秒读秒",
                   f" + byo-yomi {tc.byoyomi_periods} × {tc.byoyomi_seconds} s")
    if tc.loss_on_time:
        text += tr(", 超时判负", ", loss on time") + _default(tc, "loss_on_time")
    return text


def _default(model: BaseModel, *names: str) -> str:
    """``（默认）`` when none of ``names`` was written in the file: what the summary prints
    from a default is marked as one (pydantic records the fields a file set)."""
    if any(n in model.model_fields_set for n in names):
        return ""
    return tr("（默认）", " (default)")


def _defaults_note(model: BaseModel, names: Iterable[str]) -> str:
    """After a sentence built from several settings: ``（默认）`` if the file wrote none of
    them, ``（win、bye 为默认）`` naming those it left out, or nothing."""
    unset = [n for n in names if n not in model.model_fields_set]
    if not unset:
        return ""
    if len(unset) == len(list(names)):
        return tr("（默认）", " (default)")
    zh = "、".join(_SETTING_WORDS.get(n, (n, n))[0] for n in unset)
    en = ", ".join(_SETTING_WORDS.get(n, (n, n))[1] for n in unset)
    return tr(f"（其中{zh}为默认）", f" ({en} by default)")


# What each setting is called in a sentence, so the summary never prints a field name.
_SETTING_WORDS: dict[str, tuple[str, str]] = {
    "win": ("胜局分", "points for a win"), "draw": ("和局分", "points for a draw"),
    "loss": ("负局分", "points for a loss"), "bye": ("轮空分", "points for a bye"),
    "forfeit_win": ("对方弃权得分", "points when the opponent forfeits"),
    "forfeit_loss": ("弃权方得分", "points for forfeiting"), "both_forfeit": ("双方弃权得分", "points when both forfeit"),
    "forfeit_wins_count": ("弃权胜是否计入", "whether forfeit wins count"),
    "byes_count": ("轮空是否计入", "whether byes count"), "must_play_all_rounds": ("须下满全部轮次", "all rounds played"),
    "board_size": ("棋盘大小", "board size"), "komi": ("贴目", "komi"), "superko": ("劫的规则", "ko rule"),
    "suicide_allowed": ("自杀规则", "suicide rule"), "rules_text": ("规则依据", "rules text"),
    "round1_seeding": ("第一轮排序", "round-1 seeding"), "round1_method": ("第一轮配对方式", "round-1 method"),
    "in_group": ("同分组配对方式", "pairing within a score group"), "colour_balance": ("黑白平衡", "colour balance"),
    "decided_by": ("决定方式", "deciding method"), "separate_ranking": ("是否单独排名", "separate ranking"),
    "disconnection_after_seconds": ("断线时长", "disconnection time"),
    "max_disconnections": ("断线次数上限", "most disconnections"),
    "max_total_absence_seconds": ("累计离开时长上限", "longest total absence"),
    "absence_definition": ("中断的含义", "what an interruption is"),
    "short_absences_count_in_total": ("短暂离开是否累计", "whether short absences add up"),
    "groups": ("分组数", "number of groups"), "split": ("分组方式", "how groups are made"),
    "matching": ("匹配方式", "matching"), "escape": ("逃跑扣分", "points for escaping"),
    "escape_opponent": ("逃跑对手得分", "points for the escaper's opponent"),
    "tie_break": ("同分比较", "tie-break"), "all_tied_qualify": ("并列是否全部晋级", "whether all tied qualify"),
    "amateurs_only": ("仅限业余棋手", "amateurs only"), "exclude_new_pros": ("不含新定段职业", "new pros excluded"),
    "skip_if_already_holding": ("已有段位者顺延", "holders pass it down"),
    "written": ("书面申诉", "written appeal"), "refunded_if_upheld": ("申诉成立退费", "refund if upheld"),
    "handled_by": ("受理人", "handled by"),
    "inclusive": ("时限是否含本数", "whether the limit itself counts"),
    "outcome": ("迟到的处理", "what lateness costs"), "clock_factor": ("扣时倍数", "clock deduction factor"),
}  # fmt: skip


def _section(zh: str, en: str) -> str:
    return tr(f"【{zh}】", f"【{en}】")

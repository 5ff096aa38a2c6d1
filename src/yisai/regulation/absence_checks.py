"""Checks of the absence rules (``lateness``, ``withdrawal.exclude_after_forfeits``) and of the
divisions' own boards and clocks: settings that contradict each other or the stages' clocks.

Its own module (like ``team_checks``) so ``checks`` only calls it; every message names the field.
"""

from __future__ import annotations

from yisai.i18n import Text
from yisai.regulation.findings import Finding, Path
from yisai.regulation.rules import TimeControl
from yisai.regulation.schema import Regulation


def check_absence(reg: Regulation) -> list[Finding]:
    out = _lateness(reg) + _boards(reg)
    wd = reg.withdrawal
    if wd.exclude_after_forfeits is None and "excluded_as" in wd.model_fields_set:
        out.append(Finding(
            ("withdrawal", "excluded_as"),
            Text("没有写弃权满几轮取消资格 (exclude_after_forfeits), excluded_as 不起作用",
                 "no forfeit limit (exclude_after_forfeits) is set, so excluded_as has no effect"),
            Text("写 exclude_after_forfeits = N, 或删去 excluded_as",
                 "add exclude_after_forfeits = N, or remove excluded_as")))
    return out


def _clocks(reg: Regulation) -> list[tuple[Path, str, TimeControl]]:
    """Every clock a game may be played on: each stage's, and each division's own."""
    out: list[tuple[Path, str, TimeControl]] = [
        (("stages", i, "time_control"), s.name, s.time_control)
        for i, s in enumerate(reg.stages) if s.time_control is not None]
    out += [(("divisions", i, "time_control"), d.name, d.time_control)
            for i, d in enumerate(reg.divisions) if d.time_control is not None]
    return out


def _lateness(reg: Regulation) -> list[Finding]:
    """A player late by less than the limit still plays: on a clock without byo-yomi, the minutes
    late (times ``clock_factor``) taken off must leave main time, or he has lost on time before
    the lateness rule could decide."""
    rule = reg.lateness
    if rule is None:
        return []
    latest = rule.minutes - 1 if rule.inclusive else rule.minutes  # the latest arrival that still plays
    taken = latest * rule.clock_factor
    out: list[Finding] = []
    for path, name, tc in _clocks(reg):
        if tc.main_minutes == 0 or tc.byoyomi_periods or taken < tc.main_minutes:
            continue  # byo-yomi still lets him play
        double = "(加倍扣时)" if rule.clock_factor > 1 else ""
        out.append(Finding(
            ("lateness", "minutes"),
            Text(f"迟到{latest}分钟仍可对局, 但扣时{taken}分钟{double}已用完{name}的基本用时"
                 f"{tc.main_minutes}分钟 ({'.'.join(map(str, path))}): 迟到时限与用时矛盾",
                 f"a player {latest} minutes late still plays, but {taken} minutes off his clock use up "
                 f"{name}'s {tc.main_minutes} minutes of main time ({'.'.join(map(str, path))}): "
                 "the lateness limit contradicts the clock"),
            Text(f"迟到时限须使扣时少于{tc.main_minutes}分钟",
                 f"the limit must take less than {tc.main_minutes} minutes off the clock")))
    return out


def _boards(reg: Regulation) -> list[Finding]:
    """A division's komi must leave a game winnable on its board: |komi| below the points on it.
    Online play (an ``online_ladder`` stage) uses the event's board and the stage's clock, so a
    division of one states no board or clock of its own (it would do nothing there)."""
    out: list[Finding] = []
    for i, d in enumerate(reg.divisions):
        online = next((s for s in reg.stages if d.id in s.divisions
                       and s.format_for(d.id).online), None)
        for field in ("board_size", "komi", "time_control"):
            if online is None or getattr(d, field) is None:
                continue
            out.append(Finding(
                ("divisions", i, field),
                Text(f"{d.name}参加网络海选赛「{online.name}」, 线上对局按 rules 的棋盘贴目和阶段的用时进行, "
                     f"本组的 {field} 不起作用",
                     f"{d.name} plays the online qualifier {online.name}, whose games use the board and komi "
                     f"of [rules] and the stage's clock: the division's {field} has no effect"),
                Text("删去本组的设置, 改写 rules 或该阶段的 time_control",
                     "remove it from the division; set [rules] or the stage's time_control instead")))
        rules = d.play_rules(reg.rules)
        points = rules.board_size * rules.board_size
        if abs(rules.komi) >= points and (d.komi is not None or d.board_size is not None):
            field = "komi" if d.komi is not None else "board_size"
            out.append(Finding(
                ("divisions", i, field),
                Text(f"{d.name}: {rules.board_size}路棋盘只有{points}个点, 贴{rules.komi:g}目时一方不可能获胜",
                     f"{d.name}: a {rules.board_size}×{rules.board_size} board has {points} points; with komi "
                     f"{rules.komi:g} one side can never win"),
                Text(f"贴目须在 -{points} 与 {points} 之间 (如 9路 贴7.5目, 黑45子胜)",
                     f"komi must lie between -{points} and {points} (e.g. 9×9 with komi 7.5: Black needs 45)")))
    return out

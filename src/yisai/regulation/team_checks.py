"""Cross-checks of team competitions and team-match stages: a file that says something must do it.

A ``match_points`` ranking needs a team-match stage to feed it; a team-match stage needs a
``match_points`` competition to rank; a tie-break or field that the competition's method never
reads is refused (it would be silently ignored); a sum of individual results needs the ranking
list it sums. Each finding names its field (``findings.Finding``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from yisai.i18n import Text
from yisai.regulation.findings import Finding
from yisai.regulation.format_base import as_kind
from yisai.regulation.team_match import TeamMatchFormat
from yisai.regulation.teams import MATCH_TIE_BREAKS, PLACE_TIE_BREAKS

if TYPE_CHECKING:
    from yisai.regulation.schema import Regulation


def team_match_stages(reg: Regulation) -> list[tuple[tuple[str | int, ...], str, TeamMatchFormat]]:
    """(path, stage id, format) of every team-match format in the regulation."""
    out: list[tuple[tuple[str | int, ...], str, TeamMatchFormat]] = []
    for i, s in enumerate(reg.stages):
        team = as_kind(s.format, TeamMatchFormat)
        if team is not None:
            out.append((("stages", i, "format"), s.id, team))
        for did, f in s.formats_by_division.items():
            team = as_kind(f, TeamMatchFormat)
            if team is not None:
                out.append((("stages", i, "formats_by_division", did), s.id, team))
    return out


def check_teams(reg: Regulation) -> list[Finding]:
    out: list[Finding] = []
    comps = {c.id: c for c in reg.teams.competitions} if reg.teams else {}
    fed: set[str] = set()
    out += _composition(reg)
    for path, _sid, fmt in team_match_stages(reg):
        if reg.teams is None:
            out.append(Finding(path, Text("团体赛阶段须有 [teams] (各队报名队员)",
                                          "a team-match stage needs a [teams] section (the teams' players)")))
        comp = comps.get(fmt.competition)
        if comp is None:
            out.append(Finding((*path, "competition"),
                               Text(f"未知团体项目: {fmt.competition}", f"unknown team competition: {fmt.competition}"),
                               Text(f"允许: {', '.join(sorted(comps)) or '(未定义 teams.competitions)'}",
                                    f"allowed: {', '.join(sorted(comps)) or '(no teams.competitions defined)'}")))
        elif comp.method != "match_points":
            out.append(Finding((*path, "competition"),
                               Text(f"团体项目 {comp.id} 的计分方法是 {comp.method}, 团体赛的结果只能按场分 (match_points) 排名",
                                    f"team competition {comp.id} is ranked by {comp.method}; team-match "
                                    "results are ranked by match points (match_points)"),
                               Text("须 method = \"match_points\"", "must be method = \"match_points\"")))
        else:
            fed.add(comp.id)
            if comp.size != fmt.boards:
                j = list(comps).index(comp.id)
                out.append(Finding(("teams", "competitions", j, "size"),
                                   Text(f"计成绩人数 {comp.size} 与每场台数 {fmt.boards} 不同",
                                        f"{comp.size} players counting, but a match is played on {fmt.boards} boards"),
                                   Text(f"须等于 boards ({fmt.boards})", f"must equal boards ({fmt.boards})")))
        if fmt.system == "swiss" and fmt.rounds is None:
            out.append(Finding((*path, "rounds"),
                               Text("团体积分编排须写明轮数", "a Swiss team stage must state its number of rounds"),
                               Text("如 rounds = 5", "e.g. rounds = 5")))
        out += _lineup_rules(reg, path, fmt)
        if fmt.min_women > fmt.boards:
            out.append(Finding((*path, "min_women"),
                               Text(f"至少{fmt.min_women}名女棋手, 多于每场台数{fmt.boards}",
                                    f"at least {fmt.min_women} women, more than the {fmt.boards} boards"),
                               Text(f"须 ≤ boards ({fmt.boards})", f"must be ≤ boards ({fmt.boards})")))
        if reg.teams is not None and reg.teams.max_players < fmt.boards:
            out.append(Finding(("teams", "max_players"),
                               Text(f"每队最多{reg.teams.max_players}人, 坐不满{fmt.boards}台",
                                    f"teams of at most {reg.teams.max_players} cannot fill {fmt.boards} boards"),
                               Text(f"须 ≥ boards ({fmt.boards})", f"must be ≥ boards ({fmt.boards})")))
        mp = fmt.match_points
        if not mp.win > mp.draw >= mp.loss:
            out.append(Finding((*path, "match_points"),
                               Text(f"场分 胜{mp.win} 平{mp.draw} 负{mp.loss} 不合理",
                                    f"match points win {mp.win}, draw {mp.draw}, loss {mp.loss} are out of order"),
                               Text("须 win > draw ≥ loss", "must be win > draw ≥ loss")))
        bp = fmt.board_points
        if not bp.win > bp.draw >= bp.loss:
            out.append(Finding((*path, "board_points"),
                               Text(f"局分 胜{bp.win} 和{bp.draw} 负{bp.loss} 不合理",
                                    f"board points win {bp.win}, draw {bp.draw}, loss {bp.loss} are out of order"),
                               Text("须 win > draw ≥ loss", "must be win > draw ≥ loss")))
        seen: set[str] = set()
        for k, prize in enumerate(fmt.board_prizes):
            if prize.id in seen:
                out.append(Finding((*path, "board_prizes", k, "id"),
                                   Text(f"台次奖 id 重复: {prize.id}", f"duplicate board prize id: {prize.id}")))
            seen.add(prize.id)
            if prize.board > fmt.boards:
                out.append(Finding((*path, "board_prizes", k, "board"),
                                   Text(f"没有第{prize.board}台 (每场{fmt.boards}台)",
                                        f"there is no board {prize.board} ({fmt.boards} boards a match)"),
                                   Text(f"须 ≤ {fmt.boards}", f"must be ≤ {fmt.boards}")))
    for j, c in enumerate(reg.teams.competitions if reg.teams else []):
        cpath: tuple[str | int, ...] = ("teams", "competitions", j)
        if c.method == "match_points":
            if c.id not in fed:
                out.append(Finding((*cpath, "method"),
                                   Text("场分 (match_points) 来自团体赛的各场比赛, 但没有阶段为此项目进行团体赛; "
                                        "个人对局不能产生场分",
                                        "match points come from team matches, but no stage plays team matches "
                                        "for this competition; individual games give no match points"),
                                   Text(f"加一个 format.kind = \"team_match\" 且 competition = \"{c.id}\" 的阶段, "
                                        "或改用 sum_of_places / sum_of_scores",
                                        f"add a stage with format.kind = \"team_match\" and competition = \"{c.id}\", "
                                        "or use sum_of_places / sum_of_scores")))
            for field in ("ranking", "place_rankings", "divisions", "gender", "complete_only"):
                if field in c.model_fields_set:
                    out.append(Finding((*cpath, field),
                                       Text(f"场分制不读 {field} (团体成绩只来自各场比赛): 此设置无效",
                                            f"match_points does not read {field} (the ranking comes only from "
                                            "the matches): the setting has no effect"),
                                       Text("删去此项", "remove it")))
            for k, tb in enumerate(c.tie_breaks):
                if tb in PLACE_TIE_BREAKS:
                    out.append(Finding((*cpath, "tie_breaks", k),
                                       Text(f"{tb} 比较个人名次或积分, 场分制没有这些值: 此项无效",
                                            f"{tb} compares individual places or scores, which match_points "
                                            "does not have: it has no effect"),
                                       Text("允许: board_points, opponent_match_points, direct, board1_points, lot",
                                            "allowed: board_points, opponent_match_points, direct, board1_points, lot")))
        else:
            if c.ranking is None and not c.place_rankings:
                out.append(Finding((*cpath, "ranking"),
                                   Text(f"{c.method} 要计算队员的个人名次或积分, 但没有指定名次表: "
                                        "不写则所有队员都没有成绩, 所有队都不排名",
                                        f"{c.method} sums the members' individual places or scores, but no "
                                        "ranking list is named: without one no member has a result and no "
                                        "team is ranked"),
                                   Text("写 ranking = \"组别内名次表 id\" 或 place_rankings",
                                        "give ranking = \"a ranking id of the division\" or place_rankings")))
            for k, tb in enumerate(c.tie_breaks):
                if tb in MATCH_TIE_BREAKS:
                    out.append(Finding((*cpath, "tie_breaks", k),
                                       Text(f"{tb} 只用于场分制 (团体赛), {c.method} 没有这些值: 此项无效",
                                            f"{tb} is for match_points (team matches); {c.method} has no such "
                                            "value: it has no effect"),
                                       Text("允许: best_place, next_place, sos, cumulative, lot",
                                            "allowed: best_place, next_place, sos, cumulative, lot")))
    return out


def _lineup_rules(reg: Regulation, path: tuple[str | int, ...], fmt: TeamMatchFormat) -> list[Finding]:
    """The youth quota must fit the boards and have a day to count ages on; a line-up deadline
    needs the rounds' times in the stage's timetable."""
    out: list[Finding] = []
    stage = reg.stages[int(path[1])]
    quota = fmt.youth_quota
    if quota is not None:
        if quota.players > fmt.boards:
            out.append(Finding((*path, "youth_quota", "players"),
                               Text(f"每场至少{quota.players}名{quota.under_age}岁以下棋手, 多于每场台数{fmt.boards}",
                                    f"at least {quota.players} players under {quota.under_age}, more than the "
                                    f"{fmt.boards} boards"),
                               Text(f"须 ≤ boards ({fmt.boards})", f"must be ≤ boards ({fmt.boards})")))
        if stage.start is None:
            out.append(Finding((*path, "youth_quota"),
                               Text("年龄按本阶段开始日期计算, 但本阶段没有写 start",
                                    "ages are counted on the stage's first day, but the stage has no start"),
                               Text("在 [[stages]] 写 start = 日期", "set start = a date in [[stages]]")))
    if not fmt.leader_may_play and (reg.teams is None or reg.teams.leaders == 0):
        out.append(Finding((*path, "leader_may_play"),
                           Text("领队不得出场, 但各队不报领队 (teams.leaders = 0): 这项设置不起作用",
                                "leaders may not play, but teams name no leaders (teams.leaders = 0): this "
                                "setting has no effect"),
                           Text("删去 leader_may_play, 或写 teams.leaders", "remove leader_may_play, or set teams.leaders")))
    if fmt.lineup_deadline_minutes is not None and not any(e.round is not None for e in stage.timetable):
        out.append(Finding((*path, "lineup_deadline_minutes"),
                           Text(f"出场名单须在赛前{fmt.lineup_deadline_minutes}分钟提交, 但本阶段日程 (timetable) "
                                "没有写各轮时间, 无从计算截止时间",
                                f"line-ups are due {fmt.lineup_deadline_minutes} minutes before a round, but the "
                                "stage's timetable gives no round times to count from"),
                           Text("在 [[stages.timetable]] 写各轮时间 (round、at)",
                                "give the rounds' times in [[stages.timetable]] (round, at)")))
    return out


def _composition(reg: Regulation) -> list[Finding]:
    """At least N women in a team that may hold fewer players (or women) could never register."""
    t = reg.teams
    if t is None or t.min_women is None:
        return []
    most = min(t.max_players, t.max_women if t.max_women is not None else t.max_players)
    if t.min_women <= most:
        return []
    return [Finding(("teams", "min_women"),
                    Text(f"每队至少{t.min_women}名女棋手, 但每队最多只能报{most}名",
                         f"at least {t.min_women} women per team, but a team may hold only {most}"),
                    Text(f"允许: 1–{most}", f"allowed: 1–{most}"))]

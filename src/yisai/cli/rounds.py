"""`yisai pair`, `yisai round show|sheet`, `yisai result [enter|import]`: the referee's round loop."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from yisai.cli.session import command_work, console, say
from yisai.i18n import tr
from yisai.record import Game, Result
from yisai.record.groups import group_title

if TYPE_CHECKING:  # services (and the store) load when a command runs, not for --help
    from yisai.services.context import Work
    from yisai.services.events import EventRecord
    from yisai.services.rounds import RoundView


round_app = typer.Typer(help="轮次: 查看对阵、打印成绩登记表 (rounds)", no_args_is_help=True)


class _EnterByDefault(TyperGroup):
    """``yisai result 黑胜 -b 3 …`` stays short: anything that is not a sub-command name is
    the arguments of ``yisai result enter``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["enter", *args]
        return super().parse_args(ctx, args)


result_app = typer.Typer(
    cls=_EnterByDefault, no_args_is_help=True,
    help="录入成绩: yisai result 黑胜 -d 组别 -r 轮 -b 台 (即 result enter), 或 yisai result import 成绩表",
)

RESULT_LABELS = {
    Result.BLACK_WINS: "黑胜",
    Result.WHITE_WINS: "白胜",
    Result.DRAW: "和",
    Result.BOTH_LOSE: "双方负",
    Result.BOTH_WIN: "双方胜",
    Result.UNKNOWN: "",
}


def result_label(g: Game) -> str:
    if g.is_bye:
        return "轮空"
    text = RESULT_LABELS[g.result]
    if not g.played and g.result is not Result.UNKNOWN:
        text += "(弃权)" if g.reason in ("", "弃权") else f"({g.reason})"
    elif g.reason:
        text += f" {g.reason}"
    return text


def _pairs(values: list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for v in values:
        a, sep, b = v.partition("-")
        if not sep or not a or not b:
            raise typer.BadParameter(tr(f"应为 编号-编号: {v}", f"expected ID-ID: {v}"))
        out.append((a.strip(), b.strip()))
    return tuple(out)


def pair_cmd(
    event: str = typer.Argument(None, help="比赛编号或名称 (库中只有一个比赛时可省略)"),
    division: str = typer.Option(..., "--division", "-d", help="组别 id"),
    round_no: int = typer.Option(..., "--round", "-r", help="轮次"),
    stage: str = typer.Option(None, "--stage", help="阶段 id (默认: 该组别的积分编排阶段)"),
    explain: bool = typer.Option(False, "--explain", help="逐台说明配对与执黑理由"),
    fix: list[str] = typer.Option([], "--fix", help="指定对局 黑-白 (棋手编号)"),
    forbid: list[str] = typer.Option([], "--forbid", help="禁止对局 A-B"),
    bye: list[str] = typer.Option([], "--bye", help="指定轮空的棋手编号"),
    sit_out: list[str] = typer.Option([], "--sit-out", help="本轮不参赛的棋手编号"),
    replace: bool = typer.Option(False, "--replace", help="重新编排尚未录入成绩的本轮 (同一种子结果相同)"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB", help="数据库文件或 URL"),
) -> None:
    """编排一轮 (积分编排制)."""
    from rich.table import Table

    from yisai.pairing import Controls
    from yisai.services.rounds import pair

    controls = Controls(fixed_pairs=_pairs(fix), forbidden_pairs=_pairs(forbid),
                        requested_byes=tuple(bye), sit_outs=tuple(sit_out))
    with command_work(db) as work:
        paired = pair(work, event, division, round_no, stage_ref=stage, controls=controls,
                      replace=replace)
    names = paired.names
    if paired.matches:  # 团体赛: which team meets which, and on which boards
        t = Table(title=tr(f"第{round_no}轮 团体对阵", f"round {round_no}: team matches"), title_style="bold")
        for h in (tr("场次", "match"), tr("队", "team"), tr("队", "team"), tr("台次", "boards")):
            t.add_column(h)
        for m in paired.matches:
            boards = tr("轮空", "bye") if m.team_b is None else tr(f"第{m.table_span}台", f"boards {m.table_span}")
            t.add_row(tr(f"第{m.number}场", f"match {m.number}"), m.name_a, m.name_b or "—", boards)
        console.print(t)
    for group, pairing in paired.parts:
        title = _title(paired.event, paired.division, round_no, group)
        t = Table(title=title, title_style="bold")
        for h in ("台次", "黑方", "积分", "白方", "积分"):
            t.add_column(h)
        for b in pairing.boards:
            t.add_row(str(b.board), names.get(b.black, b.black), str(b.black_score),
                      names.get(b.white, b.white), str(b.white_score))
        for y in pairing.byes:
            t.add_row("", names.get(y.player, y.player), "", "轮空", f"+{y.points}")
        console.print(t)
        if explain:
            for line in pairing.explain(names=names):
                console.print(line, markup=False, highlight=False, soft_wrap=True)


def _title(event: EventRecord, division: str, n: int, group: str) -> str:
    from yisai.services.events import regulation_of

    label = f" {group_title(group)}" if group else ""
    return f"{regulation_of(event).division(division).name}{label} 第{n}轮"


@round_app.command("show")
def round_show(
    event: str = typer.Argument(None, help="比赛编号或名称"),
    division: str = typer.Option(..., "--division", "-d"),
    round_no: int = typer.Option(..., "--round", "-r"),
    stage: str = typer.Option(None, "--stage"),
    explain: bool = typer.Option(False, "--explain", help="显示编排时保存的说明"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB"),
) -> None:
    """显示一轮的对阵与成绩: 台次 黑方 白方 积分(赛前, 黑:白) 结果."""
    from yisai.services.rounds import round_view

    with command_work(db) as work:
        view = round_view(work, event, division, round_no, stage)
    print_round(view, explain=explain)


def print_round(view: RoundView, *, explain: bool = False, limit: int = 0) -> None:
    """台次 黑方 白方 积分 结果 for every group of a stored round (``limit`` boards, 0 = all).

    In the same-place final each name carries where it comes from (A1, B1 …)."""
    def who(pid: str | None) -> str:
        if not pid:
            return ""
        seed = view.seeds.get(pid)
        return f"{view.names.get(pid, pid)} ({seed})" if seed else view.names.get(pid, pid)

    from rich.table import Table

    for r in view.rounds:
        t = Table(title=_title(view.event, view.division, view.round, r.group), title_style="bold")
        for h in (tr("台次", "board"), tr("黑方", "Black"), tr("白方", "White"),
                  tr("积分", "score"), tr("结果", "result")):
            t.add_column(h)
        games = sorted(r.games, key=lambda g: (g.is_bye, g.board))
        for g in games[:limit] if limit else games:
            if g.is_bye:
                t.add_row("", who(g.black), "", str(view.scores.get(g.black, 0)), result_label(g))
                continue
            score = f"{view.scores.get(g.black, 0)}:{view.scores.get(g.white or '', 0)}"
            t.add_row(str(g.board), who(g.black), who(g.white), score, result_label(g))
        if limit and len(games) > limit:
            t.caption = tr(f"… 共{len(games)}台", f"… {len(games)} boards")
        console.print(t)
        if explain:
            for line in view.info.get(r.group, []):
                console.print(line, markup=False, highlight=False, soft_wrap=True)


@round_app.command("sheet")
def round_sheet(
    event: str = typer.Argument(None, help="比赛编号或名称"),
    division: str = typer.Option(..., "--division", "-d"),
    round_no: int = typer.Option(..., "--round", "-r"),
    stage: str = typer.Option(None, "--stage"),
    output: Path = typer.Option(None, "--output", "-o",
                                help="输出文件 .xlsx 或 .csv (默认: 成绩登记表_组别_第N轮.xlsx)"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB"),
) -> None:
    """打印一轮的成绩登记表 (台次 分组 黑方 白方 结果), 填好后用 yisai result import 导入."""
    from yisai.formats.result_sheet import write_result_sheet
    from yisai.services.rounds import round_view, sheet_lines, sheet_title

    with command_work(db) as work:
        view = round_view(work, event, division, round_no, stage)
    from yisai.services.events import regulation_of

    name = regulation_of(view.event).division(view.division).name
    target = output or Path(f"成绩登记表_{name}_第{round_no}轮.xlsx")
    try:
        write_result_sheet(target, sheet_title(view), sheet_lines(view))
    except (OSError, ValueError) as exc:
        console.print(str(exc), style="red", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    boards = sum(1 for r in view.rounds for g in r.games if not g.is_bye)
    console.print(tr(f"已写出成绩登记表: {target} ({boards}台)", f"result sheet written: {target} ({boards} boards)"),
                  highlight=False)


def _division_name(work: Work, event: str | None, division: str, round_no: int) -> str:
    """The division's name as the regulation writes it (甲组), for the confirmation line."""
    from yisai.services.events import regulation_of, resolve_division
    from yisai.services.round_results import rounds_of

    ev, reg, _ = rounds_of(work, event, division, round_no)
    return regulation_of(ev).division(resolve_division(reg, division)).name


@round_app.command("publish")
def round_publish(
    event: str = typer.Argument(None, help="比赛编号或名称 (库中只有一个比赛时可省略)"),
    division: str = typer.Option(..., "--division", "-d", help="组别 id 或名称"),
    round_no: int = typer.Option(..., "--round", "-r", help="轮次"),
    note: str = typer.Option("", "--note", help="备注 (记入操作记录)"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB"),
) -> None:
    """公布一轮的对阵: 公开页面与 API 随即显示 (裁判长)."""
    from yisai.services.publishing import publish_round

    with command_work(db) as work:
        publish_round(work, event, division, round_no, note)
        name = _division_name(work, event, division, round_no)
    say(tr(f"已公布 {name} 第{round_no}轮对阵, 公开页面已可查看",
           f"round {round_no} of {name} published: the public pages show it now"))


@round_app.command("unpublish")
def round_unpublish(
    event: str = typer.Argument(None, help="比赛编号或名称 (库中只有一个比赛时可省略)"),
    division: str = typer.Option(..., "--division", "-d", help="组别 id 或名称"),
    round_no: int = typer.Option(..., "--round", "-r", help="轮次"),
    note: str = typer.Option("", "--note", help="理由 (记入操作记录)"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB"),
) -> None:
    """撤回一轮对阵的公布 (尚未录入成绩时; 例如发现编排有误, 重新编排后再公布)."""
    from yisai.services.publishing import unpublish_round

    with command_work(db) as work:
        unpublish_round(work, event, division, round_no, note)
        name = _division_name(work, event, division, round_no)
    say(tr(f"已撤回 {name} 第{round_no}轮对阵的公布, 公开页面显示“本轮对阵尚未公布”",
           f"round {round_no} of {name} unpublished: the public pages no longer show it"))


def result_cmd(
    result: str = typer.Argument(
        ..., help="黑胜/白胜/和/黑弃权/白弃权/双方弃权/黑超时负/B+R/W+T …; 黑迟到17分钟: 按规程的迟到时限判定"),
    event: str = typer.Option(None, "--event", "-e", help="比赛编号或名称"),
    division: str = typer.Option(..., "--division", "-d"),
    round_no: int = typer.Option(..., "--round", "-r"),
    board: int = typer.Option(..., "--board", "-b", help="台次"),
    group: str = typer.Option(None, "--group", help="分组 (A/B/final)"),
    stage: str = typer.Option(None, "--stage"),
    change: bool = typer.Option(False, "--change", help="更改已录入的成绩 (记入审计)"),
    note: str = typer.Option("", "--note", help="更改理由"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB"),
) -> None:
    """录入一台的成绩. 已有成绩的台次须加 --change 才能更改."""
    from yisai.services.round_results import record_result

    with command_work(db) as work:
        entry = record_result(work, event, division, round_no, board, result, group=group,
                             stage_ref=stage, change=change, note=note)
    game = entry.game
    if not entry.changed:
        say(tr(f"未改动: 第{round_no}轮第{board}台已是 {result_label(game)}",
               f"no change: round {round_no} board {board} is already {game.result.value}"))
        return
    say(tr(f"已录入: 第{round_no}轮第{board}台 {result_label(game)}",
           f"saved: round {round_no} board {board} {game.result.value}"))
    for w in entry.warnings:
        console.print(w.render(), style="yellow", markup=False, highlight=False, soft_wrap=True)


@result_app.command("import")
def result_import(
    file: Path = typer.Argument(..., help="成绩表 .xlsx/.xls/.csv: 台次 结果 (必填), 分组 黑方 白方 (可选)"),
    event: str = typer.Option(None, "--event", "-e", help="比赛编号或名称"),
    division: str = typer.Option(..., "--division", "-d"),
    round_no: int = typer.Option(..., "--round", "-r"),
    group: str = typer.Option(None, "--group", help="只导入该分组 (A/B/final); 表中分组列优先核对"),
    stage: str = typer.Option(None, "--stage"),
    change: bool = typer.Option(False, "--change", help="允许更改已录入的成绩 (记入审计)"),
    note: str = typer.Option("", "--note", help="更改理由"),
    db: str = typer.Option(None, "--db", envvar="YISAI_DB"),
) -> None:
    """导入成绩表: 全部无误才保存, 否则逐行列出问题 (文件:工作表:行:列), 一个也不保存."""
    from yisai.formats.result_sheet import read_result_sheet
    from yisai.services.result_sheets import import_results

    sheet = read_result_sheet(file)
    for w in sheet.warnings:
        console.print(w, style="yellow", markup=False, highlight=False, soft_wrap=True)
    with command_work(db) as work:
        report = import_results(work, event, division, round_no, sheet, group=group,
                                stage_ref=stage, change=change, note=note)
    console.print(tr(
        f"已导入 {file.name}: 保存{len(report.saved)}台成绩, 未变{report.unchanged}台, "
        f"未填{report.blank}台, 轮空{report.byes}行",
        f"imported {file.name}: {len(report.saved)} saved, {report.unchanged} unchanged, "
        f"{report.blank} blank, {report.byes} byes",
    ), highlight=False)
    for warning in report.warnings:
        console.print(warning.render(), style="yellow", markup=False, highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("pair")(pair_cmd)
    result_app.command("enter")(result_cmd)
    app.add_typer(result_app, name="result")
    app.add_typer(round_app, name="round")

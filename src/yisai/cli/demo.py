"""`yisai demo`: both seed regulations run end to end (the main job of scripts/run.sh)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from yisai.awards.inputs import EventResults
from yisai.awards.prizes import compute_prizes
from yisai.awards.rank_awards import compute_rank_awards
from yisai.cli.rounds import print_round
from yisai.formats.awards_report import (
    prize_summary,
    prize_tables,
    rank_award_tables,
    team_table,
    to_lines,
)
from yisai.formats.regulation_summary import fmt_date
from yisai.i18n import tr
from yisai.regulation import Regulation
from yisai.services.context import Context, ServiceError, open_context
from yisai.services.demo_event import registration_moment, run_demo
from yisai.services.events import read_regulation_file

console = Console()
REGULATIONS = Path(__file__).resolve().parents[3] / "regulations"


def demo(
    db: Path | None = typer.Option(None, "--db", help="SQLite 文件 (默认: 临时文件)"),
    regulation: list[Path] = typer.Option(
        [REGULATIONS / "2025-shanhai-cup.toml", REGULATIONS / "2025-xiaoqiwang.toml"],
        "--regulation", help="规程文件 (默认两个样例规程)",
    ),
    boards: int = typer.Option(6, "--boards", help="每轮打印前N台 (0 = 全部)"),
    scale: float = typer.Option(1.0, "--scale", min=0.05, max=4.0, help="参赛人数比例 (1 = 默认规模)"),
) -> None:
    """演示: 按规程生成报名、审核资格、逐轮编排并模拟成绩, 输出名次、团体、奖金与段位."""
    workdir = None
    if db is None:
        workdir = tempfile.TemporaryDirectory(prefix="yisai-demo-")
        db = Path(workdir.name) / "demo.sqlite"
    try:
        for path in regulation:
            reg = read_regulation_file(path)[1]
            moment = registration_moment(reg)
            with open_context(str(db), actor="demo", now=moment) as ctx:
                _run_one(ctx, path, boards, scale)
    except ServiceError as exc:
        console.print(f"[red]{exc.message}[/red]")
        for d in exc.details:
            console.print(f"  {d}")
        raise typer.Exit(exc.exit_code) from None
    finally:
        if workdir is not None:
            workdir.cleanup()


def _run_one(ctx: Context, path: Path, boards: int, scale: float) -> None:
    """Render the demo's steps (the work itself is ``services.demo_event.run_demo``)."""
    bar: Progress | None = None
    task = None
    reg = None
    for step in run_demo(ctx, path, scale):
        if step.kind == "event":
            event, reg = step.data
            console.rule(f"[bold]{reg.name}[/bold]")
            console.print(tr(f"比赛编号 {event.id}, 抽签种子 {event.seed}", f"event {event.id}, seed {event.seed}"))
        elif step.kind == "registered":
            people, registration, teams = step.data
            console.print(tr(f"报名 {people} 人, 批准 {registration.approved} 人, {teams} 支队",
                             f"{people} entries, {registration.approved} approved, {teams} teams"))
            for name, division, reasons in registration.rejected:
                console.print(f"  [yellow]{tr('不予批准', 'rejected')}[/yellow] {name} ({division}): {'；'.join(reasons)}")
        elif step.kind == "division":
            d, n, total = step.data
            if bar is not None:
                bar.stop()
            bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           console=console, transient=True)
            bar.start()
            task = bar.add_task(f"{d.name} {n}人 {total}轮", total=total)
        elif step.kind == "round":
            if bar is not None and task is not None:
                bar.advance(task)
            print_round(step.data, limit=boards)
        elif step.kind == "results":
            if bar is not None:
                bar.stop()
            assert reg is not None
            _print_results(step.data, reg)


def _print_results(results: EventResults, reg: Regulation) -> None:
    players = results.players
    for key, table in results.ranking_tables().items():
        division, ranking = key
        rl = next(r for r in reg.division(division).rankings if r.id == ranking)
        t = Table(title=f"{reg.division(division).name} · {rl.name} {tr('前10名', 'top 10')}", title_style="bold")
        for h in (tr("名次", "place"), tr("姓名", "name"), tr("单位", "unit"), tr("段位", "rank"), tr("积分", "score")):
            t.add_column(h)
        for row in table.rows[:10]:
            p = players[row.player_id]
            t.add_row(str(row.place), p.name, p.city or p.province or "", str(p.rank or ""),
                      f"{row.score:g}")
        console.print(t)
    for tt in results.team_tables().values():
        _print_lines(to_lines([team_table(tt, players)]))
    prizes = compute_prizes(results)
    _print_lines(to_lines(prize_tables(prizes, players)))
    _print_lines(to_lines([prize_summary(prizes)]))
    awards = compute_rank_awards(results)
    _print_lines(to_lines(rank_award_tables(awards, players)))
    console.print(tr(f"完成: {reg.name} ({fmt_date(reg.issued.on)} 规程)", f"done: {reg.name}"))


def _print_lines(lines: list[str]) -> None:
    for line in lines:
        console.print(line, markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)

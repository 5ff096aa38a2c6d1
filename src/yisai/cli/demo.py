"""`yisai demo`: any regulation run end to end through a simulated event (by default both seed
regulations: the main job of scripts/run.sh)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from yisai.awards.inputs import EventResults
from yisai.cli.hints import cli_hint
from yisai.cli.rounds import print_round
from yisai.formats.awards_report import to_lines
from yisai.formats.regulation_summary import fmt_date
from yisai.i18n import tr
from yisai.regulation import Regulation
from yisai.services.context import Context, ServiceError, open_context
from yisai.services.demo_event import cannot_simulate, registration_moment, run_demo
from yisai.services.events import read_regulation_file
from yisai.services.reports import award_view, prize_view

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
    seed: int | None = typer.Option(None, "--seed", help="抽签与模拟成绩的种子 (默认: 样例规程各自的种子, 其他为1)"),
) -> None:
    """演示: 按规程生成报名、审核资格、逐轮编排并模拟成绩, 输出名次、团体、奖金、段位与升段."""
    regs = []
    for path in regulation:
        try:
            regs.append((path, read_regulation_file(path)[1]))
        except ServiceError as exc:
            console.print(f"[red]{exc.render()}[/red]")
            for d in exc.render_details():
                console.print(f"  {d}")
            raise typer.Exit(exc.exit_code) from None
    for path, reg in regs:
        reasons = cannot_simulate(reg)
        if reasons:
            console.print(tr(f"[red]{path}: 无法模拟这个规程的比赛:[/red]", f"[red]{path}: this regulation cannot be simulated:[/red]"))
            for why in reasons:
                console.print(f"  {why.reason.render()}" + (f" ({cli_hint(why.hint)})" if why.hint else ""))
            raise typer.Exit(2)
    workdir = None
    if db is None:
        workdir = tempfile.TemporaryDirectory(prefix="yisai-demo-")
        db = Path(workdir.name) / "demo.sqlite"
    try:
        for path, reg in regs:
            moment = registration_moment(reg)
            with open_context(str(db), actor="demo", now=moment) as ctx:
                _run_one(ctx, path, boards, scale, seed)
    except ServiceError as exc:
        from yisai.cli.hints import cli_message

        console.print(f"[red]{cli_message(exc)}[/red]")
        for d in exc.render_details():
            console.print(f"  {d}")
        raise typer.Exit(exc.exit_code) from None
    finally:
        if workdir is not None:
            workdir.cleanup()


def _run_one(ctx: Context, path: Path, boards: int, scale: float, seed: int | None) -> None:
    """Render the demo's steps (the work itself is ``services.demo_event.run_demo``)."""
    bar: Progress | None = None
    task = None
    reg = None
    for step in run_demo(ctx, path, scale, seed):
        if step.kind == "event":
            event, reg = step.data
            console.rule(f"[bold]{reg.name}[/bold]")
            console.print(tr(f"比赛编号 {event.id}, 抽签种子 {event.seed}", f"event {event.id}, seed {event.seed}"))
        elif step.kind == "registered":
            people, registration, teams = step.data
            console.print(tr(f"报名 {people} 人, 批准 {registration.approved} 人, {teams} 支队",
                             f"{people} entries, {registration.approved} approved, {teams} teams"))
            for name, division, reasons in registration.rejected:
                console.print(f"  [yellow]{tr('不予批准', 'rejected')}[/yellow] {name} ({division}): {'；'.join(r.render() for r in reasons)}")
        elif step.kind == "division":
            d, n, total, stage = step.data
            if bar is not None:
                bar.stop()
            bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           console=console, transient=True)
            bar.start()
            rounds = tr(f"{total}轮", f"{total} rounds") if total else tr("轮数由赛制决定", "rounds set by the format")
            task = bar.add_task(f"{d.name} {stage.name} {n}人 {rounds}", total=total)
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
    prizes = prize_view(results)  # the same views `yisai prizes` and `yisai awards` print
    _print_lines(to_lines(prizes.team_tables))
    _print_lines(to_lines(prizes.prize_tables))
    _print_lines(to_lines(award_view(results).tables))
    console.print(tr(f"完成: {reg.name} ({fmt_date(reg.issued.on)} 规程)", f"done: {reg.name}"))


def _print_lines(lines: list[str]) -> None:
    for line in lines:
        console.print(line, markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)

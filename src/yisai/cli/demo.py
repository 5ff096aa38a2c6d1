"""`yisai demo`: both seed regulations run end to end (the main job of scripts/run.sh)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from yisai.awards.prizes import compute_prizes
from yisai.awards.rank_awards import compute_rank_awards
from yisai.bench.demo_event import (
    play_round,
    register_all,
    registration_moment,
    rounds_for,
    shanhai_people,
    xiaoqiwang_people,
)
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
from yisai.services.context import ServiceError, open_context
from yisai.services.events import create_event, read_regulation_file, regulation_of
from yisai.services.registration import approved_players
from yisai.services.results import load_event_results
from yisai.services.rounds import round_view

console = Console()
REGULATIONS = Path(__file__).resolve().parents[3] / "regulations"
SEEDS = {
    "2025-shanhai-cup": (shanhai_people, 20250430),
    "2025-xiaoqiwang": (xiaoqiwang_people, 20250318),
}


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


def _run_one(ctx, path: Path, boards: int, scale: float) -> None:
    with ctx.work() as work:
        event = create_event(work, path, seed=SEEDS.get(path.stem, (None, 1))[1])
    reg = regulation_of(event)
    make_people = SEEDS.get(path.stem, (shanhai_people, 0))[0]
    people, teams = make_people(event.seed, scale)
    console.rule(f"[bold]{reg.name}[/bold]")
    console.print(tr(f"比赛编号 {event.id}, 抽签种子 {event.seed}", f"event {event.id}, seed {event.seed}"))
    with ctx.work() as work:
        registration = register_all(work, event, reg, people, teams)
    console.print(tr(f"报名 {len(people)} 人, 批准 {registration.approved} 人, {len(teams)} 支队",
                     f"{len(people)} entries, {registration.approved} approved, {len(teams)} teams"))
    for name, division, reasons in registration.rejected:
        console.print(f"  [yellow]不予批准[/yellow] {name} ({division}): {'；'.join(reasons)}")
    for d in reg.divisions:
        with ctx.work() as work:
            n = len(approved_players(work, event, d.id))
        if n < 2:
            continue
        total = rounds_for(reg, d.id, n)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task(f"{d.name} {n}人 {total}轮", total=total)
            for n_round in range(1, total + 1):
                with ctx.work() as work:
                    play_round(work, event, d.id, n_round, event.seed + n_round)
                bar.advance(task)
                with ctx.work() as work:
                    view = round_view(work, str(event.id), d.id, n_round)
                print_round(view, limit=boards)
    with ctx.work() as work:
        results = load_event_results(work, str(event.id))
    players = results.players
    for key, table in results.ranking_tables().items():
        division, ranking = key
        rl = next(r for r in reg.division(division).rankings if r.id == ranking)
        t = Table(title=f"{reg.division(division).name} · {rl.name} 前10名", title_style="bold")
        for h in ("名次", "姓名", "单位", "段位", "积分"):
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

"""`yisai qualifier deadlines`: when qualified online players must confirm (working days)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from yisai.awards.qualifier import confirm_deadline
from yisai.i18n import tr
from yisai.regulation.stages import LadderFormat
from yisai.services.context import ServiceError
from yisai.services.events import read_regulation_file
from yisai.services.workdays import china_workday_calendar

console = Console()
qualifier_app = typer.Typer(help="网络海选赛: 晋级确认期限 (online qualifier)", no_args_is_help=True)


@qualifier_app.command("deadlines")
def deadlines(
    regulation: Path = typer.Option(..., "--regulation", help="规程文件"),
    after: str = typer.Option(None, "--after", help="从哪天起算 (公布晋级名单之日, 默认各期最后一天)"),
    calendar: Path = typer.Option(None, "--calendar", help="补充节假日安排的 TOML 文件 (YISAI_CALENDAR)"),
) -> None:
    """各期晋级选手完善参赛信息的截止日 (按法定节假日与调休计算工作日)."""
    try:
        _, reg = read_regulation_file(regulation)
        start = date.fromisoformat(after) if after else None
    except ServiceError as exc:
        console.print(f"[red]{exc.message}[/red]")
        for d in exc.details:
            console.print(f"  {d}")
        raise typer.Exit(2) from None
    except ValueError:
        console.print(tr(f"[red]日期无效: {after} (应为 YYYY-MM-DD)[/red]", f"[red]bad date: {after}[/red]"))
        raise typer.Exit(2) from None
    is_workday = china_workday_calendar(str(calendar) if calendar else None)
    ladders = [(s, s.format) for s in reg.stages if isinstance(s.format, LadderFormat)]
    if not ladders:
        console.print(tr("规程中没有网络海选赛 (online_ladder)", "no online ladder in this regulation"))
        raise typer.Exit(2)
    for stage, fmt in ladders:
        if fmt.confirm_within_working_days is None:
            console.print(tr(f"{stage.name}: 规程未规定确认期限", f"{stage.name}: no confirmation rule"))
            continue
        n = fmt.confirm_within_working_days
        t = Table(title=f"{stage.name}: 晋级选手须在{n}个工作日内完善参赛信息", title_style="bold")
        for h in ("期", "比赛日期", "起算日", "截止日 (含)"):
            t.add_column(h)
        try:
            for p in stage.periods:
                base = start or p.end
                t.add_row(f"第{p.number}期", f"{p.start} 至 {p.end}", str(base),
                          str(confirm_deadline(base, n, is_workday)))
        except ServiceError as exc:
            console.print(f"[red]{exc.message}[/red]")
            raise typer.Exit(2) from None
        console.print(t)
        console.print(tr("逾期默认视为弃权", "late confirmation forfeits the place"))


def register(app: typer.Typer) -> None:
    app.add_typer(qualifier_app, name="qualifier")

"""`yisai qualifier deadlines`: when qualified online players must confirm (working days)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import typer
from rich.table import Table

from yisai.cli.session import console, fail, say
from yisai.i18n import tr

qualifier_app = typer.Typer(help="网络海选赛: 晋级确认期限 (online qualifier)", no_args_is_help=True)


@qualifier_app.command("deadlines")
def deadlines(
    regulation: Path = typer.Option(..., "--regulation", help="规程文件"),
    after: str = typer.Option(None, "--after", help="从哪天起算 (公布晋级名单之日, 默认各期最后一天)"),
    calendar: Path = typer.Option(None, "--calendar", envvar="YISAI_CALENDAR",
                                  help="补充节假日安排的 TOML 文件 (YISAI_CALENDAR)"),
) -> None:
    """各期晋级选手完善参赛信息的截止日 (按法定节假日与调休计算工作日)."""
    from yisai.services.errors import ServiceError
    from yisai.services.events import read_regulation_file
    from yisai.services.qualifier import confirmation_deadlines

    try:
        start = date.fromisoformat(after) if after else None
    except ValueError:
        fail(tr(f"日期无效: {after} (应为 YYYY-MM-DD)", f"bad date: {after} (expected YYYY-MM-DD)"))
    try:
        _, reg = read_regulation_file(regulation)
        stages = confirmation_deadlines(reg, calendar_file=calendar, after=start)
    except ServiceError as exc:
        fail(exc.render(), exc.render_details(), 2)
    for stage in stages:
        if stage.working_days is None:
            say(tr(f"{stage.stage}: 规程未规定确认期限", f"{stage.stage}: no confirmation rule"))
            continue
        n = stage.working_days
        t = Table(title=tr(f"{stage.stage}: 晋级选手须在{n}个工作日内完善参赛信息",
                           f"{stage.stage}: qualified players confirm within {n} working days"),
                  title_style="bold")
        for h in (tr("期", "period"), tr("比赛日期", "dates"), tr("起算日", "counted from"),
                  tr("截止日 (含)", "deadline (incl.)")):
            t.add_column(h)
        for p in stage.periods:
            t.add_row(tr(f"第{p.number}期", f"#{p.number}"), f"{p.start} 至 {p.end}",
                      str(p.counted_from), str(p.deadline))
        console.print(t)
        say(tr("逾期默认视为弃权", "late confirmation forfeits the place"))


def register(app: typer.Typer) -> None:
    app.add_typer(qualifier_app, name="qualifier")

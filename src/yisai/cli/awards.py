"""`yisai prizes EVENT` (录取名单与奖金) and `yisai awards EVENT` (段位申报), in Chinese, with xlsx.

The lists come from ``yisai.services.reports``; ``register(app, loader=...)`` accepts another
source of an event's final results, which is how tests feed results without a database.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from yisai.awards.inputs import EventResults
from yisai.cli.hints import cli_message
from yisai.cli.render import check_target, print_text_table, write_file
from yisai.cli.session import DbOption, command_work, fail, say
from yisai.i18n import tr
from yisai.services import reports
from yisai.services.errors import ServiceError

Loader = Callable[[str | None, str | None], EventResults]
"""(event reference or None, database option or None) -> the event's final results."""


def store_loader(event: str | None, db: str | None) -> EventResults:
    from yisai.services.results import load_event_results

    with command_work(db) as work:
        return load_event_results(work, event)


XlsxOption = Annotated[Path | None, typer.Option("--xlsx", help="同时导出为 Excel 文件 (.xlsx)")]
EventArg = Annotated[str | None, typer.Argument(help="比赛编号或名称 (库中只有一个比赛时可省略)")]


def register(app: typer.Typer, loader: Loader | None = None) -> None:
    """Attach `yisai prizes` and `yisai awards`."""
    load = loader or store_loader

    @app.command("prizes")
    def prizes_cmd(
        event: EventArg = None,
        xlsx: XlsxOption = None,
        teams: Annotated[bool, typer.Option("--teams/--no-teams", help="显示团体名次")] = True,
        db: DbOption = None,
    ) -> None:
        """录取名次与奖励: 各名单、特别奖、参赛奖与奖金合计 (元)."""
        if xlsx is not None:
            check_target(xlsx, ".xlsx")
        try:
            view = reports.prize_view(load(event, db), teams=teams)
        except ServiceError as exc:
            fail(cli_message(exc), exc.render_details(), exc.exit_code)
        if xlsx is not None:
            write_file(xlsx, view.xlsx())
            return
        say(view.results.regulation.name, "bold")
        for t in [*view.team_tables, *view.prize_tables]:
            print_text_table(t)

    @app.command("awards")
    def awards_cmd(event: EventArg = None, xlsx: XlsxOption = None, db: DbOption = None) -> None:
        """段位申报: 谁可申报什么段位, 以及限额内被跳过者的原因 (顺延)."""
        if xlsx is not None:
            check_target(xlsx, ".xlsx")
        try:
            view = reports.award_view(load(event, db))
        except ServiceError as exc:
            fail(cli_message(exc), exc.render_details(), exc.exit_code)
        if xlsx is not None:
            write_file(xlsx, view.xlsx())
            return
        say(view.results.regulation.name, "bold")
        if not view.tables:  # the regulation grants no 段位 by place and promotes no one
            say(tr("本规程没有按名次授予段位或升段的规定, 没有需要申报的段位。",
                   "This regulation grants no rank by place and sets no promotion: there is nothing to award."))
        for t in view.tables:
            print_text_table(t)

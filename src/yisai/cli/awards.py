"""`yisai prizes EVENT` (录取名单与奖金) and `yisai awards EVENT` (段位申报), in Chinese, with xlsx.

The commands need an event's final results as ``EventResults``; where they come from is the
results service's business (``yisai.services.results.load_event_results(work, event_ref)``).
``register(app, loader=...)`` accepts another loader, which is how tests and the demo feed
results without a database.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.table import Table

from yisai.awards.prizes import compute_prizes
from yisai.awards.rank_awards import compute_rank_awards
from yisai.awards.report import TextTable, prize_tables, rank_award_tables, team_table
from yisai.awards.results import EventResults
from yisai.cli.session import DbOption, console, fail, say
from yisai.formats import awards_export
from yisai.i18n import tr

T = TypeVar("T")

Loader = Callable[[str | None, str | None], EventResults]
"""(event reference or None, database URL or None) -> the event's final results."""


def store_loader(event: str | None, db: str | None) -> EventResults:
    """Results of an event in the store, through the results service."""
    from yisai.cli.session import command_work

    try:
        from yisai.services.results import load_event_results  # type: ignore[attr-defined]
    except ImportError:
        fail(
            tr(
                "成绩服务尚未接入: 需要 yisai.services.results.load_event_results",
                "results service not available: yisai.services.results.load_event_results",
            ),
            code=1,
        )
    with command_work(db) as work:
        return load_event_results(work, event)


def print_table(t: TextTable) -> None:
    table = Table(*t.headers, title=t.title, title_style="bold", show_lines=False)
    for row in t.rows:
        table.add_row(*("" if c is None else str(c) for c in row))
    console.print(table)
    for note in t.notes:
        say("  " + note, "dim")


def _computed(fn: Callable[[], T]) -> T:
    """Regulation data the engine cannot apply (e.g. an age limit without a date): exit 2."""
    try:
        return fn()
    except (ValueError, KeyError) as exc:
        fail(tr(f"规程数据无法应用: {exc}", f"regulation data cannot be applied: {exc}"), code=2)


def _write_xlsx(write: Callable[[Path], None], path: Path) -> None:
    if path.suffix.lower() != ".xlsx":
        fail(tr(f"导出文件须以 .xlsx 结尾: {path}", f"export file must end in .xlsx: {path}"))
    if not path.parent.exists():
        fail(tr(f"目录不存在: {path.parent}", f"directory does not exist: {path.parent}"))
    try:
        write(path)
    except OSError as exc:
        fail(tr(f"无法写入 {path}: {exc.strerror}", f"cannot write {path}: {exc}"), code=1)
    say(tr(f"已导出: {path}", f"written: {path}"), "green")


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
        """录取名次与奖励: 各名单、特别奖、参赛奖与奖金合计 (税前, 元)."""
        results = load(event, db)
        report = _computed(lambda: compute_prizes(results))
        team_tables = list(_computed(results.team_tables).values()) if teams else []
        say(results.regulation.name, "bold")
        for tt in team_tables:
            print_table(team_table(tt, results.players))
        for t in prize_tables(report, results.players):
            print_table(t)
        if xlsx is not None:
            _write_xlsx(
                lambda p: awards_export.write_prizes(report, results.players, p, team_tables),
                xlsx,
            )

    @app.command("awards")
    def awards_cmd(event: EventArg = None, xlsx: XlsxOption = None, db: DbOption = None) -> None:
        """段位申报: 谁可申报什么段位, 以及限额内被跳过者的原因 (顺延)."""
        results = load(event, db)
        report = _computed(lambda: compute_rank_awards(results))
        say(results.regulation.name, "bold")
        for t in rank_award_tables(report, results.players):
            print_table(t)
        if xlsx is not None:
            _write_xlsx(
                lambda p: awards_export.write_rank_awards(report, results.players, p),
                xlsx,
            )

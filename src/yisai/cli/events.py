"""`yisai event create|list|show`: an event is a regulation file plus a fixed lot seed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from yisai.cli.hints import cli_message
from yisai.cli.session import DbOption, command_work, console, fail, say, settings
from yisai.i18n import tr
from yisai.registry.eligibility import window_text
from yisai.registry.entry import EntryStatus
from yisai.services import events as event_service
from yisai.services.errors import ServiceError

event_app = typer.Typer(help="比赛: 按规程文件建立、列出、查看 (events)", no_args_is_help=True)


@event_app.command("create")
def create_cmd(
    regulation: Annotated[Path, typer.Option("--regulation", "-r", help="规程 TOML 文件")],
    name: Annotated[str | None, typer.Option("--name", help="比赛名称 (默认用规程名称)")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="抽签种子 (默认随机生成一次并保存)")] = None,
    db: DbOption = None,
) -> None:
    """按规程文件建立比赛; 规程原文与抽签种子一起保存."""
    with command_work(db, may_create=True) as work:
        event = event_service.create_event(work, regulation, name=name, seed=seed)
    say(tr(f"已建立比赛 {event.id}: {event.name}", f"created event {event.id}: {event.name}"), "green")
    say(tr(f"规程: {event.regulation_name} ({event.regulation_id})", f"regulation: {event.regulation_name}"))
    say(tr(f"抽签种子: {event.seed}", f"lot seed: {event.seed}"))


@event_app.command("list")
def list_cmd(db: DbOption = None) -> None:
    """列出库中所有比赛."""
    with command_work(db, may_create=True) as work:
        events = event_service.list_events(work)
    if not events:
        say(tr("还没有比赛; 用 yisai event create --regulation 规程文件 建立", "no events yet"))
        return
    table = Table(tr("编号", "id"), tr("名称", "name"), tr("规程", "regulation"), tr("建立时间", "created"))
    for e in events:
        table.add_row(str(e.id), e.name, e.regulation_id, f"{e.created_at:%Y-%m-%d %H:%M}")
    console.print(table)


@event_app.command("show")
def show_cmd(
    event: Annotated[str | None, typer.Argument(help="比赛编号或名称")] = None,
    db: DbOption = None,
) -> None:
    """比赛概况: 规程、抽签种子、各组别报名人数."""
    with command_work(db) as work:
        record = event_service.resolve_event(work, event)
        summary = event_service.summarise_event(work, record)
    ev, reg = summary.event, summary.regulation
    say(f"{ev.id}: {ev.name}", "bold")
    say(tr(f"规程: {reg.name} ({reg.id}), {reg.issued.by} {reg.issued.on:%Y-%m-%d}发布", f"regulation: {reg.id}"))
    say(tr(f"抽签种子: {ev.seed}", f"lot seed: {ev.seed}"))
    say(tr(f"建立: {ev.created_at:%Y-%m-%d %H:%M} ({ev.created_by})", f"created: {ev.created_at}"))
    say(tr(f"棋手 {summary.players} 人, 队伍 {summary.teams} 支", f"{summary.players} players, {summary.teams} teams"))
    # 取消资格 is rare: its column only when some entry has it (the table stays narrow)
    shown = [s for s in EntryStatus if s is not EntryStatus.DISQUALIFIED
             or any(c.get(s) for c in summary.entries.values())]
    table = Table(
        tr("组别", "division"), tr("出生日期", "born"),
        *(s.label for s in shown), title=tr("报名情况", "entries"),
    )  # fmt: skip
    for d in reg.divisions:
        counts = summary.entries.get(d.id, {})
        born = window_text(d.eligibility.born_from, d.eligibility.born_to)
        table.add_row(f"{d.name} ({d.id})", born, *(str(counts.get(s, 0)) for s in shown))
    console.print(table)


@event_app.command("rounds")
def rounds_cmd(
    rounds: Annotated[int, typer.Argument(help="该组别的轮数")],
    division: Annotated[str, typer.Option("--division", "-d", help="组别 (编号或名称)")],
    note: Annotated[str, typer.Option("--note", help="理由 (记入审计)")] = "",
    event: Annotated[str | None, typer.Option("--event", "-e", help="比赛编号或名称")] = None,
    db: DbOption = None,
) -> None:
    """确定轮数: 规程写“轮次视报名情况而定”时由裁判长确定该组别共几轮."""
    from yisai.services.rounds import set_round_count

    with command_work(db) as work:
        set_round_count(work, event, division, rounds, note)
    say(tr(f"已确定: {division} 共{rounds}轮", f"set: {division} has {rounds} rounds"), "green")


@event_app.command("export")
def export_cmd(
    event: str = typer.Argument(..., help="比赛编号或名称"),
    output: Path = typer.Option(..., "--output", "-o", help="写出的文件 (如 小棋王.yisai)"),
    db: DbOption = None,
) -> None:
    """把一个比赛 (规程、棋手、报名、队伍、轮次、对局、附件、审计记录) 导出为一个文件."""
    from yisai.services.portable import export

    try:
        _, done = export(settings(db), event, output)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    say(tr(f"已导出: {output} (棋手 {done.rows['players']}, 对局 {done.rows['games']}, 附件 {done.files} 个, "
           f"审计 {done.rows['audit']} 条)",
           f"exported: {output} ({done.rows['players']} players, {done.rows['games']} games, {done.files} files, "
           f"{done.rows['audit']} audit lines)"), "green")
    if done.left_out:
        listed = ", ".join(f"{k} {v}" for k, v in done.left_out.items())
        say(tr(f"未导出 (线上海选与短信通知, 它们属于本站账号): {listed}",
               f"not exported (online qualifier and SMS notices, tied to this site's accounts): {listed}"), "yellow")


@event_app.command("import")
def import_cmd(file: Path = typer.Argument(..., help="yisai event export 写出的文件"), db: DbOption = None) -> None:
    """把导出的比赛读入本数据库 (编号重新分配, 库中已有的比赛不受影响)."""
    from yisai.services.portable import import_file

    try:
        event_id, counts = import_file(settings(db), file)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    say(tr(f"已导入为比赛 {event_id} (棋手 {counts['players']}, 对局 {counts['games']}, 审计 {counts['audit']} 条)",
           f"imported as event {event_id} ({counts['players']} players, {counts['games']} games, "
           f"{counts['audit']} audit lines)"), "green")


def register(app: typer.Typer) -> None:
    """Attach `yisai event ...`."""
    app.add_typer(event_app, name="event")

"""`yisai standings SOURCE`: ranking lists from an OpenGotha file, an h9 file or an event.

Exit codes: 0 ok; 2 bad input (unreadable source, unknown criterion, round out of range,
unknown player for --explain), with a Chinese message naming file/line/field.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from yisai.cli.hints import cli_message
from yisai.cli.session import fail, settings
from yisai.formats.standings_export import fixed_headers, place_text, text, to_csv, to_json, to_xlsx
from yisai.i18n import tr
from yisai.services.errors import ServiceError
from yisai.services.reports import official_standings
from yisai.services.reports import standings as standings_service
from yisai.standings import Standings

FORMATS = ("table", "csv", "json", "xlsx", "h9")


def render_table(st: Standings, console: Console, title: str = "") -> None:
    heading = (title or st.title) + "  " if (title or st.title) else ""
    table = Table(title=heading + tr(f"第{st.round}轮后成绩", f"standings after round {st.round}"))
    for h in fixed_headers():
        table.add_column(h)
    for k in st.shown_keys:
        table.add_column(k.title, justify="right")
    for row in st.listed:
        p = row.player
        cells = [place_text(row), p.marked_name, p.club, str(p.rank) if p.rank is not None else ""]
        cells += [text(row.values.get(k.key)) for k in st.shown_keys]
        table.add_row(*cells)
    console.print(table)


def _safe_name(title: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in title).strip("_") or "standings"


def standings_cmd(
    source: str = typer.Argument(..., help="OpenGotha .xml 文件、EGD .h9 文件或赛事"),
    division: str | None = typer.Option(None, "--division", "-d", help="组别 (编号或名称, 如 jia 或 甲组)"),
    round_: int | None = typer.Option(None, "--round", help="第几轮后 (默认: 最后有对局的一轮)"),
    criteria: str | None = typer.Option(
        None,
        "--criteria",
        help="名次指标, 逗号分隔: score,sos,cumulative,direct … 或 积分,对手分 … "
        "或 OpenGotha 的 NBW,MMS,SOSW,SOSM,SOSWM1,SODOSW,SOSOSW,CUSSW,DC,SDC",
    ),
    fmt: str = typer.Option("table", "--format", help="table | csv | json | xlsx | h9"),
    output: Path | None = typer.Option(None, "--output", "-o", help="写入文件 (xlsx 必须)"),
    explain: str | None = typer.Option(None, "--explain", help="说明某选手为何排在此名次"),
    filters: list[str] = typer.Option([], "--filter", help="筛选 键=值, 可重复: gender=女, group=A"),
    lot_seed: int | None = typer.Option(
        None, "--lot-seed", help="抽签的随机种子 (指标含 lot 时; 赛事默认用其保存的种子, 文件默认 0)"
    ),
    db: str | None = typer.Option(None, "--db", help="SOURCE 为赛事时的数据库文件或地址 (也可用 YISAI_DB)"),
) -> None:
    """成绩表: 按规程的名次指标排名 (同名次决赛后的最终名次), 或按 OpenGotha 的指标复算."""
    if fmt not in FORMATS:
        fail(tr(f"未知格式 {fmt!r} (允许: {', '.join(FORMATS)})", f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})"))
    try:
        if fmt == "table" and not filters and explain is None:  # the regulation's own lists: 男子、女子分别录取
            reports = official_standings(source, settings(db), division=division, round_=round_,
                                         criteria=criteria, lot_seed=lot_seed)
        else:
            reports = [standings_service(source, settings(db), division=division, round_=round_,
                                         criteria=criteria, filters=filters, lot_seed=lot_seed)]
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    report = reports[0]
    st = report.standings
    for w in report.warnings:
        typer.echo(tr("提示: ", "note: ") + w, err=True)

    if explain is not None:
        try:
            typer.echo(st.explain(explain).text())
        except KeyError as exc:
            fail(str(exc.args[0]) if exc.args else str(exc))
        return

    if fmt == "table":
        console = Console(file=output.open("w", encoding="utf-8") if output else None)
        for one in reports:
            render_table(one.standings, console, one.title)
        return
    if fmt == "xlsx":
        target = output or Path(f"{_safe_name(report.title)}_成绩.xlsx")
        target.write_bytes(to_xlsx(st))
        typer.echo(tr(f"已写入 {target}", f"written {target}"))
        return
    if fmt == "h9":
        from yisai.formats.h9 import write_h9  # the h9 writer loads only for an h9 export

        blob = write_h9(report.source, st)
        if output:
            output.write_bytes(blob)
        else:
            sys.stdout.buffer.write(blob)
        return
    body = to_csv(st) if fmt == "csv" else to_json(st) + "\n"
    if output:
        output.write_text(body, encoding="utf-8-sig" if fmt == "csv" else "utf-8")
    else:
        sys.stdout.write(body)


def register(app: typer.Typer) -> None:
    """Attach this module's commands to the root app."""
    app.command("standings")(standings_cmd)

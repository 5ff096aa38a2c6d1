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

from yisai.cli.session import settings
from yisai.formats.h9 import write_h9
from yisai.formats.standings_export import fixed_headers, place_text, text, to_csv, to_json, to_xlsx
from yisai.i18n import tr
from yisai.services.standings_source import SourceError, load_source
from yisai.standings import Standings, StandingsInput, compute_standings, resolve_list

FORMATS = ("table", "csv", "json", "xlsx", "h9")


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(2)


def _subset(inp: StandingsInput, division: str | None, filters: list[str]) -> list[str] | None:
    wanted: dict[str, str] = {}
    if division is not None:
        wanted["division"] = division
    for f in filters:
        if "=" not in f:
            raise _fail(
                tr(
                    f"--filter {f!r} 应写成 键=值 (如 gender=女)",
                    f"--filter {f!r} must be KEY=VALUE",
                )
            )
        k, v = f.split("=", 1)
        wanted[k.strip()] = v.strip()
    if not wanted:
        return None
    ids = list(inp.select(**wanted))
    if not ids:
        keys = sorted({k for p in inp.players for k in p.tags})
        raise _fail(
            tr(
                f"没有选手符合 {wanted} (可用的分组键: {', '.join(keys) or '无'})",
                f"no player matches {wanted} (tags available: {', '.join(keys) or 'none'})",
            )
        )
    return ids


def render_table(st: Standings, console: Console) -> None:
    title = st.title + "  " if st.title else ""
    table = Table(title=title + tr(f"第{st.round}轮后成绩", f"standings after round {st.round}"))
    for h in fixed_headers():
        table.add_column(h)
    for k in st.shown_keys:
        table.add_column(k.title, justify="right")
    for row in st.rows:
        p = row.player
        cells = [place_text(row), p.name, p.club, str(p.rank) if p.rank is not None else ""]
        cells += [text(row.values.get(k.key)) for k in st.shown_keys]
        table.add_row(*cells)
    console.print(table)


def standings_cmd(
    source: str = typer.Argument(..., help="OpenGotha .xml 文件、EGD .h9 文件或赛事"),
    division: str | None = typer.Option(None, "--division", help="只排某组别 (division)"),
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
    filters: list[str] = typer.Option([], "--filter", help="按标签筛选 KEY=VALUE, 可重复"),
    lot_seed: int | None = typer.Option(
        None, "--lot-seed", help="抽签的随机种子 (指标含 lot 时; 赛事默认用其保存的种子, 文件默认 0)"
    ),
    db: str | None = typer.Option(None, "--db", help="SOURCE 为赛事时的数据库文件或地址 (也可用 YISAI_DB)"),
) -> None:
    """成绩表: 按规程的名次指标排名, 或按 OpenGotha 的指标复算 (从对局计算, 不读文件中的分数)."""
    if fmt not in FORMATS:
        raise _fail(tr(f"未知格式 {fmt!r} (允许: {', '.join(FORMATS)})", f"unknown format {fmt!r}"))
    try:
        inp = load_source(source, settings(db))
    except SourceError as exc:
        raise _fail(str(exc)) from None
    if lot_seed is None:
        lot_seed = int(inp.meta.get("seed", 0))
    for w in inp.warnings:
        typer.echo(tr("提示: ", "note: ") + w, err=True)
    try:
        refs = resolve_list(criteria) if criteria else None
        subset = _subset(inp, division, filters)
        st = compute_standings(inp, round_, refs, subset, lot_seed=lot_seed)
    except ValueError as exc:
        raise _fail(str(exc)) from None

    if explain is not None:
        try:
            typer.echo(st.explain(explain).text())
        except KeyError as exc:
            raise _fail(str(exc.args[0]) if exc.args else str(exc)) from None
        return

    if fmt == "table":
        console = Console(file=output.open("w", encoding="utf-8") if output else None)
        render_table(st, console)
        return
    if fmt == "xlsx":
        data = to_xlsx(st)
        target = output or Path(f"{Path(source).stem}_standings.xlsx")
        target.write_bytes(data)
        typer.echo(tr(f"已写入 {target}", f"written {target}"))
        return
    if fmt == "h9":
        blob = write_h9(inp, st)
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

"""`yisai opengotha pair FILE.xml --round N [-o OUT.xml] [--explain]`.

Pairs one round of an OpenGotha tournament file with OpenGotha's own rules and the file's
pairing parameters, prints 台次 黑方 白方 (and the bye), and writes the file back with the new
round so that OpenGotha opens it. Bad files exit 2 with a message naming file, line, element
and attribute; a round that cannot be paired as asked exits 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from yisai.cli.hints import cli_message
from yisai.cli.session import fail, say
from yisai.i18n import tr


def register(app: typer.Typer) -> None:
    og = typer.Typer(help=tr("OpenGotha 文件: 按 OpenGotha 规则编排", "OpenGotha files: pair by OpenGotha's rules"),
                     no_args_is_help=True)
    app.add_typer(og, name="opengotha")

    @og.command("pair", help=tr("按 OpenGotha 的规则与文件中的编排参数编排一轮 (瑞士制或麦克马洪制).",
                                "Pair a round by OpenGotha's rules and the file's pairing parameters "
                                "(Swiss or McMahon)."))
    def pair_cmd(
        file: Annotated[Path, typer.Argument(help=tr("OpenGotha 比赛文件 (.xml)", "OpenGotha tournament file (.xml)"))],
        round_: Annotated[int, typer.Option("--round", "-r", help=tr("要编排的轮次 (从1起)", "round to pair (from 1)"))],
        output: Annotated[Path | None, typer.Option("--output", "-o",
                                                    help=tr("写出含新一轮对局的 OpenGotha 文件 (.xml)", "write the OpenGotha file with the new round (.xml)"))] = None,
        bye: Annotated[str | None, typer.Option("--bye", help=tr("指定轮空选手 (选手键, 如 NAMEFIRSTNAME)", "the bye player (player key, e.g. NAMEFIRSTNAME)"))] = None,
        replace: Annotated[bool, typer.Option("--replace", help=tr("该轮已有对局时重新编排", "pair again a round that has games"))] = False,
        rules: Annotated[str, typer.Option("--rules", help=tr("OpenGotha 代价规则: 3.51 (默认, 3.51.02 源码) 或 3.52 (3.52 的代价文件所示)", "OpenGotha's cost rules: 3.51 (default, the 3.51.02 source) or 3.52 (as 3.52's weights files show)"))] = "3.51",
        explain: Annotated[bool, typer.Option("--explain", help=tr("列出编排参数与每台 OpenGotha 代价的各项", "list the parameters and each table's OpenGotha cost components"))] = False,
    ) -> None:
        """按 OpenGotha 的规则与文件中的编排参数编排一轮 (瑞士制或麦克马洪制)."""
        from yisai.cli.render import check_target, write_file
        from yisai.services.errors import ServiceError
        from yisai.services.opengotha_pairing import pair_opengotha_file

        if output is not None:
            check_target(output, ".xml")
        try:
            report = pair_opengotha_file(file, round_, bye=bye, replace=replace, rules=rules)
        except ServiceError as exc:
            fail(cli_message(exc), exc.render_details(), exc.exit_code)
        _print(report, explain)
        if output is not None:
            write_file(output, report.file_bytes, ".xml")


def _print(report: object, explain: bool) -> None:
    from rich.table import Table

    from yisai.cli.session import console
    from yisai.pairing.opengotha import COMPONENTS
    from yisai.services.opengotha_pairing import OGPairingReport

    assert isinstance(report, OGPairingReport)
    pairing, names = report.pairing, report.names
    kind = tr("麦克马洪制", "McMahon") if report.tournament.is_mcmahon else tr("瑞士制", "Swiss")
    say(tr(f"{report.source}: 第{pairing.round}轮 ({kind}, OpenGotha 规则)",
           f"{report.source}: round {pairing.round} ({kind}, OpenGotha rules)"), "bold")
    for w in report.warnings:
        say("  " + w.render(), "yellow")
    table = Table(show_lines=False, expand=False)
    for h in (tr("台次", "Table"), tr("黑方", "Black"), tr("白方", "White"), tr("让子", "Handicap")):
        table.add_column(h, overflow="fold")
    labels = {
        "duplicate": tr("不重复", "no rematch"), "random": tr("随机", "random"),
        "colour": tr("黑白", "colour"), "category": tr("组别", "category"),
        "score": tr("分差", "score"), "dudd": tr("升降", "draw-up/down"),
        "seeding": tr("组内位置", "seeding"), "handicap": tr("让子", "handicap"),
        "geo": tr("地区", "geography"),
    }
    for b in pairing.boards:
        table.add_row(str(b.table), names[b.black], names[b.white],
                      str(b.handicap) if b.handicap else "")
    console.print(table)
    if pairing.bye is not None:
        say(tr(f"轮空: {names[pairing.bye]}", f"bye: {names[pairing.bye]}"))
    if explain:
        from yisai.formats.opengotha_pairing import parameter_rows

        say(tr("编排参数 (取自文件, 缺省者为 OpenGotha 的默认值):",
               "pairing parameters (from the file; OpenGotha's defaults where missing):"), "bold")
        say("  " + ", ".join(f"{k}={v}" for k, v in parameter_rows(report.tournament)))
        say(tr("各台代价 (OpenGotha 的各项, 为0者略去):",
               "cost of each table (OpenGotha's components, zeros left out):"), "bold")
        for b in pairing.boards:
            parts = [f"{labels[c]} {getattr(b.cost, c)}" for c in COMPONENTS if getattr(b.cost, c)]
            say(tr(f"  第{b.table}台: ", f"  table {b.table}: ") + " · ".join(parts)
                + tr(f" (合计 {b.cost.total})", f" (total {b.cost.total})"))
        say(tr(f"代价合计 (OpenGotha 求最大): {pairing.total}",
               f"total weight (OpenGotha maximises it): {pairing.total}"), "dim")

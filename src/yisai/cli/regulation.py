"""`yisai regulation check|show FILE`.

Help and messages are worded when the commands are registered (after ``--lang`` is read), so
``yisai --lang en regulation …`` is English throughout; the regulation's own content (names of
divisions, prizes, notes written in the TOML) is printed as written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from yisai.formats.regulation_summary import summarize
from yisai.i18n import tr
from yisai.regulation import Regulation, RegulationError, load


def _report(exc: RegulationError) -> None:
    for issue in exc.issues:
        typer.echo(str(issue), err=True)


def _load_or_exit(path: Path) -> Regulation:
    try:
        return load(path)
    except RegulationError as exc:
        _report(exc)
        typer.echo(tr(f"共 {len(exc.issues)} 个错误", f"{len(exc.issues)} error(s)"), err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    regulation_app = typer.Typer(
        help=tr("规程文件: 检查与摘要 (regulation files)", "regulation files: check and summary"),
        no_args_is_help=True,
    )
    app.add_typer(regulation_app, name="regulation")
    file_help = tr("规程 TOML 文件", "regulation TOML file")

    @regulation_app.command(
        "check",
        help=tr("检查规程文件; 有错误时逐条列出 FILE:LINE: 字段: 问题 (允许值), 退出码 2.",
                "Check regulation files; list each problem as FILE:LINE: field: problem (allowed), exit code 2."),
    )
    def check_cmd(files: list[Path] = typer.Argument(..., help=file_help)) -> None:
        failed = False
        for f in files:
            try:
                reg = load(f)
            except RegulationError as exc:
                failed = True
                _report(exc)
                continue
            typer.echo(tr(f"{f}: 通过 — {reg.name}", f"{f}: ok — {reg.name}"))
        if failed:
            raise typer.Exit(2)

    @regulation_app.command(
        "show",
        help=tr("打印规程摘要, 可与规程原文逐条核对.",
                "Print a summary of the regulation, to check line by line against its text."),
    )
    def show_cmd(
        file: Path = typer.Argument(..., help=file_help),
        fmt: str = typer.Option("text", "--format", help=tr("text (文字摘要) 或 json (规范化模型)",
                                                            "text (summary) or json (normalised model)")),
    ) -> None:
        reg = _load_or_exit(file)
        if fmt == "json":
            sys.stdout.write(json.dumps(reg.model_dump(mode="json", by_alias=True), ensure_ascii=False, indent=2))
            sys.stdout.write("\n")
        elif fmt == "text":
            typer.echo("\n".join(summarize(reg)))
        else:
            typer.echo(tr(f"未知格式: {fmt} (允许: text, json)", f"unknown format: {fmt} (allowed: text, json)"),
                       err=True)
            raise typer.Exit(2)

"""`yisai regulation check|show FILE`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from yisai.formats.regulation_summary import summarize
from yisai.i18n import tr
from yisai.regulation import Regulation, RegulationError, load

regulation_app = typer.Typer(help="规程文件: 检查与摘要 (regulation files)", no_args_is_help=True)


def _load_or_exit(path: Path) -> Regulation:
    try:
        return load(path)
    except RegulationError as exc:
        for issue in exc.issues:
            typer.echo(str(issue), err=True)
        typer.echo(
            tr(f"共 {len(exc.issues)} 个错误", f"{len(exc.issues)} error(s)"), err=True
        )
        raise typer.Exit(2) from None


@regulation_app.command("check")
def check_cmd(files: list[Path] = typer.Argument(..., help="规程 TOML 文件")) -> None:
    """检查规程文件; 有错误时逐条列出 FILE:LINE: 字段: 问题 (允许值), 退出码 2."""
    failed = False
    for f in files:
        try:
            reg = load(f)
        except RegulationError as exc:
            failed = True
            for issue in exc.issues:
                typer.echo(str(issue), err=True)
            continue
        typer.echo(tr(f"{f}: 通过 — {reg.name}", f"{f}: ok — {reg.name}"))
    if failed:
        raise typer.Exit(2)


@regulation_app.command("show")
def show_cmd(
    file: Path = typer.Argument(..., help="规程 TOML 文件"),
    fmt: str = typer.Option("text", "--format", help="text (中文摘要) 或 json (规范化模型)"),
) -> None:
    """打印规程摘要, 可与规程原文逐条核对."""
    reg = _load_or_exit(file)
    if fmt == "json":
        sys.stdout.write(json.dumps(reg.model_dump(mode="json", by_alias=True), ensure_ascii=False, indent=2))
        sys.stdout.write("\n")
    elif fmt == "text":
        typer.echo("\n".join(summarize(reg)))
    else:
        typer.echo(tr(f"未知格式: {fmt} (允许: text, json)", f"unknown format: {fmt} (text, json)"), err=True)
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.add_typer(regulation_app, name="regulation")

"""`yisai regulation check|show FILE` and `yisai regulation draft 规程FILE`.

Help and messages are worded when the commands are registered (after ``--lang`` is read), so
``yisai --lang en regulation …`` is English throughout; the regulation's own content (names of
divisions, prizes, notes written in the TOML) is printed as written.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import typer

from yisai.formats.regulation_file import load
from yisai.formats.regulation_summary import summarize
from yisai.i18n import tr
from yisai.regulation import Regulation, RegulationError

_ID = re.compile(r"^[a-z0-9_\-]+$")


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
        help=tr("规程文件: 检查、摘要与从规程文本起草 (regulation files)",
                "regulation files: check, summary and drafting from the 规程 text"),
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
            asked = [p for p in reg.open_points if p.question]
            if asked:
                # a drafted file checks (defaults stand in), but the organiser has not answered yet
                fields = "、".join(p.field or p.topic for p in asked)
                typer.echo(tr(f"  仍有 {len(asked)} 项待确认 ([[open_points]] 中的问题, 暂用默认值): {fields}; "
                              "回答后删去该条目, 或在工作台的规程草稿页逐项填写",
                              f"  {len(asked)} open points still await an answer (questions in [[open_points]], "
                              f"defaults used meanwhile): {fields}; answer and remove each, or fill them in on "
                              "the console's draft page"))
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

    @regulation_app.command(
        "draft",
        help=tr("从规程文本 (.txt / .docx / 文字版 .pdf) 起草规程文件: 每个值注明所依据的条款, "
                "规程未写明的值写默认并列入 [[open_points]].",
                "Draft a regulation file from a 规程 text (.txt / .docx / PDF with text): each value cites its "
                "clause; values the text leaves open are marked defaults listed in [[open_points]]."),
    )
    def draft_cmd(
        file: Path = typer.Argument(..., help=tr("规程文本文件", "the 规程 text file")),
        output: Path | None = typer.Option(None, "-o", "--output",
                                           help=tr("写入此文件 (默认打印)", "write to this file (default: print)")),
        report: bool = typer.Option(False, "--report", help=tr("打印覆盖情况", "print the coverage figures")),
        event_id: str | None = typer.Option(None, "--id", help=tr("比赛短标识, 如 2025-shanhai-cup",
                                                                   "the event's short id, e.g. 2025-shanhai-cup")),
    ) -> None:
        from yisai.formats.regulation_draft import coverage, to_toml
        from yisai.formats.regulation_source import SourceError, read_path
        from yisai.regulation import loads
        from yisai.regulation.draft import draft

        if event_id is not None and not _ID.fullmatch(event_id):
            typer.echo(tr(f"--id 只能用小写字母、数字、- 和 _: {event_id}",
                          f"--id takes lower-case letters, digits, - and _: {event_id}"), err=True)
            raise typer.Exit(2)
        try:
            text = read_path(file)
        except SourceError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from None
        result = draft(text, event_id)
        toml = to_toml(result, file.name)
        if output is not None:
            try:
                output.write_text(toml, encoding="utf-8")
            except OSError as exc:
                typer.echo(tr(f"{output}: 无法写入: {exc.strerror or exc}",
                              f"{output}: cannot write: {exc.strerror or exc}"), err=True)
                raise typer.Exit(2) from None
            typer.echo(tr(f"已写入 {output}", f"written to {output}"), err=True)
        elif not report:
            sys.stdout.write(toml)
        problems: list[str] = []
        try:
            loads(toml, str(output or "draft.toml"))
        except RegulationError as exc:
            problems = [str(i) for i in exc.issues]
        if report:
            c = coverage(result)
            typer.echo(tr(
                f"句子: 共 {c['sentences']} 句, 已用 {c['sentences_used']}, 未用 {c['sentences_unused']}\n"
                f"字段: 起草 {c['fields_drafted']}, 默认 {c['fields_defaulted']}, 缺少 {c['fields_missing']}; "
                f"待确认 {c['open_points']} 项",
                f"sentences: {c['sentences']} in all, {c['sentences_used']} used, {c['sentences_unused']} not used\n"
                f"fields: {c['fields_drafted']} drafted, {c['fields_defaulted']} defaulted, "
                f"{c['fields_missing']} missing; {c['open_points']} open points"))
            for s in result.sentences:
                if s.index not in result.used:
                    typer.echo(tr(f"  未用: {s.quote}", f"  not used: {s.quote}"))
        if problems:
            for p in problems:
                typer.echo(p, err=True)
            typer.echo(tr(f"草稿还有 {len(problems)} 处须补充或修改 (见上), 改好后运行 yisai regulation check",
                          f"the draft needs {len(problems)} value(s) filled in or fixed (above); then run "
                          "yisai regulation check"), err=True)
            raise typer.Exit(1)

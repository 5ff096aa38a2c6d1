"""`yisai print KIND [EVENT]`: printed sheets as PDF (对阵表, 台签, 记分单, 成绩表, 团体成绩,
获奖名单, 段位申报名单, 获奖证书, 参赛名单, 秩序册), through ``yisai.services.printing``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from yisai.cli.render import write_file
from yisai.cli.session import DbOption, command_work

KIND_HELP = (
    "pairings 对阵表 | cards 台签 | slips 记分单 | standings 成绩表 | teams 团体成绩 | "
    "prizes 获奖名单 | rank-awards 段位申报名单 | certificates 获奖证书 | entries 参赛名单 | "
    "booklet 秩序册 | brackets 循环赛交叉表与淘汰赛对阵"
)


def print_cmd(
    kind: Annotated[str, typer.Argument(help=KIND_HELP)],
    event: Annotated[str | None, typer.Argument(help="比赛编号或名称 (库中只有一个比赛时可省略)")] = None,
    division: Annotated[str | None, typer.Option("--division", "-d", help="只打印该组别 (默认: 全部组别)")] = None,
    round_no: Annotated[int | None, typer.Option("--round", "-r", help="轮次 (默认: 最近编排的一轮; 成绩表默认最后一轮)")] = None,
    stage: Annotated[str | None, typer.Option("--stage", help="阶段 id (默认: 该组别的积分编排阶段)")] = None,
    background: Annotated[Path | None, typer.Option("--background", help="获奖证书的背景图片 (.png/.jpg/.svg)")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="PDF 文件 (默认: 种类名.pdf)")] = None,
    png: Annotated[Path | None, typer.Option("--png", help="另存第一页为 PNG 缩略图 (只给 --png 时不写 PDF)")] = None,
    png_width: Annotated[int, typer.Option("--png-width", min=100, max=4000, help="缩略图宽度 (像素)")] = 600,
    db: DbOption = None,
) -> None:
    """打印: 生成 A4 PDF (页脚有比赛名称、打印时间和页码).

    KIND: pairings 对阵表 | cards 台签 | slips 记分单 | standings 成绩表 | teams 团体成绩 |
    prizes 获奖名单 | rank-awards 段位申报名单 | certificates 获奖证书 | entries 参赛名单 |
    booklet 秩序册 | brackets 循环赛交叉表与淘汰赛对阵 (英文或中文名均可).
    """
    from yisai.services.events import regulation_of, resolve_event
    from yisai.services.printing import PrintOptions, file_name, kind_of, print_pdf, print_png

    opts = PrintOptions(division=division, round=round_no, stage=stage, background=background)
    with command_work(db) as work:
        key = kind_of(kind)
        pdf = print_pdf(work, event, key, opts) if output is not None or png is None else None
        pages = print_png(work, event, key, opts, width_px=png_width) if png is not None else None
        default = file_name(key, opts, regulation_of(resolve_event(work, event)))
    if pdf is not None:
        _write(output or Path(default), pdf, ".pdf")
    if pages is not None and png is not None:
        _write(png, pages[0], ".png")


def _write(path: Path, data: bytes, suffix: str) -> None:
    write_file(path, data, suffix)


def register(app: typer.Typer) -> None:
    app.command("print")(print_cmd)

"""`yisai sgf check FILE…` and `yisai sgf score FILE [--dead COORDS]`.

``check`` replays every record under its own rules (RU[]; Chinese and unknown rules use
positional superko) and prints ``FILE: 合规`` or ``FILE: 第N手 (B q16): 不合法: 全局同形 (禁止)`` (English with --lang en); the
exit code is 2 if any file is malformed, else 1 if any has an illegal move, else 0.
"""

from __future__ import annotations

from pathlib import Path

import typer

from yisai.game.board import PASS, Board
from yisai.game.deadstones import propose_dead
from yisai.game.scoring import area_count, format_number
from yisai.game.sgf import (
    MAX_KOMI,
    MAX_SGF_BYTES,
    IllegalRecord,
    SgfError,
    SgfRecord,
    read_sgf,
    replay,
)
from yisai.i18n import os_error_text, tr
from yisai.regulation.rules import PlayRules

sgf_app = typer.Typer(help="SGF 棋谱: 检查与数子 (game records)", no_args_is_help=True)

_RULE_CHOICES = ("auto", "positional", "simple_ko")


def _rules_for(record: SgfRecord, superko: str) -> PlayRules:
    rules = record.play_rules()
    if superko != "auto":
        rules = rules.model_copy(update={"superko": superko})
    return rules


def _read(path: Path) -> SgfRecord:
    try:
        size = path.stat().st_size
        if size > MAX_SGF_BYTES:  # never load a huge file only to refuse it
            raise SgfError(
                tr(
                    f"文件有 {size} 字节, 超过上限 {MAX_SGF_BYTES} 字节 (20 MB)",
                    f"the file has {size} bytes, over the limit of {MAX_SGF_BYTES} (20 MB)",
                )
            )
        data = path.read_bytes()
    except OSError as exc:
        raise SgfError(
            tr(f"无法读取文件: {os_error_text(exc).zh}", f"cannot read the file: {os_error_text(exc).en}")
        ) from None
    return read_sgf(data)


def _check_superko_option(superko: str) -> None:
    if superko not in _RULE_CHOICES:
        typer.echo(
            tr(
                f"--superko 只能是 {', '.join(_RULE_CHOICES)}, 而不是 {superko!r}",
                f"--superko must be one of {', '.join(_RULE_CHOICES)}, not {superko!r}",
            ),
            err=True,
        )
        raise typer.Exit(2)


@sgf_app.command("check")
def check_cmd(
    files: list[Path] = typer.Argument(..., help="SGF 棋谱文件"),
    superko: str = typer.Option(
        "auto",
        "--superko",
        help="auto (按 RU[] 判断), positional (全局同形禁止), simple_ko (仅禁止提劫)",
    ),
) -> None:
    """逐个复盘棋谱并检查每一手是否合法: 打印 ok 或 第几手、哪方、坐标与违规原因."""
    _check_superko_option(superko)
    malformed = illegal = False
    for f in files:
        try:
            record = _read(f)
            replay(record, _rules_for(record, superko))
        except IllegalRecord as exc:
            illegal = True
            typer.echo(f"{f}: {exc}")
        except SgfError as exc:
            malformed = True
            typer.echo(f"{f}: {tr('格式错误', 'malformed')}: {exc}", err=True)
        else:
            typer.echo(f"{f}: {tr('合规', 'ok')}")
    if malformed:
        raise typer.Exit(2)
    if illegal:
        raise typer.Exit(1)


def _parse_dead(board: Board, text: str) -> set[int]:
    dead: set[int] = set()
    for token in text.replace(",", " ").split():
        try:
            p = board.parse_gtp(token)
        except ValueError:
            p = PASS
        if p == PASS:
            raise SgfError(
                tr(
                    f"--dead 中的 {token!r} 不是棋盘坐标 (例如 q16)",
                    f"{token!r} in --dead is not a point (e.g. q16)",
                )
            )
        chain = board.chain(p)
        if not chain:
            raise SgfError(
                tr(f"--dead 中的 {token} 上没有棋子", f"there is no stone on {token} (--dead)")
            )
        dead.update(chain)
    return dead


@sgf_app.command("score")
def score_cmd(
    file: Path = typer.Argument(..., help="SGF 棋谱文件"),
    dead: str = typer.Option("", "--dead", help="死子坐标, 每个坐标标记整块棋 (如 'c5,d4')"),
    auto_dead: bool = typer.Option(False, "--auto-dead", help="使用自动死子提议 (保守)"),
    komi: float | None = typer.Option(None, "--komi", help="贴目 (默认取 KM[], 没有则按中国规则 7.5)"),
    superko: str = typer.Option("auto", "--superko", help="auto, positional, simple_ko"),
) -> None:
    """按中国规则数子: 打印双方子数、贴目与两种结果写法 (B+1.5 / 黑胜3/4子)."""
    _check_superko_option(superko)
    if komi is not None and not abs(komi) <= MAX_KOMI:  # also refuses nan
        typer.echo(
            tr(
                f"--komi {komi} 无效: 贴目须在 -{MAX_KOMI:g} 到 {MAX_KOMI:g} 之间",
                f"--komi {komi} is invalid: komi must lie between -{MAX_KOMI:g} and {MAX_KOMI:g}",
            ),
            err=True,
        )
        raise typer.Exit(2)
    try:
        record = _read(file)
        board = replay(record, _rules_for(record, superko))
        marked = _parse_dead(board, dead)
    except SgfError as exc:
        typer.echo(f"{file}: {exc}", err=True)
        raise typer.Exit(2 if not isinstance(exc, IllegalRecord) else 1) from None
    if auto_dead:
        marked |= propose_dead(board)
    km = komi if komi is not None else (record.komi if record.komi is not None else PlayRules().komi)
    count = area_count(board, km, marked)
    if marked:
        coords = " ".join(sorted(board.gtp(p) for p in marked))
        typer.echo(tr(f"死子: {coords}", f"dead stones: {coords}"))
    typer.echo(
        tr(
            f"黑: 子 {count.black_stones} + 空 {count.black_territory} = {count.black_area}; "
            f"白: 子 {count.white_stones} + 空 {count.white_territory} = {count.white_area}; "
            f"单官 {count.dame} (双方各半)",
            f"Black: {count.black_stones} stones + {count.black_territory} territory = "
            f"{count.black_area}; White: {count.white_stones} + {count.white_territory} = "
            f"{count.white_area}; dame {count.dame} (shared)",
        )
    )
    typer.echo(
        tr(
            f"贴目 {format_number(count.komi)} 目 = {format_number(count.komi / 2)} 子; "
            f"黑方需 {format_number(count.black_needs)} 子",
            f"komi {format_number(count.komi)} points = {format_number(count.komi / 2)} stones; "
            f"Black needs {format_number(count.black_needs)}",
        )
    )
    typer.echo(count.count_form)
    typer.echo(count.point_form)
    if record.result and record.result != count.point_form:
        typer.echo(
            tr(
                f"(棋谱记录的结果: RE[{record.result}])",
                f"(result in the record: RE[{record.result}])",
            )
        )


def register(app: typer.Typer) -> None:
    """Attach this module's commands to the root app."""
    app.add_typer(sgf_app, name="sgf")

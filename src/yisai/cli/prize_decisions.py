"""`yisai prize dock|judge|pool`: the chief referee's decisions on prizes (issue 41).

扣除部分奖金 for a winner who missed the 颁奖仪式, the winners of an award given by judgement
(最佳进步奖), and what is done when tied places pay more than the stated pool. Each is audited
with its note; `yisai prizes` shows the result (gross, docking, tax withheld, net).
"""

from __future__ import annotations

from typing import Annotated

import typer

from yisai.cli.session import DbOption, EventOption, command_work, say
from yisai.i18n import tr

prize_app = typer.Typer(help="奖金裁定: 扣除奖金、评定奖项、奖金总额超出 (chief referee's prize decisions)",
                        no_args_is_help=True)
NoteOption = Annotated[str, typer.Option("--note", help="裁判长的决定与理由 (必填, 记入审计)")]


@prize_app.command("dock")
def dock_cmd(
    prize_list: Annotated[str, typer.Argument(help="奖项 id (如 open-men)")],
    holder: Annotated[str, typer.Argument(help="获奖者: 棋手姓名或编号, 或队名")],
    note: NoteOption,
    yuan: Annotated[str | None, typer.Option("--yuan", help="扣除金额 (元); 规程规定由裁判长决定时必填; 0 为撤销")] = None,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """未参加颁奖仪式: 扣除部分奖金 (按规程 prizes.ceremony_absence)."""
    from yisai.services.prize_decisions import dock_prize
    from yisai.vocabulary.money import yuan_text

    with command_work(db) as work:
        d = dock_prize(work, event, prize_list, holder, yuan=yuan, note=note)
    if d.fen == 0:
        say(tr(f"已撤销 {holder} 在 {prize_list} 的扣除", f"docking of {holder} in {prize_list} withdrawn"))
    elif d.fen is None:
        say(tr(f"已记录: {holder} 未参加颁奖仪式, 按规程比例扣除", f"recorded: {holder} docked by the fixed share"))
    else:
        say(tr(f"已记录: {holder} 未参加颁奖仪式, 扣除{yuan_text(d.fen, cents=False)}元",
               f"recorded: {holder} docked {yuan_text(d.fen, cents=False)} yuan"))


@prize_app.command("judge")
def judge_cmd(
    award: Annotated[str, typer.Argument(help="奖项 id (规程 prizes.judged, 如 progress)")],
    player: Annotated[str, typer.Argument(help="棋手姓名或编号")],
    note: NoteOption,
    remove: Annotated[bool, typer.Option("--remove", help="撤销该评定")] = False,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """评定奖项 (最佳进步奖、体育道德风尚奖): 由裁判长指名, 不按名次."""
    from yisai.services.prize_decisions import name_judged_winner

    with command_work(db) as work:
        name_judged_winner(work, event, award, player, note=note, remove=remove)
    say(tr(f"已{'撤销' if remove else '评定'}: {award} {player}", f"{'removed' if remove else 'named'}: {award} {player}"))


@prize_app.command("pool")
def pool_cmd(note: NoteOption, event: EventOption = None, db: DbOption = None) -> None:
    """应发奖金超过规程写明的奖金总额时, 记录裁判长的决定 (如 超出部分由承办单位补足)."""
    from yisai.services.prize_decisions import decide_pool

    with command_work(db) as work:
        decide_pool(work, event, note)
    say(tr("已记录裁判长的决定", "decision recorded"))


def register(app: typer.Typer) -> None:
    app.add_typer(prize_app, name="prize")

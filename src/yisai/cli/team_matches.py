"""`yisai match lineup|show|standings`: 团体赛 — line-ups, a round's matches, the team table.

Pairing and result entry are the generic `yisai pair` and `yisai result` (a team round's boards
are numbered across its matches: match 1 has boards 1–3, match 2 boards 4–6 …).
"""

from __future__ import annotations

from typing import Annotated

import typer

from yisai.cli.render import print_text_table
from yisai.cli.session import DbOption, EventOption, command_work, console, say
from yisai.i18n import tr

match_app = typer.Typer(help="团体赛: 出场名单、对阵与台次成绩、团体名次 (team matches)", no_args_is_help=True)


@match_app.command("lineup")
def lineup_cmd(
    team: Annotated[str, typer.Argument(help="队名")],
    players: Annotated[list[str], typer.Argument(help="出场队员 (姓名或编号), 按台次从第1台起")],
    round_no: Annotated[int, typer.Option("--round", "-r", help="轮次")],
    stage: Annotated[str | None, typer.Option("--stage", help="阶段 id (默认: 团体赛阶段)")] = None,
    note: Annotated[str, typer.Option("--note", help="说明 (记入审计)")] = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """提交出场名单 (领队只能提交本队, 须在该轮编排前)."""
    from yisai.services.event_data import player_names
    from yisai.services.team_matches import submit_lineup

    with command_work(db) as work:
        saved = submit_lineup(work, event, team, round_no, players, stage_ref=stage, note=note)
        names = player_names(work, saved.players)
    shown = "、".join(f"{k}台 {names[p]}" for k, p in enumerate(saved.players, start=1))
    say(tr(f"已保存 {saved.team.name} 第{round_no}轮出场名单: {shown}",
           f"saved {saved.team.name}'s line-up for round {round_no}: {shown}"))


@match_app.command("show")
def show_cmd(
    round_no: Annotated[int, typer.Option("--round", "-r", help="轮次")],
    division: Annotated[str | None, typer.Option("--division", "-d", help="组别")] = None,
    stage: Annotated[str | None, typer.Option("--stage", help="阶段 id")] = None,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """一轮的各场对阵: 每台黑白方、台次成绩、局分与场分."""
    from rich.table import Table

    from yisai.services.team_matches import board_result_word, team_round_view

    with command_work(db) as work:
        view = team_round_view(work, event, round_no, division=division, stage_ref=stage)
    pn = view.player_names
    for m in view.matches:
        if m.team_b is None:
            say(tr(f"第{m.number}场 {m.name_a} 轮空 (记胜一场)", f"match {m.number}: {m.name_a} has the bye"))
            continue
        score = (f"{m.points_a:g}:{m.points_b:g}" + tr(f"  场分 {m.match_a}:{m.match_b}",
                                                        f"  match points {m.match_a}:{m.match_b}")
                 if m.finished else tr("未赛完", "in progress"))
        t = Table(title=tr(f"第{view.round}轮 第{m.number}场  {m.name_a} — {m.name_b}  {score}",
                           f"round {view.round} match {m.number}  {m.name_a} — {m.name_b}  {score}"),
                  title_style="bold")
        for h in (tr("台次", "board"), m.name_a, tr("颜色", "colour"), m.name_b, tr("局分", "points"),
                  tr("录入台号", "table")):
            t.add_column(h)
        for b in m.boards:
            table = view.tables.get((m.number, b.board))
            game = view.games.get(table) if table else None
            colour = tr("黑", "B") if view.a_black.get((m.number, b.board)) else tr("白", "W")
            t.add_row(str(b.board), pn.get(b.player_a or "", "—"), colour, pn.get(b.player_b or "", "—"),
                      board_result_word(b, game), str(table or ""))
        console.print(t)


@match_app.command("standings")
def standings_cmd(event: EventOption = None, db: DbOption = None) -> None:
    """团体名次: 场分、局分与规程的团体名次指标, 以及台次奖."""
    from yisai.services import reports

    with command_work(db) as work:
        view = reports.prizes(work, event)
    say(view.results.regulation.name, "bold")
    for t in view.team_tables:
        print_text_table(t)
    names = {p.name for p, _ in view.results.board_prizes()}
    for t in view.prize_tables:
        if t.title in names:
            print_text_table(t)


def register(app: typer.Typer) -> None:
    app.add_typer(match_app, name="match")

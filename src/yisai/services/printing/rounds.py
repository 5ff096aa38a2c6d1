"""Round sheets: 对阵表, 台签, 记分单."""

from __future__ import annotations

from collections.abc import Iterable

from yisai.formats.printing import (
    Column,
    Document,
    ScoreSlip,
    Section,
    Table,
    TableCard,
)
from yisai.i18n import Text, tr
from yisai.record.parse import result_word
from yisai.regulation.divisions import stones_to_win
from yisai.regulation.stages import Stage
from yisai.services.context import InputError
from yisai.services.event_data import (
    PLACEMENT_GROUP,
    approved_players,
)
from yisai.services.events import playing_stage
from yisai.services.printing.context import PrintContext, group_text
from yisai.services.rounds import RoundView, round_view
from yisai.store import round_rows

# ------------------------------------------------------------------ rounds: 对阵表 台签 记分单


def stage_of(ctx: PrintContext, did: str) -> Stage | None:
    """The division's paired stage; when printing every division, one without any (an online
    ladder only) is left out instead of stopping the whole document."""
    try:
        return playing_stage(ctx.reg, did, ctx.opts.stage)
    except InputError:
        if ctx.opts.division is not None:
            raise
        return None


def _round_views(ctx: PrintContext) -> list[RoundView]:
    """The chosen round (default: the latest paired) of each division that has one."""
    views = []
    for did in ctx.divisions():
        if not approved_players(ctx.work, ctx.event, did):
            continue
        stage = stage_of(ctx, did)
        if stage is None:
            continue
        numbers = {r.number for r in round_rows.list_rounds(ctx.work.session, ctx.event.id, did, stage=stage.id)}
        if not numbers:
            continue
        n = ctx.opts.round if ctx.opts.round is not None else max(numbers)
        if n not in numbers:
            if ctx.opts.division is not None:
                done = "、".join(map(str, sorted(numbers)))
                raise InputError(Text(f"{ctx.division_name(did)}第{n}轮尚未编排 (已编排: {done})",
                                      f"{did}: round {n} is not paired yet (paired: {done})"),
                                 code="round_not_paired", params={"division": did, "round": n})
            continue
        views.append(round_view(ctx.work, str(ctx.event.id), did, n, stage.id))
    if not views:
        which = ctx.division_name(ctx.divisions()[0]) if ctx.opts.division else "各组别"
        what = f"第{ctx.opts.round}轮" if ctx.opts.round else "已编排的轮次"
        raise InputError(Text(f"{which}还没有{what}, 没有可打印的对阵",
                              "no paired round to print" + (f" (round {ctx.opts.round})" if ctx.opts.round else "")),
                         code="nothing_to_print")
    return views


def _caption(ctx: PrintContext, view: RoundView, group: str) -> str:
    return f"{ctx.division_name(view.division)}{group_text(group)} " + tr(f"第{view.round}轮", f"round {view.round}")


def pairing_tables(ctx: PrintContext, view: RoundView) -> list[Table]:
    """One 对阵表 per group of a paired round (board, both players with unit and score); the
    same-place final's boards also say who meets whom for which places (A组第1名 — B组第1名
    (争第1–2名))."""
    tables = []
    for r in view.rounds:
        final = r.group == PLACEMENT_GROUP
        rows = []
        for g in sorted(r.games, key=lambda g: (g.is_bye, g.board)):
            black = view.names.get(g.black, g.black)
            result = result_word(g.result, g.played, g.reason, g.is_bye)
            head = (str(g.board), view.matchup(g.black, g.white)) if final else (str(g.board),)
            if g.is_bye:
                rows.append(("", *head[1:], black, ctx.unit(g.black), str(view.scores.get(g.black, 0)),
                             "", "", "", result))
                continue
            white = g.white or ""
            rows.append((*head, black, ctx.unit(g.black), str(view.scores.get(g.black, 0)),
                         view.names.get(white, white), ctx.unit(white),
                         str(view.scores.get(white, 0)), result))
        matchup = (Column(tr("同名次决赛", "Same-place final"), share=1.6),) if final else ()
        tables.append(Table(
            f"{_caption(ctx, view, r.group)} " + tr("对阵表", "pairings"),
            (Column(tr("台次", "Board"), "right"), *matchup, Column(tr("黑方", "Black"), share=1.2),
             Column(tr("单位", "Unit"), share=1), Column(tr("积分", "Score"), "right"),
             Column(tr("白方", "White"), share=1.2), Column(tr("单位", "Unit"), share=1),
             Column(tr("积分", "Score"), "right"), Column(tr("结果", "Result"), "center")),
            tuple(rows),
            (tr("积分为本轮前的积分。", "Scores are before this round."),),
        ))
    return tables


def pairings_document(ctx: PrintContext) -> Document:
    """对阵表 per division and group, printed landscape when a same-place final's extra column
    is on it."""
    views = _round_views(ctx)
    sections = [Section(tables=tuple(pairing_tables(ctx, view)), new_page=True) for view in views]
    landscape = any(r.group == PLACEMENT_GROUP for view in views for r in view.rounds)
    return ctx.document("report", "pairings", sections=tuple(sections), landscape=landscape)


def _boards(ctx: PrintContext) -> Iterable[tuple[RoundView, str, int, str, str]]:
    for view in _round_views(ctx):
        for r in view.rounds:
            for g in sorted(r.games, key=lambda g: g.board):
                if not g.is_bye and g.white:
                    yield view, r.group, g.board, g.black, g.white


def cards_document(ctx: PrintContext) -> Document:
    cards = tuple(
        TableCard(str(board), _caption(ctx, view, group), view.names.get(b, b), ctx.unit(b),
                  view.names.get(w, w), ctx.unit(w))
        for view, group, board, b, w in _boards(ctx)
    )
    return ctx.document("cards", "cards", cards=cards)


def slips_document(ctx: PrintContext) -> Document:
    slips = tuple(
        ScoreSlip(_caption(ctx, view, group) + _own_board(ctx, view.division), str(board), view.names.get(b, b),
                  ctx.unit(b), view.names.get(w, w), ctx.unit(w), _choices(ctx.reg.play_rules_for(view.division).komi))
        for view, group, board, b, w in _boards(ctx)
    )
    return ctx.document("slips", "slips", slips=slips)


def _choices(komi: float) -> tuple[str, ...]:
    """The result boxes of a slip: a draw only with an integer komi."""
    choices: tuple[str, ...] = (tr("黑胜", "Black wins"), tr("白胜", "White wins"))
    return (*choices, tr("和棋", "Draw")) if float(komi).is_integer() else choices


def _own_board(ctx: PrintContext, division: str) -> str:
    """`` 13路 贴7.5目 黑89子胜`` for a division with its own board or komi (乙组 13路), else ""."""
    d = ctx.reg.division(division)
    if d.board_size is None and d.komi is None:
        return ""
    r = d.play_rules(ctx.reg.rules)
    return tr(f" {r.board_size}路 贴{r.komi:g}目 黑{stones_to_win(r)}子胜",
              f" {r.board_size}×{r.board_size} komi {r.komi:g}: Black needs {stones_to_win(r)}")

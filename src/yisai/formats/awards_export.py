"""Prize lists and rank awards as an Excel workbook (one sheet per table, Chinese headers).

Text cells are written as strings (names, places such as "3=" for a shared place) and amounts
as numbers, so the organiser's spreadsheet can sum the payout.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

import xlsxwriter

from yisai.awards.prizes import PrizeReport
from yisai.awards.promotions import PromotionReport
from yisai.awards.rank_awards import RankAwardReport
from yisai.formats.awards_report import (
    TextTable,
    prize_tables,
    promotion_tables,
    rank_award_tables,
    team_table,
)
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.standings.teams import TeamTable

_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")

FEN = re.compile(r"-?\d+\.\d{2}")  # an amount in yuan with 分, as awards_report.yuan_cell writes it


def _width(text: str) -> int:
    """Display width: CJK characters count double."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _sheet_name(title: str, used: set[str]) -> str:
    base = _BAD_SHEET_CHARS.sub("_", title).strip("'") or "Sheet"
    name, n = base[:31], 2
    while name in used:
        suffix = f"({n})"
        name = base[: 31 - len(suffix)] + suffix
        n += 1
    used.add(name)
    return name


def write_tables(tables: Sequence[TextTable], target: str | Path | BinaryIO) -> None:
    """Write each table to its own sheet: title row, header row, data, then notes."""
    wb = xlsxwriter.Workbook(str(target) if isinstance(target, Path) else target, {"in_memory": True})
    try:
        title_fmt = wb.add_format({"bold": True, "font_size": 13})
        head_fmt = wb.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1})
        cell_fmt = wb.add_format({"border": 1})
        money_fmt = wb.add_format({"border": 1, "num_format": "#,##0"})
        fen_fmt = wb.add_format({"border": 1, "num_format": "#,##0.00"})
        note_fmt = wb.add_format({"italic": True, "font_color": "#555555"})
        used: set[str] = set()
        for t in tables:
            ws = wb.add_worksheet(_sheet_name(t.title, used))
            ws.write_string(0, 0, t.title, title_fmt)
            widths = [_width(h) for h in t.headers]
            for c, h in enumerate(t.headers):
                ws.write_string(1, c, h, head_fmt)
            for r, row in enumerate(t.rows, start=2):
                for c, value in enumerate(row):
                    if isinstance(value, bool) or value is None:
                        ws.write_string(r, c, "" if value is None else str(value), cell_fmt)
                    elif isinstance(value, int | float):
                        ws.write_number(r, c, value, money_fmt if c in t.money_columns else cell_fmt)
                    elif c in t.money_columns and FEN.fullmatch(value):  # 1099.90: yuan and 分, summable
                        ws.write_number(r, c, int(value.replace(".", "")) / 100, fen_fmt)
                    else:
                        ws.write_string(r, c, value, cell_fmt)
                    if c < len(widths):
                        widths[c] = max(widths[c], _width(str(value if value is not None else "")))
            for i, note in enumerate(t.notes):
                ws.write_string(len(t.rows) + 3 + i, 0, note, note_fmt)
            for c, w in enumerate(widths):
                ws.set_column(c, c, min(max(w + 2, 6), 60))
            ws.freeze_panes(2, 0)
    finally:
        wb.close()


def write_prizes(
    report: PrizeReport,
    players: Mapping[str, Player],
    target: str | Path | BinaryIO,
    teams: Sequence[TeamTable] = (),
    members: Sequence[Team] = (),
) -> None:
    """录取名单与奖金: one sheet per list, the payout summary, and team standings if given;
    ``members``: the registered teams, so a team event's 单位 is the team (江苏队)."""
    tables = prize_tables(report, players, members)
    tables += [team_table(tt, players) for tt in teams]
    write_tables(tables, target)


def write_rank_awards(
    report: RankAwardReport,
    players: Mapping[str, Player],
    target: str | Path | BinaryIO,
    promotions: PromotionReport | None = None,
    teams: Sequence[Team] = (),
) -> None:
    """段位申报: the applicants sheet, then one sheet per division with every decision; then
    升段/定级 (the promoted list and one sheet per rule) when the regulation has any."""
    tables = rank_award_tables(report, players, teams)
    if promotions is not None:
        tables += promotion_tables(promotions, players)
    write_tables(tables, target)

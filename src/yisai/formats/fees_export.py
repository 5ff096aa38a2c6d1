"""The fee ledger as CSV and xlsx (应缴 / 已缴 / 已退 / 未缴 per entry, team and appeal, and totals).

Amounts are written as 元 text with two decimals (``260.00``) from the integer of 分, so the
spreadsheet shows exactly what the ledger holds; a float never carries money.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from yisai.formats import csv_safe
from yisai.i18n import tr
from yisai.registry.ledger import KIND_LABELS, Line, Totals
from yisai.vocabulary.money import yuan_text


def headers() -> list[str]:
    return [tr("类别", "kind"), tr("编号", "id"), tr("名称", "name"), tr("应缴(元)", "due (yuan)"),
            tr("已缴(元)", "paid (yuan)"), tr("已退(元)", "refunded (yuan)"), tr("未缴(元)", "owed (yuan)")]


def cells(line: Line) -> list[str]:
    return [KIND_LABELS[line.kind].render(), str(line.id), line.label, yuan_text(line.due), yuan_text(line.paid),
            yuan_text(line.refunded), yuan_text(line.balance)]


def total_cells(t: Totals) -> list[str]:
    return [tr("合计", "total"), "", "", yuan_text(t.due), yuan_text(t.paid), yuan_text(t.refunded),
            yuan_text(t.balance)]


def to_csv(lines: Sequence[Line], total: Totals) -> str:
    """UTF-8 CSV text (write it with a BOM, ``utf-8-sig``, so Excel shows the Chinese)."""
    buf = io.StringIO()
    w = csv_safe.writer(buf, lineterminator="\n")
    w.writerow(headers())
    for line in lines:
        w.writerow(cells(line))
    w.writerow(total_cells(total))
    return buf.getvalue()


def to_xlsx(title: str, lines: Sequence[Line], total: Totals) -> bytes:
    """One sheet, Chinese headers, every cell text (amounts as 元 with two decimals)."""
    import xlsxwriter

    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True})
    ws = wb.add_worksheet(tr("费用", "fees"))
    bold = wb.add_format({"bold": True})
    txt = wb.add_format({"num_format": "@"})
    ws.write_string(0, 0, f"{title}  " + tr("费用台账", "fee ledger"), bold)
    for c, h in enumerate(headers()):
        ws.write_string(1, c, h, bold)
    rows = [cells(line) for line in lines] + [total_cells(total)]
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row):
            ws.write_string(r, c, value, txt)
    ws.set_column(0, 1, 8)
    ws.set_column(2, 2, 28)
    ws.set_column(3, 6, 12)
    ws.freeze_panes(2, 3)
    wb.close()
    return buf.getvalue()

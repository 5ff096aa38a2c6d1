"""Column widths for the report tables, worked out here instead of by typst's ``auto`` columns.

typst measures every cell of an ``auto`` column before laying the table out; for a 2,000-row
standings list with 18 columns that pass is a quarter of the typesetting time. Here a cell's
width is estimated from its characters (CJK and full-width: 1 em; digits, Latin, punctuation:
0.6 em, a little wider than Noto Sans CJK's proportional Latin so a number never wraps), and
the template gets fractions of the line: every column at least its content, the spare width to
the columns that have a ``share`` (names, units, notes). When the content does not fit, headers
may wrap onto two lines, then the widest columns get one common width and their cells wrap.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.formats.printing.model import Table

A4_MM = (210.0, 297.0)
MARGIN_X_MM = 15.0  # each side (common.typ)
INSET_PT = 4.0  # each side of a cell (report.typ)
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True, slots=True)
class TableLayout:
    size: float  # font size in pt
    widths: tuple[float, ...]  # fractions of the line, one per column


def font_size(columns: int) -> float:
    return 9.0 if columns <= 10 else 8.0 if columns <= 14 else 7.0


def text_em(text: str) -> float:
    """Estimated width in em of one line of ``text``, with the quarter-em typst puts between
    CJK and Latin letters or digits (``10 级``)."""
    width, prev = 0.0, None
    for c in text:
        wide = ord(c) >= 0x2E80
        width += 1.0 if wide else 0.6
        if prev is not None and wide != prev and c.isalnum() and not c.isspace():
            width += 0.25
        prev = wide if c.isalnum() else None
    return width


def line_width_pt(landscape: bool) -> float:
    width = A4_MM[1] if landscape else A4_MM[0]
    return (width - 2 * MARGIN_X_MM) * PT_PER_MM


def table_layout(table: Table, landscape: bool) -> TableLayout:
    size = font_size(len(table.columns))
    pad = 2 * INSET_PT + 1.0
    content = [0.0] * len(table.columns)
    for row in table.rows:
        for i, cell in enumerate(row):
            w = text_em(cell)
            if w > content[i]:
                content[i] = w
    header = [text_em(c.title) for c in table.columns]
    avail = line_width_pt(landscape)
    need = [max(content[i], header[i]) * size + pad for i in range(len(content))]
    # Too wide: let headers wider than their column's cells wrap onto two lines, the longest
    # first, until the table fits (never narrower than two characters).
    for i in sorted(range(len(need)), key=lambda i: content[i] - header[i]):
        if sum(need) <= avail or header[i] <= content[i]:
            break
        need[i] = max(content[i], header[i] / 2, 2.0) * size + pad
    spare = avail - sum(need)
    if spare >= 0:
        shares = [c.share or 0.0 for c in table.columns]
        total = sum(shares)
        if total > 0:
            need = [n + spare * s / total for n, s in zip(need, shares, strict=True)]
    else:
        need = _capped(need, avail)
    return TableLayout(size, tuple(round(n, 2) for n in need))


def _capped(need: list[float], avail: float) -> list[float]:
    """Too wide: columns that fit in a fair share keep their width; the wider ones (long text)
    get one common width and wrap, so a short name is never squeezed by a long note."""
    remaining, left = avail, len(need)
    cap = max(need)
    for w in sorted(need):
        fair = remaining / left
        if w > fair:
            cap = fair
            break
        remaining -= w
        left -= 1
    return [min(n, cap) for n in need]

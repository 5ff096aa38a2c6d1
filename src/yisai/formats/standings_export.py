"""Standings as CSV, JSON and xlsx with Chinese headers (名次 姓名 单位 段位 积分 对手分 …).

Criterion columns are titled with the name the user typed (``--criteria NBW,SOSW`` gives
``NBW,SOSW``) or, for the regulation's own list, with the Chinese label. Values keep their
exact meaning: halves print as 12.5, 逐轮减去对手分 as its sequence "50/48/45".
"""

from __future__ import annotations

import io
import json
from fractions import Fraction

from yisai.formats import csv_safe
from yisai.i18n import tr
from yisai.standings.ranking import StandingRow, Standings


def fixed_headers() -> list[str]:
    return [tr("名次", "place"), tr("姓名", "name"), tr("单位", "club"), tr("段位", "rank")]


def plain(value: object) -> object:
    """A JSON-friendly value: ints stay ints, halves become floats, tuples lists."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def text(value: object) -> str:
    if isinstance(value, tuple):
        return "/".join(text(v) for v in value)
    if isinstance(value, Fraction):
        return str(int(value)) if value.denominator == 1 else f"{float(value):g}"
    if value is None:
        return ""
    return str(value)


def place_text(row: StandingRow) -> str:
    """``3``, ``3=`` (shared), or ``—`` for a player without a place (退赛/取消资格)."""
    if not row.place:
        return "—"
    return f"{row.place}=" if row.shared else str(row.place)


def _row_cells(st: Standings, row: StandingRow) -> list[str]:
    p = row.player
    cells = [place_text(row), p.marked_name, p.club, str(p.rank) if p.rank is not None else ""]
    cells += [text(row.values.get(k.key)) for k in st.shown_keys]
    return cells


def to_csv(st: Standings) -> str:
    """UTF-8 CSV text (write it with a BOM, ``utf-8-sig``, so Excel shows the Chinese)."""
    buf = io.StringIO()
    w = csv_safe.writer(buf, lineterminator="\n")
    w.writerow(fixed_headers() + [k.title for k in st.shown_keys])
    for row in st.listed:
        w.writerow(_row_cells(st, row))
    return buf.getvalue()


def to_json(st: Standings) -> str:
    data = {
        "title": st.title,
        "round": st.round,
        "mode": st.mode,
        "criteria": [{"key": k.key, "title": k.title, "label": k.label} for k in st.keys],
        "rows": [
            {
                "place": row.place,
                "shared": row.shared,
                "id": row.player.id,
                "name": row.player.name,
                "club": row.player.club,
                "rank": str(row.player.rank) if row.player.rank is not None else None,
                **({"status": row.player.status} if row.player.status else {}),
                "values": {k.key: plain(row.values.get(k.key)) for k in st.shown_keys},
            }
            for row in st.listed
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


def to_xlsx(st: Standings) -> bytes:
    """An xlsx workbook: one sheet, Chinese headers, names and clubs as text."""
    import xlsxwriter

    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True})
    ws = wb.add_worksheet(tr("成绩", "standings"))
    bold = wb.add_format({"bold": True, "align": "center"})
    txt = wb.add_format({"num_format": "@"})
    row0 = 0
    if st.title:
        ws.write(0, 0, f"{st.title}  " + tr(f"第{st.round}轮后", f"after round {st.round}"), bold)
        row0 = 1
    headers = fixed_headers() + [k.title for k in st.shown_keys]
    for c, h in enumerate(headers):
        ws.write(row0, c, h, bold)
    for r, row in enumerate(st.listed, start=row0 + 1):
        p = row.player
        if row.shared or not row.place:  # "3=" or "—" stays text; a plain place is a number to sort by
            ws.write_string(r, 0, place_text(row), txt)
        else:
            ws.write_number(r, 0, row.place)
        ws.write_string(r, 1, p.marked_name, txt)
        ws.write_string(r, 2, p.club, txt)
        ws.write_string(r, 3, str(p.rank) if p.rank is not None else "", txt)
        for c, k in enumerate(st.shown_keys, start=4):
            v = plain(row.values.get(k.key))
            if isinstance(v, (int, float)):
                ws.write_number(r, c, v)
            else:
                ws.write_string(r, c, text(row.values.get(k.key)))
    ws.set_column(0, 0, 6)
    ws.set_column(1, 2, 18)
    ws.set_column(3, len(headers), 10)
    ws.freeze_panes(row0 + 1, 2)
    wb.close()
    return buf.getvalue()

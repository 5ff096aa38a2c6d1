"""Reading tables people fill in: .xlsx, legacy .xls and CSV (UTF-8, UTF-8 with BOM, GB18030).

Shared by every import (roster, result sheets) so they all accept the same files and name a
cell the same way: sheet, 1-based row, column letter. Numbers Excel stored in text columns
(ID cards, board numbers) come back as text without a trailing ``.0``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

EXCEL_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")
CSV_SUFFIXES = (".csv", ".txt", ".tsv")
HEADER_SEARCH_ROWS = 10  # title rows above the header are common on printed sheets


@dataclass(frozen=True)
class Sheet:
    name: str
    cells: list[list[Any]]  # row 0 is the sheet's first row


def read_sheets(path: str | Path) -> list[Sheet]:
    """Every sheet of a workbook, or the one table of a CSV file, with absolute row positions.

    Raises ``ValueError`` (message in Chinese, saying what to do) for unsupported or damaged
    files and ``OSError`` when the file cannot be opened.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in CSV_SUFFIXES:
        return [Sheet(p.name, _read_csv(p))]
    if suffix in EXCEL_SUFFIXES:
        return _read_excel(p)
    raise ValueError(f"不支持的文件类型{suffix or '(无扩展名)'}: 请使用 .xlsx、.xls 或 .csv")


def _read_excel(path: Path) -> list[Sheet]:
    import python_calamine

    try:
        book = python_calamine.CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises several types for damaged files
        raise ValueError(f"无法读取Excel文件 {path.name}: {exc}; 请确认文件未损坏且不是加密文件") from None
    sheets = []
    for meta in book.sheets_metadata:
        if str(meta.typ) != str(python_calamine.SheetTypeEnum.WorkSheet):
            continue
        sheet = book.get_sheet_by_name(meta.name)
        sheets.append(Sheet(meta.name, sheet.to_python(skip_empty_area=False)))
    return sheets


def _read_csv(path: Path) -> list[list[Any]]:
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise ValueError(f"{path.name} 既不是UTF-8也不是GB18030编码, 请另存为UTF-8的CSV")
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",\t;")
    except csv.Error:
        dialect = csv.excel
    return [list(r) for r in csv.reader(io.StringIO(text), dialect)]


def cell_text(value: Any) -> str:
    """Cell → text; numbers Excel stored (ID, phone, board) come back without '.0'."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, datetime | date):
        return f"{value:%Y-%m-%d}"
    return str(value).strip()


def column_letter(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA: how spreadsheet users name a column."""
    out = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def find_header_row(sheet: Sheet, is_header: Callable[[list[Any]], bool]) -> int | None:
    """Index of the first of the top ``HEADER_SEARCH_ROWS`` rows that ``is_header`` accepts."""
    for i, row in enumerate(sheet.cells[:HEADER_SEARCH_ROWS]):
        if is_header(row):
            return i
    return None

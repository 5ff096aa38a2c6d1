"""What every table reader shares (the CSV reader in this process, the workbook reader in its
own): the error type, a sheet's cells, the cell-to-text rule and the row and column counts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from yisai.formats.limits import MAX_COLUMNS, MAX_ROWS
from yisai.i18n import tr


class SheetError(ValueError):
    """The file cannot be read as a table; the message (user's language) says where and why."""


@dataclass(frozen=True)
class Sheet:
    name: str
    cells: list[list[Any]]  # row 0 is the sheet's first row


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


class RowCounter:
    """Counts filled rows over a whole file and refuses the row past ``MAX_ROWS``."""

    def __init__(self) -> None:
        self.filled = 0

    def row(self, sheet: str | None, number: int, cells: list[Any]) -> None:
        """``sheet`` is None for a CSV file (one table, rows are lines)."""
        where = tr(f"第{number}行", f"line {number}") if sheet is None else tr(
            f"工作表\u201c{sheet}\u201d第{number}行", f"sheet \u201c{sheet}\u201d row {number}")
        if len(cells) > MAX_COLUMNS and any(cell_text(c) for c in cells[MAX_COLUMNS:]):
            raise SheetError(tr(
                f"{where}: 有 {len(cells)} 列, 超过上限 {MAX_COLUMNS} 列; 请删除多余的列",
                f"{where}: {len(cells)} columns, over the limit of {MAX_COLUMNS}; delete the extra columns",
            ))
        if any(cell_text(c) for c in cells):
            self.filled += 1
            if self.filled > MAX_ROWS:
                raise SheetError(tr(
                    f"{where}: 文件超过 {MAX_ROWS} 行 (含表头) 的上限, 未读取; 请把它分成几个文件分别导入",
                    f"{where}: the file has more than {MAX_ROWS} rows (header included), the limit;"
                    " nothing was read. Split it into several files",
                ))

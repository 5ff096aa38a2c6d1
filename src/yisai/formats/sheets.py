"""Reading tables people fill in: .xlsx, legacy .xls and CSV (UTF-8, UTF-8 with BOM, GB18030).

Shared by every import (roster, result sheets) so they all accept the same files and name a
cell the same way: sheet, 1-based row, column letter. Numbers Excel stored in text columns
(ID cards, board numbers) come back as text without a trailing ``.0``.

Limits (``yisai.formats.limits``, listed in docs/web.md), checked while reading so an oversized
file is refused at once (the biggest real event has a few thousand players; a 10,000-player
Swiss round is 5,000 boards):

- ``MAX_ROWS``: at most 10,000 filled rows in a file (all sheets, header and title rows
  included; blank rows do not count);
- ``MAX_COLUMNS``: at most 200 columns;
- ``MAX_FILE_BYTES``: at most 50 MB;
- a workbook is read in a process of its own within memory and time limits, after its cells'
  positions and declared sizes are checked (``workbook``, ``workbook_scan``);
- a CSV cell holds at most ``csv.field_size_limit()`` characters (131,072 by default; the limit is
  never raised: no name, number or result is that long).

A CSV must be well formed: a quote that is never closed, or text after a closing quote, is
refused with the line where it starts instead of being read as something else.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from yisai.formats.limits import MAX_COLUMNS, MAX_FILE_BYTES, MAX_ROWS
from yisai.formats.table import RowCounter, Sheet, SheetError, cell_text, column_letter
from yisai.formats.workbook import read_workbook
from yisai.i18n import tr

EXCEL_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")
CSV_SUFFIXES = (".csv", ".txt", ".tsv")
HEADER_SEARCH_ROWS = 10  # title rows above the header are common on printed sheets

__all__ = [
    "CSV_SUFFIXES", "EXCEL_SUFFIXES", "MAX_COLUMNS", "MAX_FILE_BYTES", "MAX_ROWS", "Sheet", "SheetError",
    "cell_text", "column_letter", "find_header_row", "read_sheets",
]  # fmt: skip


def read_sheets(path: str | Path) -> list[Sheet]:
    """Every sheet of a workbook, or the one table of a CSV file, with absolute row positions.

    Raises ``ValueError`` (message in Chinese, saying what to do) for unsupported or damaged
    files and ``OSError`` when the file cannot be opened.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in CSV_SUFFIXES + EXCEL_SUFFIXES:
        raise SheetError(tr(
            f"不支持的文件类型{suffix or '(无扩展名)'}: 请使用 .xlsx、.xls 或 .csv",
            f"unsupported file type {suffix or '(no extension)'}: use .xlsx, .xls or .csv",
        ))
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        raise SheetError(tr(
            f"文件有 {size // (1024 * 1024)} MB, 超过上限 {MAX_FILE_BYTES // (1024 * 1024)} MB;"
            f" 一个文件最多 {MAX_ROWS} 行, 请分成几个文件",
            f"the file is {size // (1024 * 1024)} MB, over the limit of {MAX_FILE_BYTES // (1024 * 1024)} MB;"
            f" a file holds at most {MAX_ROWS} rows, split it into several files",
        ))
    if suffix in CSV_SUFFIXES:
        return [Sheet(p.name, _read_csv(p))]
    return read_workbook(p)


def _read_csv(path: Path) -> list[list[Any]]:
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise SheetError(tr(
            "既不是UTF-8也不是GB18030编码, 请另存为UTF-8的CSV",
            "neither UTF-8 nor GB18030: save the file as a UTF-8 CSV",
        ))
    sample = text[:4096]
    # Only the separator is guessed: quoting is always Excel's ("…", a quote inside doubled), as
    # every spreadsheet writes it; the sniffer's guesses about quoting misread real files.
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",\t;").delimiter
    except csv.Error:
        delimiter = ","
    # Universal newlines: files saved with old Mac line ends (CR only) read like any other.
    reader = csv.reader(io.StringIO(text, newline=None), csv.excel, delimiter=delimiter, strict=True)
    counter = RowCounter()
    rows: list[list[Any]] = []
    while True:
        start = reader.line_num + 1  # the line this row starts on (a quoted cell may span lines)
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as exc:
            raise SheetError(_csv_problem(start, str(exc))) from None
        counter.row(None, start, row)
        rows.append(row)


def _csv_problem(line: int, error: str) -> str:
    if "field limit" in error:
        limit = csv.field_size_limit()
        return tr(
            f"第{line}行: 有一格超过 {limit} 个字符, 不是报名表或成绩表的内容; 请检查该行",
            f"line {line}: a cell is longer than {limit} characters, which no roster or"
            " result sheet holds; check that line",
        )
    if "unexpected end of data" in error:
        return tr(
            f"第{line}行: 引号没有闭合 (从这一行的某个双引号\"开始, 直到文件末尾都没有配对的引号);"
            " 请补上引号或删除多余的引号",
            f"line {line}: a quote is never closed (a double quote \" on this line has no"
            " partner up to the end of the file); close it or remove the stray quote",
        )
    if "expected after" in error:
        return tr(
            f"第{line}行: 引号后面紧跟了其他字符 (带引号的格应写成 \"文字\", 引号后直接是分隔符);"
            " 请检查该行的引号",
            f"line {line}: text follows a closing quote (a quoted cell is \"text\" followed"
            " by the separator); check the quotes on that line",
        )
    return tr(f"第{line}行: CSV 格式错误 ({error})", f"line {line}: malformed CSV ({error})")


def find_header_row(sheet: Sheet, is_header: Callable[[list[Any]], bool]) -> int | None:
    """Index of the first of the top ``HEADER_SEARCH_ROWS`` rows that ``is_header`` accepts."""
    for i, row in enumerate(sheet.cells[:HEADER_SEARCH_ROWS]):
        if is_header(row):
            return i
    return None

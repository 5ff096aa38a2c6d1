"""Reading a workbook (.xlsx, .xlsm, .xlsb, .xls, .ods) in a process of its own.

calamine is Rust: when it cannot allocate it aborts the whole process, and what it allocates
follows what the file declares. So the server (or the CLI) never runs it itself: a child
Python process, limited to ``SHEET_WORKER_MEMORY`` of address space (RLIMIT_AS) and
``SHEET_WORKER_SECONDS`` of CPU and wall-clock time, first checks the file within the stated
limits (``workbook_scan``), then reads it with calamine, checks each sheet's extent before it is
converted (the binary .xls/.xlsb sheets cannot be scanned beforehand) and counts rows as they
stream, and hands the cells back as JSON (never pickle: the parent trusts no byte of it beyond
plain values). A child that runs out of memory or time is a refusal naming the limits, never
the caller's crash.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import yisai
from yisai.formats.limits import (
    MAX_COLUMNS,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROW,
    MB,
    SHEET_WORKER_MEMORY,
    SHEET_WORKER_SECONDS,
)
from yisai.formats.table import RowCounter, Sheet, SheetError, column_letter
from yisai.i18n import language, set_language, tr

_SRC = str(Path(yisai.__file__).resolve().parents[1])
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from yisai.formats.workbook import child; child()"


def read_workbook(path: Path) -> list[Sheet]:
    """Every worksheet of the workbook at ``path``; SheetError (caller's language) if refused."""
    command = [sys.executable, "-Ic", _BOOT, _SRC, language(), str(path)]  # isolated: no PYTHON* variables
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=SHEET_WORKER_SECONDS,
                              check=False)
    except subprocess.TimeoutExpired:
        raise _exhausted() from None
    if done.returncode != 0:  # killed: out of memory (calamine aborts) or of CPU time
        raise _exhausted()
    answer = json.loads(done.stdout, object_hook=_decode)
    if "error" in answer:
        raise SheetError(answer["error"])
    return [Sheet(name, cells) for name, cells in answer["sheets"]]


def _exhausted() -> SheetError:
    return SheetError(tr(
        f"读取该文件需要超过 {SHEET_WORKER_MEMORY // MB} MB 内存或 {SHEET_WORKER_SECONDS} 秒, 已拒绝, 未读取;"
        " 文件可能已损坏, 或含有表格以外的大量内容; 请把表格复制到新的工作簿再保存",
        f"reading this file needs more than {SHEET_WORKER_MEMORY // MB} MB of memory or"
        f" {SHEET_WORKER_SECONDS} seconds; refused, nothing was read. The file may be damaged or hold"
        " much more than the table: copy the table into a new workbook and save that",
    ))


# ------------------------------------------------------------------ the child process


def child() -> None:
    """``python -Ic _BOOT SRC LANG PATH``: limits first, then the scan, then calamine."""
    _limit_self()
    set_language(sys.argv[2])
    try:
        answer: dict[str, Any] = {"sheets": [[s.name, s.cells] for s in _read(Path(sys.argv[3]))]}
    except SheetError as exc:
        answer = {"error": str(exc)}
    except MemoryError:
        answer = {"error": str(_exhausted())}
    sys.stdout.buffer.write(json.dumps(answer, default=_encode).encode("ascii"))
    sys.stdout.flush()


def _limit_self() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (SHEET_WORKER_MEMORY, SHEET_WORKER_MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (SHEET_WORKER_SECONDS, SHEET_WORKER_SECONDS + 1))


def _read(path: Path) -> list[Sheet]:
    from yisai.formats.workbook_scan import check_workbook

    check_workbook(path)
    import python_calamine

    def damaged(exc: Exception) -> SheetError:
        return SheetError(tr(
            f"无法读取Excel文件: {exc}; 请确认文件未损坏且不是加密文件",
            f"cannot read the Excel file: {exc}; check that it is not damaged or encrypted",
        ))

    try:
        book = python_calamine.CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises several types for damaged files
        raise damaged(exc) from None
    counter = RowCounter()
    sheets = []
    for meta in book.sheets_metadata:
        if str(meta.typ) != str(python_calamine.SheetTypeEnum.WorkSheet):
            continue
        try:
            sheet = book.get_sheet_by_name(meta.name)
            _check_extent(meta.name, sheet.end)
            # Rows are counted as calamine streams them (iter_rows yields rows from the sheet's
            # first row), so an oversized sheet is refused before it is converted whole;
            # to_python(skip_empty_area=False) then keeps absolute row and column positions.
            for i, row in enumerate(sheet.iter_rows()):
                counter.row(meta.name, i + 1, row)
            cells = sheet.to_python(skip_empty_area=False)
        except (SheetError, MemoryError):
            raise
        except Exception as exc:  # a damaged sheet inside a readable workbook
            raise damaged(exc) from None
        sheets.append(Sheet(meta.name, cells))
    return sheets


def _check_extent(name: str, end: tuple[int, int] | None) -> None:
    """The sheet's last cell (0-based) within the limits, before it is turned into rows."""
    if end is None:
        return
    row, col = end[0] + 1, end[1] + 1
    if col <= MAX_COLUMNS and row <= MAX_SHEET_ROW and row * col <= MAX_SHEET_CELLS:
        return
    raise SheetError(tr(
        f"工作表\u201c{name}\u201d的内容到 {column_letter(col - 1)}{row}, 超过上限 (最多 {MAX_COLUMNS} 列、"
        f"第 {MAX_SHEET_ROW} 行, 从 A1 起最多 {MAX_SHEET_CELLS} 个单元格), 未读取; 请删除表格以外的内容,"
        " 或把表格复制到新的工作簿",
        f"sheet \u201c{name}\u201d reaches {column_letter(col - 1)}{row}, past the limits (at most"
        f" {MAX_COLUMNS} columns, row {MAX_SHEET_ROW}, {MAX_SHEET_CELLS} cells from A1); nothing was"
        " read. Delete what lies outside the table, or copy the table into a new workbook",
    ))


# ------------------------------------------------------------------ cells as JSON

_TYPES: dict[str, Any] = {"date": date, "datetime": datetime, "time": time}


def _encode(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return {"$": type(value).__name__, "v": value.isoformat()}
    if isinstance(value, timedelta):
        return {"$": "timedelta", "v": value.total_seconds()}
    raise TypeError(f"cell of type {type(value).__name__}")


def _decode(obj: dict[str, Any]) -> Any:
    kind = obj.get("$")
    if kind == "timedelta":
        return timedelta(seconds=float(obj["v"]))
    if kind in _TYPES:
        return _TYPES[kind].fromisoformat(str(obj["v"]))
    return obj

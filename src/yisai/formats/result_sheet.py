"""成绩登记表 (result sheet): the printable sheet of a round and the same sheet read back.

``write_result_sheet`` prints 台次 分组 黑方 白方 结果 (results blank or filled) to .xlsx or
.csv; ``read_result_sheet`` reads such a sheet (or one typed by hand: CSV in UTF-8/GB18030,
.xlsx, .xls) and checks every cell it can judge alone: board numbers, result words. Whether a
board exists, whether the names match the pairing, whether a result is already entered is the
service's business (``yisai.services.result_sheets.import_results``), which reports with the same
``SheetIssue`` so every problem reads ``FILE:SHEET:ROW:COLUMN: problem (what is allowed)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yisai.formats import csv_safe
from yisai.formats.sheets import Sheet, cell_text, column_letter, find_header_row, read_sheets
from yisai.i18n import tr
from yisai.record.groups import group_label
from yisai.record.parse import BOTH_WIN_WORD, ParsedResult, ResultSyntaxError, parse_result
from yisai.record.text import clean_text, shown

# canonical field → the header written on our sheets first, then headers people also use.
COLUMNS: dict[str, tuple[str, ...]] = {
    "board": ("台次", "台号", "桌号", "台"),
    "group": ("分组", "组"),
    "black": ("黑方", "执黑", "黑方姓名"),
    "white": ("白方", "执白", "白方姓名"),
    "result": ("结果", "成绩", "比赛结果", "对局结果"),
}
HEADERS = tuple(names[0] for names in COLUMNS.values())
IGNORED = ("序号", "备注", "积分", "黑方积分", "白方积分", "签名", "黑方签名", "白方签名", "说明")
_ALIASES = {alias: key for key, names in COLUMNS.items() for alias in names}
BYE_WORDS = ("轮空", "(轮空)", "（轮空）", "bye")
MAX_BOARD_DIGITS = 5  # board numbers up to 99999: far more than any round has


@dataclass(frozen=True)
class SheetIssue:
    """One problem with its place: file, sheet, 1-based row, column (letter and header)."""

    file: str
    sheet: str
    row: int  # 0: the file as a whole
    column: str  # "C(黑方)", or "" for a whole row
    message: str

    def __str__(self) -> str:
        if self.row == 0:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.sheet}:{self.row}:{self.column}: {self.message}"


@dataclass(frozen=True)
class SheetRow:
    """One filled row as written; ``board``/``result`` are None when blank or unreadable."""

    file: str
    sheet: str
    row: int
    board: int | None
    board_text: str  # as written, for "blank" versus "not a number"
    group: str  # as written ("A", "A组", "同名次决赛"); "" when blank or no column
    black: str
    white: str
    result_text: str
    result: ParsedResult | None
    columns: dict[str, str] = field(default_factory=dict)  # field → "C(黑方)"

    def issue(self, key: str, message: str) -> SheetIssue:
        """A problem in this row's ``key`` column (the 台次 column when that one is absent)."""
        column = self.columns.get(key) or self.columns.get("board", "")
        return SheetIssue(self.file, self.sheet, self.row, column, message)

    @property
    def is_bye(self) -> bool:
        """A bye line: no board, and 轮空 written as the result or in place of White."""
        said_bye = (self.result is not None and self.result.bye) or self.white.lower() in BYE_WORDS
        return self.board is None and said_bye


@dataclass
class ResultSheet:
    file: str
    rows: list[SheetRow] = field(default_factory=list)
    issues: list[SheetIssue] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SheetLine:
    """One line of a printed sheet; ``board`` is None for a bye."""

    board: int | None
    group: str  # group id: "", "A", "B", "final"
    black: str
    white: str
    result: str  # a word ``parse_result`` reads back, or ""


# ------------------------------------------------------------------ words


def header_key(text: object) -> str | None:
    """The field a header names: *结果, 台次(号) and 黑 方 all work."""
    t = re.sub(r"\s+", "", str(text or "")).strip("*＊")
    t = re.split(r"[(（]", t, maxsplit=1)[0]
    return _ALIASES.get(t)


def same_name(a: str, b: str) -> bool:
    """Names compared as people type them: spaces (also full-width) and control characters
    (which stored names never hold, see ``yisai.record.text``) do not count."""
    return re.sub(r"\s+", "", clean_text(a)) == re.sub(r"\s+", "", clean_text(b))


# ------------------------------------------------------------------ reading


def read_result_sheet(path: str | Path) -> ResultSheet:
    """Every filled row of every sheet that has the 台次 and 结果 headers, with problems."""
    p = Path(path)
    out = ResultSheet(p.name)
    try:
        sheets = read_sheets(p)
    except (OSError, ValueError) as exc:
        msg = str(exc) if isinstance(exc, ValueError) else f"无法读取 {p}: {exc.strerror or exc}"
        out.issues.append(SheetIssue(p.name, "", 0, "", msg))
        return out
    used = False
    for sheet in sheets:
        header = find_header_row(sheet, lambda row: "board" in {header_key(c) for c in row})
        if header is None:
            if any(cell_text(c) for row in sheet.cells for c in row):
                out.warnings.append(tr(f"工作表\u201c{shown(sheet.name)}\u201d没有\u201c台次\u201d表头, 已跳过",
                                       f"sheet \u201c{shown(sheet.name)}\u201d has no 台次 (board) header; skipped"))
            continue
        used = True
        _read_sheet(out, sheet, header)
    if not used:
        first = sheets[0].name if sheets else ""
        out.issues.append(SheetIssue(p.name, first, 1, "", tr(
            "找不到表头行: 前10行中须有一行包含\u201c台次\u201d和\u201c结果\u201d",
            "no header row: one of the first 10 rows must hold 台次 (board) and 结果 (result)")))
    return out


def _read_sheet(out: ResultSheet, sheet: Sheet, header: int) -> None:
    columns: dict[str, int] = {}
    for i, cell in enumerate(sheet.cells[header]):
        title = cell_text(cell)
        key = header_key(title)
        where = f"{column_letter(i)}({shown(title)})"
        if not title:
            continue
        if key is None:
            if re.split(r"[(（]", title, maxsplit=1)[0].strip("*＊ ") not in IGNORED:
                out.warnings.append(tr(
                    f"{shown(sheet.name)} {column_letter(i)}列\u201c{shown(title)}\u201d不是已知列名, 已忽略",
                    f"{shown(sheet.name)} column {column_letter(i)} \u201c{shown(title)}\u201d is not a known header; ignored"))
            continue
        if key in columns:
            first = column_letter(columns[key])
            out.issues.append(SheetIssue(out.file, sheet.name, header + 1, where,
                                         tr(f"与{first}列重复 (每列只能出现一次, 请删除其中一列)",
                                            f"same as column {first} (each column once; delete one of them)")))
            continue
        columns[key] = i
    if "result" not in columns:
        out.issues.append(SheetIssue(out.file, sheet.name, header + 1, "",
                                     tr(f"缺少\u201c结果\u201d列 (表头须有: {'、'.join(HEADERS)}; 分组、黑方、白方可省略)",
                                        f"no 结果 (result) column (headers: {', '.join(HEADERS)}; 分组, 黑方, 白方 are optional)")))
        return
    labels = {k: f"{column_letter(i)}({shown(cell_text(sheet.cells[header][i]))})" for k, i in columns.items()}
    for r in range(header + 1, len(sheet.cells)):
        cells = sheet.cells[r]
        if not any(cell_text(c) for c in cells):
            continue
        out.rows.append(_read_row(out, sheet.name, r + 1, cells, columns, labels))


def _read_row(out: ResultSheet, sheet: str, number: int, cells: list[Any], columns: dict[str, int],
              labels: dict[str, str]) -> SheetRow:
    def cell(key: str) -> Any:
        i = columns.get(key)
        return cells[i] if i is not None and i < len(cells) else None

    def problem(key: str, message: str) -> None:
        out.issues.append(SheetIssue(out.file, sheet, number, labels.get(key, ""), shown(message, None)))

    board: int | None = None
    raw_board = cell("board")
    board_text = cell_text(raw_board)
    if board_text:
        # ASCII digits only: int() would also take "1_0", "１２" and other look-alikes.
        if board_text.isascii() and board_text.isdigit() and len(board_text) <= MAX_BOARD_DIGITS and int(board_text) > 0:
            board = int(board_text)
        else:
            shown_board = shown(board_text)
            problem("board", tr(
                f"台次\u201c{shown_board}\u201d不是正整数 (应填本轮的台次, 如 1、2、3; 轮空行可留空)",
                f"board \u201c{shown_board}\u201d is not a positive whole number (write the board of this"
                " round: 1, 2, 3 …; leave it blank on a bye line)",
            ))
    result_text = csv_safe.unguard(cell_text(cell("result")))
    result: ParsedResult | None = None
    if result_text and result_text != BOTH_WIN_WORD:  # kept as stored; the service checks it
        try:
            result = parse_result(result_text)
        except ResultSyntaxError as exc:
            problem("result", str(exc))
    return SheetRow(
        file=out.file,
        sheet=sheet,
        row=number,
        board=board,
        board_text=board_text,
        group=clean_text(csv_safe.unguard(cell_text(cell("group")))),
        black=clean_text(csv_safe.unguard(cell_text(cell("black")))),
        white=clean_text(csv_safe.unguard(cell_text(cell("white")))),
        result_text=result_text,
        result=result,
        columns=labels,
    )


# ------------------------------------------------------------------ writing


def write_result_sheet(path: str | Path, title: str, lines: list[SheetLine]) -> Path:
    """Write the sheet as .xlsx (printable: title, borders, header repeated on every page) or
    .csv (UTF-8 with BOM so Excel opens it in Chinese); both read back by ``read_result_sheet``."""
    p = Path(path)
    rows = [
        [str(ln.board) if ln.board is not None else "", group_label(ln.group), ln.black,
         ln.white if ln.board is not None else "(轮空)", ln.result]
        for ln in lines
    ]
    suffix = p.suffix.lower()
    if suffix == ".csv":
        with p.open("w", encoding="utf-8-sig", newline="") as f:
            w = csv_safe.writer(f)
            w.writerow(HEADERS)
            w.writerows(rows)
        return p
    if suffix != ".xlsx":
        raise ValueError(tr(f"成绩登记表只能写成 .xlsx 或 .csv (不是{suffix or '无扩展名'})",
                            f"a result sheet is written as .xlsx or .csv (not {suffix or 'no extension'})"))
    _write_xlsx(p, title, rows)
    return p


def _write_xlsx(path: Path, title: str, rows: list[list[str]]) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet("成绩登记表")
    head = book.add_format({"bold": True, "border": 1, "align": "center", "bg_color": "#EEEEEE"})
    body = book.add_format({"border": 1, "align": "center", "valign": "vcenter"})
    name = book.add_format({"border": 1, "valign": "vcenter"})
    big = book.add_format({"bold": True, "font_size": 14, "align": "center"})
    ws.merge_range(0, 0, 0, len(HEADERS) - 1, title, big)
    ws.write_row(1, 0, HEADERS, head)
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row):
            # Text cells throughout: a board number typed over by hand stays what it looks like.
            ws.write_string(r, c, value, name if c in (2, 3) else body)
        ws.set_row(r, 24)
    for c, width in enumerate((7, 12, 18, 18, 16)):
        ws.set_column(c, c, width)
    ws.repeat_rows(1)
    ws.set_paper(9)  # A4
    ws.fit_to_pages(1, 0)
    ws.set_footer("&C第 &P 页 / 共 &N 页")
    book.close()

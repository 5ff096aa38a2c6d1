"""Checks on a zipped workbook (.xlsx, .xlsm, .xlsb, .ods) before calamine reads it.

calamine allocates the whole rectangle from A1 to the last cell that holds a value, and
reserves what a header declares (an xlsx ``sharedStrings`` count): one 1.6 KB file with a cell
at XFD1048576 asks for 549,755,813,888 bytes and aborts the process. So the zip directory and
every XML part are read here first, streamed, and the file is refused at the first thing past
a limit of ``yisai.formats.limits``:

- the number of files inside, each one's uncompressed size (declared, and actual: Python's
  zipfile stops at the declared size and checks the CRC, so a part cannot inflate past what its
  directory says) and their total; two parts with the same name;
- in every XML part: a DOCTYPE or entity declaration (no workbook has one), nesting deeper than
  ``MAX_XML_DEPTH``;
- xlsx: the position of every cell with a value (``<c r="…">`` or, without ``r``, the next
  column of its ``<row r="…">``, as calamine places it), a sheet's ``<dimension ref="…">`` and a
  ``<sst count/uniqueCount>`` over ``MAX_SHARED_STRINGS``;
- ods: the same positions counting ``number-rows-repeated`` and ``number-columns-repeated``
  (calamine expands repeated cells that hold a value; trailing empty repeats cost nothing).

A position is refused past column ``MAX_COLUMNS``, row ``MAX_SHEET_ROW`` or a rectangle of
``MAX_SHEET_CELLS`` from A1. What this scan cannot see (the binary .xls and .xlsb sheets) is
bounded by the reading process's memory limit (``yisai.formats.workbook``).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any
from xml.parsers import expat

from yisai.formats.limits import (
    MAX_COLUMNS,
    MAX_SHARED_STRINGS,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROW,
    MAX_XML_DEPTH,
    MAX_ZIP_ENTRIES,
    MAX_ZIP_ENTRY_BYTES,
    MAX_ZIP_TOTAL_BYTES,
    MB,
)
from yisai.formats.table import SheetError, column_letter
from yisai.i18n import tr

CHUNK = 1024 * 1024
_REF = re.compile(r"([A-Za-z]{1,3})([0-9]{1,7})")  # A1 .. XFD1048576; longer is out of bounds anyway
_WORDS = re.compile(r"[A-Za-z]+[0-9]+")


def check_workbook(path: Path) -> None:
    """Raise SheetError for a zipped workbook past a limit; a file that is not a zip (.xls)
    passes unread (calamine says whether it is damaged)."""
    if not zipfile.is_zipfile(path):
        return
    try:
        with zipfile.ZipFile(path) as book:
            infos = book.infolist()
            _check_directory(infos)
            ods = path.suffix.lower() == ".ods"
            names = {} if ods else _sheet_names(book)
            for info in infos:
                if not info.is_dir():
                    # A sheet is XML whatever its part is called (not in .xlsb, whose sheets are binary).
                    xml = info.filename.lower().endswith(".xml") or (
                        info.filename in names and path.suffix.lower() != ".xlsb")
                    _check_part(book, info, ods, names.get(info.filename, info.filename), xml)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError) as exc:
        raise SheetError(tr(
            f"无法读取Excel文件: 压缩包已损坏 ({exc}); 请确认文件未损坏且不是加密文件",
            f"cannot read the Excel file: the zip inside is damaged ({exc}); check that it is not"
            " damaged or encrypted",
        )) from None


def _check_directory(infos: list[zipfile.ZipInfo]) -> None:
    if len(infos) > MAX_ZIP_ENTRIES:
        raise SheetError(tr(
            f"工作簿内有 {len(infos)} 个文件, 超过上限 {MAX_ZIP_ENTRIES} 个, 未读取; 请把表格复制到新的工作簿再保存",
            f"the workbook holds {len(infos)} files, over the limit of {MAX_ZIP_ENTRIES}; nothing was"
            " read. Copy the table into a new workbook and save that",
        ))
    names = [i.filename for i in infos]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise SheetError(tr(
            f"工作簿内有两个同名文件 {twice}, 不是 Excel 保存的文件; 请用 Excel 重新保存",
            f"the workbook holds two files named {twice}, which no spreadsheet writes; save it again",
        ))
    total = 0
    for info in infos:
        if info.file_size > MAX_ZIP_ENTRY_BYTES:
            raise _too_big(info.filename, info.file_size, MAX_ZIP_ENTRY_BYTES)
        total += info.file_size
    if total > MAX_ZIP_TOTAL_BYTES:
        raise SheetError(tr(
            f"工作簿解压后共 {total // MB} MB, 超过上限 {MAX_ZIP_TOTAL_BYTES // MB} MB, 未读取;"
            " 一个文件最多 10000 行, 请分成几个文件",
            f"the workbook unpacks to {total // MB} MB, over the limit of {MAX_ZIP_TOTAL_BYTES // MB} MB;"
            " nothing was read. Split it into several files",
        ))


def _too_big(name: str, size: int, limit: int) -> SheetError:
    return SheetError(tr(
        f"工作簿内的 {name} 解压后有 {size // MB} MB, 超过每个部分 {limit // MB} MB 的上限, 未读取",
        f"{name} inside the workbook unpacks to {size // MB} MB, over the limit of"
        f" {limit // MB} MB per part; nothing was read",
    ))


_SHEET = re.compile(rb"<(?:[\w.-]+:)?sheet\s[^>]*>")
_RELATION = re.compile(rb"<(?:[\w.-]+:)?Relationship\s[^>]*>")


def _sheet_names(book: zipfile.ZipFile) -> dict[str, str]:
    """xlsx part → the sheet name users see, for messages (read only once the directory has
    passed its checks; a part the names cannot be found for is named by its path)."""
    try:
        workbook = book.read("xl/workbook.xml") if book.getinfo("xl/workbook.xml").file_size < 8 * MB else b""
        rels = book.read("xl/_rels/workbook.xml.rels") if book.getinfo(
            "xl/_rels/workbook.xml.rels").file_size < 8 * MB else b""
    except (KeyError, zipfile.BadZipFile):
        return {}
    targets = {}
    for tag in _RELATION.findall(rels):
        attrs = _attrs(tag)
        target = attrs.get("Target", "")
        targets[attrs.get("Id", "")] = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    names = {}
    for tag in _SHEET.findall(workbook):
        attrs = _attrs(tag)
        if "id" in attrs and attrs["id"] in targets:
            names[targets[attrs["id"]]] = attrs.get("name", "")[:100]
    return names


def _attrs(tag: bytes) -> dict[str, str]:
    return {k.rpartition(b":")[2].decode("utf-8", "replace"): (a or b).decode("utf-8", "replace")
            for k, a, b in _ATTR.findall(tag)}


def _check_part(book: zipfile.ZipFile, info: zipfile.ZipInfo, ods: bool, sheet: str, xml: bool) -> None:
    """Stream one part (the CRC is checked at its end); scan it if it is XML."""
    scan: _CellScan | _XmlScan | None = None
    if xml:
        scan = _XmlScan(info.filename) if ods else _CellScan(info.filename, sheet)
    read = 0
    with book.open(info) as part:
        while chunk := part.read(CHUNK):
            read += len(chunk)
            if read > MAX_ZIP_ENTRY_BYTES:  # unreachable while zipfile keeps to the declared size
                raise _too_big(info.filename, read, MAX_ZIP_ENTRY_BYTES)
            if scan is not None:
                scan.feed(chunk)
    if scan is not None:
        scan.feed(b"", final=True)


def _doctype(part: str) -> SheetError:
    return SheetError(tr(
        f"工作簿内的 {part} 含有 DOCTYPE 或实体声明, Excel 不会写出这样的文件, 未读取",
        f"{part} inside the workbook has a DOCTYPE or an entity declaration, which no"
        " spreadsheet writes; nothing was read",
    ))


def _unreadable(part: str, what: str) -> SheetError:
    return SheetError(tr(
        f"无法读取Excel文件: 工作簿内的 {part} 有无法识别的内容 {what}; 请用 Excel 重新保存",
        f"cannot read the Excel file: {part} inside it has unreadable content {what};"
        " save it again from the spreadsheet",
    ))


# The start tags that place an xlsx cell, with their attributes (quoted values may hold '>').
_TAG = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?(c|row|v|is|dimension|sst)(?=[\s/>])"
    rb"((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*/?>"
)
_OPEN = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:c|row|v|is|dimension|sst)(?=[\s/>])")
_R_ATTR = re.compile(rb"(?:^|\s)(?:[^\s=/>:]+:)?r\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_ATTR = re.compile(rb"([^\s=/>]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
MAX_TAG = 64 * 1024  # one start tag; a cell's is a few dozen bytes


class _CellScan:
    """One xlsx XML part: cell positions as calamine assigns them, found by a regex over the
    bytes (in chunks; a tag cut at a chunk's end waits for the next). Comments and CDATA are
    not skipped: a tag there only makes the scan stricter."""

    def __init__(self, part: str, sheet: str) -> None:
        self.part = part
        self.cells = _Cells(part, sheet)
        self.rest = b""
        self.seam = b""
        self.first = True

    def feed(self, data: bytes, final: bool = False) -> None:
        if self.first and data:
            self.first = False
            if data.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00", b"<\x00")):
                raise _unreadable(self.part, tr("(不是 UTF-8 编码)", "(not UTF-8)"))
        seam = self.seam + data[:16]  # a declaration cut between two chunks
        if b"<!DOCTYPE" in data or b"<!ENTITY" in data or b"<!DOCTYPE" in seam or b"<!ENTITY" in seam:
            raise _doctype(self.part)
        self.seam = data[-16:]
        data = self.rest + data
        self.rest = b""
        for opening in _OPEN.finditer(data):
            tag = _TAG.match(data, opening.start())
            if tag is not None:
                name = tag.group(1)
                if name == b"v" or name == b"is":  # by far the most frequent, with <c>
                    self.cells.value()
                elif name == b"c":
                    self.cells.cell(tag.group(2))
                else:
                    self._tag(name, tag.group(2))
                continue
            if not final and len(data) - opening.start() < MAX_TAG:  # the rest comes next
                self.rest = data[opening.start():]
                return
            raise _unreadable(self.part, repr(data[opening.start():opening.start() + 40].decode("utf-8", "replace")))

    def _tag(self, name: bytes, raw: bytes) -> None:
        self.cells.tag(name.decode(), _attrs(raw))


class _Cells:
    """The positions of an xlsx part's cells (1-based), and the checks on each."""

    def __init__(self, part: str, sheet: str) -> None:
        self.part = part
        self.row = 0
        self.col = 0
        self.ref = ""
        self.area = _Area(sheet)

    def cell(self, raw: bytes) -> None:
        """``<c …>``: at its ``r``, or the next column of the row."""
        m = _R_ATTR.search(raw)
        if m is None:
            self.col += 1
            self.row = max(self.row, 1)
            self.ref = ""
        else:
            r = (m.group(1) or m.group(2) or b"").decode("utf-8", "replace")
            self.row, self.col = _ref(self.part, r)
            self.ref = r[:20]

    def value(self) -> None:
        """``<v>`` or ``<is>``: the current cell holds a value (calamine skips cells without)."""
        row, col = max(self.row, 1), max(self.col, 1)
        if row > self.area.last_row or col > self.area.last_col:
            self.area.check(row, col, self.ref)

    def tag(self, name: str, values: dict[str, str]) -> None:
        if name == "row":
            r = values.get("r")
            self.row = _number(self.part, r, "row r") if r is not None else self.row + 1
            self.col = 0
        elif name == "dimension" and "ref" in values:
            end = values["ref"].rpartition(":")[2]
            self.area.check(*_ref(self.part, end), end[:20], declared=True)
        elif name == "sst":
            for key in ("count", "uniqueCount"):
                if key in values and _number(self.part, values[key], f"sst {key}") > MAX_SHARED_STRINGS:
                    raise SheetError(tr(
                        f"工作簿声明了 {values[key][:20]} 个字符串, 超过上限 {MAX_SHARED_STRINGS} 个, 未读取",
                        f"the workbook declares {values[key][:20]} strings, over the limit of"
                        f" {MAX_SHARED_STRINGS}; nothing was read",
                    ))


class _Area:
    """The rectangle from A1 to the farthest value of one sheet."""

    def __init__(self, sheet: str) -> None:
        self.sheet = sheet
        self.last_row = 0
        self.last_col = 0

    def check(self, row: int, col: int, ref: str = "", declared: bool = False) -> None:
        """A value at (row, col), 1-based: refused past a limit, before anything allocates for it."""
        self.last_row, self.last_col = max(self.last_row, row), max(self.last_col, col)
        if col <= MAX_COLUMNS and row <= MAX_SHEET_ROW and self.last_row * self.last_col <= MAX_SHEET_CELLS:
            return
        where = ref or (f"{column_letter(col - 1)}{row}" if col <= 16384 and row <= 10**7 else tr(
            f"第{row}行第{col}列", f"row {row} column {col}"))
        what = tr("声明的范围到", "declares its range up to") if declared else tr("有内容的单元格", "has a filled cell at")
        raise SheetError(tr(
            f"工作表\u201c{self.sheet}\u201d{what} {where}, 超过上限 (最多 {MAX_COLUMNS} 列、第 {MAX_SHEET_ROW} 行,"
            f" 从 A1 起最多 {MAX_SHEET_CELLS} 个单元格), 未读取; 请删除表格以外的内容, 或把表格复制到新的工作簿",
            f"sheet \u201c{self.sheet}\u201d {what} {where}, past the limits (at most {MAX_COLUMNS} columns,"
            f" row {MAX_SHEET_ROW}, {MAX_SHEET_CELLS} cells from A1); nothing was read. Delete what lies"
            " outside the table, or copy the table into a new workbook",
        ))


def _ref(part: str, ref: str) -> tuple[int, int]:
    """``XFD1048576`` → (1048576, 16384); a longer reference is past every limit."""
    m = _REF.fullmatch(ref)
    if m is None:
        if _WORDS.fullmatch(ref):
            return MAX_SHEET_ROW + 1, MAX_COLUMNS + 1
        raise _unreadable(part, f"r=\u201c{ref[:40]}\u201d")
    letters = m.group(1)
    col = _COLUMNS.get(letters)
    if col is None:
        col = 0
        for ch in letters.upper():
            col = col * 26 + ord(ch) - 64
        if len(_COLUMNS) < 20_000:
            _COLUMNS[letters] = col
    return int(m.group(2)), col


_COLUMNS: dict[str, int] = {}


def _number(part: str, text: str, what: str) -> int:
    """A count or position; past nine digits it is past every limit (and never converted)."""
    if not text.isascii() or not text.isdigit():
        raise _unreadable(part, f"{what}=\u201c{text[:40]}\u201d")
    return int(text) if len(text) <= 9 else 10**9


class _XmlScan:
    """One ods XML part, streamed through expat: cell positions counting repeats."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.parser = expat.ParserCreate(namespace_separator="}")
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.StartDoctypeDeclHandler = self._doctype
        self.parser.EntityDeclHandler = self._doctype
        self.depth = 0
        self.area = _Area(part)
        self.next_row = 1  # the table's next row
        self.row_span = (1, 1)  # first and last row of the current (repeated) row
        self.col = 0
        self.cell: tuple[int, int] | None = None  # last row and last column of the cell being read
        self.cell_depth = 0

    def feed(self, data: bytes, final: bool = False) -> None:
        try:
            self.parser.Parse(data, final)
        except expat.ExpatError as exc:
            raise _unreadable(self.part, tr(f"(第{exc.lineno}行不是正确的 XML: {expat.ErrorString(exc.code)})",
                                            f"(not well-formed XML at line {exc.lineno}: {expat.ErrorString(exc.code)})"),
                              ) from None

    def _doctype(self, *_: Any) -> None:
        raise _doctype(self.part)

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_XML_DEPTH:
            raise SheetError(tr(
                f"工作簿内的 {self.part} 嵌套超过 {MAX_XML_DEPTH} 层, 未读取",
                f"{self.part} inside the workbook nests deeper than {MAX_XML_DEPTH} levels; nothing was read",
            ))
        if self.cell is not None:  # a cell's content (text:p …): it holds a value
            self.area.check(*self.cell)
            return
        name = tag.rpartition("}")[2]
        if name == "table":  # a new sheet
            self.area = _Area(next((v for k, v in attrs.items() if k.endswith("}name")), self.part))
            self.next_row = 1
        elif name == "table-row":
            count = self._repeat(attrs, "}number-rows-repeated")
            self.row_span = (self.next_row, self.next_row + count - 1)
            self.next_row += count
            self.col = 0
        elif name in ("table-cell", "covered-table-cell"):
            count = self._repeat(attrs, "}number-columns-repeated")
            self.col += count
            self.cell = (self.row_span[1], self.col)
            self.cell_depth = self.depth
            if any(k.endswith("}value-type") for k in attrs):
                self.area.check(*self.cell)

    def _end(self, tag: str) -> None:
        if self.cell is not None and self.depth == self.cell_depth:
            self.cell = None
        self.depth -= 1

    def _repeat(self, attrs: dict[str, str], key: str) -> int:
        text = next((v for k, v in attrs.items() if k.endswith(key)), None)
        return 1 if text is None else max(_number(self.part, text, key[1:]), 1)

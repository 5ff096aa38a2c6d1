"""The text of a Word (.docx) file, read as a stream from its main document part.

Why not python-docx: it parses every XML part into a tree (20-25 times the XML in memory) and
its table rows look up the whole table for every row, so a 174 KB file whose document part
unpacks to 45 MB took 189 s and 1.1 GB. Here the zip directory is measured first (part count,
each declared size; the zip module checks the real size and CRC while it streams), then the one
part that holds the text is streamed through expat with a constant amount of state: what is
kept is the text itself, stopped at the 规程's character limit.

The text is what python-docx gave (``Paragraph.text``; each table row's cells joined by "，",
merged cells repeated as python-docx repeats them): the body's paragraphs first, then the
body's tables row by row.
"""

from __future__ import annotations

import zipfile
from xml.parsers import expat

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
OFFICE_DOCUMENT = "/officeDocument"
PIECE = 64 * 1024
MAX_RELS_BYTES = 256 * 1024  # the package's own relationships: a few hundred bytes in practice


class DocxProblem(Exception):
    """The file is not a readable Word document, or passes a limit (``kind``: "bad", "size", "text")."""

    def __init__(self, kind: str, detail: str = "") -> None:
        self.kind, self.detail = kind, detail
        super().__init__(f"{kind}: {detail}")


def measure(z: zipfile.ZipFile, max_parts: int, max_total: int, max_part: int) -> str:
    """The name of the main document part, after checking the directory: at most ``max_parts``
    parts, ``max_total`` bytes unpacked in all and ``max_part`` for the document part."""
    infos = z.infolist()
    if len(infos) > max_parts:
        raise DocxProblem("size", f"{len(infos)} parts")
    if sum(i.file_size for i in infos) > max_total:
        raise DocxProblem("size", "unpacked size")
    name = _main_part(z)
    try:
        info = z.getinfo(name)
    except KeyError:
        raise DocxProblem("bad", f"no {name}") from None
    if info.file_size > max_part:
        raise DocxProblem("size", f"{name}: {info.file_size} bytes")
    return name


def _parser() -> expat.XMLParserType:
    """An expat parser that refuses a DOCTYPE (no entities, so no entity expansion)."""
    parser = expat.ParserCreate(namespace_separator=" ")

    def no_doctype(*_: object) -> None:
        raise DocxProblem("bad", "DOCTYPE")

    parser.StartDoctypeDeclHandler = no_doctype
    parser.EntityDeclHandler = no_doctype
    return parser


def _main_part(z: zipfile.ZipFile) -> str:
    """The officeDocument relationship's target in ``_rels/.rels`` (word/document.xml usually)."""
    try:
        info = z.getinfo("_rels/.rels")
    except KeyError:
        return "word/document.xml"
    if info.file_size > MAX_RELS_BYTES:
        raise DocxProblem("size", "_rels/.rels")
    found: list[str] = []
    parser = _parser()

    def start(name: str, attrs: dict[str, str]) -> None:
        if name == f"{RELS} Relationship" and attrs.get("Type", "").endswith(OFFICE_DOCUMENT) and not found:
            found.append(attrs.get("Target", ""))

    parser.StartElementHandler = start
    try:
        parser.Parse(z.read(info), True)
    except expat.ExpatError:
        raise DocxProblem("bad", "_rels/.rels") from None
    target = (found[0] if found else "word/document.xml").lstrip("/")
    return target or "word/document.xml"


class _Reader:
    """The expat handlers: a stack of the open elements' names and the text being gathered."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self.chars = 0
        self.stack: list[str] = []
        self.paragraphs: list[str] = []
        self.rows: list[str] = []
        self.para: list[str] | None = None  # the paragraph being read (body or table cell)
        self.para_depth = -1
        self.run_depth = -1  # the open w:r of that paragraph, or -1
        self.in_t = False
        self.cell_paras: list[str] | None = None  # the body table cell being read
        self.cell_span = 1
        self.cell_merged = False
        self.row_cells: list[str] | None = None
        self.previous_row: list[str] = []

    def _add(self, text: str) -> None:
        assert self.para is not None
        self.chars += len(text) or 1
        if self.chars > self.max_chars:
            raise DocxProblem("text", str(self.chars))
        self.para.append(text)

    def start(self, qname: str, attrs: dict[str, str]) -> None:
        uri, _, name = qname.rpartition(" ")
        name = name if uri == W else "~" + name
        depth = len(self.stack)
        parent = self.stack[-1] if self.stack else ""
        self.stack.append(name)
        where = self.stack[:-1]
        if name == "p" and self.para is None and (
                parent == "body" or (parent == "tc" and self.cell_paras is not None and depth == 5)):
            self.para, self.para_depth = [], depth
        elif name == "r" and self.para is not None and self.run_depth < 0 and (
                depth == self.para_depth + 1
                or (depth == self.para_depth + 2 and parent == "hyperlink")):
            self.run_depth = depth
        elif self.run_depth >= 0 and depth == self.run_depth + 1:
            if name == "t":
                self.in_t = True
            elif name in ("tab", "ptab"):
                self._add("\t")
            elif name == "br":
                kind = attrs.get(f"{W} type", "textWrapping")
                if kind == "textWrapping":
                    self._add("\n")
            elif name == "cr":
                self._add("\n")
            elif name == "noBreakHyphen":
                self._add("-")
        elif name == "tr" and where == ["document", "body", "tbl"]:
            self.row_cells = []
        elif name == "tc" and self.row_cells is not None and depth == 4:
            self.cell_paras, self.cell_span, self.cell_merged = [], 1, False
        elif self.cell_paras is not None and depth == 6 and where[-1] == "tcPr":
            if name == "gridSpan":
                value = attrs.get(f"{W} val", "1")
                self.cell_span = max(1, min(int(value), 64)) if value.isdigit() else 1
            elif name == "vMerge":
                self.cell_merged = attrs.get(f"{W} val", "continue") == "continue"

    def end(self, _qname: str) -> None:
        depth = len(self.stack) - 1
        name = self.stack.pop()
        if name == "t" and self.in_t and depth == self.run_depth + 1:
            self.in_t = False
        elif name == "r" and depth == self.run_depth:
            self.run_depth = -1
        elif name == "p" and depth == self.para_depth and self.para is not None:
            self._add("")  # a paragraph is a line of the text: it counts as a character (its newline)
            text = "".join(self.para)
            if self.cell_paras is not None:
                self.cell_paras.append(text)
            else:
                self.paragraphs.append(text)
            self.para, self.para_depth = None, -1
        elif name == "tc" and depth == 4 and self.cell_paras is not None and self.row_cells is not None:
            text = "\n".join(self.cell_paras)
            for _ in range(self.cell_span):
                column = len(self.row_cells)
                merged = self.cell_merged and column < len(self.previous_row)
                self.row_cells.append(self.previous_row[column] if merged else text)
            self.cell_paras = None
        elif name == "tr" and depth == 3 and self.row_cells is not None:
            self.rows.append("，".join(c.strip() for c in self.row_cells if c.strip()))
            self.previous_row, self.row_cells = self.row_cells, None
        elif name == "tbl" and depth == 2:
            self.previous_row = []

    def text(self, data: str) -> None:
        if self.in_t:
            self._add(data)


def read_docx(z: zipfile.ZipFile, name: str, max_chars: int) -> str:
    """The text of the measured document part ``name`` (``measure``), streamed."""
    reader = _Reader(max_chars)
    parser = _parser()
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.text
    parser.buffer_text = True
    try:
        with z.open(name) as part:
            while piece := part.read(PIECE):
                parser.Parse(piece, False)
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        raise DocxProblem("bad", str(exc)) from None
    except (zipfile.BadZipFile, EOFError, OSError) as exc:  # a lying size, a bad CRC, a cut file
        raise DocxProblem("bad", str(exc)) from None
    return "\n".join(reader.paragraphs + reader.rows)

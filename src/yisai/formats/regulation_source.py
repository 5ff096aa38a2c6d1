"""A 规程 file's text: .txt (UTF-8, GB18030/GBK), .docx (streamed: ``docx_text``) or a PDF's text layer
(pypdf). Bounded before parsing: file size, zip contents, pages, characters and time. A scanned
PDF or an image has no text to read and is refused with a message that says so."""

from __future__ import annotations

import io
import re
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

from yisai.formats.docx_text import DocxProblem, measure, read_docx
from yisai.formats.limits import (
    MAX_REGULATION_DOCX_BYTES,
    MAX_REGULATION_DOCX_PARTS,
    MAX_REGULATION_DOCX_XML_BYTES,
    MAX_REGULATION_PDF_CONTENT_BYTES,
    MAX_REGULATION_SOURCE_BYTES,
    MAX_REGULATION_SOURCE_PAGES,
    MAX_REGULATION_SOURCE_SECONDS,
    MB,
    read_at_most,
)
from yisai.i18n import Text, os_error_text
from yisai.regulation.draft import MAX_TEXT_CHARS

TEXT_SUFFIXES = (".txt", ".text", ".md")
PIECE = 256 * 1024  # a Flate stream is inflated this much at a time while it is measured
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".heic")


class SourceError(Exception):
    """Why a 规程 file cannot be read (in both languages)."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.render("zh"))

    def __str__(self) -> str:
        return self.text.render()


def read_path(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_REGULATION_SOURCE_BYTES:
            raise SourceError(_too_big(path.name, size))
        data = read_at_most(path, MAX_REGULATION_SOURCE_BYTES)
    except OSError as exc:
        why = os_error_text(exc)
        raise SourceError(Text(f"{path}: 无法读取文件: {why.zh}", f"{path}: cannot read the file: {why.en}")) from None
    return read_bytes(data, path.name)


def read_bytes(data: bytes, filename: str) -> str:
    """The text of a 规程 file's bytes, by its name's suffix (and its first bytes)."""
    if len(data) > MAX_REGULATION_SOURCE_BYTES:
        raise SourceError(_too_big(filename, len(data)))
    name = filename.lower()
    if name.endswith(IMAGE_SUFFIXES) or data[:8].startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")):
        raise SourceError(Text(
            f"{filename}: 这是一张图片, 没有可读取的文字; 请提供规程的 Word (.docx)、文字版 PDF 或 .txt 文件"
            " (本系统不做文字识别 OCR)",
            f"{filename}: this is an image with no text to read; give the 规程 as Word (.docx), a PDF with"
            " text or .txt (no OCR is done)"))
    if name.endswith(".pdf") or data[:5] == b"%PDF-":
        text = _pdf(data, filename)
    elif name.endswith(".docx") or data[:2] == b"PK":
        text = _docx(data, filename)
    elif name.endswith(".doc") and data[:4] == b"\xd0\xcf\x11\xe0":
        raise SourceError(Text(f"{filename}: 旧版 Word (.doc) 文件无法读取; 请在 Word 或 WPS 中另存为 .docx",
                               f"{filename}: an old Word (.doc) file cannot be read; save it as .docx"))
    else:
        text = _decode(data, filename)
    if len(text) > MAX_TEXT_CHARS:
        raise SourceError(Text(
            f"{filename}: 文字有 {len(text)} 字, 超过规程的上限 {MAX_TEXT_CHARS} 字; 请检查是否选错了文件",
            f"{filename}: {len(text)} characters, over the limit of {MAX_TEXT_CHARS} for a 规程; check the file"))
    if not text.strip():
        raise SourceError(Text(f"{filename}: 文件中没有文字", f"{filename}: the file has no text"))
    return text


def _too_big(filename: str, size: int) -> Text:
    return Text(
        f"{filename}: 文件有 {size} 字节, 超过规程文件的上限 {MAX_REGULATION_SOURCE_BYTES // MB} MB, 未读取",
        f"{filename}: {size} bytes, over the limit of {MAX_REGULATION_SOURCE_BYTES // MB} MB for a 规程 file; nothing was read")


def _decode(data: bytes, filename: str) -> str:
    for codec in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            continue
    raise SourceError(Text(f"{filename}: 无法识别的文字编码; 请另存为 UTF-8 或 GB18030 (GBK) 文本",
                           f"{filename}: unknown text encoding; save it as UTF-8 or GB18030 (GBK) text"))


def _docx(data: bytes, filename: str) -> str:
    """Measured before it is read (part count, unpacked sizes), then the main part streamed
    (``formats.docx_text``): never more than the text itself in memory."""
    bad = Text(f"{filename}: 不是有效的 Word (.docx) 文件", f"{filename}: not a valid Word (.docx) file")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            name = measure(z, MAX_REGULATION_DOCX_PARTS, MAX_REGULATION_DOCX_BYTES, MAX_REGULATION_DOCX_XML_BYTES)
            return read_docx(z, name, MAX_TEXT_CHARS)
    except (zipfile.BadZipFile, EOFError, OSError, ValueError):
        raise SourceError(bad) from None
    except DocxProblem as exc:
        if exc.kind == "size":
            raise SourceError(Text(
                f"{filename}: Word 文件解压后过大 (超过 {MAX_REGULATION_DOCX_PARTS} 个部分、正文超过 "
                f"{MAX_REGULATION_DOCX_XML_BYTES // MB} MB 或共超过 {MAX_REGULATION_DOCX_BYTES // MB} MB), 未读取",
                f"{filename}: the Word file is too large unpacked (over {MAX_REGULATION_DOCX_PARTS} parts, a "
                f"document part over {MAX_REGULATION_DOCX_XML_BYTES // MB} MB or over "
                f"{MAX_REGULATION_DOCX_BYTES // MB} MB in all); nothing was read")) from None
        if exc.kind == "text":
            raise SourceError(Text(
                f"{filename}: 文字超过规程的上限 {MAX_TEXT_CHARS} 字; 请检查是否选错了文件",
                f"{filename}: over the limit of {MAX_TEXT_CHARS} characters for a 规程; check the file")) from None
        raise SourceError(bad) from None


_MARKER = re.compile(r"^\s*(?:[一二三四五六七八九十]+[、.．]|[（(]\s*[一二三四五六七八九十\d]+\s*[）)]|\d{1,2}\s*[、.．]|第\s*\d+\s*期)")
_ENDS = tuple("。：:；;！？!?")
_CJK = "\u4e00-\u9fff（）《》“”，。、：；"
_GAP = re.compile(rf"(?<=[{_CJK}])[ \t]+(?=[0-9A-Za-z])|(?<=[0-9A-Za-z%])[ \t]+(?=[{_CJK}])")


def unwrap(page: str) -> str:
    """A PDF page's text with its layout undone: a line that fills the page width and does not end
    a sentence continues on the next line (unless that one starts a section), and the spaces a PDF
    puts between Chinese and digits (``2025 年 5 月``) are dropped."""
    lines = [_GAP.sub("", line.rstrip()) for line in page.splitlines()]
    width = max((len(line) for line in lines), default=0)
    out: list[str] = []
    for line in lines:
        if (out and out[-1] and len(out[-1]) >= 0.8 * width and not out[-1].endswith(_ENDS)
                and (not _MARKER.match(line) or out[-1].endswith(("、", "，", ",", "第")))):
            out[-1] += line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def _content_bytes(reader: Any) -> int:
    """What the pages' content streams and the forms they draw unpack to, in all, measured
    before any text is extracted: a Flate stream is inflated in pieces and counted, never kept,
    and the count stops just past the limit (so a bomb costs at most one piece of memory)."""
    total = 0
    seen: set[int] = set()
    for page in reader.pages:
        streams: list[Any] = []
        contents = page.get("/Contents")
        contents = contents.get_object() if contents is not None else None
        streams += list(contents) if isinstance(contents, list) else ([contents] if contents is not None else [])
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        if xobjects is not None:
            streams += [x for x in xobjects.get_object().values() if x.get_object().get("/Subtype") == "/Form"]
        for ref in streams:
            stream = ref.get_object()
            key = id(stream)
            if key in seen:
                continue
            seen.add(key)
            total += _unpacked(stream, MAX_REGULATION_PDF_CONTENT_BYTES - total + 1)
            if total > MAX_REGULATION_PDF_CONTENT_BYTES:
                return total
    return total


def _unpacked(stream: Any, budget: int) -> int:
    """A stream's unpacked size, counted up to ``budget`` bytes."""
    filters = stream.get("/Filter")
    raw = getattr(stream, "_data", b"") or b""
    if filters is None:
        return len(raw)
    names = list(filters) if isinstance(filters, list) else [filters]
    if names != ["/FlateDecode"] or stream.get("/DecodeParms") is not None:
        return len(stream.get_data())  # rare in a text PDF; pypdf's own output limits apply
    inflate = zlib.decompressobj()
    size, rest = 0, raw
    while rest and size <= budget:
        size += len(inflate.decompress(rest, PIECE))
        rest = inflate.unconsumed_tail
    return size


def _pdf(data: bytes, filename: str) -> str:
    import pypdf  # loaded only for a PDF

    bad = Text(f"{filename}: 不是有效的 PDF 文件", f"{filename}: not a valid PDF file")
    started = time.monotonic()
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        pages = len(reader.pages)
        if pages > MAX_REGULATION_SOURCE_PAGES:
            raise SourceError(Text(f"{filename}: PDF 有 {pages} 页, 超过规程的上限 {MAX_REGULATION_SOURCE_PAGES} 页",
                                   f"{filename}: {pages} pages, over the limit of {MAX_REGULATION_SOURCE_PAGES} for a 规程"))
        if _content_bytes(reader) > MAX_REGULATION_PDF_CONTENT_BYTES:
            limit = MAX_REGULATION_PDF_CONTENT_BYTES // 1024
            raise SourceError(Text(f"{filename}: PDF 的页面内容解压后超过 {limit} KB, 未读取",
                                   f"{filename}: the PDF's page contents unpack to over {limit} KB; nothing was read"))
        texts = []
        for page in reader.pages:
            texts.append(unwrap(page.extract_text() or ""))
            if time.monotonic() - started > MAX_REGULATION_SOURCE_SECONDS:
                raise SourceError(Text(f"{filename}: 读取 PDF 文字超过 {MAX_REGULATION_SOURCE_SECONDS:.0f} 秒, 已停止",
                                       f"{filename}: reading the PDF's text took over {MAX_REGULATION_SOURCE_SECONDS:.0f} s;"
                                       " stopped"))
    except SourceError:
        raise
    except Exception:  # pypdf raises many kinds for a damaged file; all mean "cannot read"
        raise SourceError(bad) from None
    text = "\n".join(texts)
    if len("".join(text.split())) < 20 * max(pages, 1) // 2:
        raise SourceError(Text(
            f"{filename}: 这个 PDF 没有文字层 (可能是扫描件或图片), 无法读取; 请提供 Word (.docx) 或文字版 PDF"
            " (本系统不做文字识别 OCR)",
            f"{filename}: this PDF has no text layer (a scan or pictures) and cannot be read; give a Word"
            " (.docx) file or a PDF with text (no OCR is done)"))
    return text

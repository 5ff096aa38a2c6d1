"""A .docx or .pdf 规程 is measured before it is parsed (issue 44, item 4): part count and unpacked
sizes of a Word file, page count and unpacked page contents of a PDF; a bomb is refused having
unpacked at most one piece of it. On the code before this change a 174 KB .docx whose document
part unpacks to 45 MB was parsed in full by python-docx (189 s, 1.1 GB). Memory is measured with
tracemalloc (peak of what Python allocated while reading)."""

from __future__ import annotations

import io
import tracemalloc
import zipfile
from collections.abc import Callable

import docx
import pypdf
import pytest
from pypdf.generic import DecodedStreamObject, NameObject

from yisai.formats.limits import (
    MAX_REGULATION_DOCX_PARTS,
    MAX_REGULATION_DOCX_XML_BYTES,
    MAX_REGULATION_PDF_CONTENT_BYTES,
)
from yisai.formats.regulation_source import SourceError, read_bytes
from yisai.regulation.draft import MAX_TEXT_CHARS

MB = 1024 * 1024
BUDGET = 100 * MB
W = b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'


def _zip(parts: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return buf.getvalue()


def _word(body: bytes, head: bytes = b"") -> bytes:
    return _zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": head + W + body + b"</w:body></w:document>"})


def _peak(read: Callable[[], object]) -> tuple[object, int]:
    """What ``read`` returned (or the SourceError it raised) and the peak memory it took."""
    tracemalloc.start()
    try:
        try:
            out: object = read()
        except SourceError as exc:
            out = exc
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_probes_docx_bomb_is_refused_unread() -> None:
    bomb = _word(b"<w:p><w:r><w:t>" + b"a" * (45 * MB) + b"</w:t></w:r></w:p>")
    assert len(bomb) < 200 * 1024  # like the probe's 174 KB file
    out, peak = _peak(lambda: read_bytes(bomb, "bomb.docx"))
    assert isinstance(out, SourceError)
    assert "Word 文件解压后过大" in str(out) and "未读取" in str(out)
    assert peak < 2 * MB  # the directory was read, not the 45 MB part


def test_a_docx_at_the_size_limit_is_read_in_little_memory() -> None:
    # markup with no text, as much as the limit allows: streamed, so memory stays flat
    runs = b"<w:p>" + b"<w:r><w:rPr/></w:r>" * ((MAX_REGULATION_DOCX_XML_BYTES - 400) // 19) + b"</w:p>"
    runs += b"<w:p><w:r><w:t>" + "第一条 比赛规则".encode() + b"</w:t></w:r></w:p>"
    data = _word(runs)
    out, peak = _peak(lambda: read_bytes(data, "big.docx"))
    assert out == "\n第一条 比赛规则"  # the empty paragraph, then the one with text
    assert peak < 8 * MB


def test_a_docx_past_the_text_limit_stops_at_the_limit() -> None:
    line = "第一条 比赛采用中国围棋规则。".encode()
    data = _word((b"<w:p><w:r><w:t>" + line + b"</w:t></w:r></w:p>") * (MAX_TEXT_CHARS // 10))
    out, peak = _peak(lambda: read_bytes(data, "long.docx"))
    assert isinstance(out, SourceError) and f"超过规程的上限 {MAX_TEXT_CHARS} 字" in str(out)
    assert peak < BUDGET // 4
    empty = _word(b"<w:p/>" * (MAX_TEXT_CHARS + 1))  # an empty paragraph is a line: counted too
    out, _ = _peak(lambda: read_bytes(empty, "empty.docx"))
    assert isinstance(out, SourceError) and "超过规程的上限" in str(out)


def test_a_docx_with_too_many_parts_or_a_doctype_is_refused() -> None:
    parts = {f"word/media/p{i}.png": b"x" for i in range(MAX_REGULATION_DOCX_PARTS)}
    many = _zip({"word/document.xml": W + b"</w:body></w:document>", **parts})
    out, _ = _peak(lambda: read_bytes(many, "many.docx"))
    assert isinstance(out, SourceError) and f"超过 {MAX_REGULATION_DOCX_PARTS} 个部分" in str(out)
    laughs = b'<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    out, _ = _peak(lambda: read_bytes(_word(b"<w:p><w:r><w:t>&b;</w:t></w:r></w:p>", laughs), "laughs.docx"))
    assert isinstance(out, SourceError) and "不是有效的 Word (.docx) 文件" in str(out)


def test_docx_text_is_what_python_docx_reads_tables_and_merged_cells_included() -> None:
    """The independent reference: python-docx's own Paragraph.text and row.cells, on a document
    with tabs, line breaks, a page break, a hyperlink-free body, and merged table cells."""
    from docx.enum.text import WD_BREAK

    d = docx.Document()
    for i in range(30):
        run = d.add_paragraph().add_run(f"第{i}条\t比赛")
        run.add_break()
        run.add_text("黑贴3又3/4子")
        run.add_break(WD_BREAK.PAGE)
    table = d.add_table(rows=4, cols=4)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"格{r}{c}"
    table.cell(0, 0).merge(table.cell(0, 1))
    table.cell(1, 2).merge(table.cell(3, 2))
    table.cell(2, 3).add_paragraph("第二段")
    buf = io.BytesIO()
    d.save(buf)
    again = docx.Document(io.BytesIO(buf.getvalue()))
    lines = [p.text for p in again.paragraphs]
    for t in again.tables:
        for row in t.rows:
            lines.append("，".join(c.text.strip() for c in row.cells if c.text.strip()))
    assert read_bytes(buf.getvalue(), "规程.docx") == "\n".join(lines)


def _pdf_with_content(content: bytes) -> bytes:
    writer = pypdf.PdfWriter()
    page = writer.add_blank_page(595, 842)
    stream = DecodedStreamObject()
    stream.set_data(content)
    page[NameObject("/Contents")] = writer._add_object(stream.flate_encode())
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_pdf_whose_page_unpacks_past_the_limit_is_refused_unread() -> None:
    bomb = _pdf_with_content(b" " * (64 * MB))
    assert len(bomb) < 200 * 1024
    out, peak = _peak(lambda: read_bytes(bomb, "bomb.pdf"))
    assert isinstance(out, SourceError)
    assert "PDF 的页面内容解压后超过 512 KB, 未读取" in str(out)  # limits.py: 512 KB
    assert peak < 4 * MB


@pytest.mark.parametrize("size", [MAX_REGULATION_PDF_CONTENT_BYTES // 2])
def test_a_pdf_within_the_limit_is_read(size: int) -> None:
    text = b"BT /F1 12 Tf 72 712 Td (Rules) Tj ET\n"
    data = _pdf_with_content(text + b" " * size)
    out, peak = _peak(lambda: read_bytes(data, "ok.pdf"))
    # no font, so no text layer: refused as a scan, but only after the page was measured and read
    assert isinstance(out, SourceError) and "没有文字层" in str(out)
    assert peak < BUDGET

"""Hostile workbooks built byte by byte (issue 30, item 1): tiny files whose cells, declared
ranges or counts make calamine allocate far more than any machine has, and zip bombs.

The xlsx parts are the minimum Excel's format needs ([Content_Types].xml, the workbook, its
relationships, one worksheet); a cell is an inline string (``t="inlineStr"``), so no shared
strings part is needed unless a test adds one.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"

_TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          '<Default Extension="xml" ContentType="application/xml"/>'
          '<Override PartName="/xl/workbook.xml" '
          'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
          '<Override PartName="/xl/worksheets/sheet1.xml" '
          'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
_ROOT_RELS = (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">'
              f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WORKBOOK = (f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>'
             '<sheet name="成绩" sheetId="1" r:id="rId1"/></sheets></workbook>')


def inline(ref: str, text: str = "x") -> str:
    """One cell holding an inline string."""
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def row(number: int, *cells: str) -> str:
    return f'<row r="{number}">{"".join(cells)}</row>'


HEADER = row(1, inline("A1", "台次"), inline("B1", "结果"))


def xlsx(path: Path, rows: str = HEADER, *, dimension: str = "", extra: dict[str, bytes | str] | None = None,
         shared_strings: str | None = None, part: str = "worksheets/sheet1.xml") -> Path:
    """A workbook with one sheet 成绩 whose ``<sheetData>`` is ``rows``, stored at xl/``part``."""
    sheet = (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">'
             f'{f"<dimension ref={chr(34)}{dimension}{chr(34)}/>" if dimension else ""}'
             f"<sheetData>{rows}</sheetData></worksheet>")
    rels = (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">'
            f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="{part}"/>')
    if shared_strings is not None:
        rels += f'<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _TYPES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("xl/workbook.xml", _WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", rels + "</Relationships>")
        z.writestr(f"xl/{part}", sheet)
        if shared_strings is not None:
            z.writestr("xl/sharedStrings.xml", shared_strings)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


def one_cell_at(path: Path, ref: str) -> Path:
    """The probe's file: a single inline-string cell at ``ref`` (and nothing at A1)."""
    number = int("".join(ch for ch in ref if ch.isdigit()))
    return xlsx(path, row(number, inline(ref)))


def zip_bomb(path: Path, megabytes: int) -> Path:
    """A valid header, then a worksheet whose XML inflates to ``megabytes`` MB of blank rows
    (deflate packs them about 1000:1, so the file is a few hundred KB)."""
    blank = "<row/>" * (megabytes * 1024 * 1024 // 6)
    return xlsx(path, HEADER + blank)


def many_entries(path: Path, count: int) -> Path:
    return xlsx(path, extra={f"xl/media/p{i}.bin": b"" for i in range(count)})


def lying_size(path: Path) -> Path:
    """A worksheet whose directory says 100 bytes while it inflates to 20 MB."""
    xlsx(path, HEADER + "<row/>" * (20 * 1024 * 1024 // 6))
    data = bytearray(path.read_bytes())
    name = b"xl/worksheets/sheet1.xml"
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # local header, central directory
        at = 0
        while (at := data.find(signature, at)) >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at:name_at + len(name)] == name:
                struct.pack_into("<I", data, at + size_at, 100)
            at += 4
    path.write_bytes(bytes(data))
    return path


# ------------------------------------------------------------------ OpenDocument

_ODS_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                 'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                 '<manifest:file-entry manifest:full-path="/" '
                 'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                 '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                 "</manifest:manifest>")
ODS_CELL = '<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>'
ODS_HEADER = ('<table:table-row><table:table-cell office:value-type="string"><text:p>台次</text:p>'
              '</table:table-cell><table:table-cell office:value-type="string"><text:p>结果</text:p>'
              "</table:table-cell></table:table-row>")


def ods(path: Path, rows: str) -> Path:
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               f'<office:body><office:spreadsheet><table:table table:name="成绩">{rows}</table:table>'
               "</office:spreadsheet></office:body></office:document-content>")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", _ODS_MANIFEST)
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
    return path


# ------------------------------------------------------------------ legacy .xls


def xls_corner(path: Path) -> Path:
    """BIFF8 at its largest: A1 and IV65536 filled, so calamine's rectangle is 65,536 × 256
    cells (about 1 GB, as measured); nothing before reading can see it without parsing BIFF."""
    import xlwt

    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("成绩")
    sheet.write(0, 0, "台次")
    sheet.write(65535, 255, "x")
    book.save(str(path))
    return path

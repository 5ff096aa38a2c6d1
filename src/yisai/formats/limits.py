"""The stated limits on files people send us: rosters and result sheets, regulation TOML, SGF,
OpenGotha XML, EGD h9 and uploaded papers. One table, so every reader refuses the same things
and docs/web.md ("上传与导入文件的上限 / Limits on files") can say exactly what they are.

Each limit is far above what a real event needs (the biggest has a few thousand players; a
10,000-player Swiss round is 5,000 boards) and low enough that no file can take the memory or
the time of the process reading it. Readers check a limit *before* they allocate for what the
file declares: a cell's position, a count in a header, a size in a zip directory.

The pure core keeps its own limits (the regulation loader, the SGF reader cannot import this
package); they are re-exported here so this module lists them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

MB = 1024 * 1024

# ---- tables: .xlsx / .xlsm / .xlsb / .xls / .ods / .csv (rosters, result sheets)
MAX_FILE_BYTES = 50 * MB  # a table file on disk (the web console accepts 5 MB per upload)
MAX_ROWS = 10_000  # filled rows in a file, all sheets, header and title rows included
MAX_COLUMNS = 200  # the column of any filled cell
MAX_SHEET_ROW = 100_000  # the row of any filled cell (blank rows above it do not count to MAX_ROWS)
MAX_SHEET_CELLS = 2_000_000  # last filled row x last filled column of one sheet (its rectangle)
MAX_SHARED_STRINGS = MAX_SHEET_CELLS  # strings a workbook declares (xlsx sharedStrings count)
MAX_ZIP_ENTRIES = 1_000  # files inside one .xlsx/.ods (a real workbook has a few dozen)
MAX_ZIP_ENTRY_BYTES = 200 * MB  # one file inside, uncompressed, declared and actual
MAX_ZIP_TOTAL_BYTES = 400 * MB  # all files inside, uncompressed
MAX_XML_DEPTH = 64  # element nesting inside a workbook's XML (real ones nest about 8 deep)
SHEET_WORKER_MEMORY = 1024 * MB  # address space of the process that reads a workbook
SHEET_WORKER_SECONDS = 60  # wall-clock time it may take (CPU time is limited the same)

# ---- OpenGotha tournament XML
MAX_OPENGOTHA_BYTES = 20 * MB
MAX_OPENGOTHA_ELEMENTS = 500_000  # players, games, byes, parameters … (600 players: about 10,000)
MAX_OPENGOTHA_DEPTH = 32  # OpenGotha nests 3 deep

# ---- EGD results (h9)
MAX_H9_BYTES = 5 * MB
MAX_H9_LINES = 20_000  # lines of any kind (the largest European events have about 1,500 players)
MAX_H9_LINE_CHARS = 4_000  # one player's line (32 rounds take about 400)

# ---- a 规程 text for ``yisai regulation draft`` (.txt / .docx / .pdf)
MAX_REGULATION_SOURCE_BYTES = 20 * MB  # the file on disk (a Word file or PDF with pictures: a few MB)
MAX_REGULATION_SOURCE_PAGES = 100  # pages of a PDF (a 规程 has 3-10)
MAX_REGULATION_SOURCE_SECONDS = 30  # wall clock to read a PDF's text layer, checked between pages
MAX_REGULATION_DOCX_BYTES = 50 * MB  # a .docx's parts, uncompressed (and at most MAX_ZIP_ENTRIES of them)
MAX_REGULATION_DOCX_PARTS = 300  # parts in a .docx (Word writes 10-30; pictures add one each)
MAX_REGULATION_DOCX_XML_BYTES = 4 * MB  # the main document part, unpacked (a 20-page 规程: under 1 MB)
MAX_REGULATION_PDF_CONTENT_BYTES = 512 * 1024  # the pages' content streams and forms, unpacked, in all (a dense page of text: ~5 KB; pypdf reads ~2.6 µs a byte, so ~1.3 s)

# ---- kept by the pure core (which cannot import this package), looked up here on first use so
# that reading a workbook does not load the regulation schema:
# SGF (``yisai.game.sgf``): MAX_SGF_BYTES = 20 MB, SGF_MAX_DEPTH = 10,000 nested variations,
# SGF_MAX_NODES = 100,000, SGF_MAX_VALUES = 500,000 property values;
# regulation TOML (``yisai.regulation.loader``): MAX_REGULATION_BYTES = 1 MB,
# REGULATION_MAX_NESTING = 16 levels of [ ] / { }, REGULATION_MAX_NUMBER_LENGTH = 24 characters
# (and integers within 64 bits); the 规程 drafter (``yisai.regulation.draft``): MAX_DRAFT_TEXT_CHARS =
# 200,000 characters of text, MAX_DRAFT_SENTENCES = 5,000, MAX_DRAFT_LINE_CHARS = 4,000 (longer lines cut).
_CORE = {
    "MAX_SGF_BYTES": ("yisai.game.sgf", "MAX_SGF_BYTES"),
    "SGF_MAX_DEPTH": ("yisai.game.sgf", "MAX_DEPTH"),
    "SGF_MAX_NODES": ("yisai.game.sgf", "MAX_NODES"),
    "SGF_MAX_VALUES": ("yisai.game.sgf", "MAX_VALUES"),
    "MAX_REGULATION_BYTES": ("yisai.regulation.loader", "MAX_REGULATION_BYTES"),
    "REGULATION_MAX_NESTING": ("yisai.regulation.loader", "MAX_NESTING"),
    "REGULATION_MAX_NUMBER_LENGTH": ("yisai.regulation.loader", "MAX_NUMBER_LENGTH"),
    "MAX_DRAFT_TEXT_CHARS": ("yisai.regulation.draft.text", "MAX_TEXT_CHARS"),
    "MAX_DRAFT_SENTENCES": ("yisai.regulation.draft.text", "MAX_SENTENCES"),
    "MAX_DRAFT_LINE_CHARS": ("yisai.regulation.draft.text", "MAX_LINE_CHARS"),
}


def __getattr__(name: str) -> Any:
    if name not in _CORE:
        raise AttributeError(name)
    import importlib

    module, attr = _CORE[name]
    return getattr(importlib.import_module(module), attr)


__all__ = [
    "MAX_COLUMNS",
    "MAX_FILE_BYTES",
    "MAX_H9_BYTES",
    "MAX_H9_LINES",
    "MAX_H9_LINE_CHARS",
    "MAX_OPENGOTHA_BYTES",
    "MAX_OPENGOTHA_DEPTH",
    "MAX_OPENGOTHA_ELEMENTS",
    "MAX_REGULATION_DOCX_BYTES",
    "MAX_REGULATION_DOCX_PARTS",
    "MAX_REGULATION_DOCX_XML_BYTES",
    "MAX_REGULATION_PDF_CONTENT_BYTES",
    "MAX_REGULATION_SOURCE_BYTES",
    "MAX_REGULATION_SOURCE_PAGES",
    "MAX_REGULATION_SOURCE_SECONDS",
    "MAX_ROWS",
    "MAX_SHARED_STRINGS",
    "MAX_SHEET_CELLS",
    "MAX_SHEET_ROW",
    "MAX_XML_DEPTH",
    "MAX_ZIP_ENTRIES",
    "MAX_ZIP_ENTRY_BYTES",
    "MAX_ZIP_TOTAL_BYTES",
    "MB",
    "SHEET_WORKER_MEMORY",
    "SHEET_WORKER_SECONDS",
    "read_at_most",
]  # fmt: skip


def read_at_most(path: str | Path, limit: int) -> bytes:
    """A file's bytes, but never more than ``limit`` + 1 of them: a reader that finds more
    refuses the file without having read a larger one (or /dev/zero) into memory.
    Raises OSError as ``open`` does."""
    with open(path, "rb") as f:
        return f.read(limit + 1)

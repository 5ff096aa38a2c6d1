"""Files that arrive as bytes (a web upload, an API call) read by the same readers as files on
disk: the bytes are put in a private temporary folder under the sender's own file name, so every
message names the file the user sent, and the folder is removed at once."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from yisai.formats.result_sheet import ResultSheet, read_result_sheet
from yisai.formats.roster import Roster, read_roster
from yisai.regulation import Regulation

T = TypeVar("T")


def safe_name(filename: str, default: str = "upload.xlsx") -> str:
    """The last part of a sender's file name, without folders or characters a path cannot hold."""
    name = Path(filename.replace("\\", "/")).name.strip().lstrip(".")
    name = "".join(c for c in name if c.isprintable() and c not in '/\\:*?"<>|')
    return name[:120] or default


def with_bytes(data: bytes, filename: str, read: Callable[[Path], T]) -> T:
    with tempfile.TemporaryDirectory(prefix="yisai-upload-") as folder:
        path = Path(folder) / safe_name(filename)
        path.write_bytes(data)
        return read(path)


def read_roster_bytes(data: bytes, filename: str, regulation: Regulation | None = None) -> Roster:
    return with_bytes(data, filename, lambda p: read_roster(p, regulation))


def read_result_sheet_bytes(data: bytes, filename: str) -> ResultSheet:
    return with_bytes(data, filename, read_result_sheet)

"""A regulation TOML file read from disk: its bytes, bounded before they are read, then parsed by
``yisai.regulation.loads`` (the core parses text and opens no file)."""

from __future__ import annotations

from pathlib import Path

from yisai.i18n import Text, os_error_text
from yisai.regulation.loader import MAX_REGULATION_BYTES, Issue, RegulationError, loads, size_issue
from yisai.regulation.schema import Regulation


def load(path: str | Path) -> Regulation:
    """The regulation in the file at ``path``; RegulationError naming the file and line otherwise."""
    return loads(read_file(path), str(path))


def read_file(path: str | Path) -> bytes:
    """A regulation file's bytes, refused unread past MAX_REGULATION_BYTES; RegulationError
    (never OSError) when it cannot be read."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            size = p.stat().st_size
            if size > MAX_REGULATION_BYTES:
                raise RegulationError([size_issue(str(p), size)])
            raw = f.read(MAX_REGULATION_BYTES + 1)  # a file that grows meanwhile stops here
    except OSError as exc:
        why = os_error_text(exc)
        raise RegulationError(
            [Issue(str(p), 0, "", Text(f"无法读取文件: {why.zh}", f"cannot read the file: {why.en}"))]
        ) from None
    return raw

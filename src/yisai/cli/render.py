"""Terminal rendering shared by the commands: tables laid out for an 80–100 column terminal
(long cells wrap inside their column, nothing is cut), and files written with a clear message."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from yisai.cli.session import console, fail, say
from yisai.formats.awards_report import TextTable
from yisai.formats.limits import MAX_FILE_BYTES, MB, read_at_most
from yisai.i18n import tr


def print_text_table(t: TextTable) -> None:
    table = Table(title=t.title, title_style="bold", show_lines=False, expand=False)
    for h in t.headers:
        table.add_column(h, overflow="fold")
    previous: tuple[object, ...] = ()
    for row in t.rows:
        cells = ["" if c is None else str(c) for c in row]
        key = tuple(row[c] for c in t.group_columns if c < len(row))
        if t.group_columns and key == previous:  # same grant as the row above: shown once
            for c in t.group_columns:
                cells[c] = ""
        previous = key
        table.add_row(*cells)
    console.print(table)
    for note in t.notes:
        say("  " + note, "dim")


def read_input(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """An input file's bytes; a missing or unreadable file, or one over ``limit`` (never read
    whole), is a message naming it."""
    try:
        data = read_at_most(path, limit)
        if len(data) > limit:
            size = path.stat().st_size
            fail(tr(f"{path}: 文件有 {size} 字节, 超过上限 {limit // MB} MB, 未读取; 请分成几个文件",
                    f"{path}: the file has {size} bytes, over the limit of {limit // MB} MB; nothing was read."
                    " Split it into several files"))
        return data
    except OSError as exc:
        fail(tr(f"无法读取 {path}: {exc.strerror or exc}", f"cannot read {path}: {exc.strerror or exc}"))


def check_target(path: Path, suffix: str) -> Path:
    """An output file's name must end in ``suffix`` (.xlsx, .pdf): checked before any work."""
    if path.suffix.lower() != suffix:
        fail(tr(f"文件须以 {suffix} 结尾: {path}", f"the file must end in {suffix}: {path}"))
    return path


def write_file(path: Path, data: bytes, suffix: str | None = None) -> None:
    """Write an export; a wrong suffix, a missing folder or a write error is a message."""
    if suffix is not None:
        check_target(path, suffix)
    if not path.parent.exists():
        fail(tr(f"目录不存在: {path.parent}", f"directory does not exist: {path.parent}"))
    try:
        path.write_bytes(data)
    except OSError as exc:
        fail(tr(f"无法写入 {path}: {exc.strerror}", f"cannot write {path}: {exc.strerror}"), code=1)
    say(tr(f"已导出: {path} ({len(data) // 1024} KB)", f"written: {path} ({len(data) // 1024} KB)"), "green")

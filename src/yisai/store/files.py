"""Uploaded files kept outside the database rows: one folder per event and team.

The embedded default is a folder next to the SQLite file (``yisai.sqlite`` → ``yisai.files/``);
a server names a directory (``Settings.files_dir``), e.g. a mounted volume or an object-store
gateway path shared by its workers. Keys are made by the store from ids and the regulation's
file name, never from a path a user typed; a key that would leave the root is refused.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sqlalchemy.engine import make_url

from yisai.store.database import resolve_url

_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]')


def safe_part(text: str, default: str = "file") -> str:
    """A file-name component with no separators or control characters (Chinese kept as is)."""
    cleaned = _UNSAFE.sub("_", text).strip(" .")
    return cleaned[:150] or default


def default_files_dir(database: str) -> Path:
    """Next to a SQLite file; for a server database, ``./yisai-files`` (name one instead)."""
    url = make_url(resolve_url(database))
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        db = Path(url.database)
        return db.with_name(db.stem + ".files")
    return Path("yisai-files")


class FileStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        root = self.root.resolve()
        path = (root / key).resolve()
        if root not in path.parents:
            raise ValueError(f"file key outside the store: {key!r}")
        return path

    def put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(data)
        os.replace(tmp, path)  # a reader never sees half a file

    def get(self, key: str) -> bytes:
        return self._path(key).read_bytes()

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def delete_under(self, prefix: str) -> int:
        """Delete every file under ``prefix`` (and the emptied folders); how many files went."""
        top = self._path(prefix)
        if not top.is_dir():
            return 0
        files = [p for p in top.rglob("*") if p.is_file()]
        for p in files:
            p.unlink()
        for d in sorted((p for p in top.rglob("*") if p.is_dir()), key=lambda d: -len(d.parts)):
            d.rmdir()
        top.rmdir()
        return len(files)

    def delete(self, key: str) -> bool:
        path = self._path(key)
        if not path.is_file():
            return False
        path.unlink()
        return True

"""Where standings come from: an OpenGotha XML file, an EGD h9 file, or (plugged in later) an
event in the store. Front ends call ``load_source`` and never care which.

The store-backed source registers itself with ``register_source_resolver``: a resolver gets the
SOURCE text and returns a ``StandingsInput`` if it recognises it, else None.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from yisai.formats.h9 import H9Error, read_h9
from yisai.formats.opengotha import OpenGothaError, read_opengotha
from yisai.i18n import tr
from yisai.standings.model import StandingsInput

SourceResolver = Callable[[str], StandingsInput | None]
_RESOLVERS: list[SourceResolver] = []


class SourceError(ValueError):
    """The SOURCE cannot be read; the message says what to fix (file, line, element)."""


def register_source_resolver(resolver: SourceResolver) -> None:
    """Add a resolver tried before the file readers (e.g. ``event:NAME`` from the store)."""
    if resolver not in _RESOLVERS:
        _RESOLVERS.insert(0, resolver)


def _looks_like_xml(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf").lstrip()
    return head.startswith(b"<")


def load_source(source: str) -> StandingsInput:
    """An event name/URL for a registered resolver, or a path to an OpenGotha / h9 file."""
    for resolver in _RESOLVERS:
        found = resolver(source)
        if found is not None:
            return found
    path = Path(source)
    if not path.is_file():
        raise SourceError(
            tr(
                f"{source}: 找不到该文件或赛事 (应为 OpenGotha .xml 文件、EGD .h9 文件或赛事名)",
                f"{source}: no such file or event (expected an OpenGotha .xml, an EGD .h9 or an event)",
            )
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(
            tr(f"{source}: 无法读取 ({exc.strerror})", f"{source}: cannot read ({exc.strerror})")
        ) from exc
    try:
        if path.suffix.lower() == ".xml" or _looks_like_xml(data):
            return read_opengotha(path, data)
        return read_h9(path, data)
    except (OpenGothaError, H9Error) as exc:
        raise SourceError(str(exc)) from exc

"""Where standings come from: an OpenGotha XML file, an EGD h9 file, or an event in the store.
Front ends call ``load_source`` and never care which; the store is the one named by the settings
they pass (never read from the environment here).
"""

from __future__ import annotations

from pathlib import Path

from yisai.formats.h9 import H9Error, read_h9
from yisai.formats.limits import MAX_H9_BYTES, MAX_OPENGOTHA_BYTES, read_at_most
from yisai.formats.opengotha import OpenGothaError, read_opengotha
from yisai.i18n import tr
from yisai.services.settings import Settings
from yisai.standings.model import StandingsInput


class SourceError(ValueError):
    """The SOURCE cannot be read; the message says what to fix (file, line, element)."""


def _looks_like_xml(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf").lstrip()
    return head.startswith(b"<")


def _event_input(source: str, settings: Settings) -> StandingsInput | None:
    """The event ``source`` (number or name) in the settings' store; None if there is none."""
    from yisai.services.context import ServiceError, unit_of_work
    from yisai.services.event_data import standings_input
    from yisai.services.events import resolve_event

    try:
        with unit_of_work(settings) as work:
            return standings_input(work, resolve_event(work, source))
    except ServiceError:
        return None


def load_source(source: str, settings: Settings | None = None) -> StandingsInput:
    """A path to an OpenGotha / h9 file, or (with ``settings``) an event by number or name."""
    path = Path(source)
    if not path.is_file() and settings is not None:
        found = _event_input(source, settings)
        if found is not None:
            return found
    if not path.is_file():
        raise SourceError(
            tr(
                f"{source}: 找不到该文件或赛事 (应为 OpenGotha .xml 文件、EGD .h9 文件或赛事名)",
                f"{source}: no such file or event (expected an OpenGotha .xml, an EGD .h9 or an event)",
            )
        )
    try:
        data = read_at_most(path, max(MAX_OPENGOTHA_BYTES, MAX_H9_BYTES))  # each reader checks its own limit
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

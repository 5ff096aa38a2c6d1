"""Lets `yisai standings SOURCE` read an event from the store (by number or name)."""

from __future__ import annotations

from pathlib import Path

from yisai.services.context import ServiceError, unit_of_work
from yisai.services.event_data import standings_input
from yisai.services.events import resolve_event
from yisai.services.standings_source import register_source_resolver
from yisai.standings import StandingsInput


def event_source(source: str) -> StandingsInput | None:
    """An event in the store (``YISAI_DB``/``YISAI_DATABASE_URL``); None lets files be tried."""
    if Path(source).is_file():
        return None
    try:
        with unit_of_work(None) as work:
            event = resolve_event(work, source)
            return standings_input(work, event)
    except ServiceError:
        return None


register_source_resolver(event_source)

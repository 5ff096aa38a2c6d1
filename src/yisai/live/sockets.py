"""What the live hub keeps per socket (``Client``) and per game it owns (``Slot``)."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from yisai.live.delay import Recent
from yisai.qualifier.session import LiveGame, LiveGameInfo


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


TRIPS_KEPT = 4  # half round trips a socket's delay is the least of


@dataclass(eq=False)
class Client:
    ws: WebSocket
    conn: str
    player: str | None
    name: str
    division: str
    lang: str
    games: set[int] = field(default_factory=set)
    delay: float = 0.0  # one-way network delay credited to a move: see ``ponged``
    pinged_at: float | None = None  # the server clock's ``at`` of the ping awaiting its pong
    trips: deque[float] = field(default_factory=lambda: deque(maxlen=TRIPS_KEPT))  # recent half round trips
    share: int = 0  # which tick of the ping interval pings this socket
    received: float = 0.0  # perf_counter when the frame being handled arrived
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def pinged(self, at: float) -> None:
        self.pinged_at = at

    def ponged(self, at: object, now: float) -> None:
        """A pong counts only if it echoes the ping the server sent this socket last (once):
        a forged or replayed ``at`` changes nothing. The delay credited is the smallest of the
        last few half round trips the server measured itself, so one slow pong cannot raise it."""
        if self.pinged_at is None or not isinstance(at, int | float) or at != self.pinged_at:
            return
        self.pinged_at = None
        if 0 <= now - at < 60:
            self.trips.append((now - at) / 2)
            self.delay = min(self.trips)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.send_text(dumps(msg))

    async def send_text(self, text: str) -> None:
        """A message already encoded (a fan-out encodes once for every socket)."""
        try:
            async with self.send_lock:
                await self.ws.send_text(text)
        except Exception:  # the socket is closing; its own loop cleans up
            pass


@dataclass(eq=False)
class Slot:
    info: LiveGameInfo
    game: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    last_presence: tuple[bool, int, bool, int] | None = None
    remote: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # conn → (process, player)
    recent: Recent = field(default_factory=Recent)  # views a delayed spectator may still need

    @property
    def players(self) -> tuple[str, str]:
        return self.info.black, self.info.white


__all__ = ["Client", "Slot", "dumps"]

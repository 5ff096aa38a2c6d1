"""What every part of the live hub shares: the options, this process's name and store access
(``HubState``), the games it owns and watches (``Games``: ownership) and its open sockets
(``Connections``). The parts (acting, spectators, seating, housekeeping, the cluster link) are
composed around one ``HubState`` by ``yisai.live.server.LiveHub``."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from yisai.live.cluster import Cluster
from yisai.live.metrics import Metrics
from yisai.live.sockets import Client, Slot
from yisai.live.writer import Writer
from yisai.services import live as svc
from yisai.services.context import Context
from yisai.services.identity import Actor
from yisai.services.metrics import LIVE_GAMES

T = TypeVar("T")
# Long enough that relaying a spectator's view to a player cannot help within a move's thinking
# time of a 30-minute game, short enough for an audience: the server's default, settable per
# deployment (``yisai serve --spectator-delay``).
DEFAULT_SPECTATOR_DELAY = 60.0
OWNER_LABEL_CHARS = 48  # + "/" + an 8-character start token: within live_games.owner's 64
# Periodic passes over games yield to the event loop after this many items.
CHUNK = 200
# The pings go out a group every PING_STEP seconds (each socket still every ``ping_seconds``).
PING_STEP = 0.02


@dataclass
class LiveOptions:
    event: str | int | None = None  # which event's qualifier (None: the only event)
    secret: str = ""  # ticket signing key (the web app's secret); required
    clock: Callable[[], float] = time.time  # game time, epoch seconds
    wave_seconds: float = 3.0
    tick_seconds: float = 0.5
    ping_seconds: float = 5.0
    silence_seconds: float = 15.0  # a connection with no frame for this long is gone
    alive_seconds: float = 2.0  # how often games are stamped alive (crash recovery precision)
    lag_cap: float | None = None  # None: the session default
    owner: str = field(default_factory=lambda: f"{os.uname().nodename}:{os.getpid()}")  # a label: see HubState.me
    # Spectators see everything this many seconds late (0 = live); players never wait.
    spectator_delay: float = DEFAULT_SPECTATOR_DELAY
    redis_url: str | None = None  # None: one process, no Redis
    redis_prefix: str = "yisai:live"  # keys and channels (one per deployment / test)
    owner_ttl: float = 10.0  # an ownership key lives this long unless renewed (takeover delay)
    request_seconds: float = 5.0  # a forwarded request unanswered this long is retried
    # Sockets open at once in this process: per client address (players behind one school's
    # NAT, spectators, tabs) and per player's ticket (a phone and a computer, a reload).
    sockets_per_address: int = 64
    sockets_per_player: int = 4


class Games:
    """Ownership: the games this process owns (``slots``, indexed by player: no scan over
    thousands of games per socket) and, with Redis, the games owned elsewhere that our sockets
    watch (``remote_watch``, with their players and last known owner)."""

    def __init__(self) -> None:
        self.slots: dict[int, Slot] = {}  # the games this process owns (add with keep / drop)
        self.by_player: dict[str, set[int]] = {}  # player → ids of their games in self.slots
        self.remote_watch: dict[int, set[Client]] = {}  # games owned elsewhere → our sockets
        self.remote_players: dict[int, tuple[str, str]] = {}
        self.known_owner: dict[int, str] = {}

    def keep(self, slot: Slot) -> Slot:
        """Own a game here."""
        if slot.info.id not in self.slots:
            LIVE_GAMES.inc()
        self.slots.setdefault(slot.info.id, slot)
        for player in slot.players:
            self.by_player.setdefault(player, set()).add(slot.info.id)
        return self.slots[slot.info.id]

    def drop(self, gid: int) -> Slot | None:
        slot = self.slots.pop(gid, None)
        if slot is not None:
            LIVE_GAMES.dec()
            for player in slot.players:
                games = self.by_player.get(player, set())
                games.discard(gid)
                if not games:
                    self.by_player.pop(player, None)
        return slot

    def playing(self) -> list[int]:
        return [gid for gid, s in self.slots.items() if s.info.status == "playing"]

    def in_game(self, player: str) -> bool:
        """Whether the player has an unfinished game owned here."""
        return any(not self.slots[g].game.over for g in self.by_player.get(player, ()))

    def watch(self, gid: int, client: Client) -> None:
        """Our socket follows a game owned elsewhere (before asking: no news lost)."""
        self.remote_watch.setdefault(gid, set()).add(client)
        client.games.add(gid)

    def unwatch(self, gid: int, client: Client) -> None:
        self.remote_watch.get(gid, set()).discard(client)

    def forget_unwatched(self) -> None:
        for gid, watchers in list(self.remote_watch.items()):
            if not watchers:
                del self.remote_watch[gid]
                self.remote_players.pop(gid, None)
                self.known_owner.pop(gid, None)


class Connections:
    """The open sockets: by player and by connection id, and the ping group of each.
    Periodic work is spread out: every PING_STEP one group of the sockets is pinged, so their
    pongs come back a few dozen at a time, not thousands in one burst."""

    def __init__(self, ping_seconds: float) -> None:
        self.clients: dict[str, set[Client]] = {}  # player → open connections
        self.conns: dict[str, Client] = {}  # connection id → connection (answers from owners)
        self.names: dict[str, str] = {}
        self.count = 0
        self.ping_shares = max(1, round(ping_seconds / PING_STEP))
        self.ping_groups: list[set[Client]] = [set() for _ in range(self.ping_shares)]

    def add(self, client: Client) -> None:
        self.count += 1
        client.share = self.count % self.ping_shares
        self.conns[client.conn] = client
        if client.player is not None:
            self.clients.setdefault(client.player, set()).add(client)
            self.names[client.player] = client.name
            self.ping_groups[client.share].add(client)

    def remove(self, client: Client) -> bool:
        """Forget a closed socket; True when it was its player's last one."""
        self.conns.pop(client.conn, None)
        self.ping_groups[client.share].discard(client)
        if client.player is None:
            return False
        conns = self.clients.get(client.player, set())
        conns.discard(client)
        if conns:
            return False
        self.clients.pop(client.player, None)
        return True

    def of(self, player: str) -> list[Client]:
        return list(self.clients.get(player, ()))


class HubState:
    """The options, this process's name, the store and the writer, the cluster transport (None
    without Redis), the games and the sockets: what the hub's parts share."""

    def __init__(self, context: Context, options: LiveOptions) -> None:
        if not options.secret:  # an empty key would let anyone forge a player's ticket
            raise ValueError("LiveOptions.secret must be set (the web app's secret key)")
        self.ctx = context
        self.opt = options
        # Our name in the cluster (channel, ownership keys, queue origins): the configured label
        # and a token new at every start, so a process restarted under the same label (pid 1 in
        # a container) is never taken for its predecessor, whose queued players are gone.
        # (The label is cut to fit the store's 64-character owner column: a pod's host name alone
        # can be 63 characters.)
        self.me = f"{options.owner[:OWNER_LABEL_CHARS]}/{secrets.token_hex(4)}"
        self.cfg: svc.LiveConfig | None = None
        self.actor = Actor.system()
        self.metrics = Metrics()
        self.writer = Writer(context, self.actor, self.metrics)
        self.delay = max(options.spectator_delay, 0.0)
        self.cluster: Cluster | None = None
        self.games = Games()
        self.sockets = Connections(options.ping_seconds)

    def config(self) -> svc.LiveConfig:
        assert self.cfg is not None, "the hub has not started"
        return self.cfg

    def now(self) -> float:
        return self.opt.clock()

    async def read(self, fn: Callable[..., T]) -> T:
        """A read-only use case in a worker thread: ``fn(work, cfg)``."""
        cfg = self.cfg

        def run() -> T:
            with self.ctx.work(actor=self.actor) as work:
                return fn(work, cfg)

        return await asyncio.to_thread(run)


__all__ = ["CHUNK", "DEFAULT_SPECTATOR_DELAY", "PING_STEP", "Connections", "Games", "HubState", "LiveOptions"]

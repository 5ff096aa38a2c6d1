"""The live server: one WebSocket endpoint for matching, playing and watching, on FastAPI.

``create_live_router(context, ...)`` returns an ``APIRouter`` the web app includes; its lifespan
resumes the games in progress (``services.live.resume_games``) and runs two loops: matching
waves per pool every ``wave_seconds``, and housekeeping every ``tick_seconds`` (pings, dropping
silent connections, settling flags and escapes, telling both players how long an absent one has
left, stamping the games as alive for crash recovery).

Protocol (JSON text frames; ``t`` is the type). Connect to ``/live/ws?ticket=...`` (a signed
ticket naming the player, their name and division, good for ``TICKET_SECONDS``: ``issue_ticket``);
no ticket = spectator. A refused ticket gets ``error`` ``bad_ticket`` or ``ticket_expired`` and
the socket is closed with code 4401 (the page renews the ticket from ``/play/ticket``).

client → server                                  server → client
  {"t":"focus","game":id,"lost":n}                  (none: the page lost focus n times so far)
  {"t":"queue"} / {"t":"leave"}                    {"t":"welcome","player","games":[ids]}
  {"t":"join","game":id}                           {"t":"queued","pool","period"}
  {"t":"act","game":id,"kind":"move|pass|resign|   {"t":"matched","game","color","opponent"}
        toggle|accept|reject","point":"D4",        {"t":"state","game",...}   (full resync)
        "version":n}                               {"t":"ack","game","seq","version","duplicate"}
  {"t":"sync","game":id}                           {"t":"update","game","action","version","state"}
  {"t":"pong","at":<the ping's at>}                {"t":"refused","game","code","message","version"}
  (any frame counts as presence)
                                                   {"t":"ended","game","result","reason"}
                                                   {"t":"ping"}, {"t":"error","code","message"}

Guarantees: an action is stored (committed) before its ``ack`` and the ``update`` to anyone;
a resent action (same version and content) gets the same ack again and is applied once; a stale
one is refused with the current version so the client resyncs; the result, SGF and ladder are
committed before ``ended`` is sent. Lag compensation: the server measures each connection's
round trip from its pings (a pong echoes the ping's ``at``) and credits half of it to a move,
at most the game's ``lag_cap`` (0.5 s by default); a client cannot claim a delay.

Spectators (sockets that are not one of the game's two players) get every ``update``,
``presence`` and ``ended`` ``spectator_delay`` seconds after it happened, and their ``state``
is the game as it was that long ago (it carries ``"delay"``); players are never delayed.

Scale-out (``LiveOptions.redis_url``): several processes share one store and one Redis. A game
is owned by one process (``yisai.live.cluster``); a socket held by another process has its
``act``/``join``/frames forwarded to the owner and gets the owner's answers and news back
through Redis, in order. The matching waves run in one elected process. When an owner dies,
another process takes its games over once their ownership keys expire, resuming them from the
store without charging the outage. Without Redis, one process owns every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect
from itsdangerous import BadSignature, URLSafeSerializer

from yisai.game.board import BLACK, WHITE
from yisai.game.flow import Phase
from yisai.i18n import Text, normalise
from yisai.live import relay
from yisai.live.cluster import Cluster, Unanswered
from yisai.live.delay import DelayLine, delayed_state
from yisai.live.metrics import Metrics
from yisai.live.sockets import Client, Slot, dumps
from yisai.live.writer import Writer
from yisai.qualifier.matching import Matchmaker
from yisai.qualifier.periods import closed_reason, open_period, pool_of
from yisai.qualifier.session import Action, Kind, LiveGame, LiveRefused, color_name
from yisai.services import fairplay
from yisai.services import live as svc
from yisai.services.context import Context, Work
from yisai.services.errors import ServiceError
from yisai.services.identity import Actor

log = logging.getLogger("yisai.live")
T = TypeVar("T")
TICKET_SALT = "yisai-live-ticket"
# Long enough that relaying a spectator's view to a player cannot help within a move's thinking
# time of a 30-minute game, short enough for an audience: the server's default, settable per
# deployment (``yisai serve --spectator-delay``).
DEFAULT_SPECTATOR_DELAY = 60.0
OWNER_LABEL_CHARS = 48  # + "/" + an 8-character start token: within live_games.owner's 64
# Periodic passes over games yield to the event loop after this many items.
CHUNK = 200
# The pings go out a group every PING_STEP seconds (each socket still every ``ping_seconds``).
PING_STEP = 0.02
# How uvicorn should run the live socket (``yisai serve`` and the bench use the same): no
# per-message compression (frames are 20–300 bytes of JSON; deflate cost CPU on every frame and
# a compressor's memory per socket), and the protocol's keep-alive ping once a minute only to
# find dead TCP peers — the hub itself pings every ``ping_seconds`` for presence and lag.
UVICORN_WS: dict[str, Any] = {"ws_per_message_deflate": False, "ws_ping_interval": 60.0, "ws_ping_timeout": 30.0}


# A ticket is accepted for this long after it was issued (wall time). The page fetches a fresh
# one from ``/play/ticket`` when the socket says it expired, so a long day at the board is not
# interrupted; a ticket copied out of a log or a shared link stops working within hours.
TICKET_SECONDS = 4 * 3600


@dataclass(frozen=True)
class Ticket:
    player: str
    name: str
    division: str
    expires: float  # epoch seconds (wall time)


def issue_ticket(secret: str, player: str, name: str, division: str, *, now: float | None = None) -> str:
    """A signed ticket the web app gives a signed-in player for the live socket."""
    expires = int((time.time() if now is None else now) + TICKET_SECONDS)
    return URLSafeSerializer(secret, salt=TICKET_SALT).dumps({"p": player, "n": name, "d": division, "x": expires})


def read_ticket(secret: str, ticket: str) -> Ticket | None:
    """The ticket's contents, or None when it is not one of ours (its expiry is the caller's)."""
    try:
        data = URLSafeSerializer(secret, salt=TICKET_SALT).loads(ticket)
        # a ticket from before tickets expired has no "x": treated as expired, the page renews it
        return Ticket(str(data["p"]), str(data["n"]), str(data["d"]), float(data.get("x", 0)))
    except (BadSignature, KeyError, TypeError, ValueError, AttributeError):
        return None


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
    owner: str = field(default_factory=lambda: f"{os.uname().nodename}:{os.getpid()}")  # a label: see LiveHub.me
    # Spectators see everything this many seconds late (0 = live); players never wait.
    spectator_delay: float = DEFAULT_SPECTATOR_DELAY
    redis_url: str | None = None  # None: one process, no Redis
    redis_prefix: str = "yisai:live"  # keys and channels (one per deployment / test)
    owner_ttl: float = 10.0  # an ownership key lives this long unless renewed (takeover delay)
    request_seconds: float = 5.0  # a forwarded request unanswered this long is retried


class LiveHub:
    """All games and queues of this process (and, with Redis, its part of the cluster)."""

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
        self.slots: dict[int, Slot] = {}  # the games this process owns (add with keep / drop)
        self.by_player: dict[str, set[int]] = {}  # player → ids of their games in self.slots
        self.clients: dict[str, set[Client]] = {}  # player → open connections
        self.conns: dict[str, Client] = {}  # connection id → connection (answers from owners)
        self.connections = 0
        self.names: dict[str, str] = {}
        self.matchmaker: Matchmaker | None = None
        self.match_day: Any = None
        self.tasks: list[asyncio.Task[None]] = []
        self.started = False
        self._start_lock = asyncio.Lock()
        self._match_lock = asyncio.Lock()
        self._takeover_lock = asyncio.Lock()
        self.being_seated: set[str] = set()  # players of a wave whose games are being stored
        self.actor = Actor.system()
        self.metrics = Metrics()
        self.writer = Writer(context, self.actor, self.metrics)
        self.delay = max(options.spectator_delay, 0.0)
        self.delay_line = DelayLine(options.clock, self._deliver_late)
        # ----- cluster state (empty without Redis) -----
        self.cluster: Cluster | None = None
        self.remote_watch: dict[int, set[Client]] = {}  # games owned elsewhere → our sockets
        self.remote_players: dict[int, tuple[str, str]] = {}
        self.known_owner: dict[int, str] = {}
        self.origin: dict[str, str] = {}  # leader: queued player → the process holding them
        self.forwarded: dict[str, tuple[str, str]] = {}  # our players queued at the leader
        self.leader_seen = ""
        self.frames_out: dict[str, set[tuple[int, str, str]]] = {}
        self.serving: set[tuple[str, Any]] = set()  # forwarded requests being served (from, id)
        self.seating: set[asyncio.Future[Any]] = set()  # waves whose players are being told
        # Periodic work is spread out: every PING_STEP one group of the sockets is pinged (so
        # their pongs come back a few dozen at a time, not thousands in one burst), and each
        # housekeeping tick sweeps one share of the games for silent connections and stamps one
        # share alive: nothing does O(all sockets) or O(all games) at once, each still every period.
        self.ping_shares = max(1, round(options.ping_seconds / PING_STEP))
        self.sweep_shares = max(1, round(options.ping_seconds / options.tick_seconds))
        self.alive_shares = max(1, round(options.alive_seconds / options.tick_seconds))
        self.ping_groups: list[set[Client]] = [set() for _ in range(self.ping_shares)]

    def keep(self, slot: Slot) -> Slot:
        """Own a game here (indexed by player: no scan over thousands of games per socket)."""
        self.slots.setdefault(slot.info.id, slot)
        for player in slot.players:
            self.by_player.setdefault(player, set()).add(slot.info.id)
        return self.slots[slot.info.id]

    def drop(self, gid: int) -> Slot | None:
        slot = self.slots.pop(gid, None)
        if slot is not None:
            for player in slot.players:
                games = self.by_player.get(player, set())
                games.discard(gid)
                if not games:
                    self.by_player.pop(player, None)
        return slot

    # ----- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        async with self._start_lock:
            if self.started:
                return
            now = self.opt.clock()
            self.cfg, resumed = await asyncio.to_thread(self._load, now)
            for info, game in resumed:
                self.keep(Slot(info, game))
            log.info("live: %d games resumed", len(resumed))
            self.writer.start()
            self.delay_line.start()
            self.metrics.start()
            _calm_the_collector()
            if self.opt.redis_url:
                self.cluster = Cluster(self.opt.redis_url, self.opt.redis_prefix, self.me,
                                       self.opt.owner_ttl, partial(relay.on_message, self))  # fmt: skip
                await self.cluster.start()
                await relay.scan(self)
            self.tasks = [asyncio.create_task(self._waves()), asyncio.create_task(self._housekeeping()),
                          asyncio.create_task(self._pings())]
            if self.cluster is not None:
                self.tasks.append(asyncio.create_task(self._keep_keys()))
            self.started = True

    def _load(self, now: float) -> tuple[svc.LiveConfig, list[tuple[svc.LiveGameInfo, LiveGame]]]:
        with self.ctx.work(actor=self.actor) as work:
            cfg = svc.live_config(work, self.opt.event, lag_cap=self.opt.lag_cap)
            if self.opt.redis_url:  # games are taken over one by one as their keys expire
                return cfg, []
            return cfg, svc.resume_games(work, cfg, now, owner=self.me)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks = []
        for seating in list(self.seating):
            seating.cancel()
        await self.writer.stop()
        await self.delay_line.stop()
        await self.metrics.stop()
        if self.cluster is not None:  # hand our games over at once instead of after the expiry
            with contextlib.suppress(Exception):
                await self.cluster.release(list(self.slots))
            await self.cluster.stop()
            self.cluster = None
        w = self.writer
        log.info("live: %d writes in %d commits, %.2f s committing", w.writes, w.batches, w.busy)
        self.started = False

    @asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        await self.start()
        try:
            yield
        finally:
            await self.stop()

    # ----- connections ------------------------------------------------------------------------
    async def serve(self, ws: WebSocket) -> None:
        await self.start()
        ticket = ws.query_params.get("ticket")
        who = read_ticket(self.opt.secret, ticket) if ticket else None
        lang = normalise(ws.query_params.get("lang"))
        await ws.accept()
        refusal = None
        if ticket and who is None:
            refusal = self._error("bad_ticket", Text("登录凭证无效, 请重新登录", "invalid ticket; sign in again"), lang)
        elif who is not None and who.expires <= time.time():
            refusal = self._error("ticket_expired", Text("登录凭证已过期, 正在更新", "the ticket expired; renewing it"),
                                  lang)  # fmt: skip
        if refusal is not None:
            await ws.send_json(refusal)
            await ws.close(code=4401)
            return
        player, name, division = (who.player, who.name, who.division) if who else (None, "", "")
        client = Client(ws, secrets.token_hex(6), player, name, division, lang)
        self.connections += 1
        client.share = self.connections % self.ping_shares
        self.conns[client.conn] = client
        if player is not None:
            self.clients.setdefault(player, set()).add(client)
            self.names[player] = name
            self.ping_groups[client.share].add(client)
        mine = sorted(self.by_player.get(player, ())) if player else []
        if player is not None and self.cluster is not None:  # games owned by other processes too
            mine = sorted(set(mine) | set(await self._read(partial(svc.playing_games_of, player=player))))
        await client.send({"t": "welcome", "player": player, "games": mine})
        try:
            while True:
                msg = await ws.receive_json()
                client.received = time.perf_counter()
                try:
                    await self._handle(client, msg if isinstance(msg, dict) else {})
                except ServiceError as exc:
                    await client.send({"t": "error", "code": exc.code, "message": exc.render(lang)})
                except (WebSocketDisconnect, RuntimeError):
                    raise
                except Exception:  # e.g. Redis unreachable: this message failed, the socket lives
                    log.exception("live: message %s failed", msg.get("t") if isinstance(msg, dict) else msg)
                    await client.send(self._error("server_error", Text("服务器暂时无法处理, 请稍后重试",
                                                                       "the server could not handle this now; retry"),
                                                  lang))  # fmt: skip
        except (WebSocketDisconnect, RuntimeError):
            pass
        except (ValueError, KeyError):  # not a JSON text frame: a broken client; close it
            with contextlib.suppress(Exception):
                await ws.close(code=1003)
        finally:
            await self._gone(client)

    async def _read(self, fn: Callable[..., T]) -> T:
        """A read-only use case in a worker thread: ``fn(work, cfg)``."""
        cfg = self.cfg

        def run() -> T:
            with self.ctx.work(actor=self.actor) as work:
                return fn(work, cfg)

        return await asyncio.to_thread(run)

    async def _gone(self, client: Client) -> None:
        self.conns.pop(client.conn, None)
        self.ping_groups[client.share].discard(client)
        if client.player is not None:
            conns = self.clients.get(client.player, set())
            conns.discard(client)
            if not conns:
                self.clients.pop(client.player, None)
                await self._leave(client.player)
        for gid in list(client.games):
            slot = self.slots.get(gid)
            if slot is None:
                self.remote_watch.get(gid, set()).discard(client)
                owner = self.known_owner.get(gid)
                if owner and self.cluster is not None:
                    with contextlib.suppress(Exception):
                        await self.cluster.send(owner, {"k": "detach", "game": gid, "conn": client.conn,
                                                        "player": client.player})  # fmt: skip
                continue
            slot.clients.discard(client)
            color = slot.info.color_of(client.player) if client.player else None
            if color is not None:
                async with slot.lock:
                    slot.game.detach(color, client.conn, self.opt.clock())
                    await self._after_change(slot)

    async def _handle(self, client: Client, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        now = self.opt.clock()
        if kind != "act":  # any frame shows the player is on the platform (act does it itself)
            for gid in list(client.games):
                slot = self.slots.get(gid)
                if slot is None:
                    self._remote_frame(client, gid)
                    continue
                color = slot.info.color_of(client.player) if client.player else None
                if color is not None and not slot.game.over:
                    async with slot.lock:  # the time is read under the lock: events stay ordered
                        slot.game.frame(color, client.conn, self.opt.clock())
                        await self._after_change(slot)
        if kind == "pong":
            sent = msg.get("at")
            if isinstance(sent, int | float) and 0 <= now - sent < 60:
                client.delay = (now - sent) / 2
            return
        elif kind == "queue":
            await self._queue(client)
        elif kind == "leave":
            if client.player:
                await self._leave(client.player)
            await client.send({"t": "left"})
        elif kind in ("join", "sync"):
            await self._join(client, msg.get("game"))
        elif kind == "act":
            await self._act(client, msg)
        elif kind == "focus":  # the client's focus-loss count for a game (赛风赛纪 signals)
            focus_game, lost = msg.get("game"), msg.get("lost")
            if client.player and isinstance(focus_game, int) and isinstance(lost, int) \
                    and focus_game in client.games and self.cfg is not None:
                await asyncio.to_thread(fairplay.report_focus_in, self.ctx, self.cfg, focus_game,
                                        client.player, lost)
        else:
            await client.send(self._error("bad_message", Text(f"未知消息类型: {kind}",
                                                              f"unknown message type: {kind}"),
                                          client.lang))

    def _remote_frame(self, client: Client, gid: int) -> None:
        """A player's frame for a game owned elsewhere: sent to the owner with the next tick."""
        owner = self.known_owner.get(gid)
        if owner and client.player and client.player in self.remote_players.get(gid, ()):
            self.frames_out.setdefault(owner, set()).add((gid, client.conn, client.player))

    # ----- matching ---------------------------------------------------------------------------
    async def _queue(self, client: Client) -> None:
        assert self.cfg is not None
        if client.player is None:
            await client.send(self._error("not_signed_in", Text("请先登录", "sign in first"), client.lang))
            return
        beijing = self.ctx.settings.clock()
        refused = await asyncio.to_thread(fairplay.queue_check_in, self.ctx, self.cfg, client.player, beijing)
        period = open_period(self.cfg.stage, beijing)
        if refused is not None or period is None:  # closed (from the exact instant) or suspended
            code, why = refused or ("closed", closed_reason(self.cfg.stage, beijing))
            await client.send(self._error(code, why, client.lang))
            return
        if await self._in_game(client.player):
            await client.send(self._error("in_game", Text("你有一局正在进行", "you have a game in progress"),
                                          client.lang))
            return
        if client.division not in self.cfg.stage.divisions:
            await client.send(self._error("bad_division", Text(f"本阶段没有组别 {client.division}",
                                                               f"no division {client.division} here"),
                                          client.lang))
            return
        pool = pool_of(self.cfg.ladder, client.division)
        await self._enqueue(pool, client.player, client.name, self.me)
        await client.send({"t": "queued", "pool": pool, "period": period.number})

    async def _in_game(self, player: str) -> bool:
        if any(not self.slots[g].game.over for g in self.by_player.get(player, ())):
            return True
        if self.cluster is None:
            return False
        return bool(await self._read(partial(svc.playing_games_of, player=player)))

    async def _enqueue(self, pool: str, player: str, name: str, origin: str) -> None:
        """Into the one queue: ours if we lead the matching (or run alone), else the leader's."""
        if self.cluster is not None:
            # the leader the waves loop saw last (no Redis round trip per queued player): if it
            # changed meanwhile, that loop re-queues the forwarded players at the new one
            leader = self.leader_seen or await self.cluster.leader()
            if leader and leader != self.me:
                if origin == self.me:
                    self.forwarded[player] = (pool, name)
                await self.cluster.send(leader, {"k": "queue", "pool": pool, "player": player,
                                                 "name": name, "origin": origin})  # fmt: skip
                return
            self.origin[player] = origin
            self.names.setdefault(player, name)
        mm = await self._matchmaker(self.ctx.settings.clock())
        if player not in self.being_seated:  # else their game is about to be announced
            mm.enqueue(pool, player, self.opt.clock())

    async def _leave(self, player: str) -> None:
        if self.matchmaker is not None:
            self.matchmaker.leave(player)
        self.origin.pop(player, None)
        if self.forwarded.pop(player, None) is not None and self.cluster is not None and self.leader_seen:
            with contextlib.suppress(Exception):
                await self.cluster.send(self.leader_seen, {"k": "leave", "player": player})

    async def _matchmaker(self, beijing: datetime) -> Matchmaker:
        assert self.cfg is not None
        day = beijing.date()
        async with self._match_lock:  # one matchmaker per day, even with many players at once
            return await self._matchmaker_for(day)

    async def _matchmaker_for(self, day: Any) -> Matchmaker:
        assert self.cfg is not None
        if self.matchmaker is None or self.match_day != day:
            cfg = self.cfg

            def stored() -> tuple[int | None, dict[str, int], dict[str, str]]:
                with self.ctx.work(actor=self.actor) as work:
                    return (*svc.day_matching(work, cfg, day), svc.last_opponents(work, cfg))

            seed, last, opponents = await asyncio.to_thread(stored)
            queues = self.matchmaker.queues if self.matchmaker else {}
            self.matchmaker = Matchmaker(seed if seed is not None else secrets.randbits(48),
                                         dict(last), queues, opponents)  # fmt: skip
            self.match_day = day
        return self.matchmaker

    async def _waves(self) -> None:
        while True:
            await asyncio.sleep(self.opt.wave_seconds)
            try:
                if await self._leading():
                    await self.run_waves()
            except Exception:
                log.exception("live: matching wave failed")

    async def _leading(self) -> bool:
        """Whether this process runs the waves; on a change of leader the queue moves with it."""
        if self.cluster is None:
            return True
        leader = await self.cluster.leader()
        if leader != self.leader_seen:
            was, self.leader_seen = self.leader_seen, leader
            if was == self.me and leader != self.me and self.matchmaker is not None:
                # we lost the lead: our own waiting players queue again at the new leader (the
                # other processes re-queue theirs when they see the change)
                for pool, queue in self.matchmaker.queues.items():
                    for player in queue:
                        if self.origin.get(player, self.me) == self.me:
                            self.forwarded[player] = (pool, self.names.get(player, player))
                self.matchmaker, self.origin = None, {}
            for player, (pool, name) in list(self.forwarded.items()):  # re-queue at the new leader
                self.forwarded.pop(player, None)
                await self._enqueue(pool, player, name, self.me)
        return leader == self.me

    async def run_waves(self) -> None:
        assert self.cfg is not None
        cfg = self.cfg
        beijing = self.ctx.settings.clock()
        period = open_period(cfg.stage, beijing)
        if self.matchmaker is None:
            return
        if period is None:  # the period closed while people waited: nobody can be matched now
            for pool, queue in self.matchmaker.queues.items():
                for player in list(queue):
                    await self._tell(player, self._error("closed", closed_reason(cfg.stage, beijing),
                                                         self.ctx.settings.language) | {"pool": pool})
                queue.clear()
            return
        mm = await self._matchmaker(beijing)
        if self.cluster is not None:
            await self._drop_departed(mm)
        await self._drop_suspended(mm, beijing)
        for pool in cfg.pools:
            if mm.waiting(pool) < 2:
                continue
            now = self.opt.clock()
            wave = mm.run_wave(pool, now)
            if not wave.pairs:
                continue
            owners = {m.black: self.origin.get(m.black, self.me) for m in wave.pairs}

            def write(work: Work, wave: Any = wave, pool: str = pool, now: float = now,
                      owners: dict[str, str] = owners) -> list[tuple[svc.LiveGameInfo, LiveGame]]:
                svc.store_wave(work, cfg, beijing.date(), wave)
                pairs = [((m.black, self.names.get(m.black, m.black)), (m.white, self.names.get(m.white, m.white)),
                          owners[m.black]) for m in wave.pairs]  # fmt: skip
                return svc.start_games(work, cfg, period=period.number, pool=pool, pairs=pairs, start=now,
                                       matching={"seed": wave.seed, "wave": wave.number, "pool": pool})  # fmt: skip

            seated = {p for m in wave.pairs for p in (m.black, m.white)}
            self.being_seated |= seated
            try:
                started = await self.writer.submit(write)
            except Exception:  # nothing was stored: the players wait for the next wave
                log.exception("live: wave %s/%s not stored", pool, wave.number)
                mm.requeue(wave, set(self.clients) | set(self.origin))
                continue
            finally:
                self.being_seated -= seated
            mm.confirm(wave)
            where = await self._seat(started, owners)
            ours: list[tuple[Client, int, str, str, str]] = []
            theirs: dict[str, list[list[Any]]] = {}  # origin process → its players' seats
            for info, _ in started:
                for player, color in ((info.black, BLACK), (info.white, WHITE)):
                    opponent = info.white_name if color == BLACK else info.black_name
                    origin = self.origin.pop(player, self.me)
                    seat = [info.id, color_name(color), opponent, where[info.id]]
                    if origin == self.me:
                        ours.extend((c, *seat) for c in list(self.clients.get(player, ())))  # type: ignore[misc]
                    elif self.cluster is not None:
                        theirs.setdefault(origin, []).append([player, *seat])
            sends: list[Awaitable[Any]] = [relay.seat_many(self, ours)]
            if self.cluster is not None:  # one message per process for the whole wave
                sends.extend(self.cluster.send(origin, {"k": "matched", "seats": seats})
                             for origin, seats in theirs.items())  # fmt: skip
            # The players are told and joined in the background: seating thousands of sockets
            # takes a while, and the waves loop (which keeps the leader's key) must go on.
            seating = asyncio.ensure_future(asyncio.gather(*sends, return_exceptions=True))
            self.seating.add(seating)
            seating.add_done_callback(self.seating.discard)

    async def _drop_departed(self, mm: Matchmaker) -> None:
        """Players queued through a process that is gone (killed: it could not forward their
        ``leave``) leave the queue, so nobody is paired with a player who is not there."""
        assert self.cluster is not None
        others = sorted({o for o in self.origin.values() if o != self.me})
        if not others:
            return
        alive = await self.cluster.listening(others)
        for player, origin in list(self.origin.items()):
            if not alive.get(origin, True):
                mm.leave(player)
                del self.origin[player]
                log.info("live: %s left the queue with their process %s", player, origin)

    async def _seat(self, started: list[tuple[svc.LiveGameInfo, LiveGame]],
                    owners: dict[str, str]) -> dict[int, str]:
        """New games go to their owners: here, or adopted by the process holding Black (one
        request per process per wave). A game its owner did not take in time is ours, unless
        the owner claimed it meanwhile: a key is claimed once, so a game never has two owners.
        Returns each game's owner (sent with ``matched``: the players' processes need not ask)."""
        where: dict[int, str] = {}
        by_owner: dict[str, list[tuple[svc.LiveGameInfo, LiveGame]]] = {}
        for info, game in started:
            by_owner.setdefault(owners[info.black] if self.cluster else self.me, []).append((info, game))
        for owner, games in by_owner.items():
            if owner != self.me and self.cluster is not None:
                with contextlib.suppress(Unanswered):
                    await self.cluster.request(owner, {"k": "adopt", "games": [
                        [asdict(info), game.start] for info, game in games]},
                        max(self.opt.request_seconds, self.opt.owner_ttl / 2))  # fmt: skip
                    where.update((info.id, owner) for info, _ in games)
                    continue
            claimed = (await self.cluster.claim_many([i.id for i, _ in games]) if self.cluster
                       else [True] * len(games))  # fmt: skip
            for (info, game), ours in zip(games, claimed, strict=True):
                if ours:
                    self.keep(Slot(info, game))
                where[info.id] = self.me
            taken = [info.id for (info, _), ours in zip(games, claimed, strict=True) if not ours]
            if taken and self.cluster is not None:  # the owner claimed them after all (a late adopt)
                for gid, holder in zip(taken, await self.cluster.owners(taken), strict=True):
                    where[gid] = holder or ""  # "": nobody now; a join finds out
        return where

    async def _drop_suspended(self, mm: Matchmaker, beijing: datetime) -> None:
        """A sanction recorded while a player waits takes effect before the next wave (one read
        of the event's sanctions, only when someone waits): they leave the queue and are told."""
        assert self.cfg is not None
        waiting = {p for queue in mm.queues.values() for p in queue}
        if not waiting:
            return
        barred = await asyncio.to_thread(fairplay.suspended_now_in, self.ctx, self.cfg, beijing)
        for player in waiting & barred.keys():
            mm.leave(player)
            await self._tell(player, self._error("suspended", barred[player], self.ctx.settings.language))
            self.origin.pop(player, None)

    async def _tell(self, player: str, msg: dict[str, Any]) -> None:
        """A message for a queued player, wherever their sockets are."""
        origin = self.origin.get(player, self.me)
        if origin != self.me and self.cluster is not None:
            await self.cluster.send(origin, {"k": "tell", "player": player, "msg": msg})
            return
        for c in list(self.clients.get(player, ())):
            await c.send(msg)

    # ----- games ------------------------------------------------------------------------------
    async def _join(self, client: Client, gid: Any) -> None:
        slot = self.slots.get(gid) if isinstance(gid, int) else None
        if slot is None and isinstance(gid, int) and self.cluster is not None:
            self.remote_watch.setdefault(gid, set()).add(client)  # before the answer: no news lost
            client.games.add(gid)
            try:
                owner, got = await relay.remote(self, gid, {"k": "join", "game": gid, "conn": client.conn,
                                                      "player": client.player, "lang": client.lang})
            except Unanswered:
                await client.send(self._unreachable(gid, client.lang))
                return
            if isinstance(got, dict):  # the owner answered (its state went to the socket)
                self.known_owner[gid] = owner
                self.remote_players[gid] = tuple(got.get("players", ("", "")))
                return
            self.remote_watch.get(gid, set()).discard(client)
            client.games.discard(gid)
            slot = got
        if slot is None and isinstance(gid, int):
            slot = await self._finished_slot(gid)
        if slot is None:
            await client.send(self._error("no_game", Text(f"没有对局 {gid}", f"no game {gid}"), client.lang))
            return
        color = slot.info.color_of(client.player) if client.player else None
        async with slot.lock:
            if client not in slot.clients:
                slot.clients.add(client)
                client.games.add(slot.info.id)
                if color is not None and not slot.game.over:
                    slot.game.attach(color, client.conn, self.opt.clock())
            state = self._state_for(slot, client.player)
            if color is not None:  # which side this connection plays (a reloaded page forgot it)
                state["you"] = color_name(color)
            await client.send(state)
            await self._after_change(slot)

    async def _finished_slot(self, gid: int) -> Slot | None:
        assert self.cfg is not None
        cfg = self.cfg

        def load() -> tuple[svc.LiveGameInfo, LiveGame] | None:
            try:
                with self.ctx.work(actor=self.actor) as work:
                    return svc.load_game(work, cfg, gid, self.opt.clock())
            except ServiceError:
                return None

        found = await asyncio.to_thread(load)
        if found is None or found[0].status == "playing":  # a playing game not ours: not served
            return None
        return Slot(found[0], found[1])

    def _update(self, slot: Slot, action: Action) -> dict[str, Any]:
        """One accepted action for every connection of the game (no move list: resync has it)."""
        game = slot.game
        now = self.opt.clock()
        msg: dict[str, Any] = {"t": "update", "game": slot.info.id, "version": game.version,
                               "action": game.describe(action), "phase": game.phase.value,
                               "clocks": game.clocks(now)}  # fmt: skip
        if game.phase == Phase.SCORING:
            full = game.state(now)
            msg.update(dead=full["dead"], accepted=full["accepted"], count=full["count"])
        return msg

    def _state(self, slot: Slot) -> dict[str, Any]:
        info = slot.info
        state = slot.game.state(self.opt.clock())
        state.update({"t": "state", "game": info.id, "black": info.black_name or info.black,
                      "white": info.white_name or info.white})  # fmt: skip
        return state

    def _state_for(self, slot: Slot, player: str | None) -> dict[str, Any]:
        """The resync message: a player's is the game now, a spectator's the game ``delay`` ago."""
        if self.delay <= 0 or (player is not None and player in slot.players):
            return self._state(slot)
        info = slot.info
        state = delayed_state(slot.game, slot.recent, self.opt.clock(), self.delay)
        state.update({"t": "state", "game": info.id, "black": info.black_name or info.black,
                      "white": info.white_name or info.white})  # fmt: skip
        return state

    async def _act(self, client: Client, msg: dict[str, Any]) -> None:
        gid = msg.get("game")
        slot = self.slots.get(gid) if isinstance(gid, int) else None
        if slot is None and isinstance(gid, int) and self.cluster is not None and client.player:
            body = {"k": "act", "game": gid, "conn": client.conn, "player": client.player,
                    "lag": client.delay, "lang": client.lang, "msg": msg}  # fmt: skip
            self.remote_watch.setdefault(gid, set()).add(client)
            client.games.add(gid)
            try:
                owner, got = await relay.remote(self, gid, body)
            except Unanswered:
                await client.send(self._unreachable(gid, client.lang))
                return
            if isinstance(got, dict):  # answered (the ack or refusal went to the socket)
                self.known_owner[gid] = owner
                if "players" in got:
                    self.remote_players[gid] = tuple(got["players"])
                return
            self.remote_watch.get(gid, set()).discard(client)
            slot = got
        color = slot.info.color_of(client.player) if slot and client.player else None
        if slot is None or color is None:
            await client.send(self._error("not_your_game", Text("你不是这局棋的对局者", "you are not playing this game"),
                                          client.lang))
            return

        def join() -> None:
            if client not in slot.clients:
                slot.clients.add(client)
                client.games.add(slot.info.id)

        await self._act_on(slot, color, client.conn, msg, client.delay, client.lang, client.send, join,
                           began=client.received)

    async def _act_on(self, slot: Slot, color: int, conn: str, msg: dict[str, Any], lag: float,
                      lang: str, answer: Callable[[dict[str, Any]], Any],
                      join: Callable[[], None], began: float | None = None) -> None:
        """Check, store and acknowledge one action; then the news to everyone watching.
        ``answer`` reaches the acting socket, here or (through Redis) on another process.
        ``began`` (perf_counter) is when the frame arrived: the time to the ack is recorded."""
        began = time.perf_counter() if began is None else began
        try:
            kind = Kind(str(msg.get("kind")))
            version = int(msg.get("version", -1))
            point = None
            if kind in (Kind.MOVE, Kind.TOGGLE):
                point = slot.game.flow.board.parse_gtp(str(msg.get("point", "")))
        except (ValueError, TypeError):
            await answer(self._refusal(slot, "bad_action", Text("无法识别的着手", "malformed action"),
                                       slot.game.version, lang))
            return
        locking = time.perf_counter()
        async with slot.lock:
            locked = time.perf_counter()
            self.metrics.hist("act_lock").add(locked - locking)
            join()
            now = self.opt.clock()
            try:
                ack = slot.game.act(color, kind, version, now, point=point, conn=conn,
                                    lag=lag)  # measured by the server, capped by the game
            except LiveRefused as exc:
                await answer(self._refusal(slot, exc.code, exc.text, exc.version, lang))
                await self._after_change(slot)
                return
            except ValueError:  # the game in memory disagrees with itself: take the stored one
                log.exception("live: game %s refused an action; reloading it", slot.info.id)
                await self._reload(slot)
                await answer(self._refusal(slot, "stale", Text("棋局已更新, 请同步后再下", "the game moved on; sync"),
                                           slot.game.version, lang))  # fmt: skip
                return
            if not ack.duplicate:
                try:
                    if slot.game.over:
                        await self.writer.submit(partial(self._persist_end, slot=slot, action=ack.action))
                    else:
                        await self.writer.record(slot.info.id, slot.game, ack.action)
                    self.metrics.hist("act_commit").add(time.perf_counter() - locked)
                except Exception:  # not stored: forget it and reload the stored game
                    log.exception("live: could not store game %s action %s", slot.info.id, ack.action)
                    await self._reload(slot)
                    await answer(self._refusal(
                        slot, "store_failed", Text("服务器未能保存这一步, 请重试", "the server could not store this action; retry"),
                        slot.game.version, lang))  # fmt: skip
                    return
            await answer({"t": "ack", "game": slot.info.id, "seq": ack.action.seq,
                          "version": ack.version, "duplicate": ack.duplicate})  # fmt: skip
            self.metrics.hist("act").add(time.perf_counter() - began)
            if not ack.duplicate:
                update = self._update(slot, ack.action)
                if self.delay > 0:
                    self._remember(slot, ack.action.at, update)
                await self._news(slot, update, ack.action.at)
                if slot.game.over:
                    await self._announce_end(slot)

    def _remember(self, slot: Slot, at: float, update: dict[str, Any]) -> None:
        board = slot.game.flow.board
        view: dict[str, Any] = {k: update[k] for k in ("phase", "clocks", "dead", "accepted", "count")
                                if k in update}  # fmt: skip
        view["to_move"] = "B" if board.to_move == BLACK else "W"
        view["running"] = {BLACK: "B", WHITE: "W"}.get(slot.game.clock.running)
        slot.recent.add(at, update["version"], view, self.opt.clock() - self.delay)

    def _persist_end(self, work: Work, *, slot: Slot, action: Action) -> None:
        assert self.cfg is not None
        slot.info = svc.finish_game(work, self.cfg, slot.info.id, slot.game, action)

    async def _reload(self, slot: Slot) -> None:
        assert self.cfg is not None
        cfg = self.cfg

        def load() -> tuple[svc.LiveGameInfo, LiveGame]:
            with self.ctx.work(actor=self.actor) as work:
                return svc.load_game(work, cfg, slot.info.id, self.opt.clock())

        info, game = await asyncio.to_thread(load)
        for c in slot.clients:  # the connections stay attached
            color = info.color_of(c.player) if c.player else None
            if color is not None:
                game.attach(color, c.conn, self.opt.clock())
        for conn, (_, player) in slot.remote.items():
            color = info.color_of(player) if player else None
            if color is not None:
                game.attach(color, conn, self.opt.clock())
        slot.info, slot.game = info, game

    async def _after_change(self, slot: Slot) -> None:
        """Called under the slot's lock after anything that may end a game or change presence."""
        if slot.game.over and slot.info.status == "playing":
            await self._finish(slot)
            return
        await self._presence_news(slot)

    async def _finish(self, slot: Slot) -> None:
        assert self.cfg is not None
        cfg = self.cfg

        try:
            slot.info = await self.writer.submit(
                lambda work: svc.finish_game(work, cfg, slot.info.id, slot.game))
        except ServiceError:
            log.exception("live: could not finish game %s", slot.info.id)
            return
        await self._announce_end(slot)

    async def _announce_end(self, slot: Slot) -> None:
        ending = slot.game.ending
        assert ending is not None
        msg = {"t": "ended", "game": slot.info.id, "result": ending.outcome.sgf,
               "reason": ending.outcome.reason.value, "state": self._state(slot)}  # fmt: skip
        await self._news(slot, msg, ending.at)
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.release([slot.info.id])

    async def _presence_news(self, slot: Slot) -> None:
        """When someone's presence changed: store it, and tell both players (and watchers)."""
        now = self.opt.clock()
        view = slot.game.presence_view(now)
        if view == slot.last_presence:
            return
        slot.last_presence = view
        if slot.info.status == "playing":
            await self.writer.save_state(slot.info.id, slot.game, now)
        await self._news(slot, {"t": "presence", "game": slot.info.id, "clocks": slot.game.clocks(now)}, now)

    # ----- fan-out ----------------------------------------------------------------------------
    async def _news(self, slot: Slot, msg: dict[str, Any], happened: float) -> None:
        """One message for every socket of a game: encoded once; ours directly, the other
        processes' through Redis (one message per process); spectators at ``happened + delay``."""
        text = dumps(msg)
        show_at = happened + self.delay
        await self._deliver(slot.info.id, slot.players, text, show_at, slot.clients)
        if self.cluster is not None and slot.remote:
            fan = {"k": "fan", "game": slot.info.id, "players": slot.players, "show_at": show_at,
                   "text": text}  # fmt: skip
            for process in {p for p, _ in slot.remote.values()}:
                try:
                    listening = await self.cluster.send(process, fan)
                except Exception:
                    listening = 1  # Redis hiccup: keep the watchers
                if not listening:  # that process is gone, and its sockets with it
                    slot.remote = {c: v for c, v in slot.remote.items() if v[0] != process}

    async def _deliver(self, gid: int, players: tuple[str, str], text: str, show_at: float,
                       clients: set[Client]) -> None:
        late = False
        now = self.opt.clock()
        for c in list(clients):
            if show_at <= now or (c.player is not None and c.player in players):
                await c.send_text(text)
            else:
                late = True
        if late:
            self.delay_line.put(show_at, (gid, players, text))

    async def _deliver_late(self, item: tuple[int, tuple[str, str], str]) -> None:
        gid, players, text = item
        slot = self.slots.get(gid)
        clients = slot.clients if slot is not None else self.remote_watch.get(gid, set())
        for c in list(clients):
            if c.player is None or c.player not in players:
                await c.send_text(text)

    async def _housekeeping(self) -> None:
        """Every ``tick_seconds``: frames for other owners, the games that fell due (a flag or
        an escape), one share of the games swept for silent sockets and one share stamped
        alive; every share in turn, so each game is swept every ``ping_seconds`` and stamped
        every ``alive_seconds``. The passes yield to the event loop every ``CHUNK`` items: a
        move's ack never waits behind a pass over thousands of games."""
        last_scan = 0.0
        turn = 0
        while True:
            await asyncio.sleep(self.opt.tick_seconds)
            try:
                began = time.perf_counter()
                now = self.opt.clock()
                turn += 1
                await relay.flush_frames(self)
                await self._settle_due(turn % self.sweep_shares)
                stamp = turn % self.alive_shares
                ids = [gid for gid, s in self.slots.items()
                       if gid % self.alive_shares == stamp and s.info.status == "playing"]  # fmt: skip
                if ids:
                    await self.writer.submit(partial(_touch, ids=ids, at=now))
                if self.cluster is not None and now - last_scan >= self.opt.owner_ttl / 3:
                    last_scan = now
                    await relay.scan(self)
                if turn % self.sweep_shares == 0:
                    await self._forget_finished()
                self.metrics.hist("tick").add(time.perf_counter() - began)
            except Exception:
                log.exception("live: housekeeping failed")

    async def _pings(self) -> None:
        """Every ``PING_STEP`` the next group of sockets gets a ping: each socket every
        ``ping_seconds``, the pongs spread evenly over time."""
        turn = 0
        while True:
            await asyncio.sleep(PING_STEP)
            try:
                began = time.perf_counter()
                turn += 1
                group = self.ping_groups[turn % self.ping_shares]
                if not group:
                    continue
                text = dumps({"t": "ping", "at": self.opt.clock()})
                for c in list(group):
                    await c.send_text(text)
                self.metrics.hist("ping").add(time.perf_counter() - began)
            except Exception:
                log.exception("live: pinging failed")

    async def _settle_due(self, share: int) -> None:
        """Tick the games whose flag or escape fell due, and sweep one share of the games
        for connections silent longer than ``silence_seconds``."""
        for i, slot in enumerate(list(self.slots.values())):
            if i and i % CHUNK == 0:
                await asyncio.sleep(0)
            if slot.info.status != "playing":
                continue
            now = self.opt.clock()
            due = slot.game.deadline()
            if not (slot.info.id % self.sweep_shares == share or (due is not None and due <= now)):
                continue
            async with slot.lock:
                now = self.opt.clock()
                for _, conn in slot.game.sweep(now, self.opt.silence_seconds):
                    slot.remote.pop(conn, None)
                slot.game.tick(now)
                await self._after_change(slot)

    async def _keep_keys(self) -> None:
        """Renew our ownership keys on their own beat: never behind a slow commit or a long
        housekeeping pass, which under load once let keys expire while their games were alive
        here (and another process took them over)."""
        while True:
            await asyncio.sleep(self.opt.alive_seconds)
            try:
                if self.cluster is not None and self.leader_seen == self.me:
                    await self.cluster.leader()  # the matching lead too, whatever a wave is doing
                await relay.renew(self, [gid for gid, s in self.slots.items() if s.info.status == "playing"])
            except Exception:
                log.exception("live: renewing ownership keys failed")

    async def _forget_finished(self) -> None:
        now = self.opt.clock()
        for i, (gid, slot) in enumerate(list(self.slots.items())):
            if i and i % CHUNK == 0:
                await asyncio.sleep(0)
            ending = slot.game.ending
            shown = ending is None or ending.at + self.delay <= now  # a delayed watcher may still ask
            if slot.info.status != "playing" and not slot.clients and shown:
                self.drop(gid)
        for gid, watchers in list(self.remote_watch.items()):
            if not watchers:
                del self.remote_watch[gid]
                self.remote_players.pop(gid, None)
                self.known_owner.pop(gid, None)

    # ----- messages ---------------------------------------------------------------------------
    @staticmethod
    def _error(code: str, text: Text, lang: str) -> dict[str, Any]:
        return {"t": "error", "code": code, "message": text.render(lang)}

    def _unreachable(self, gid: int, lang: str) -> dict[str, Any]:
        return {"t": "refused", "game": gid, "code": "owner_unreachable", "version": -1,
                "message": Text("服务器正在切换, 请稍后同步重试", "the server is switching over; sync and retry").render(lang)}

    @staticmethod
    def _refusal(slot: Slot, code: str, text: Text, version: int, lang: str) -> dict[str, Any]:
        return {"t": "refused", "game": slot.info.id, "code": code, "message": text.render(lang),
                "version": version}  # fmt: skip


def _calm_the_collector() -> None:
    """Thousands of games keep a large, long-lived heap; Python's default thresholds run a full
    collection over it every few thousand allocations, a pause of tens to hundreds of ms that
    lands on some move's round trip. What exists at start-up is frozen out of the collector
    and the youngest generation is collected less often."""
    gc.freeze()
    first, second, third = gc.get_threshold()
    gc.set_threshold(max(first, 50_000), max(second, 20), max(third, 100))


def _touch(work: Work, *, ids: list[int], at: float) -> None:
    svc.touch(work, ids, at)


def create_live_router(
    context: Context, options: LiveOptions | None = None, *, prefix: str = "/live"
) -> APIRouter:
    """The live play router (WebSocket ``{prefix}/ws``); include it in the web app."""
    hub = LiveHub(context, options or LiveOptions())
    router = APIRouter(prefix=prefix, lifespan=hub.lifespan)

    @router.websocket("/ws")
    async def live_socket(ws: WebSocket) -> None:
        await hub.serve(ws)

    router.hub = hub  # type: ignore[attr-defined]  # for tests and the bench
    return router


__all__ = ["TICKET_SECONDS", "UVICORN_WS", "LiveHub", "LiveOptions", "Ticket", "create_live_router", "issue_ticket",
           "read_ticket"]

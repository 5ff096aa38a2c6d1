"""The live server: one WebSocket endpoint for matching, playing and watching, on FastAPI.

``create_live_router(context, ...)`` returns an ``APIRouter`` the web app includes; its lifespan
resumes the games in progress (``services.live.resume_games``) and runs the loops: matching
waves per pool every ``wave_seconds``, and housekeeping every ``tick_seconds`` (pings, dropping
silent connections, settling flags and escapes, telling both players how long an absent one has
left, stamping the games as alive for crash recovery).

``LiveHub`` composes the parts, one duty each, around one shared ``HubState``
(``yisai.live.state``: options, store, the games owned here, the sockets):

* ``protocol`` — the frame protocol (the messages, listed there) and the player's ticket;
* ``acting`` — an action checked, committed and acknowledged; a game finished and announced;
* ``playing`` — a socket joining, acting in, and leaving its games (here or at their owner);
* ``seating`` — queueing, the matching waves and the new games handed out and joined;
* ``spectators`` — the fan-out of a game's news and the spectators' delay;
* ``housekeeping`` — pings, flags and escapes, silent sockets, alive stamps, forgotten games;
* ``link`` — the cluster link (``ClusterLink``): requests between processes, takeover, keys.

Guarantees: an action is stored (committed) before its ``ack`` and the ``update`` to anyone;
a resent action (same version and content) gets the same ack again and is applied once; a stale
one is refused with the current version so the client resyncs; the result, SGF and ladder are
committed before ``ended`` is sent. Lag compensation: the server measures each connection's
round trip from its pings (a pong echoes the ping's ``at``; only the ping sent last counts, once)
and credits the least of the last few half round trips to a move, at most the game's ``lag_cap``
(0.5 s by default); a client cannot claim a delay by forging ``at``.

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
import ipaddress
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect

from yisai.i18n import Text, normalise
from yisai.live import protocol
from yisai.live.acting import Acting
from yisai.live.cluster import Cluster
from yisai.live.housekeeping import Housekeeping
from yisai.live.link import ClusterLink
from yisai.live.metrics import Metrics
from yisai.live.playing import Play
from yisai.live.protocol import TICKET_SALT, TICKET_SECONDS, Ticket, issue_ticket, read_ticket
from yisai.live.seating import Seating
from yisai.live.sockets import Client, Slot
from yisai.live.spectators import Spectators
from yisai.live.state import DEFAULT_SPECTATOR_DELAY, HubState, LiveOptions
from yisai.qualifier.session import LiveGame, LiveGameInfo
from yisai.services import fairplay
from yisai.services import live as svc
from yisai.services.context import Context
from yisai.services.errors import ServiceError
from yisai.services.metrics import LIVE_SOCKETS

log = logging.getLogger("yisai.live")
# How uvicorn should run the live socket (``yisai serve`` and the bench use the same): no
# per-message compression (frames are 20–300 bytes of JSON; deflate cost CPU on every frame and
# a compressor's memory per socket), and the protocol's keep-alive ping once a minute only to
# find dead TCP peers — the hub itself pings every ``ping_seconds`` for presence and lag.
# A frame is refused past ``MAX_FRAME`` bytes by uvicorn itself (``ws_max_size``, before it is
# assembled; close 1009) and by the hub (for any other ASGI server): the protocol's largest frame,
# an act with its move and a note, is well under 1 KB.
MAX_FRAME = 16 * 1024
UVICORN_WS: dict[str, Any] = {"ws_per_message_deflate": False, "ws_ping_interval": 60.0, "ws_ping_timeout": 30.0,
                              "ws_max_size": MAX_FRAME}
TOO_MANY = Text("同一地址或同一账号打开的对局连接过多, 请关闭其他页面后重试",
                "too many live connections from this address or account; close other pages and retry")
TOO_BIG = Text("消息过大", "the message is too large")


class LiveHub:
    """All games and queues of this process (and, with Redis, its part of the cluster)."""

    def __init__(self, context: Context, options: LiveOptions) -> None:
        self.state = HubState(context, options)
        self.open_by_address: dict[str, int] = {}  # sockets open now, per client address
        self.open_by_player: dict[str, int] = {}  # and per player's ticket
        self.spectators = Spectators(self.state)
        self.acting = Acting(self.state, self.spectators)
        self.link = ClusterLink(self.state, self.spectators, self.acting)
        self.play = Play(self.state, self.spectators, self.acting, self.link)
        self.seating = Seating(self.state, self.play)
        self.housekeeping = Housekeeping(self.state, self.acting, self.link, self.play.join,
                                         lambda: self.seating.leader_seen == self.state.me)  # fmt: skip
        self.tasks: list[asyncio.Task[None]] = []
        self.started = False
        self.start_lock = asyncio.Lock()

    @property
    def me(self) -> str:
        """This process's name in the cluster (``HubState.me``)."""
        return self.state.me

    @property
    def metrics(self) -> Metrics:
        return self.state.metrics

    @property
    def cluster(self) -> Cluster | None:
        return self.state.cluster

    # ----- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        st = self.state
        async with self.start_lock:
            if self.started:
                return
            now = st.now()
            st.cfg, resumed = await asyncio.to_thread(self.load, now)
            for info, game in resumed:
                st.games.keep(Slot(info, game))
            log.info("live: %d games resumed", len(resumed))
            st.writer.start()
            self.spectators.line.start()
            st.metrics.start()
            _calm_the_collector()
            if st.opt.redis_url:
                st.cluster = Cluster(st.opt.redis_url, st.opt.redis_prefix, st.me, st.opt.owner_ttl,
                                     self.on_cluster_message)
                await st.cluster.start()
                await self.link.scan(self.play.join)
            self.tasks = [asyncio.create_task(self.seating.waves()), asyncio.create_task(self.housekeeping.ticks()),
                          asyncio.create_task(self.housekeeping.pings())]  # fmt: skip
            if st.cluster is not None:
                self.tasks.append(asyncio.create_task(self.housekeeping.keep_keys()))
            self.started = True

    def load(self, now: float) -> tuple[svc.LiveConfig, list[tuple[LiveGameInfo, LiveGame]]]:
        st = self.state
        with st.ctx.work(actor=st.actor) as work:
            cfg = svc.live_config(work, st.opt.event, lag_cap=st.opt.lag_cap)
            if st.opt.redis_url:  # games are taken over one by one as their keys expire
                return cfg, []
            return cfg, svc.resume_games(work, cfg, now, owner=st.me)

    async def stop(self) -> None:
        st = self.state
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks = []
        self.seating.stop()
        await st.writer.stop()
        await self.spectators.line.stop()
        await st.metrics.stop()
        if st.cluster is not None:  # hand our games over at once instead of after the expiry
            with contextlib.suppress(Exception):
                await st.cluster.release(list(st.games.slots))
            await st.cluster.stop()
            st.cluster = None
        w = st.writer
        log.info("live: %d writes in %d commits, %.2f s committing", w.writes, w.batches, w.busy)
        self.started = False

    @asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        await self.start()
        try:
            yield
        finally:
            await self.stop()

    async def on_cluster_message(self, msg: dict[str, Any]) -> None:
        """A message from another process: the games' to the link, the rest to the matching."""
        if not await self.link.handle(msg):
            await self.seating.handle(msg)

    async def run_waves(self) -> None:
        await self.seating.run_waves()

    # ----- connections ------------------------------------------------------------------------
    async def serve(self, ws: WebSocket) -> None:
        await self.start()
        st = self.state
        ticket = ws.query_params.get("ticket")
        who = read_ticket(st.opt.secret, ticket) if ticket else None
        lang = normalise(ws.query_params.get("lang"))
        await ws.accept()
        refusal = None
        if ticket and who is None:
            refusal = protocol.error("bad_ticket", Text("登录凭证无效, 请重新登录", "invalid ticket; sign in again"), lang)
        elif who is not None and who.expires <= time.time():
            refusal = protocol.error("ticket_expired", Text("登录凭证已过期, 正在更新", "the ticket expired; renewing it"),
                                     lang)  # fmt: skip
        if refusal is not None:
            await ws.send_json(refusal)
            await ws.close(code=4401)
            return
        player, name, division = (who.player, who.name, who.division) if who else (None, "", "")
        address = _address_key(ws.client.host if ws.client else "?")
        if not await self._take_place(address, player):
            await ws.send_json(protocol.error("too_many_connections", TOO_MANY, lang))
            await ws.close(code=4429)
            return
        try:
            await self._serve(ws, player, name, division, lang)
        finally:
            self._count(address, player, -1)
            if st.cluster is not None:
                with contextlib.suppress(Exception):
                    await st.cluster.close_socket(address, player)

    async def _take_place(self, address: str, player: str | None) -> bool:
        """A place under the socket caps: in this process, and with Redis across every process
        (so two workers allow what one does)."""
        st = self.state
        if (self.open_by_address.get(address, 0) >= st.opt.sockets_per_address
                or (player is not None and self.open_by_player.get(player, 0) >= st.opt.sockets_per_player)):
            return False
        if st.cluster is not None:
            try:
                if not await st.cluster.open_socket(address, player, st.opt.sockets_per_address,
                                                    st.opt.sockets_per_player):
                    return False
            except Exception:  # Redis unreachable: this process's own caps still hold
                log.exception("live: the shared socket caps could not be read")
        self._count(address, player, 1)
        return True

    def _count(self, address: str, player: str | None, step: int) -> None:
        """The sockets open per address and per player (entries dropped at zero: bounded by
        the sockets open)."""
        for table, key in ((self.open_by_address, address), (self.open_by_player, player)):
            if key is None:
                continue
            n = table.get(key, 0) + step
            if n > 0:
                table[key] = n
            else:
                table.pop(key, None)

    async def _serve(self, ws: WebSocket, player: str | None, name: str, division: str, lang: str) -> None:
        st = self.state
        client = Client(ws, secrets.token_hex(6), player, name, division, lang)
        st.sockets.add(client)
        LIVE_SOCKETS.inc()
        mine = sorted(st.games.by_player.get(player, ())) if player else []
        if player is not None and st.cluster is not None:  # games owned by other processes too
            mine = sorted(set(mine) | set(await st.read(partial(svc.playing_games_of, player=player))))
        await client.send({"t": "welcome", "player": player, "games": mine})
        try:
            while True:
                text = await ws.receive_text()
                if len(text) > MAX_FRAME:  # uvicorn refuses it first (ws_max_size); any other server
                    await client.send(protocol.error("frame_too_large", TOO_BIG, lang))
                    await ws.close(code=1009)
                    break
                msg = json.loads(text)
                client.received = time.perf_counter()
                try:
                    await self.handle(client, msg if isinstance(msg, dict) else {})
                except ServiceError as exc:
                    await client.send({"t": "error", "code": exc.code, "message": exc.render(lang)})
                except (WebSocketDisconnect, RuntimeError):
                    raise
                except Exception:  # e.g. Redis unreachable: this message failed, the socket lives
                    log.exception("live: message %s failed", msg.get("t") if isinstance(msg, dict) else msg)
                    await client.send(protocol.error("server_error", Text("服务器暂时无法处理, 请稍后重试",
                                                                          "the server could not handle this now; retry"),
                                                     lang))  # fmt: skip
        except (WebSocketDisconnect, RuntimeError):
            pass
        except (ValueError, KeyError):  # not a JSON text frame: a broken client; close it
            with contextlib.suppress(Exception):
                await ws.close(code=1003)
        finally:
            await self.gone(client)

    async def gone(self, client: Client) -> None:
        if client.conn in self.state.sockets.conns:  # counted once, however often it is closed
            LIVE_SOCKETS.dec()
        if self.state.sockets.remove(client) and client.player is not None:
            await self.seating.leave(client.player)
        await self.play.closed(client)

    async def handle(self, client: Client, msg: dict[str, Any]) -> None:
        st = self.state
        kind = msg.get("t")
        now = st.now()
        if kind != "act":  # any frame shows the player is on the platform (act does it itself)
            await self.play.frames(client)
        if kind == "pong":
            client.ponged(msg.get("at"), now)
            return
        elif kind == "queue":
            await self.seating.queue(client)
        elif kind == "leave":
            if client.player:
                await self.seating.leave(client.player)
            await client.send({"t": "left"})
        elif kind in ("join", "sync"):
            await self.play.join(client, msg.get("game"))
        elif kind == "act":
            await self.play.act(client, msg)
        elif kind == "focus":  # the client's focus-loss count for a game (赛风赛纪 signals)
            focus_game, lost = msg.get("game"), msg.get("lost")
            if client.player and isinstance(focus_game, int) and isinstance(lost, int) \
                    and focus_game in client.games and st.cfg is not None:
                await asyncio.to_thread(fairplay.report_focus_in, st.ctx, st.cfg, focus_game,
                                        client.player, lost)
        else:
            await client.send(protocol.error("bad_message", Text(f"未知消息类型: {kind}",
                                                                 f"unknown message type: {kind}"),
                                             client.lang))  # fmt: skip


def _address_key(host: str) -> str:
    """Whose sockets are counted together: an IPv4 address, or an IPv6 address's /64 (one
    subscriber's whole prefix, which it can spread over endless addresses)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _calm_the_collector() -> None:
    """Thousands of games keep a large, long-lived heap; Python's default thresholds run a full
    collection over it every few thousand allocations, a pause of tens to hundreds of ms that
    lands on some move's round trip. What exists at start-up is frozen out of the collector
    and the youngest generation is collected less often."""
    gc.freeze()
    first, second, third = gc.get_threshold()
    gc.set_threshold(max(first, 50_000), max(second, 20), max(third, 100))


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


__all__ = ["DEFAULT_SPECTATOR_DELAY", "TICKET_SALT", "TICKET_SECONDS", "UVICORN_WS", "LiveHub", "LiveOptions", "Ticket",
           "create_live_router", "issue_ticket", "read_ticket"]

"""The live server: one WebSocket endpoint for matching, playing and watching, on FastAPI.

``create_live_router(context, ...)`` returns an ``APIRouter`` the web app includes; its lifespan
resumes the games in progress (``services.live.resume_games``) and runs two loops: matching
waves per pool every ``wave_seconds``, and housekeeping every ``tick_seconds`` (pings, dropping
silent connections, settling flags and escapes, telling both players how long an absent one has
left, stamping the games as alive for crash recovery).

Protocol (JSON text frames; ``t`` is the type). Connect to ``/live/ws?ticket=...`` (a signed
ticket naming the player, their name and division: ``issue_ticket``); no ticket = spectator.

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
at most the game's ``lag_cap`` (0.5 s by default); a client cannot claim a delay. One process owns all games (scale-out through Redis: not yet).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, TypeVar, cast

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect
from itsdangerous import BadSignature, URLSafeSerializer

from yisai.game.board import BLACK, WHITE
from yisai.game.flow import Phase
from yisai.i18n import Text, normalise
from yisai.live.matching import Matchmaker
from yisai.live.periods import closed_reason, open_period, pool_of
from yisai.live.session import Action, Kind, LiveGame, LiveRefused, color_name
from yisai.services import fairplay
from yisai.services import live as svc
from yisai.services.context import Context, Work
from yisai.services.errors import ServiceError
from yisai.services.identity import Actor

log = logging.getLogger("yisai.live")
T = TypeVar("T")
TICKET_SALT = "yisai-live-ticket"


def issue_ticket(secret: str, player: str, name: str, division: str) -> str:
    """A signed ticket the web app gives a signed-in player for the live socket."""
    return URLSafeSerializer(secret, salt=TICKET_SALT).dumps({"p": player, "n": name, "d": division})


def read_ticket(secret: str, ticket: str) -> tuple[str, str, str] | None:
    try:
        data = URLSafeSerializer(secret, salt=TICKET_SALT).loads(ticket)
    except BadSignature:
        return None
    return str(data["p"]), str(data["n"]), str(data["d"])


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
    owner: str = field(default_factory=lambda: f"{os.uname().nodename}:{os.getpid()}")


@dataclass(eq=False)
class Client:
    ws: WebSocket
    conn: str
    player: str | None
    name: str
    division: str
    lang: str
    games: set[int] = field(default_factory=set)
    delay: float = 0.0  # one-way network delay: half the last ping's round trip
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, msg: dict[str, Any]) -> None:
        try:
            async with self.send_lock:
                await self.ws.send_json(msg)
        except Exception:  # the socket is closing; its own loop cleans up
            pass


@dataclass(eq=False)
class Slot:
    info: svc.LiveGameInfo
    game: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    last_presence: tuple[bool, int, bool, int] | None = None


class Writer:
    """Group commit: writes queued while one transaction runs go together into the next.

    Each caller awaits its own result; the acknowledgement of an action is sent only when the
    transaction holding it has committed. If a batch fails, its writes are retried one by one
    so one bad write cannot sink the others.
    """

    def __init__(self, context: Context, actor: Actor) -> None:
        self.ctx = context
        self.actor = actor
        self.pending: list[tuple[Callable[[Work], Any], asyncio.Future[Any]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.batches = self.writes = 0
        self.busy = 0.0  # seconds spent committing (for the bench's report)

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def submit(self, fn: Callable[[Work], T]) -> T:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending.append((fn, future))
        self.wake.set()
        return cast(T, await future)

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.pending = self.pending, []
            if not batch:
                continue
            began = time.perf_counter()
            results = await asyncio.to_thread(self._commit, [fn for fn, _ in batch])
            self.busy += time.perf_counter() - began
            self.batches += 1
            self.writes += len(batch)
            for (_, future), (ok, value) in zip(batch, results, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def _commit(self, fns: list[Callable[[Work], Any]]) -> list[tuple[bool, Any]]:
        try:
            with self.ctx.work(actor=self.actor) as work:
                values = [fn(work) for fn in fns]
            return [(True, v) for v in values]
        except Exception as exc:
            if len(fns) == 1:
                return [(False, exc)]
        out: list[tuple[bool, Any]] = []
        for fn in fns:
            try:
                with self.ctx.work(actor=self.actor) as work:
                    out.append((True, fn(work)))
            except Exception as exc:
                out.append((False, exc))
        return out


class LiveHub:
    """All games and queues of this process."""

    def __init__(self, context: Context, options: LiveOptions) -> None:
        if not options.secret:  # an empty key would let anyone forge a player's ticket
            raise ValueError("LiveOptions.secret must be set (the web app's secret key)")
        self.ctx = context
        self.opt = options
        self.cfg: svc.LiveConfig | None = None
        self.slots: dict[int, Slot] = {}
        self.clients: dict[str, set[Client]] = {}  # player → open connections
        self.names: dict[str, str] = {}
        self.matchmaker: Matchmaker | None = None
        self.match_day: Any = None
        self.tasks: list[asyncio.Task[None]] = []
        self.started = False
        self._start_lock = asyncio.Lock()
        self._match_lock = asyncio.Lock()
        self.being_seated: set[str] = set()  # players of a wave whose games are being stored
        self.actor = Actor.system()
        self.writer = Writer(context, self.actor)

    # ----- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        async with self._start_lock:
            if self.started:
                return
            now = self.opt.clock()
            self.cfg, resumed = await asyncio.to_thread(self._load, now)
            for info, game in resumed:
                self.slots[info.id] = Slot(info, game)
            log.info("live: %d games resumed", len(resumed))
            self.writer.start()
            self.tasks = [asyncio.create_task(self._waves()), asyncio.create_task(self._housekeeping())]
            self.started = True

    def _load(self, now: float) -> tuple[svc.LiveConfig, list[tuple[svc.LiveGameInfo, LiveGame]]]:
        with self.ctx.work(actor=self.actor) as work:
            cfg = svc.live_config(work, self.opt.event, lag_cap=self.opt.lag_cap)
            return cfg, svc.resume_games(work, cfg, now, owner=self.opt.owner)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks = []
        await self.writer.stop()
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
        if ticket and who is None:
            await ws.send_json(self._error("bad_ticket", Text("登录凭证无效, 请重新登录",
                                                              "invalid ticket; sign in again"), lang))
            await ws.close(code=4401)
            return
        player, name, division = who if who else (None, "", "")
        client = Client(ws, secrets.token_hex(6), player, name, division, lang)
        if player is not None:
            self.clients.setdefault(player, set()).add(client)
            self.names[player] = name
        mine = [gid for gid, s in self.slots.items() if player in (s.info.black, s.info.white)]
        await client.send({"t": "welcome", "player": player, "games": mine})
        try:
            while True:
                msg = await ws.receive_json()
                try:
                    await self._handle(client, msg if isinstance(msg, dict) else {})
                except ServiceError as exc:
                    await client.send({"t": "error", "code": exc.code, "message": exc.render(lang)})
        except (WebSocketDisconnect, RuntimeError):
            pass
        except (ValueError, KeyError):  # not a JSON text frame: a broken client; close it
            with contextlib.suppress(Exception):
                await ws.close(code=1003)
        finally:
            await self._gone(client)

    async def _gone(self, client: Client) -> None:
        if client.player is not None:
            conns = self.clients.get(client.player, set())
            conns.discard(client)
            if not conns:
                self.clients.pop(client.player, None)
                if self.matchmaker is not None:
                    self.matchmaker.leave(client.player)
        for gid in list(client.games):
            slot = self.slots.get(gid)
            if slot is None:
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
                color = slot.info.color_of(client.player) if slot and client.player else None
                if slot is not None and color is not None and not slot.game.over:
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
            if self.matchmaker is not None and client.player:
                self.matchmaker.leave(client.player)
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
        if any(not s.game.over and client.player in (s.info.black, s.info.white)
               for s in self.slots.values()):
            await client.send(self._error("in_game", Text("你有一局正在进行", "you have a game in progress"),
                                          client.lang))
            return
        if client.division not in self.cfg.stage.divisions:
            await client.send(self._error("bad_division", Text(f"本阶段没有组别 {client.division}",
                                                               f"no division {client.division} here"),
                                          client.lang))
            return
        pool = pool_of(self.cfg.ladder, client.division)
        mm = await self._matchmaker(beijing)
        if client.player not in self.being_seated:  # else their game is about to be announced
            mm.enqueue(pool, client.player, self.opt.clock())
        await client.send({"t": "queued", "pool": pool, "period": period.number})

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
                await self.run_waves()
            except Exception:
                log.exception("live: matching wave failed")

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
                    for c in list(self.clients.get(player, ())):
                        await c.send(self._error("closed", closed_reason(cfg.stage, beijing), c.lang)
                                     | {"pool": pool})
                queue.clear()
            return
        mm = await self._matchmaker(beijing)
        for pool in cfg.pools:
            if mm.waiting(pool) < 2:
                continue
            now = self.opt.clock()
            wave = mm.run_wave(pool, now)
            if not wave.pairs:
                continue

            def write(work: Work, wave: Any = wave, pool: str = pool,
                      now: float = now) -> list[tuple[svc.LiveGameInfo, LiveGame]]:
                svc.store_wave(work, cfg, beijing.date(), wave)
                return [
                    svc.start_game(
                        work, cfg, period=period.number, pool=pool,
                        black=(m.black, self.names.get(m.black, m.black)),
                        white=(m.white, self.names.get(m.white, m.white)), start=now,
                        owner=self.opt.owner,
                        matching={"seed": wave.seed, "wave": wave.number, "pool": pool},
                    )
                    for m in wave.pairs
                ]  # fmt: skip

            seated = {p for m in wave.pairs for p in (m.black, m.white)}
            self.being_seated |= seated
            try:
                started = await self.writer.submit(write)
            except Exception:  # nothing was stored: the players wait for the next wave
                log.exception("live: wave %s/%s not stored", pool, wave.number)
                mm.requeue(wave, set(self.clients))
                continue
            finally:
                self.being_seated -= seated
            mm.confirm(wave)
            joins = []
            for info, game in started:
                self.slots[info.id] = Slot(info, game)
                for player, color in ((info.black, BLACK), (info.white, WHITE)):
                    opponent = info.white_name if color == BLACK else info.black_name
                    for c in list(self.clients.get(player, ())):
                        joins.append(self._matched(c, info.id, color_name(color), opponent))
            await asyncio.gather(*joins)  # every player of the wave at once, not one by one

    async def _matched(self, client: Client, gid: int, color: str, opponent: str) -> None:
        await client.send({"t": "matched", "game": gid, "color": color, "opponent": opponent})
        await self._join(client, gid)

    # ----- games ------------------------------------------------------------------------------
    async def _join(self, client: Client, gid: Any) -> None:
        slot = self.slots.get(gid) if isinstance(gid, int) else None
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
            state = self._state(slot)
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

    async def _act(self, client: Client, msg: dict[str, Any]) -> None:
        gid = msg.get("game")
        slot = self.slots.get(gid) if isinstance(gid, int) else None
        color = slot.info.color_of(client.player) if slot and client.player else None
        if slot is None or color is None:
            await client.send(self._error("not_your_game", Text("你不是这局棋的对局者", "you are not playing this game"),
                                          client.lang))
            return
        try:
            kind = Kind(str(msg.get("kind")))
            version = int(msg.get("version", -1))
            point = None
            if kind in (Kind.MOVE, Kind.TOGGLE):
                point = slot.game.flow.board.parse_gtp(str(msg.get("point", "")))
        except (ValueError, TypeError):
            await client.send(self._refusal(slot, "bad_action", Text("无法识别的着手", "malformed action"),
                                            slot.game.version, client.lang))
            return
        async with slot.lock:
            if client not in slot.clients:
                slot.clients.add(client)
                client.games.add(slot.info.id)
            now = self.opt.clock()
            try:
                ack = slot.game.act(color, kind, version, now, point=point, conn=client.conn,
                                    lag=client.delay)  # measured by the server, capped by the game
            except LiveRefused as exc:
                await client.send(self._refusal(slot, exc.code, exc.text, exc.version, client.lang))
                await self._after_change(slot)
                return
            if not ack.duplicate:
                try:
                    await self.writer.submit(lambda work: self._persist(work, slot, ack.action))
                except Exception:  # not stored: forget it and reload the stored game
                    log.exception("live: could not store game %s action %s", slot.info.id, ack.action)
                    await self._reload(slot)
                    await client.send(self._refusal(
                        slot, "store_failed", Text("服务器未能保存这一步, 请重试", "the server could not store this action; retry"),
                        slot.game.version, client.lang))  # fmt: skip
                    return
            await client.send({"t": "ack", "game": slot.info.id, "seq": ack.action.seq,
                               "version": ack.version, "duplicate": ack.duplicate})  # fmt: skip
            if not ack.duplicate:
                update = self._update(slot, ack.action)
                for c in list(slot.clients):
                    await c.send(update)
                if slot.game.over:
                    await self._announce_end(slot)

    def _persist(self, work: Work, slot: Slot, action: Action) -> None:
        assert self.cfg is not None
        if slot.game.over:
            slot.info = svc.finish_game(work, self.cfg, slot.info.id, slot.game, action)
        else:
            svc.record_action(work, slot.info.id, slot.game, action)

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
        for c in list(slot.clients):
            await c.send(msg)

    async def _presence_news(self, slot: Slot) -> None:
        """When someone's presence changed: store it, and tell both players (and watchers)."""
        now = self.opt.clock()
        view = slot.game.presence_view(now)
        if view == slot.last_presence:
            return
        slot.last_presence = view
        if slot.info.status == "playing":
            await self.writer.submit(lambda work: svc.save_state(work, slot.info.id, slot.game, now))
        msg = {"t": "presence", "game": slot.info.id, "clocks": slot.game.clocks(now)}
        for c in list(slot.clients):
            await c.send(msg)

    async def _housekeeping(self) -> None:
        last_ping = last_alive = 0.0
        while True:
            await asyncio.sleep(self.opt.tick_seconds)
            try:
                now = self.opt.clock()
                ping = now - last_ping >= self.opt.ping_seconds
                if ping:
                    last_ping = now
                    for conns in list(self.clients.values()):
                        for c in list(conns):
                            await c.send({"t": "ping", "at": now})
                for slot in list(self.slots.values()):
                    if slot.info.status != "playing":
                        continue
                    async with slot.lock:
                        slot.game.sweep(now, self.opt.silence_seconds)
                        slot.game.tick(now)
                        await self._after_change(slot)
                if now - last_alive >= self.opt.alive_seconds:
                    last_alive = now
                    ids = [gid for gid, s in self.slots.items() if s.info.status == "playing"]
                    await self.writer.submit(partial(_touch, ids=ids, at=now))
                self._forget_finished()
            except Exception:
                log.exception("live: housekeeping failed")

    def _forget_finished(self) -> None:
        for gid, slot in list(self.slots.items()):
            if slot.info.status != "playing" and not slot.clients:
                del self.slots[gid]

    # ----- messages ---------------------------------------------------------------------------
    @staticmethod
    def _error(code: str, text: Text, lang: str) -> dict[str, Any]:
        return {"t": "error", "code": code, "message": text.render(lang)}

    @staticmethod
    def _refusal(slot: Slot, code: str, text: Text, version: int, lang: str) -> dict[str, Any]:
        return {"t": "refused", "game": slot.info.id, "code": code, "message": text.render(lang),
                "version": version}  # fmt: skip


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


__all__ = ["LiveHub", "LiveOptions", "create_live_router", "issue_ticket", "read_ticket"]

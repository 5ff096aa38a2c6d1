"""The cluster link of the live hub: requests between processes, ownership and takeover.

``yisai.live.cluster`` moves the messages; ``ClusterLink`` is what a hub does with them
(docs/live.md, "How to scale out"): answer a request forwarded by another process for a game it
owns, forward its own sockets' requests to the owner (retrying through a takeover), take over
games whose owner is gone, renew its keys and drop the games it lost, batch its players' frames
for their owners. It is composed into ``yisai.live.server.LiveHub`` and imports nothing above it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from yisai.i18n import normalise
from yisai.live import protocol
from yisai.live.acting import Acting
from yisai.live.cluster import Cluster, Unanswered
from yisai.live.sockets import Client, Slot
from yisai.live.spectators import Spectators
from yisai.live.state import CHUNK, HubState
from yisai.qualifier.session import LiveGame, LiveGameInfo
from yisai.services import live as svc

log = logging.getLogger("yisai.live")


class ClusterLink:
    def __init__(self, state: HubState, spectators: Spectators, acting: Acting) -> None:
        self.state = state
        self.spectators = spectators
        self.acting = acting
        self.takeover_lock = asyncio.Lock()
        self.frames_out: dict[str, set[tuple[int, str, str]]] = {}
        self.serving: set[tuple[str, Any]] = set()  # forwarded requests being served (from, id)
        # forwarded requests served lately (from, id) → when: a repeat published while this
        # process was stalled can arrive after the first was served, and is not served again
        self.served: dict[tuple[str, Any], float] = {}

    @property
    def cluster(self) -> Cluster:
        assert self.state.cluster is not None, "no cluster without Redis"
        return self.state.cluster

    async def remote(self, gid: int, body: dict[str, Any]) -> tuple[str, dict[str, Any] | Slot | None]:
        """Send a request to the game's owner and wait for its answer, retrying through a
        takeover: (owner, answer), or (us, our slot) when we own it now, or (us, None) when
        the game is not being played anywhere."""
        st, cluster = self.state, self.cluster
        deadline = time.monotonic() + st.opt.owner_ttl + 3 * st.opt.request_seconds
        asked, rid = "", None  # the owner asked last and that request's id (kept open)
        try:
            while True:
                owner = await cluster.owner(gid)
                if owner is None or owner == st.me:
                    return st.me, st.games.slots.get(gid) or await self.take_over(gid)
                if owner != asked:  # a new owner: a new request (the old one's answer is void)
                    cluster.forget(rid)
                    asked, rid = owner, None
                try:
                    # Asked again with the same id: a busy owner still serving the first request
                    # ignores the repeat and its answer to the first one ends this wait. (Sending a
                    # fresh request each time piled repeats onto an owner that was only slow.)
                    got = await cluster.request(owner, body, st.opt.request_seconds, rid=rid, keep=True)
                    rid = None
                    if not got.get("moved"):
                        return owner, got
                except Unanswered as exc:
                    rid = exc.rid
                if time.monotonic() > deadline:
                    raise Unanswered(owner)
                await asyncio.sleep(0.2)
        finally:
            cluster.forget(rid)

    async def take_over(self, gid: int) -> Slot | None:
        """Own a game nobody owns: claim its key, resume it from the store (the outage since
        the last owner's ``alive_at`` is not charged) and attach our sockets watching it."""
        st, cluster, games = self.state, self.cluster, self.state.games
        async with self.takeover_lock:
            if gid in games.slots:
                return games.slots[gid]
            if not await cluster.claim(gid):
                return None
            now = st.now()
            found = await st.read(partial(svc.take_over, game_id=gid, up_at=now, owner=st.me))
            if found is None:  # finished (or unknown): nothing to own
                await cluster.release([gid])
                return None
            info, game = found
            slot = Slot(info, game)
            games.keep(slot)
            log.info("live: took over game %s", gid)
            watchers = games.remote_watch.pop(gid, set())
            games.remote_players.pop(gid, None)
            games.known_owner.pop(gid, None)
        async with slot.lock:
            for c in watchers:
                slot.clients.add(c)
                color = info.color_of(c.player) if c.player else None
                if color is not None and not game.over:
                    game.attach(color, c.conn, now)
            for c in watchers:
                await c.send(self.spectators.state_for(slot, c.player))
            await self.acting.after_change(slot)
        return slot

    async def renew(self, ids: list[int]) -> None:
        """Keep our ownership keys; a game whose key is gone or someone else's is dropped."""
        if self.state.cluster is None or not ids:
            return
        games = self.state.games
        kept = await self.cluster.renew(ids)
        for gid, ok in zip(ids, kept, strict=True):
            if ok or gid not in games.slots:
                continue
            slot = games.drop(gid)
            assert slot is not None
            log.warning("live: lost game %s to another process", gid)
            games.remote_watch.setdefault(gid, set()).update(slot.clients)
            games.remote_players[gid] = slot.players
            games.known_owner.pop(gid, None)  # the next scan re-joins our sockets at the owner

    async def scan(self, rejoin: Callable[[Client, int], Awaitable[None]]) -> None:
        """Take over the playing games nobody owns; ``rejoin`` our sockets where an owner changed."""
        games, cluster = self.state.games, self.cluster
        ids = [g for g in await self.state.read(svc.playing_ids) if g not in games.slots]
        owners = await cluster.owners(ids)
        for gid, owner in zip(ids, owners, strict=True):
            if owner is None:
                await self.take_over(gid)
        watched = [gid for gid, watchers in games.remote_watch.items() if gid not in games.slots and watchers]
        for gid, owner in zip(watched, await cluster.owners(watched), strict=True):  # one MGET
            if owner is not None and owner != games.known_owner.get(gid):
                for c in list(games.remote_watch.get(gid, ())):
                    await rejoin(c, gid)

    def frame_for(self, client: Client, gid: int) -> None:
        """A player's frame for a game owned elsewhere: sent to the owner with the next tick."""
        games = self.state.games
        owner = games.known_owner.get(gid)
        if owner and client.player and client.player in games.remote_players.get(gid, ()):
            self.frames_out.setdefault(owner, set()).add((gid, client.conn, client.player))

    async def flush_frames(self) -> None:
        if self.state.cluster is None or not self.frames_out:
            return
        out, self.frames_out = self.frames_out, {}
        for owner, frames in out.items():
            try:
                await self.cluster.send(owner, {"k": "frames", "frames": [list(f) for f in frames]})
            except Exception:  # a lost batch of presence frames: the next ones date the player
                continue

    async def owned(self, gid: Any) -> Slot | None:
        """Our slot for a forwarded request (taking the game over if nobody owns it)."""
        if not isinstance(gid, int):
            return None
        slot = self.state.games.slots.get(gid)
        if slot is not None or self.state.cluster is None:
            return slot
        if await self.cluster.owner(gid) in (None, self.state.me):
            return await self.take_over(gid)
        return None

    async def handle(self, msg: dict[str, Any]) -> bool:
        """A message from another process about the games (``yisai.live.cluster``); False for
        the kinds that are the matching's (``queue``, ``leave``, ``matched``, ``tell``)."""
        st, kind = self.state, msg.get("k")
        games = st.games
        if kind == "rep":  # an owner's answer for one of our sockets
            body = msg.get("msg") or {}
            client = st.sockets.conns.get(str(body.get("conn")))
            if client is not None and "deliver" in body:
                await client.send(body["deliver"])
        elif kind == "fan":
            gid = int(msg["game"])
            if gid not in games.slots:
                await self.spectators.deliver(gid, tuple(msg["players"]), str(msg["text"]),
                                              float(msg["show_at"]), games.remote_watch.get(gid, set()))
        elif kind in ("act", "join", "join_many"):
            key = (str(msg.get("from")), msg.get("id"))
            if key in self.serving or key in self.served:  # a repeat: the first one's answer will do
                return True
            self.serving.add(key)
            try:
                if kind == "join_many":
                    await self.join_many(msg)
                else:
                    await self.serve_request(msg, str(kind))
            finally:
                self.serving.discard(key)
                self._remember_served(key)
        elif kind == "frames":
            for gid, conn, player in msg.get("frames", []):
                slot = games.slots.get(gid)
                color = slot.info.color_of(player) if slot else None
                if slot is not None and color is not None and not slot.game.over:
                    await self.acting.frame(slot, color, conn)
        elif kind == "detach":
            slot = games.slots.get(msg.get("game"))  # type: ignore[arg-type]
            if slot is not None:
                conn, player = str(msg["conn"]), msg.get("player")
                slot.remote.pop(conn, None)
                color = slot.info.color_of(str(player)) if player else None
                if color is not None:
                    await self.acting.detach(slot, color, conn)
        elif kind == "adopt":
            await self.adopt(list(msg["games"]))
            await self.cluster.reply(msg, {"ok": True})
        else:
            return False
        return True

    def _remember_served(self, key: tuple[str, Any], keep_seconds: float = 60.0) -> None:
        """An asker repeats a request for at most its deadline (owner TTL + 3 requests), far
        under a minute: keys older than that are dropped as new ones come."""
        now = time.monotonic()
        self.served[key] = now
        if len(self.served) > 256:
            self.served = {k: t for k, t in self.served.items() if now - t < keep_seconds}

    async def adopt(self, started: list[Any]) -> None:
        """Games the matching leader just stored for us (Black's sockets are here), sent as
        (info, start): built in memory as ``start_game`` built them, no store read. A game whose
        key someone else holds (the leader gave up waiting and took it) is not ours."""
        cfg = self.state.config()
        infos = [(LiveGameInfo(**fields), float(start)) for fields, start in started]
        claimed = await self.cluster.claim_many([info.id for info, _ in infos])
        for (info, start), ours in zip(infos, claimed, strict=True):
            if ours:
                self.state.games.keep(Slot(info, LiveGame(cfg.rules, start)))

    async def serve_request(self, msg: dict[str, Any], kind: str) -> None:
        """An ``act`` or ``join`` forwarded by the process holding the socket."""
        cluster = self.cluster
        slot = await self.owned(msg.get("game"))
        if slot is None:
            await cluster.reply(msg, {"moved": True})
            return
        conn, player = str(msg["conn"]), msg.get("player")
        lang = normalise(msg.get("lang"))

        held = slot  # (bound for the closures below)

        async def answer(out: dict[str, Any]) -> None:
            await cluster.reply(msg, {"conn": conn, "deliver": out, "players": held.players})

        def register() -> None:
            held.remote[conn] = (str(msg["from"]), player)

        if kind == "act":
            color = slot.info.color_of(str(player)) if player else None
            if color is None:
                await answer(protocol.not_your_game(lang))
                return
            await self.acting.act_on(slot, color, conn, msg.get("msg") or {}, float(msg.get("lag") or 0),
                                     lang, answer, register, began=msg.get("_rx"))  # fmt: skip
            return
        async with slot.lock:
            register()
            color = slot.info.color_of(str(player)) if player else None
            if color is not None and not slot.game.over:
                slot.game.attach(color, conn, self.state.now())
            state = self.spectators.state_for(slot, str(player) if player else None)
            await answer(state)
            await self.acting.after_change(slot)

    async def join_many(self, msg: dict[str, Any]) -> None:
        """The joins of a whole wave's players held by one process, in one request (seating
        thousands of games at once used to be thousands of requests). Each socket gets its
        ``state`` as a ``rep`` of its own, sent under the game's lock like a single join's, so the
        game's later news cannot overtake it; the request's answer lists the games not owned here
        (the asker joins those one by one) and each game's players."""
        cluster, origin = self.cluster, str(msg["from"])
        moved: list[str] = []
        players: dict[str, list[str]] = {}
        changed: list[Slot] = []
        for i, (gid, conn, player) in enumerate(msg.get("joins", [])):
            if i and i % CHUNK == 0:
                await asyncio.sleep(0)
            slot = self.state.games.slots.get(gid) if isinstance(gid, int) else None
            if slot is None:
                moved.append(str(conn))
                continue
            async with slot.lock:
                slot.remote[str(conn)] = (origin, player)
                color = slot.info.color_of(str(player)) if player else None
                if color is not None and not slot.game.over:
                    slot.game.attach(color, str(conn), self.state.now())
                state = self.spectators.state_for(slot, str(player) if player else None)
                await cluster.send(origin, {"k": "rep", "id": 0, "msg": {"conn": conn, "deliver": state}})
                players[str(gid)] = list(slot.players)
            changed.append(slot)
        await cluster.reply(msg, {"moved": moved, "players": players})

        async def after(slot: Slot) -> None:  # presence news and its write, all games at once
            async with slot.lock:
                await self.acting.after_change(slot)

        await asyncio.gather(*(after(slot) for slot in changed))


__all__ = ["ClusterLink"]

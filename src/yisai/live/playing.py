"""A socket at a game: joining it (or resyncing), acting in it, its frames as presence and its
closing. A game owned here is served at once; one owned by another process is asked through the
cluster link (``ClusterLink.remote``), which takes it over when its owner is gone."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from yisai.i18n import Text
from yisai.live import protocol
from yisai.live.acting import Acting
from yisai.live.cluster import Unanswered
from yisai.live.link import ClusterLink
from yisai.live.sockets import Client, Slot
from yisai.live.spectators import Spectators
from yisai.live.state import HubState
from yisai.qualifier.session import LiveGameInfo
from yisai.services import live as svc
from yisai.services.errors import ServiceError


class Play:
    def __init__(self, state: HubState, spectators: Spectators, acting: Acting, link: ClusterLink) -> None:
        self.state = state
        self.spectators = spectators
        self.acting = acting
        self.link = link

    async def join(self, client: Client, gid: Any) -> None:
        st, games = self.state, self.state.games
        slot = games.slots.get(gid) if isinstance(gid, int) else None
        if slot is None and isinstance(gid, int) and st.cluster is not None:
            games.watch(gid, client)  # before the answer: no news lost
            try:
                owner, got = await self.link.remote(gid, {"k": "join", "game": gid, "conn": client.conn,
                                                          "player": client.player, "lang": client.lang})
            except Unanswered:
                await client.send(protocol.unreachable(gid, client.lang))
                return
            if isinstance(got, dict):  # the owner answered (its state went to the socket)
                games.known_owner[gid] = owner
                games.remote_players[gid] = tuple(got.get("players", ("", "")))
                return
            games.unwatch(gid, client)
            client.games.discard(gid)
            slot = got
        if slot is None and isinstance(gid, int):
            slot = await self.finished_slot(gid)
        if slot is None:
            await client.send(protocol.error("no_game", Text(f"没有对局 {gid}", f"no game {gid}"), client.lang))
            return
        color = slot.info.color_of(client.player) if client.player else None
        async with slot.lock:
            if client not in slot.clients:
                slot.clients.add(client)
                client.games.add(slot.info.id)
                if color is not None and not slot.game.over:
                    slot.game.attach(color, client.conn, st.now())
            state = self.spectators.state_for(slot, client.player)
            await client.send(state)
            await self.acting.after_change(slot)

    async def finished_slot(self, gid: int) -> Slot | None:
        st = self.state
        cfg = st.config()

        def load() -> tuple[LiveGameInfo, Any] | None:
            try:
                with st.ctx.work(actor=st.actor) as work:
                    return svc.load_game(work, cfg, gid, st.now())
            except ServiceError:
                return None

        found = await asyncio.to_thread(load)
        if found is None or found[0].status == "playing":  # a playing game not ours: not served
            return None
        return Slot(found[0], found[1])

    async def act(self, client: Client, msg: dict[str, Any]) -> None:
        st, games = self.state, self.state.games
        gid = msg.get("game")
        slot = games.slots.get(gid) if isinstance(gid, int) else None
        if slot is None and isinstance(gid, int) and st.cluster is not None and client.player:
            body = {"k": "act", "game": gid, "conn": client.conn, "player": client.player,
                    "lag": client.delay, "lang": client.lang, "msg": msg}  # fmt: skip
            games.watch(gid, client)
            try:
                owner, got = await self.link.remote(gid, body)
            except Unanswered:
                await client.send(protocol.unreachable(gid, client.lang))
                return
            if isinstance(got, dict):  # answered (the ack or refusal went to the socket)
                games.known_owner[gid] = owner
                if "players" in got:
                    games.remote_players[gid] = tuple(got["players"])
                return
            games.unwatch(gid, client)
            slot = got
        color = slot.info.color_of(client.player) if slot and client.player else None
        if slot is None or color is None:
            await client.send(protocol.not_your_game(client.lang))
            return
        held = slot

        def join() -> None:
            if client not in held.clients:
                held.clients.add(client)
                client.games.add(held.info.id)

        await self.acting.act_on(slot, color, client.conn, msg, client.delay, client.lang, client.send, join,
                                 began=client.received)

    async def frames(self, client: Client) -> None:
        """Any frame shows the player is on the platform: every game the socket is at hears of it."""
        for gid in list(client.games):
            slot = self.state.games.slots.get(gid)
            if slot is None:
                self.link.frame_for(client, gid)
                continue
            color = slot.info.color_of(client.player) if client.player else None
            if color is not None and not slot.game.over:
                await self.acting.frame(slot, color, client.conn)

    async def closed(self, client: Client) -> None:
        """A socket closed: its games (here, or at their owners) no longer count it present."""
        st, games = self.state, self.state.games
        for gid in list(client.games):
            slot = games.slots.get(gid)
            if slot is None:
                games.unwatch(gid, client)
                owner = games.known_owner.get(gid)
                if owner and st.cluster is not None:
                    with contextlib.suppress(Exception):
                        await st.cluster.send(owner, {"k": "detach", "game": gid, "conn": client.conn,
                                                      "player": client.player})  # fmt: skip
                continue
            slot.clients.discard(client)
            color = slot.info.color_of(client.player) if client.player else None
            if color is not None:
                await self.acting.detach(slot, color, client.conn)


__all__ = ["Play"]

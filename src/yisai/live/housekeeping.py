"""Housekeeping: the periodic passes of a live process, spread out so that nothing does
O(all sockets) or O(all games) at once — pings a group at a time, flags and escapes that fell
due, one share of the games swept for silent sockets and one share stamped alive per tick, the
ownership keys renewed on their own beat, finished games forgotten once no watcher needs them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial

from yisai.live.acting import Acting
from yisai.live.link import ClusterLink
from yisai.live.sockets import Client, dumps
from yisai.live.state import CHUNK, PING_STEP, HubState
from yisai.services import live as svc
from yisai.services.context import Work

log = logging.getLogger("yisai.live")


class Housekeeping:
    def __init__(self, state: HubState, acting: Acting, link: ClusterLink,
                 rejoin: Callable[[Client, int], Awaitable[None]], leading: Callable[[], bool]) -> None:
        """``rejoin`` joins a socket to a game whose owner changed; ``leading`` says whether this
        process was the matching leader when the waves loop last looked."""
        self.state = state
        self.acting = acting
        self.link = link
        self.rejoin = rejoin
        self.leading = leading
        opt = state.opt
        # each housekeeping tick sweeps one share of the games for silent connections and
        # stamps one share alive: each still every ``ping_seconds`` / ``alive_seconds``
        self.sweep_shares = max(1, round(opt.ping_seconds / opt.tick_seconds))
        self.alive_shares = max(1, round(opt.alive_seconds / opt.tick_seconds))

    async def ticks(self) -> None:
        """Every ``tick_seconds``: frames for other owners, the games that fell due (a flag or
        an escape), one share of the games swept for silent sockets and one share stamped
        alive; every share in turn, so each game is swept every ``ping_seconds`` and stamped
        every ``alive_seconds``. The passes yield to the event loop every ``CHUNK`` items: a
        move's ack never waits behind a pass over thousands of games."""
        st = self.state
        last_scan = 0.0
        turn = 0
        while True:
            await asyncio.sleep(st.opt.tick_seconds)
            try:
                began = time.perf_counter()
                now = st.now()
                turn += 1
                await self.link.flush_frames()
                await self.settle_due(turn % self.sweep_shares)
                stamp = turn % self.alive_shares
                ids = [gid for gid, s in st.games.slots.items()
                       if gid % self.alive_shares == stamp and s.info.status == "playing"]  # fmt: skip
                if ids:
                    await st.writer.submit(partial(_touch, ids=ids, at=now))
                if st.cluster is not None and now - last_scan >= st.opt.owner_ttl / 3:
                    last_scan = now
                    await self.link.scan(self.rejoin)
                if turn % self.sweep_shares == 0:
                    await self.forget_finished()
                st.metrics.hist("tick").add(time.perf_counter() - began)
            except Exception:
                log.exception("live: housekeeping failed")

    async def pings(self) -> None:
        """Every ``PING_STEP`` the next group of sockets gets a ping: each socket every
        ``ping_seconds``, the pongs spread evenly over time."""
        st = self.state
        sockets = st.sockets
        turn = 0
        while True:
            await asyncio.sleep(PING_STEP)
            try:
                began = time.perf_counter()
                turn += 1
                group = sockets.ping_groups[turn % sockets.ping_shares]
                if not group:
                    continue
                at = st.now()
                text = dumps({"t": "ping", "at": at})
                for c in list(group):
                    c.pinged(at)
                    await c.send_text(text)
                st.metrics.hist("ping").add(time.perf_counter() - began)
            except Exception:
                log.exception("live: pinging failed")

    async def settle_due(self, share: int) -> None:
        """Tick the games whose flag or escape fell due, and sweep one share of the games
        for connections silent longer than ``silence_seconds``."""
        st = self.state
        for i, slot in enumerate(list(st.games.slots.values())):
            if i and i % CHUNK == 0:
                await asyncio.sleep(0)
            if slot.info.status != "playing":
                continue
            now = st.now()
            due = slot.game.deadline()
            if not (slot.info.id % self.sweep_shares == share or (due is not None and due <= now)):
                continue
            async with slot.lock:
                now = st.now()
                for _, conn in slot.game.sweep(now, st.opt.silence_seconds):
                    slot.remote.pop(conn, None)
                slot.game.tick(now)
                await self.acting.after_change(slot)

    async def keep_keys(self) -> None:
        """Renew our ownership keys on their own beat: never behind a slow commit or a long
        housekeeping pass, which under load once let keys expire while their games were alive
        here (and another process took them over)."""
        st = self.state
        while True:
            await asyncio.sleep(st.opt.alive_seconds)
            try:
                if st.cluster is not None and self.leading():
                    await st.cluster.leader()  # the matching lead too, whatever a wave is doing
                await self.link.renew(st.games.playing())
            except Exception:
                log.exception("live: renewing ownership keys failed")

    async def forget_finished(self) -> None:
        st = self.state
        now = st.now()
        for i, (gid, slot) in enumerate(list(st.games.slots.items())):
            if i and i % CHUNK == 0:
                await asyncio.sleep(0)
            ending = slot.game.ending
            shown = ending is None or ending.at + st.delay <= now  # a delayed watcher may still ask
            if slot.info.status != "playing" and not slot.clients and shown:
                st.games.drop(gid)
        st.games.forget_unwatched()


def _touch(work: Work, *, ids: list[int], at: float) -> None:
    svc.touch(work, ids, at)


__all__ = ["Housekeeping"]

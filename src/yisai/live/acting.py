"""Acting and finishing: one action checked, stored (committed) and acknowledged, then the
news to everyone watching; presence changes stored and told; a finished game's result, SGF and
ladder committed before ``ended`` is sent; a game that disagrees with the store reloaded."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from yisai.i18n import Text
from yisai.live import protocol
from yisai.live.sockets import Slot
from yisai.live.spectators import Spectators
from yisai.live.state import HubState
from yisai.qualifier.session import Action, Kind, LiveGame, LiveGameInfo, LiveRefused
from yisai.services import live as svc
from yisai.services.context import Work
from yisai.services.errors import ServiceError

log = logging.getLogger("yisai.live")


class Acting:
    def __init__(self, state: HubState, spectators: Spectators) -> None:
        self.state = state
        self.spectators = spectators

    async def act_on(self, slot: Slot, color: int, conn: str, msg: dict[str, Any], lag: float,
                     lang: str, answer: Callable[[dict[str, Any]], Any],
                     join: Callable[[], None], began: float | None = None) -> None:
        """Check, store and acknowledge one action; then the news to everyone watching.
        ``answer`` reaches the acting socket, here or (through Redis) on another process.
        ``began`` (perf_counter) is when the frame arrived: the time to the ack is recorded."""
        st = self.state
        began = time.perf_counter() if began is None else began
        try:
            kind = Kind(str(msg.get("kind")))
            version = int(msg.get("version", -1))
            point = None
            if kind in (Kind.MOVE, Kind.TOGGLE):
                point = slot.game.flow.board.parse_gtp(str(msg.get("point", "")))
        except (ValueError, TypeError):
            await answer(protocol.refusal(slot, "bad_action", Text("无法识别的着手", "malformed action"),
                                          slot.game.version, lang))  # fmt: skip
            return
        locking = time.perf_counter()
        async with slot.lock:
            locked = time.perf_counter()
            st.metrics.hist("act_lock").add(locked - locking)
            join()
            now = st.now()
            try:
                ack = slot.game.act(color, kind, version, now, point=point, conn=conn,
                                    lag=lag)  # measured by the server, capped by the game
            except LiveRefused as exc:
                await answer(protocol.refusal(slot, exc.code, exc.text, exc.version, lang))
                await self.after_change(slot)
                return
            except ValueError:  # the game in memory disagrees with itself: take the stored one
                log.exception("live: game %s refused an action; reloading it", slot.info.id)
                await self.reload(slot)
                await answer(protocol.refusal(slot, "stale", Text("棋局已更新, 请同步后再下", "the game moved on; sync"),
                                              slot.game.version, lang))  # fmt: skip
                return
            if not ack.duplicate:
                try:
                    if slot.game.over:
                        await st.writer.submit(partial(self.persist_end, slot=slot, action=ack.action))
                    else:
                        await st.writer.record(slot.info.id, slot.game, ack.action)
                    st.metrics.hist("act_commit").add(time.perf_counter() - locked)
                except Exception:  # not stored: forget it and reload the stored game
                    log.exception("live: could not store game %s action %s", slot.info.id, ack.action)
                    await self.reload(slot)
                    await answer(protocol.refusal(
                        slot, "store_failed", Text("服务器未能保存这一步, 请重试", "the server could not store this action; retry"),
                        slot.game.version, lang))  # fmt: skip
                    return
            await answer({"t": "ack", "game": slot.info.id, "seq": ack.action.seq,
                          "version": ack.version, "duplicate": ack.duplicate})  # fmt: skip
            st.metrics.hist("act").add(time.perf_counter() - began)
            if not ack.duplicate:
                update = protocol.update(slot, ack.action, st.now())
                if self.spectators.delay > 0:
                    self.spectators.remember(slot, ack.action.at, update)
                await self.spectators.news(slot, update, ack.action.at)
                if slot.game.over:
                    await self.announce_end(slot)

    def persist_end(self, work: Work, *, slot: Slot, action: Action) -> None:
        slot.info = svc.finish_game(work, self.state.config(), slot.info.id, slot.game, action)

    async def reload(self, slot: Slot) -> None:
        st = self.state
        cfg = st.config()

        def load() -> tuple[LiveGameInfo, LiveGame]:
            with st.ctx.work(actor=st.actor) as work:
                return svc.load_game(work, cfg, slot.info.id, st.now())

        info, game = await asyncio.to_thread(load)
        for c in slot.clients:  # the connections stay attached
            color = info.color_of(c.player) if c.player else None
            if color is not None:
                game.attach(color, c.conn, st.now())
        for conn, (_, player) in slot.remote.items():
            color = info.color_of(player) if player else None
            if color is not None:
                game.attach(color, conn, st.now())
        slot.info, slot.game = info, game

    async def after_change(self, slot: Slot) -> None:
        """Called under the slot's lock after anything that may end a game or change presence."""
        if slot.game.over and slot.info.status == "playing":
            await self.finish(slot)
            return
        await self.presence_news(slot)

    async def frame(self, slot: Slot, color: int, conn: str) -> None:
        """A frame from a player of a game owned here: they are on the platform."""
        async with slot.lock:  # the time is read under the lock: events stay ordered
            slot.game.frame(color, conn, self.state.now())
            await self.after_change(slot)

    async def detach(self, slot: Slot, color: int, conn: str) -> None:
        """A player's socket closed."""
        async with slot.lock:
            slot.game.detach(color, conn, self.state.now())
            await self.after_change(slot)

    async def finish(self, slot: Slot) -> None:
        cfg = self.state.config()
        try:
            slot.info = await self.state.writer.submit(
                lambda work: svc.finish_game(work, cfg, slot.info.id, slot.game))
        except ServiceError:
            log.exception("live: could not finish game %s", slot.info.id)
            return
        await self.announce_end(slot)

    async def announce_end(self, slot: Slot) -> None:
        ending = slot.game.ending
        assert ending is not None
        msg = {"t": "ended", "game": slot.info.id, "result": ending.outcome.sgf,
               "reason": ending.outcome.reason.value, "state": protocol.state(slot, self.state.now())}  # fmt: skip
        await self.spectators.news(slot, msg, ending.at)
        cluster = self.state.cluster
        if cluster is not None:
            with contextlib.suppress(Exception):
                await cluster.release([slot.info.id])

    async def presence_news(self, slot: Slot) -> None:
        """When someone's presence changed: store it, and tell both players (and watchers)."""
        now = self.state.now()
        view = slot.game.presence_view(now)
        if view == slot.last_presence:
            return
        slot.last_presence = view
        if slot.info.status == "playing":
            await self.state.writer.save_state(slot.info.id, slot.game, now)
        await self.spectators.news(slot, {"t": "presence", "game": slot.info.id, "clocks": slot.game.clocks(now)}, now)


__all__ = ["Acting"]

"""Spectators and their delay: every message of a game fanned out to its sockets (ours
directly, the other processes' through Redis), a spectator's copy ``delay`` seconds late, and a
spectator's resync cut at ``now - delay`` (``yisai.live.delay``). Players are never delayed."""

from __future__ import annotations

from typing import Any

from yisai.game.board import BLACK, WHITE
from yisai.live import protocol
from yisai.live.delay import DelayLine, delayed_state
from yisai.live.sockets import Client, Slot, dumps
from yisai.live.state import HubState
from yisai.qualifier.session import color_name


class Spectators:
    def __init__(self, state: HubState) -> None:
        self.state = state
        self.delay = state.delay
        self.line = DelayLine(state.opt.clock, self.deliver_late)

    async def news(self, slot: Slot, msg: dict[str, Any], happened: float) -> None:
        """One message for every socket of a game: encoded once; ours directly, the other
        processes' through Redis (one message per process); spectators at ``happened + delay``."""
        text = dumps(msg)
        show_at = happened + self.delay
        await self.deliver(slot.info.id, slot.players, text, show_at, slot.clients)
        cluster = self.state.cluster
        if cluster is not None and slot.remote:
            fan = {"k": "fan", "game": slot.info.id, "players": slot.players, "show_at": show_at,
                   "text": text}  # fmt: skip
            for process in {p for p, _ in slot.remote.values()}:
                try:
                    listening = await cluster.send(process, fan)
                except Exception:
                    listening = 1  # Redis hiccup: keep the watchers
                if not listening:  # that process is gone, and its sockets with it
                    slot.remote = {c: v for c, v in slot.remote.items() if v[0] != process}

    async def deliver(self, gid: int, players: tuple[str, str], text: str, show_at: float,
                      clients: set[Client]) -> None:
        late = False
        now = self.state.now()
        for c in list(clients):
            if show_at <= now or (c.player is not None and c.player in players):
                await c.send_text(text)
            else:
                late = True
        if late:
            self.line.put(show_at, (gid, players, text))

    async def deliver_late(self, item: tuple[int, tuple[str, str], str]) -> None:
        gid, players, text = item
        games = self.state.games
        slot = games.slots.get(gid)
        clients = slot.clients if slot is not None else games.remote_watch.get(gid, set())
        for c in list(clients):
            if c.player is None or c.player not in players:
                await c.send_text(text)

    def remember(self, slot: Slot, at: float, update: dict[str, Any]) -> None:
        """Keep the view after an action for a delayed spectator's resync."""
        board = slot.game.flow.board
        view: dict[str, Any] = {k: update[k] for k in ("phase", "clocks", "dead", "accepted", "count")
                                if k in update}  # fmt: skip
        view["to_move"] = "B" if board.to_move == BLACK else "W"
        view["running"] = {BLACK: "B", WHITE: "W"}.get(slot.game.clock.running)
        slot.recent.add(at, update["version"], view, self.state.now() - self.delay)

    def state_for(self, slot: Slot, player: str | None) -> dict[str, Any]:
        """The resync message: a player's is the game now, a spectator's the game ``delay`` ago.
        A player's also says which side he plays (``you``): a reloaded page, a join through the
        other process and a take-over all resync through here, and each must know its colour."""
        color = slot.info.color_of(player) if player else None
        if color is not None:
            out = protocol.state(slot, self.state.now())
            out["you"] = color_name(color)
            return out
        if self.delay <= 0 or (player is not None and player in slot.players):
            return protocol.state(slot, self.state.now())
        info = slot.info
        out = delayed_state(slot.game, slot.recent, self.state.now(), self.delay)
        out.update({"t": "state", "game": info.id, "black": info.black_name or info.black,
                    "white": info.white_name or info.white})  # fmt: skip
        return out


__all__ = ["Spectators"]

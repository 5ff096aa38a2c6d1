"""Waves and seating: a player's queueing (the checks run on the player's process), the one
queue (here, or at the elected matching leader), the waves every ``wave_seconds`` and their
games stored in one statement, handed to their owners and the players told and joined."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable
from dataclasses import asdict
from datetime import date, datetime
from functools import partial
from typing import Any

from yisai.game.board import BLACK, WHITE
from yisai.i18n import Text
from yisai.live import protocol
from yisai.live.cluster import Unanswered
from yisai.live.playing import Play
from yisai.live.sockets import Client, Slot
from yisai.live.state import CHUNK, HubState
from yisai.qualifier.matching import Matchmaker
from yisai.qualifier.periods import closed_reason, open_period, pool_of
from yisai.qualifier.session import LiveGame, LiveGameInfo, color_name
from yisai.services import fairplay
from yisai.services import live as svc
from yisai.services.context import Work

log = logging.getLogger("yisai.live")
JOIN_CHUNK = 500  # joins per ``join_many`` request


class Seating:
    def __init__(self, state: HubState, play: Play) -> None:
        self.state = state
        self.play = play
        self.matchmaker: Matchmaker | None = None
        self.match_day: date | None = None
        self.match_lock = asyncio.Lock()
        self.being_seated: set[str] = set()  # players of a wave whose games are being stored
        self.origin: dict[str, str] = {}  # leader: queued player → the process holding them
        self.forwarded: dict[str, tuple[str, str]] = {}  # our players queued at the leader
        self.leader_seen = ""
        self.seating: set[asyncio.Future[Any]] = set()  # waves whose players are being told

    def stop(self) -> None:
        for seating in list(self.seating):
            seating.cancel()

    # ----- queueing ---------------------------------------------------------------------------
    async def queue(self, client: Client) -> None:
        st = self.state
        cfg = st.config()
        if client.player is None:
            await client.send(protocol.error("not_signed_in", Text("请先登录", "sign in first"), client.lang))
            return
        beijing = st.ctx.settings.clock()
        refused = await asyncio.to_thread(fairplay.queue_check_in, st.ctx, cfg, client.player, beijing)
        period = open_period(cfg.stage, beijing)
        if refused is not None or period is None:  # closed (from the exact instant) or suspended
            code, why = refused or ("closed", closed_reason(cfg.stage, beijing))
            await client.send(protocol.error(code, why, client.lang))
            return
        if await self.in_game(client.player):
            await client.send(protocol.error("in_game", Text("你有一局正在进行", "you have a game in progress"),
                                             client.lang))  # fmt: skip
            return
        if client.division not in cfg.stage.divisions:
            await client.send(protocol.error("bad_division", Text(f"本阶段没有组别 {client.division}",
                                                                  f"no division {client.division} here"),
                                             client.lang))  # fmt: skip
            return
        pool = pool_of(cfg.ladder, client.division)
        await self.enqueue(pool, client.player, client.name, st.me)
        await client.send({"t": "queued", "pool": pool, "period": period.number})

    async def in_game(self, player: str) -> bool:
        if self.state.games.in_game(player):
            return True
        if self.state.cluster is None:
            return False
        return bool(await self.state.read(partial(svc.playing_games_of, player=player)))

    async def enqueue(self, pool: str, player: str, name: str, origin: str) -> None:
        """Into the one queue: ours if we lead the matching (or run alone), else the leader's."""
        st, cluster = self.state, self.state.cluster
        if cluster is not None:
            # the leader the waves loop saw last (no Redis round trip per queued player): if it
            # changed meanwhile, that loop re-queues the forwarded players at the new one
            leader = self.leader_seen or await cluster.leader()
            if leader and leader != st.me:
                if origin == st.me:
                    self.forwarded[player] = (pool, name)
                await cluster.send(leader, {"k": "queue", "pool": pool, "player": player,
                                            "name": name, "origin": origin})  # fmt: skip
                return
            self.origin[player] = origin
            st.sockets.names.setdefault(player, name)
        mm = await self.matchmaker_of(st.ctx.settings.clock())
        if player not in self.being_seated:  # else their game is about to be announced
            mm.enqueue(pool, player, st.now())

    async def leave(self, player: str) -> None:
        if self.matchmaker is not None:
            self.matchmaker.leave(player)
        self.origin.pop(player, None)
        cluster = self.state.cluster
        if self.forwarded.pop(player, None) is not None and cluster is not None and self.leader_seen:
            with contextlib.suppress(Exception):
                await cluster.send(self.leader_seen, {"k": "leave", "player": player})

    async def matchmaker_of(self, beijing: datetime) -> Matchmaker:
        """One matchmaker per day, even with many players at once (its seed and wave numbers
        read from the store, so the waves go on replayable after a restart or a new leader)."""
        st = self.state
        cfg = st.config()
        day = beijing.date()
        async with self.match_lock:
            if self.matchmaker is None or self.match_day != day:

                def stored() -> tuple[int | None, dict[str, int], dict[str, str]]:
                    with st.ctx.work(actor=st.actor) as work:
                        return (*svc.day_matching(work, cfg, day), svc.last_opponents(work, cfg))

                seed, last, opponents = await asyncio.to_thread(stored)
                queues = self.matchmaker.queues if self.matchmaker else {}
                self.matchmaker = Matchmaker(seed if seed is not None else secrets.randbits(48),
                                             dict(last), queues, opponents)  # fmt: skip
                self.match_day = day
            return self.matchmaker

    async def handle(self, msg: dict[str, Any]) -> None:
        """The matching's messages from other processes (``queue``, ``leave``, ``matched``, ``tell``)."""
        kind = msg.get("k")
        if kind == "queue":
            await self.enqueue(str(msg["pool"]), str(msg["player"]), str(msg.get("name", "")), str(msg["origin"]))
        elif kind == "leave":
            if self.matchmaker is not None:
                self.matchmaker.leave(str(msg["player"]))
            self.origin.pop(str(msg["player"]), None)
        elif kind == "matched":  # the leader seated some of our players: [player, game, colour, opponent, owner]
            seats: list[tuple[Client, int, str, str, str]] = []
            for player, gid, color, opponent, owner in msg.get("seats", []):
                self.forwarded.pop(str(player), None)
                seats.extend((c, int(gid), str(color), str(opponent), str(owner or ""))
                             for c in self.state.sockets.of(str(player)))  # fmt: skip
            await self.seat_many(seats)
        elif kind == "tell":
            player = str(msg["player"])
            if (msg.get("msg") or {}).get("code") == "closed":
                self.forwarded.pop(player, None)
            for c in self.state.sockets.of(player):
                await c.send(msg["msg"])

    # ----- waves ------------------------------------------------------------------------------
    async def waves(self) -> None:
        while True:
            await asyncio.sleep(self.state.opt.wave_seconds)
            try:
                if await self.leading():
                    await self.run_waves()
            except Exception:
                log.exception("live: matching wave failed")

    async def leading(self) -> bool:
        """Whether this process runs the waves; on a change of leader the queue moves with it."""
        st, cluster = self.state, self.state.cluster
        if cluster is None:
            return True
        leader = await cluster.leader()
        if leader != self.leader_seen:
            was, self.leader_seen = self.leader_seen, leader
            if was == st.me and leader != st.me and self.matchmaker is not None:
                # we lost the lead: our own waiting players queue again at the new leader (the
                # other processes re-queue theirs when they see the change)
                for pool, queue in self.matchmaker.queues.items():
                    for player in queue:
                        if self.origin.get(player, st.me) == st.me:
                            self.forwarded[player] = (pool, st.sockets.names.get(player, player))
                self.matchmaker, self.origin = None, {}
            for player, (pool, name) in list(self.forwarded.items()):  # re-queue at the new leader
                self.forwarded.pop(player, None)
                await self.enqueue(pool, player, name, st.me)
        return leader == st.me

    async def run_waves(self) -> None:
        st = self.state
        cfg = st.config()
        beijing = st.ctx.settings.clock()
        period = open_period(cfg.stage, beijing)
        if self.matchmaker is None:
            return
        if period is None:  # the period closed while people waited: nobody can be matched now
            for pool, queue in self.matchmaker.queues.items():
                for player in list(queue):
                    await self.tell(player, protocol.error("closed", closed_reason(cfg.stage, beijing),
                                                           st.ctx.settings.language) | {"pool": pool})
                queue.clear()
            return
        mm = await self.matchmaker_of(beijing)
        if st.cluster is not None:
            await self.drop_departed(mm)
        await self.drop_suspended(mm, beijing)
        names = st.sockets.names
        for pool in cfg.pools:
            if mm.waiting(pool) < 2:
                continue
            now = st.now()
            wave = mm.run_wave(pool, now)
            if not wave.pairs:
                continue
            owners = {m.black: self.origin.get(m.black, st.me) for m in wave.pairs}

            def write(work: Work, wave: Any = wave, pool: str = pool, now: float = now,
                      owners: dict[str, str] = owners) -> list[tuple[LiveGameInfo, LiveGame]]:
                svc.store_wave(work, cfg, beijing.date(), wave)
                pairs = [((m.black, names.get(m.black, m.black)), (m.white, names.get(m.white, m.white)),
                          owners[m.black]) for m in wave.pairs]  # fmt: skip
                return svc.start_games(work, cfg, period=period.number, pool=pool, pairs=pairs, start=now,
                                       matching={"seed": wave.seed, "wave": wave.number, "pool": pool})  # fmt: skip

            seated = {p for m in wave.pairs for p in (m.black, m.white)}
            self.being_seated |= seated
            try:
                started = await st.writer.submit(write)
            except Exception:  # nothing was stored: the players wait for the next wave
                log.exception("live: wave %s/%s not stored", pool, wave.number)
                mm.requeue(wave, set(st.sockets.clients) | set(self.origin))
                continue
            finally:
                self.being_seated -= seated
            mm.confirm(wave)
            where = await self.seat(started, owners)
            ours: list[tuple[Client, int, str, str, str]] = []
            theirs: dict[str, list[list[Any]]] = {}  # origin process → its players' seats
            for info, _ in started:
                for player, color in ((info.black, BLACK), (info.white, WHITE)):
                    opponent = info.white_name if color == BLACK else info.black_name
                    origin = self.origin.pop(player, st.me)
                    seat = [info.id, color_name(color), opponent, where[info.id]]
                    if origin == st.me:
                        ours.extend((c, *seat) for c in st.sockets.of(player))  # type: ignore[misc]
                    elif st.cluster is not None:
                        theirs.setdefault(origin, []).append([player, *seat])
            sends: list[Awaitable[Any]] = [self.seat_many(ours)]
            if st.cluster is not None:  # one message per process for the whole wave
                sends.extend(st.cluster.send(origin, {"k": "matched", "seats": seats})
                             for origin, seats in theirs.items())  # fmt: skip
            # The players are told and joined in the background: seating thousands of sockets
            # takes a while, and the waves loop (which keeps the leader's key) must go on.
            seating = asyncio.ensure_future(asyncio.gather(*sends, return_exceptions=True))
            self.seating.add(seating)
            seating.add_done_callback(self.seating.discard)

    async def drop_departed(self, mm: Matchmaker) -> None:
        """Players queued through a process that is gone (killed: it could not forward their
        ``leave``) leave the queue, so nobody is paired with a player who is not there."""
        st = self.state
        assert st.cluster is not None
        others = sorted({o for o in self.origin.values() if o != st.me})
        if not others:
            return
        alive = await st.cluster.listening(others)
        for player, origin in list(self.origin.items()):
            if not alive.get(origin, True):
                mm.leave(player)
                del self.origin[player]
                log.info("live: %s left the queue with their process %s", player, origin)

    async def seat(self, started: list[tuple[LiveGameInfo, LiveGame]],
                   owners: dict[str, str]) -> dict[int, str]:
        """New games go to their owners: here, or adopted by the process holding Black (one
        request per process per wave). A game its owner did not take in time is ours, unless
        the owner claimed it meanwhile: a key is claimed once, so a game never has two owners.
        Returns each game's owner (sent with ``matched``: the players' processes need not ask)."""
        st, cluster = self.state, self.state.cluster
        where: dict[int, str] = {}
        by_owner: dict[str, list[tuple[LiveGameInfo, LiveGame]]] = {}
        for info, game in started:
            by_owner.setdefault(owners[info.black] if cluster else st.me, []).append((info, game))
        for owner, games in by_owner.items():
            if owner != st.me and cluster is not None:
                with contextlib.suppress(Unanswered):
                    await cluster.request(owner, {"k": "adopt", "games": [
                        [asdict(info), game.start] for info, game in games]},
                        max(st.opt.request_seconds, st.opt.owner_ttl / 2))  # fmt: skip
                    where.update((info.id, owner) for info, _ in games)
                    continue
            claimed = (await cluster.claim_many([i.id for i, _ in games]) if cluster
                       else [True] * len(games))  # fmt: skip
            for (info, game), ours in zip(games, claimed, strict=True):
                if ours:
                    st.games.keep(Slot(info, game))
                where[info.id] = st.me
            taken = [info.id for (info, _), ours in zip(games, claimed, strict=True) if not ours]
            if taken and cluster is not None:  # the owner claimed them after all (a late adopt)
                for gid, holder in zip(taken, await cluster.owners(taken), strict=True):
                    where[gid] = holder or ""  # "": nobody now; a join finds out
        return where

    async def drop_suspended(self, mm: Matchmaker, beijing: datetime) -> None:
        """A sanction recorded while a player waits takes effect before the next wave (one read
        of the event's sanctions, only when someone waits): they leave the queue and are told."""
        st = self.state
        waiting = {p for queue in mm.queues.values() for p in queue}
        if not waiting:
            return
        barred = await asyncio.to_thread(fairplay.suspended_now_in, st.ctx, st.config(), beijing)
        for player in waiting & barred.keys():
            mm.leave(player)
            await self.tell(player, protocol.error("suspended", barred[player], st.ctx.settings.language))
            self.origin.pop(player, None)

    async def tell(self, player: str, msg: dict[str, Any]) -> None:
        """A message for a queued player, wherever their sockets are."""
        st = self.state
        origin = self.origin.get(player, st.me)
        if origin != st.me and st.cluster is not None:
            await st.cluster.send(origin, {"k": "tell", "player": player, "msg": msg})
            return
        for c in st.sockets.of(player):
            await c.send(msg)

    # ----- seating ----------------------------------------------------------------------------
    async def seat_many(self, seats: list[tuple[Client, int, str, str, str]]) -> None:
        """Tell our sockets of a wave's players that they are matched (client, game, colour,
        opponent, owner) and join them to their games: ours here, the others' with one
        ``join_many`` per owner (in chunks), not one request per socket."""
        st = self.state
        local: list[Any] = []
        by_owner: dict[str, list[tuple[Client, int]]] = {}
        for client, gid, color, opponent, owner in seats:
            await client.send({"t": "matched", "game": gid, "color": color, "opponent": opponent})
            if st.cluster is None or gid in st.games.slots or not owner or owner == st.me:
                local.append(self.play.join(client, gid))
                continue
            st.games.watch(gid, client)  # before the answer: no news lost
            st.games.known_owner[gid] = owner
            by_owner.setdefault(owner, []).append((client, gid))
        await asyncio.gather(*local)
        for owner, items in by_owner.items():
            for start in range(0, len(items), JOIN_CHUNK):
                chunk = items[start:start + JOIN_CHUNK]
                await self.join_chunk(owner, chunk)

    async def join_chunk(self, owner: str, chunk: list[tuple[Client, int]]) -> None:
        """One ``join_many``; asked again with the same id while the owner is alive but busy (a
        repeat is ignored there), one by one only if the owner is gone or never answers."""
        st = self.state
        cluster = st.cluster
        assert cluster is not None
        body = {"k": "join_many", "joins": [[gid, c.conn, c.player] for c, gid in chunk]}
        deadline = time.monotonic() + st.opt.owner_ttl + 3 * st.opt.request_seconds
        timeout = st.opt.request_seconds * (1 + len(chunk) / CHUNK)  # a big request takes a while
        rid: int | None = None
        try:
            while True:
                try:
                    got = await cluster.request(owner, body, timeout, rid=rid, keep=True)
                    rid = None
                    break
                except Unanswered as exc:
                    rid = exc.rid
                    alive = (await cluster.listening([owner])).get(owner, False)
                    if rid is None or not alive or time.monotonic() > deadline:
                        got = {"moved": [c.conn for c, _ in chunk]}
                        break
        finally:
            cluster.forget(rid)
        for gid, players in (got.get("players") or {}).items():
            st.games.remote_players[int(gid)] = (str(players[0]), str(players[1]))
        again = set(got.get("moved") or ())
        # not owned there (or no answer): each socket joins on its own, with the retries of ``remote``
        await asyncio.gather(*(self.play.join(c, gid) for c, gid in chunk if c.conn in again))


__all__ = ["Seating"]

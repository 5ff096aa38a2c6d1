"""The cluster half of the live hub: requests between processes, ownership and takeover.

``yisai.live.cluster`` moves the messages; these functions are what a ``LiveHub`` does with
them (docs/live.md, "How to scale out"): answer a request forwarded by another process for a
game it owns, forward its own sockets' requests to the owner (retrying through a takeover),
take over games whose owner is gone, renew its keys and drop the games it lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from yisai.i18n import Text, normalise
from yisai.live.cluster import Unanswered
from yisai.live.sockets import Client, Slot
from yisai.qualifier.session import LiveGame, color_name
from yisai.services import live as svc

if TYPE_CHECKING:
    from yisai.live.server import LiveHub

log = logging.getLogger("yisai.live")
CHUNK = 200  # a long pass yields to the event loop after this many items
JOIN_CHUNK = 500  # joins per ``join_many`` request


async def remote(hub: LiveHub, gid: int, body: dict[str, Any]) -> tuple[str, dict[str, Any] | Slot | None]:
    """Send a request to the game's owner and wait for its answer, retrying through a
    takeover: (owner, answer), or (us, our slot) when we own it now, or (us, None) when
    the game is not being played anywhere."""
    assert hub.cluster is not None
    cluster = hub.cluster
    deadline = time.monotonic() + hub.opt.owner_ttl + 3 * hub.opt.request_seconds
    asked, rid = "", None  # the owner asked last and that request's id (kept open)
    try:
        while True:
            owner = await cluster.owner(gid)
            if owner is None or owner == hub.me:
                return hub.me, hub.slots.get(gid) or await take_over(hub, gid)
            if owner != asked:  # a new owner: a new request (the old one's answer is void)
                cluster.forget(rid)
                asked, rid = owner, None
            try:
                # Asked again with the same id: a busy owner still serving the first request
                # ignores the repeat and its answer to the first one ends this wait. (Sending a
                # fresh request each time piled repeats onto an owner that was only slow.)
                got = await cluster.request(owner, body, hub.opt.request_seconds, rid=rid, keep=True)
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


async def take_over(hub: LiveHub, gid: int) -> Slot | None:
    """Own a game nobody owns: claim its key, resume it from the store (the outage since
    the last owner's ``alive_at`` is not charged) and attach our sockets watching it."""
    assert hub.cluster is not None and hub.cfg is not None
    async with hub._takeover_lock:
        if gid in hub.slots:
            return hub.slots[gid]
        if not await hub.cluster.claim(gid):
            return None
        now = hub.opt.clock()
        found = await hub._read(partial(svc.take_over, game_id=gid, up_at=now, owner=hub.me))
        if found is None:  # finished (or unknown): nothing to own
            await hub.cluster.release([gid])
            return None
        info, game = found
        slot = Slot(info, game)
        hub.keep(slot)
        log.info("live: took over game %s", gid)
        watchers = hub.remote_watch.pop(gid, set())
        hub.remote_players.pop(gid, None)
        hub.known_owner.pop(gid, None)
    async with slot.lock:
        for c in watchers:
            slot.clients.add(c)
            color = info.color_of(c.player) if c.player else None
            if color is not None and not game.over:
                game.attach(color, c.conn, now)
        for c in watchers:
            await c.send(hub._state_for(slot, c.player))
        await hub._after_change(slot)
    return slot


async def renew(hub: LiveHub, ids: list[int]) -> None:
    """Keep our ownership keys; a game whose key is gone or someone else's is dropped."""
    if hub.cluster is None or not ids:
        return
    kept = await hub.cluster.renew(ids)
    for gid, ok in zip(ids, kept, strict=True):
        if ok or gid not in hub.slots:
            continue
        slot = hub.drop(gid)
        assert slot is not None
        log.warning("live: lost game %s to another process", gid)
        hub.remote_watch.setdefault(gid, set()).update(slot.clients)
        hub.remote_players[gid] = slot.players
        hub.known_owner.pop(gid, None)  # the next scan re-joins our sockets at the owner


async def scan(hub: LiveHub) -> None:
    """Take over the playing games nobody owns; re-join our sockets where an owner changed."""
    assert hub.cluster is not None
    ids = [g for g in await hub._read(svc.playing_ids) if g not in hub.slots]
    owners = await hub.cluster.owners(ids)
    for gid, owner in zip(ids, owners, strict=True):
        if owner is None:
            await take_over(hub, gid)
    watched = [gid for gid, watchers in hub.remote_watch.items() if gid not in hub.slots and watchers]
    for gid, owner in zip(watched, await hub.cluster.owners(watched), strict=True):  # one MGET
        if owner is not None and owner != hub.known_owner.get(gid):
            for c in list(hub.remote_watch.get(gid, ())):
                await hub._join(c, gid)


async def flush_frames(hub: LiveHub) -> None:
    if hub.cluster is None or not hub.frames_out:
        return
    out, hub.frames_out = hub.frames_out, {}
    for owner, frames in out.items():
        with contextlib.suppress(Exception):
            await hub.cluster.send(owner, {"k": "frames", "frames": [list(f) for f in frames]})


async def owned(hub: LiveHub, gid: Any) -> Slot | None:
    """Our slot for a forwarded request (taking the game over if nobody owns it)."""
    if not isinstance(gid, int):
        return None
    slot = hub.slots.get(gid)
    if slot is not None or hub.cluster is None:
        return slot
    if await hub.cluster.owner(gid) in (None, hub.me):
        return await take_over(hub, gid)
    return None


async def on_message(hub: LiveHub, msg: dict[str, Any]) -> None:
    """A message from another process (``yisai.live.cluster``)."""
    assert hub.cluster is not None
    cluster, kind = hub.cluster, msg.get("k")
    if kind == "rep":  # an owner's answer for one of our sockets
        body = msg.get("msg") or {}
        client = hub.conns.get(str(body.get("conn")))
        if client is not None and "deliver" in body:
            await client.send(body["deliver"])
    elif kind == "fan":
        gid = int(msg["game"])
        if gid not in hub.slots:
            await hub._deliver(gid, tuple(msg["players"]), str(msg["text"]),
                               float(msg["show_at"]), hub.remote_watch.get(gid, set()))
    elif kind in ("act", "join", "join_many"):
        key = (str(msg.get("from")), msg.get("id"))
        if key in hub.serving:  # a repeat of a request still being served: its answer will do
            return
        hub.serving.add(key)
        try:
            if kind == "join_many":
                await join_many(hub, msg)
            else:
                await _serve_request(hub, msg, str(kind))
        finally:
            hub.serving.discard(key)
    elif kind == "frames":
        for gid, conn, player in msg.get("frames", []):
            slot = hub.slots.get(gid)
            color = slot.info.color_of(player) if slot else None
            if slot is not None and color is not None and not slot.game.over:
                async with slot.lock:
                    slot.game.frame(color, conn, hub.opt.clock())
                    await hub._after_change(slot)
    elif kind == "detach":
        slot = hub.slots.get(msg.get("game"))  # type: ignore[arg-type]
        if slot is not None:
            conn, player = str(msg["conn"]), msg.get("player")
            slot.remote.pop(conn, None)
            color = slot.info.color_of(str(player)) if player else None
            if color is not None:
                async with slot.lock:
                    slot.game.detach(color, conn, hub.opt.clock())
                    await hub._after_change(slot)
    elif kind == "queue":
        await hub._enqueue(str(msg["pool"]), str(msg["player"]), str(msg.get("name", "")),
                           str(msg["origin"]))
    elif kind == "leave":
        if hub.matchmaker is not None:
            hub.matchmaker.leave(str(msg["player"]))
        hub.origin.pop(str(msg["player"]), None)
    elif kind == "adopt":
        await adopt(hub, list(msg["games"]))
        await cluster.reply(msg, {"ok": True})
    elif kind == "matched":  # the leader seated some of our players: [player, game, colour, opponent, owner]
        seats: list[tuple[Client, int, str, str, str]] = []
        for player, gid, color, opponent, owner in msg.get("seats", []):
            hub.forwarded.pop(str(player), None)
            seats.extend((c, int(gid), str(color), str(opponent), str(owner or ""))
                         for c in list(hub.clients.get(str(player), ())))  # fmt: skip
        await seat_many(hub, seats)
    elif kind == "tell":
        player = str(msg["player"])
        if (msg.get("msg") or {}).get("code") == "closed":
            hub.forwarded.pop(player, None)
        for c in list(hub.clients.get(player, ())):
            await c.send(msg["msg"])


async def adopt(hub: LiveHub, games: list[Any]) -> None:
    """Games the matching leader just stored for us (Black's sockets are here), sent as
    (info, start): built in memory as ``start_game`` built them, no store read. A game whose
    key someone else holds (the leader gave up waiting and took it) is not ours."""
    assert hub.cluster is not None and hub.cfg is not None
    infos = [(svc.LiveGameInfo(**fields), float(start)) for fields, start in games]
    claimed = await hub.cluster.claim_many([info.id for info, _ in infos])
    for (info, start), ours in zip(infos, claimed, strict=True):
        if ours:
            hub.keep(Slot(info, LiveGame(hub.cfg.rules, start)))


async def _serve_request(hub: LiveHub, msg: dict[str, Any], kind: str) -> None:
    """An ``act`` or ``join`` forwarded by the process holding the socket."""
    assert hub.cluster is not None
    cluster = hub.cluster
    slot = await owned(hub, msg.get("game"))
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
            await answer(hub._error("not_your_game", Text("你不是这局棋的对局者",
                                                          "you are not playing this game"), lang))
            return
        await hub._act_on(slot, color, conn, msg.get("msg") or {}, float(msg.get("lag") or 0),
                          lang, answer, register, began=msg.get("_rx"))  # fmt: skip
        return
    async with slot.lock:
        register()
        color = slot.info.color_of(str(player)) if player else None
        if color is not None and not slot.game.over:
            slot.game.attach(color, conn, hub.opt.clock())
        state = hub._state_for(slot, str(player) if player else None)
        if color is not None:  # which side this connection plays
            state["you"] = color_name(color)
        await answer(state)
        await hub._after_change(slot)


async def join_many(hub: LiveHub, msg: dict[str, Any]) -> None:
    """The joins of a whole wave's players held by one process, in one request (seating
    thousands of games at once used to be thousands of requests). Each socket gets its
    ``state`` as a ``rep`` of its own, sent under the game's lock like a single join's, so the
    game's later news cannot overtake it; the request's answer lists the games not owned here
    (the asker joins those one by one) and each game's players."""
    assert hub.cluster is not None
    cluster, origin = hub.cluster, str(msg["from"])
    moved: list[str] = []
    players: dict[str, list[str]] = {}
    changed: list[Slot] = []
    for i, (gid, conn, player) in enumerate(msg.get("joins", [])):
        if i and i % CHUNK == 0:
            await asyncio.sleep(0)
        slot = hub.slots.get(gid) if isinstance(gid, int) else None
        if slot is None:
            moved.append(str(conn))
            continue
        async with slot.lock:
            slot.remote[str(conn)] = (origin, player)
            color = slot.info.color_of(str(player)) if player else None
            if color is not None and not slot.game.over:
                slot.game.attach(color, str(conn), hub.opt.clock())
            state = hub._state_for(slot, str(player) if player else None)
            if color is not None:
                state["you"] = color_name(color)
            await cluster.send(origin, {"k": "rep", "id": 0, "msg": {"conn": conn, "deliver": state}})
            players[str(gid)] = list(slot.players)
        changed.append(slot)
    await cluster.reply(msg, {"moved": moved, "players": players})

    async def after(slot: Slot) -> None:  # presence news and its write, all games at once
        async with slot.lock:
            await hub._after_change(slot)

    await asyncio.gather(*(after(slot) for slot in changed))


async def seat_many(hub: LiveHub, seats: list[tuple[Client, int, str, str, str]]) -> None:
    """Tell our sockets of a wave's players that they are matched (client, game, colour,
    opponent, owner) and join them to their games: ours here, the others' with one
    ``join_many`` per owner (in chunks), not one request per socket."""
    local: list[Any] = []
    by_owner: dict[str, list[tuple[Client, int]]] = {}
    for client, gid, color, opponent, owner in seats:
        await client.send({"t": "matched", "game": gid, "color": color, "opponent": opponent})
        if hub.cluster is None or gid in hub.slots or not owner or owner == hub.me:
            local.append(hub._join(client, gid))
            continue
        hub.remote_watch.setdefault(gid, set()).add(client)  # before the answer: no news lost
        client.games.add(gid)
        hub.known_owner[gid] = owner
        by_owner.setdefault(owner, []).append((client, gid))
    await asyncio.gather(*local)
    for owner, items in by_owner.items():
        for start in range(0, len(items), JOIN_CHUNK):
            chunk = items[start:start + JOIN_CHUNK]
            await _join_chunk(hub, owner, chunk)


async def _join_chunk(hub: LiveHub, owner: str, chunk: list[tuple[Client, int]]) -> None:
    """One ``join_many``; asked again with the same id while the owner is alive but busy (a
    repeat is ignored there), one by one only if the owner is gone or never answers."""
    assert hub.cluster is not None
    cluster = hub.cluster
    body = {"k": "join_many", "joins": [[gid, c.conn, c.player] for c, gid in chunk]}
    deadline = time.monotonic() + hub.opt.owner_ttl + 3 * hub.opt.request_seconds
    timeout = hub.opt.request_seconds * (1 + len(chunk) / CHUNK)  # a big request takes a while
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
        hub.remote_players[int(gid)] = (str(players[0]), str(players[1]))
    again = set(got.get("moved") or ())
    # not owned there (or no answer): each socket joins on its own, with the retries of ``remote``
    await asyncio.gather(*(hub._join(c, gid) for c, gid in chunk if c.conn in again))

"""Several live processes behind one Redis: game ownership, the matching leader, messages.

Why Redis and what for (docs/live.md, "How to scale out"):

* **Ownership.** One process owns a game (holds its ``LiveGame``, writes its actions). The key
  ``<prefix>:own:<game>`` names the owner and expires after ``ttl`` seconds unless the owner
  renews it (every ``alive_seconds``). A process that finds a playing game with no key takes it
  over (``SET NX``) and resumes it from the store.
* **The matching leader.** ``<prefix>:matcher`` names the one process that runs the matching
  waves (same expiry rule); the others forward ``queue``/``leave`` to it, so one queue exists
  and nobody is paired twice.
* **Messages.** Each process listens on its own channel ``<prefix>:p:<process>``: forwarded
  actions and joins (``request`` → ``rep``), game news for the sockets it holds (``fan``),
  matched players, adoption of a new game. Pub/sub is fire-and-forget: a request that is not
  answered in time is retried by the caller (an action resent at the same version is applied
  once, so a retry is safe).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from redis import asyncio as aioredis

log = logging.getLogger("yisai.live.cluster")

# Renew only a key that is still ours (an expired-and-retaken key must not be stolen back).
_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2]); out[i] = 1
  else out[i] = 0 end
end
return out
"""
_RELEASE = """
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 1
"""

# A socket's place in the caps every process shares (per address, and per player when signed
# in): counted up together, or not at all when either is full; keys expire if a process dies.
_OPEN_SOCKET = """
local over = false
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) > tonumber(ARGV[i]) then over = true end
  redis.call('PEXPIRE', key, ARGV[#ARGV])
end
if over then
  for i, key in ipairs(KEYS) do
    if redis.call('DECR', key) <= 0 then redis.call('DEL', key) end
  end
  return 0
end
return 1
"""
_CLOSE_SOCKET = """
for i, key in ipairs(KEYS) do
  if redis.call('DECR', key) <= 0 then redis.call('DEL', key) end
end
return 1
"""
SOCKET_KEY_SECONDS = 6 * 3600  # a dead process's count is forgotten this long after its last opening


class Unanswered(Exception):
    """The other process did not answer in time (it may be dead: the caller retries).
    ``rid`` is the request's id: asking the same process again with it keeps the first
    request's answer good (the owner also ignores a repeat of a request it is still serving, and
    the asker drops the answer to a repeat that came after the first answer)."""

    def __init__(self, process: str, rid: int | None = None) -> None:
        super().__init__(process)
        self.rid = rid


class Cluster:
    """This process's view of the others, through one Redis connection pool."""

    def __init__(self, url: str, prefix: str, me: str, ttl: float,
                 on_message: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        # a bounded pool that waits for a free connection (thousands of sockets share it)
        pool = aioredis.BlockingConnectionPool.from_url(url, decode_responses=True, max_connections=64,
                                                        timeout=30)  # fmt: skip
        self.redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.me = me
        self.ttl_ms = max(int(ttl * 1000), 100)
        self.on_message = on_message
        # request ids start at random so a process restarted under the same name never reuses
        # one an owner still remembers as served (live.link); 0 stays "news, no request"
        self._ids = itertools.count(1 + secrets.randbelow(2**52))
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._open_socket = self.redis.register_script(_OPEN_SOCKET)
        self._close_socket = self.redis.register_script(_CLOSE_SOCKET)
        self.sent = self.received = 0
        self.kinds: Counter[str] = Counter()  # messages received, by kind (for the bench and tests)
        self.sent_kinds: Counter[str] = Counter()  # messages sent, by kind (tests wait for delivery)

    def channel(self, process: str) -> str:
        return f"{self.prefix}:p:{process}"

    def owner_key(self, game: int) -> str:
        return f"{self.prefix}:own:{game}"

    def socket_keys(self, address: str, player: str | None) -> list[str]:
        keys = [f"{self.prefix}:sock:a:{address[:64]}"]
        return [*keys, f"{self.prefix}:sock:p:{player[:64]}"] if player is not None else keys

    async def open_socket(self, address: str, player: str | None, per_address: int, per_player: int) -> bool:
        """Take a socket's place in the caps counted across every process (one script: both
        counts or neither); False when the address or the player has no place left."""
        keys = self.socket_keys(address, player)
        caps = [per_address, per_player][: len(keys)]
        return bool(await self._open_socket(keys=keys, args=[*caps, SOCKET_KEY_SECONDS * 1000]))

    async def close_socket(self, address: str, player: str | None) -> None:
        await self._close_socket(keys=self.socket_keys(address, player))

    # ----- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel(self.me))
        self._reader = asyncio.create_task(self._read(pubsub))

    async def stop(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _read(self, pubsub: Any) -> None:
        while True:
            try:
                async for raw in pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    self.received += 1
                    msg = json.loads(raw["data"])
                    self.kinds[str(msg.get("k"))] += 1
                    msg["_rx"] = time.perf_counter()  # when it arrived (the owner's act timing)
                    if msg.get("k") == "rep" and int(msg["id"]):  # an answer: wake the asker
                        future = self._waiting.pop(int(msg["id"]), None)
                        if future is None or future.done():
                            # Nobody waits for it: the answer to a repeat that reached a slow owner
                            # after it had served the first (answered and delivered already), or one
                            # after the asker gave up. Passing it on would tell the player twice.
                            continue
                        future.set_result(msg.get("msg") or {})
                    # (a "rep" with id 0 is news for a socket that no request waits for: a seat)
                    # a task per message, created in arrival order: asyncio runs them in order
                    asyncio.get_running_loop().create_task(self._dispatch(msg))
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped Redis connection: subscribe again
                log.exception("live cluster: reading messages failed; resubscribing")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel(self.me))

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        try:
            await self.on_message(msg)
        except Exception:
            log.exception("live cluster: message %s failed", msg.get("k"))

    # ----- messages ---------------------------------------------------------------------------
    async def send(self, process: str, msg: dict[str, Any]) -> int:
        """Publish to one process; the number of listeners (0: that process is gone)."""
        self.sent += 1
        self.sent_kinds[str(msg.get("k"))] += 1
        return int(await self.redis.publish(self.channel(process), json.dumps(msg, ensure_ascii=False)))

    async def request(self, process: str, msg: dict[str, Any], timeout: float,
                      rid: int | None = None, keep: bool = False) -> dict[str, Any]:
        """Ask ``process`` and wait ``timeout`` for its answer. ``keep``: an unanswered request
        stays open (``Unanswered.rid``); asking the same process again with that ``rid``, an
        answer to either counts (a late answer is not thrown away when the caller asks again),
        and the caller ``forget``s it when giving up."""
        rid = next(self._ids) if rid is None else rid
        future = self._waiting.get(rid)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._waiting[rid] = future
        try:
            if not await self.send(process, msg | {"id": rid, "from": self.me}):
                raise Unanswered(process)
            got = await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            if not keep:
                self._waiting.pop(rid, None)
            raise Unanswered(process, rid if keep else None) from None
        except BaseException:
            self._waiting.pop(rid, None)
            raise
        self._waiting.pop(rid, None)
        return got

    def forget(self, rid: int | None) -> None:
        if rid is not None:
            self._waiting.pop(rid, None)

    async def listening(self, processes: list[str]) -> dict[str, bool]:
        """Whether each process is subscribed to its channel (alive), in one round trip."""
        if not processes:
            return {}
        got = await self.redis.pubsub_numsub(*(self.channel(p) for p in processes))
        counts = {str(ch): int(n) for ch, n in got}
        return {p: counts.get(self.channel(p), 0) > 0 for p in processes}

    async def reply(self, request: dict[str, Any], msg: dict[str, Any]) -> None:
        if "id" in request and "from" in request:
            await self.send(str(request["from"]), {"k": "rep", "id": request["id"], "msg": msg})

    # ----- ownership --------------------------------------------------------------------------
    async def owner(self, game: int) -> str | None:
        value = await self.redis.get(self.owner_key(game))
        return str(value) if value is not None else None

    async def owners(self, games: list[int]) -> list[str | None]:
        if not games:
            return []
        return [str(v) if v is not None else None
                for v in await self.redis.mget([self.owner_key(g) for g in games])]

    async def claim(self, game: int) -> bool:
        """Own ``game`` if nobody does (or we already do)."""
        key = self.owner_key(game)
        if await self.redis.set(key, self.me, nx=True, px=self.ttl_ms):
            return True
        return bool(await self.redis.get(key) == self.me)

    async def claim_many(self, games: list[int]) -> list[bool]:
        """``claim`` for many new games in one round trip (a wave seats thousands at once)."""
        pipe = self.redis.pipeline(transaction=False)
        for g in games:
            pipe.set(self.owner_key(g), self.me, nx=True, px=self.ttl_ms)
        return [bool(x) for x in await pipe.execute()]

    async def renew(self, games: list[int]) -> list[bool]:
        """Extend our keys; False for a game that is no longer ours (we must stop serving it)."""
        out: list[bool] = []
        for i in range(0, len(games), 1000):
            chunk = games[i:i + 1000]
            got = await self._renew(keys=[self.owner_key(g) for g in chunk], args=[self.me, self.ttl_ms])
            out.extend(bool(x) for x in got)
        return out

    async def release(self, games: list[int]) -> None:
        for i in range(0, len(games), 1000):
            chunk = games[i:i + 1000]
            await self._release(keys=[self.owner_key(g) for g in chunk], args=[self.me])

    async def leader(self) -> str:
        """Become or stay the matching leader if we can; the leader's name either way."""
        key = f"{self.prefix}:matcher"
        if await self.redis.set(key, self.me, nx=True, px=self.ttl_ms):
            return self.me
        current = await self.redis.get(key)
        if current == self.me:
            await self.redis.pexpire(key, self.ttl_ms)
            return self.me
        if current is None:  # expired between the two calls: try once more
            return self.me if await self.redis.set(key, self.me, nx=True, px=self.ttl_ms) else ""
        return str(current)


__all__ = ["Cluster", "Unanswered"]

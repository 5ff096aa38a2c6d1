"""Random matching (随机匹配) in waves, seeded so a day's matching can be replayed (pure).

A player presses 开始匹配 and waits in their pool. Every few seconds the server runs a *wave*
per pool: ``pair_wave`` shuffles the waiting players with a random source derived from the
stored seed, the pool and the wave number, and pairs them in that order so that

* nobody meets the same opponent twice in a row while anyone else is waiting: a player whose
  only possible partner is their last opponent waits for the next wave -- unless the two of
  them are the only players waiting in the pool, when they are paired;
* a pair that would be a repeat is repaired by swapping partners with another pair first;
* colours are decided by nigiri (a fair coin from the same random source).

Replaying: ``WaveRecord`` holds the seed, the wave number, who was waiting (with each one's last
opponent) and the pairs; ``pair_wave(record.waiting, wave_random(seed, pool, number))`` gives the
same pairs again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Waiting:
    player: str
    since: float
    last_opponent: str | None = None


@dataclass(frozen=True, slots=True)
class Match:
    black: str
    white: str


@dataclass(frozen=True, slots=True)
class WaveRecord:
    pool: str
    number: int
    seed: int
    at: float
    waiting: tuple[Waiting, ...]
    pairs: tuple[Match, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": self.pool, "number": self.number, "seed": self.seed, "at": self.at,
            "waiting": [[w.player, w.since, w.last_opponent] for w in self.waiting],
            "pairs": [[m.black, m.white] for m in self.pairs],
        }  # fmt: skip


def wave_random(seed: int, pool: str, number: int) -> random.Random:
    """The random source of one wave (a string seed is hashed deterministically by Python)."""
    return random.Random(f"yisai-match/{seed}/{pool}/{number}")


def _allowed(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent != b.player and b.last_opponent != a.player


def pair_wave(waiting: Sequence[Waiting], rng: random.Random) -> list[Match]:
    """Pairs for one wave; players left out wait for the next wave."""
    order = sorted(waiting, key=lambda w: w.player)  # input order must not matter
    rng.shuffle(order)
    free = list(order)
    pairs: list[tuple[Waiting, Waiting]] = []
    stuck: list[Waiting] = []
    while free:
        a = free.pop(0)
        partner = next((b for b in free if _allowed(a, b)), None)
        if partner is not None:
            free.remove(partner)
            pairs.append((a, partner))
        else:
            stuck.append(a)
    # Repair: a stuck player takes one member of a formed pair when the other member can then
    # play another stuck player (two more games instead of one player more waiting).
    i = 0
    while i < len(stuck):
        if not _swap_in(stuck[i], stuck, pairs):
            i += 1
    if len(waiting) == 2 and len(stuck) == 2:  # only the two of them are waiting
        pairs.append((stuck[0], stuck[1]))
    return [_nigiri(a, b, rng) for a, b in pairs]


def _swap_in(a: Waiting, stuck: list[Waiting], pairs: list[tuple[Waiting, Waiting]]) -> bool:
    for j, (x, y) in enumerate(pairs):
        for keep, give in ((x, y), (y, x)):
            if not _allowed(a, keep):
                continue
            for b in stuck:
                if b is not a and _allowed(give, b):
                    pairs[j] = (a, keep)
                    pairs.append((give, b))
                    stuck.remove(a)
                    stuck.remove(b)
                    return True
    return False


def _nigiri(a: Waiting, b: Waiting, rng: random.Random) -> Match:
    return Match(a.player, b.player) if rng.random() < 0.5 else Match(b.player, a.player)


@dataclass
class Matchmaker:
    """Queues per pool and waves; the seed is chosen once (per day) and stored by the caller."""

    seed: int
    waves: dict[str, int] = field(default_factory=dict)  # pool → waves run so far
    queues: dict[str, dict[str, Waiting]] = field(default_factory=dict)
    last_opponent: dict[str, str] = field(default_factory=dict)

    def enqueue(self, pool: str, player: str, now: float) -> bool:
        """Queue a player (False when already waiting in some pool)."""
        if any(player in q for q in self.queues.values()):
            return False
        self.queues.setdefault(pool, {})[player] = Waiting(player, now, self.last_opponent.get(player))
        return True

    def leave(self, player: str) -> bool:
        return any(q.pop(player, None) is not None for q in self.queues.values())

    def waiting(self, pool: str) -> int:
        return len(self.queues.get(pool, {}))

    def run_wave(self, pool: str, now: float) -> WaveRecord:
        queue = self.queues.get(pool, {})
        number = self.waves.get(pool, 0) + 1
        self.waves[pool] = number
        snapshot = tuple(sorted(queue.values(), key=lambda w: w.player))
        pairs = tuple(pair_wave(snapshot, wave_random(self.seed, pool, number)))
        for m in pairs:
            queue.pop(m.black, None)
            queue.pop(m.white, None)
        # players left waiting keep their place with their (unchanged) last opponent
        return WaveRecord(pool, number, self.seed, now, snapshot, pairs)

    def confirm(self, wave: WaveRecord) -> None:
        """The wave's games exist (stored): remember everyone's latest opponent."""
        for m in wave.pairs:
            self.last_opponent[m.black] = m.white
            self.last_opponent[m.white] = m.black
        for w in self.queues.get(wave.pool, {}).values():  # the waiting see the new history
            if w.player in self.last_opponent:
                self.queues[wave.pool][w.player] = Waiting(w.player, w.since,
                                                           self.last_opponent[w.player])

    def requeue(self, wave: WaveRecord, present: set[str]) -> None:
        """The wave could not be stored: its paired players (still ``present``) wait again."""
        queue = self.queues.setdefault(wave.pool, {})
        for w in wave.waiting:
            if w.player in present and w.player not in queue:
                queue[w.player] = w


__all__ = ["Match", "Matchmaker", "Waiting", "WaveRecord", "pair_wave", "wave_random"]

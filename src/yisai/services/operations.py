"""The operator's view of the online qualifier: who is on, what is being played, how matching
and escapes go. Read from the store only (so every server process sees the same figures):

* players online now — players in a game being played, plus those waiting in a matching wave
  of the last ``ONLINE_MINUTES`` minutes (the live server stores every wave that paired someone,
  with who was waiting);
* games in progress; games finished per hour over the last 24 hours;
* matching wait times — for every player of the waves of the last 24 hours, the seconds from
  queueing to the wave (median, 90th percentile, histogram);
* escapes (逃跑) per day over the last 14 days.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta

from yisai.services.context import Work
from yisai.services.identity import Action, Role
from yisai.services.live import live_config
from yisai.services.simulation import epoch
from yisai.store import qualification_rows as rows

ONLINE_MINUTES = 2
WAIT_BUCKETS = (3, 6, 10, 20, 30, 60, 120)  # seconds; the last bucket is "more"


@dataclass(frozen=True)
class Dashboard:
    at: datetime
    online: int
    playing: int
    games_per_hour: list[tuple[str, int]]  # ("HH:00", count), oldest first
    wait_median: float | None
    wait_p90: float | None
    wait_histogram: list[tuple[str, int]]
    escapes_per_day: list[tuple[str, int]]


def _p90(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def dashboard(work: Work, event_ref: str | int | None) -> Dashboard:
    if work.actor.role is not Role.OPERATOR:
        work.require(Action.RECORD_RESULT)  # officials and the platform's operators
    cfg = live_config(work, event_ref)
    now = work.now
    playing = rows.playing_players(work.session, cfg.event_id)
    games = rows.playing_count(work.session, cfg.event_id, cfg.stage.id)
    waves = rows.waves_since(work.session, cfg.event_id, (now - timedelta(days=1)).date())
    recent, waits = set(), []
    now_s, day_ago = epoch(now), epoch(now - timedelta(days=1))
    for w in waves:
        at = float(w.get("at", 0))
        if not day_ago <= at <= now_s:
            continue
        for player, since, _ in w.get("waiting", []):
            waits.append(max(0.0, at - float(since)))
            if at >= now_s - ONLINE_MINUTES * 60:
                recent.add(str(player))
    hour0 = now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=23)
    per_hour = {hour0 + timedelta(hours=i): 0 for i in range(24)}
    day0 = now.date() - timedelta(days=13)
    per_day = {day0 + timedelta(days=i): 0 for i in range(14)}
    for finished, reason in rows.finished_since(work.session, cfg.event_id, datetime.combine(day0, datetime.min.time())):
        h = finished.replace(minute=0, second=0, microsecond=0)
        if h in per_hour:
            per_hour[h] += 1
        if reason == "escape" and finished.date() in per_day:
            per_day[finished.date()] += 1
    hist = []
    lower = 0.0
    for top in WAIT_BUCKETS:
        hist.append((f"≤{top}s", sum(1 for x in waits if lower < x <= top or (lower == 0 and x == 0))))
        lower = top
    hist.append((f">{WAIT_BUCKETS[-1]}s", sum(1 for x in waits if x > WAIT_BUCKETS[-1])))
    return Dashboard(
        now, len(playing | recent), games, [(f"{h:%H}:00", n) for h, n in per_hour.items()],
        statistics.median(waits) if waits else None, _p90(waits), hist,
        [(f"{d:%m-%d}", n) for d, n in per_day.items()],
    )


__all__ = ["Dashboard", "dashboard"]

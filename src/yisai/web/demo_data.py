"""Demo data for the server: both seed events half-way through, and one account per role.

Uses the demo simulation of ``yisai demo`` (same people, same simulated results): in every
division about half of the rounds are played, the next round is paired and published with no
results yet, so a referee can enter them in the grid and the public pages show them live.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from yisai.services.accounts import create_user
from yisai.services.context import Context, open_context
from yisai.services.demo_event import (
    DEMO_SEEDS,
    play_round,
    register_all,
    registration_moment,
    rounds_for,
    shanhai_people,
)
from yisai.services.event_data import approved_players
from yisai.services.events import create_event, read_regulation_file, regulation_of
from yisai.services.identity import Actor, Role
from yisai.services.publishing import publish_round
from yisai.services.rounds import pair
from yisai.services.settings import Settings, fixed_clock

REGULATIONS = Path(__file__).resolve().parents[3] / "regulations"
DIRECTOR = Actor.cli("demo", Role.CHIEF_REFEREE)


@dataclass(frozen=True)
class DemoAccount:
    login: str
    password: str
    role: Role
    event: int | None


def load_demo(settings: Settings, *, scale: float = 0.5, regulations: list[Path] | None = None) -> list[int]:
    """Create the seed events in a mid-event state; returns their ids.

    Each event is registered as of a moment inside its registration window (as `yisai demo` does).
    """
    ids = []
    for path in regulations or [REGULATIONS / "2025-xiaoqiwang.toml", REGULATIONS / "2025-shanhai-cup.toml"]:
        reg = read_regulation_file(path)[1]
        moment = registration_moment(reg)
        with open_context(replace(settings, clock=fixed_clock(moment))) as ctx:
            ids.append(_load_one(ctx, path, scale))
    return ids


def _load_one(ctx: Context, path: Path, scale: float) -> int:
    reg = read_regulation_file(path)[1]
    make_people, seed = DEMO_SEEDS.get(path.stem, (shanhai_people, 1))
    with ctx.work(actor=DIRECTOR) as work:
        event = create_event(work, path, seed=seed)
    people, teams = make_people(event.seed, scale)
    with ctx.work(actor=DIRECTOR) as work:
        register_all(work, event, regulation_of(event), people, teams)
    for d in reg.divisions:
        with ctx.work(actor=DIRECTOR) as work:
            n = len(approved_players(work, event, d.id))
        if n < 2:
            continue
        total = rounds_for(reg, d.id, n) or 2  # a format that sets its own rounds: play 1, pair 2
        played = max(1, total // 2)
        for number in range(1, played + 1):
            with ctx.work(actor=DIRECTOR) as work:
                play_round(work, event, d.id, number, event.seed + number)
                publish_round(work, str(event.id), d.id, number)
        if played < total:
            with ctx.work(actor=DIRECTOR) as work:
                pair(work, str(event.id), d.id, played + 1)
                publish_round(work, str(event.id), d.id, played + 1)
    return event.id


def demo_accounts(ctx: Context, events: list[int]) -> list[DemoAccount]:
    """One account per role (the team leader and referee bound to the first event)."""
    first = events[0] if events else None
    wanted = [
        DemoAccount("director", "director-demo", Role.CHIEF_REFEREE, None),
        DemoAccount("referee", "referee-demo", Role.REFEREE, None),
        DemoAccount("leader", "leader-demo", Role.TEAM_LEADER, first),
        DemoAccount("operator", "operator-demo", Role.OPERATOR, None),
    ]
    names = {Role.CHIEF_REFEREE: "裁判长", Role.REFEREE: "裁判员", Role.TEAM_LEADER: "领队", Role.OPERATOR: "运营"}
    with ctx.work(actor=Actor.system()) as work:
        for a in wanted:
            create_user(work, a.login, f"演示{names[a.role]}", a.role, a.password, event_id=a.event)
    return wanted

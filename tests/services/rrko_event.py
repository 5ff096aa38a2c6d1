"""The example championship (regulations/examples/round-robin-knockout.toml) played to the end
through the generic services, for the services and web tests.

18 players, all 5段, ratings 2790, 2780 … 2620 (选手01 strongest), so the seeding order is
选手01 … 选手18 and the snake gives (by hand: A B C D D C B A A B C D D C B A A B)
A = 01 08 09 16 17, B = 02 07 10 15 18, C = 03 06 11 14, D = 04 05 12 13.
The stronger player wins, except in group A (built so 小循环 decides 2nd–4th) and two
knockout games (an upset and a forfeit).
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from tests.conftest import REGULATIONS
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services.approvals import approve_entry
from yisai.services.context import Context, Work
from yisai.services.entries import Registered, register_player
from yisai.services.events import create_event
from yisai.services.publishing import publish_round
from yisai.services.round_results import record_result
from yisai.services.rounds import RoundView, pair, round_view

EXAMPLE = REGULATIONS / "examples" / "round-robin-knockout.toml"
RATING = {f"选手{i:02d}": 2800 - 10 * i for i in range(1, 19)}
# Group A by hand: U=16 beats 17, 01, 08; Z=09 beats 16, 17; X=01 beats 08, 09; Y=08 beats 17, 09;
# V=17 beats 01. Points: 16 → 6; 01, 08, 09 → 4; 17 → 2. Among 01, 08, 09: 01 4, 08 2, 09 0.
GROUP_A_WINS = {frozenset(p): p[0] for p in [
    ("选手16", "选手17"), ("选手16", "选手01"), ("选手16", "选手08"), ("选手09", "选手16"),
    ("选手09", "选手17"), ("选手01", "选手08"), ("选手01", "选手09"), ("选手08", "选手17"),
    ("选手08", "选手09"), ("选手17", "选手01")]}
UPSET = {frozenset(("选手16", "选手07")): "选手16"}  # quarter-final A1–B2: the lower rating wins
FORFEIT = frozenset(("选手04", "选手06"))  # quarter-final D1–C2: 选手04 does not come


def _result(black: str, white: str) -> str:
    pair_ = frozenset((black, white))
    if pair_ == FORFEIT:
        return "黑弃权" if black == "选手04" else "白弃权"
    winner = GROUP_A_WINS.get(pair_) or UPSET.get(pair_) or max((black, white), key=RATING.__getitem__)
    return "黑胜" if winner == black else "白胜"


NOW = datetime(2026, 3, 20, 9, 0)  # inside the example's registration window


def approve_all(w: Work, done: list[Registered]) -> None:
    """The example's 规程 says 报名后须经审核 (approval_required): the director approves each entry."""
    for d in done:
        assert d.entry is not None
        if d.entry.status is not EntryStatus.APPROVED:
            approve_entry(w, d.entry.id)


def play_example(ctx: Context, publish: bool = False, last_round: int = 8,
                 regulation: Path = EXAMPLE, women: frozenset[str] = frozenset()) -> tuple[int, list[RoundView]]:
    """Create the event (from the example, or a variant of it; ``women`` the players entered as
    women) and play rounds 1..``last_round`` (8 = to the end); (event id, round views)."""
    views = []
    with ctx.work() as w:
        ev = create_event(w, regulation, seed=2026)
        for name, rating in RATING.items():
            gender = Gender.FEMALE if name in women else Gender.MALE
            done = register_player(w, ev, Player(id="", name=name, gender=gender, birth_date=date(1990, 1, 1),
                                                 rank="5段", rating=rating, region="中国大陆", province="浙江",
                                                 city="杭州"), division="open")
            approve_all(w, [done])
    for r in range(1, last_round + 1):
        with ctx.work() as w:
            paired = pair(w, ev.id, "open", r)
            if publish:
                publish_round(w, str(ev.id), "open", r)
            names = paired.names
            for group, pairing in paired.parts:
                for b in pairing.boards:
                    record_result(w, ev.id, "open", r, b.board, _result(names[b.black], names[b.white]),
                                  group=group)
        with ctx.work() as w:
            views.append(round_view(w, ev.id, "open", r))
    return ev.id, views



"""积分编排淘汰制 on the round pages (issue 41): the console's and the public round page list the
players the rule has eliminated, each with the round it fired, and the console's pairing leaves
them out of every later round.

The case of tests/services/test_elimination_swiss.py: eight players 选手01 … 选手08 (seeding order
01 … 08), 3 Swiss rounds, "第1轮后0分者淘汰, 第2轮后2分者淘汰" (win 2, loss 0), the stronger player
wins every game. By hand:
  R1 01–05 02–06 03–07 04–08: 05–08 on 0 → eliminated after round 1 ("第1轮后积分0, 淘汰").
  R2 01–03 02–04 (only the four on 2 paired): 03, 04 on 2 → eliminated after round 2 ("第2轮后积分2").
  R3 01–02 (one board): six players listed as eliminated.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from tests.services.rrko_event import NOW, approve_all
from tests.services.test_elimination_swiss import _text
from tests.web.conftest import Site
from tests.web.test_console import token_of
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.publishing import publish_round
from yisai.services.round_results import record_result
from yisai.services.rounds import round_view


def _event(db: str, tmp: Path) -> int:
    path = tmp / "elimination.toml"
    path.write_text(_text(), encoding="utf-8")
    with open_context(db, actor="裁判长", now=NOW) as ctx, ctx.work() as w:
        ev = create_event(w, path, seed=2026)
        for i in range(1, 9):
            done = register_player(w, ev, Player(
                id="", name=f"选手{i:02d}", gender=Gender.MALE, birth_date=date(1990, 1, 1), rank="5段",
                rating=2800 - 10 * i, region="中国大陆", province="浙江", city="杭州"), division="open")
            approve_all(w, [done])
        return ev.id


def _play(db: str, event_id: int, r: int) -> set[frozenset[str]]:
    """The stronger (lower number) wins every board of round r; the round is published."""
    with open_context(db, actor="裁判长", now=NOW) as ctx, ctx.work() as w:
        view = round_view(w, str(event_id), "open", r)
        pairs = set()
        for g in view.rounds[0].games:
            black, white = view.names[g.black], view.names[g.white or ""]
            pairs.add(frozenset((black, white)))
            record_result(w, event_id, "open", r, g.board, "黑胜" if black < white else "白胜")
        publish_round(w, str(event_id), "open", r)
    return pairs


def _left(html: str) -> dict[str, str]:
    section = re.search(r'<section class="left-out".*?</section>', html, re.S)
    if section is None:
        return {}
    return dict(re.findall(r"<li><strong>([^<]+)</strong>: ([^<]+)</li>", section.group(0)))


def _pairs(*pairs: tuple[int, int]) -> set[frozenset[str]]:
    return {frozenset((f"选手{a:02d}", f"选手{b:02d}")) for a, b in pairs}


def test_the_round_pages_mark_the_eliminated_and_the_console_does_not_pair_them(site: Site, tmp_path: Path) -> None:
    event_id = _event(site.db, tmp_path)
    director = site.login("director")
    played = {}
    for r in (1, 2, 3):  # each round paired through the console's form
        token = token_of(director)
        done = director.post(f"/console/events/{event_id}/pair", data={"csrf": token, "division": "open",
                                                                        "round": str(r)}, follow_redirects=False)
        assert done.status_code == 303, done.text
        assert "err=" not in done.headers["location"], done.headers["location"]
        played[r] = _play(site.db, event_id, r)
    assert played[1] == _pairs((1, 5), (2, 6), (3, 7), (4, 8))
    assert played[2] == _pairs((1, 3), (2, 4))  # 05–08 not paired again
    assert played[3] == _pairs((1, 2))  # nor 03, 04

    out_after_1 = {f"选手{k:02d}": "第1轮后积分0, 淘汰" for k in (5, 6, 7, 8)}
    out_after_2 = {"选手03": "第2轮后积分2, 淘汰", "选手04": "第2轮后积分2, 淘汰"}
    assert _left(director.get(f"/console/events/{event_id}/rounds/open/1").text) == {}
    assert _left(director.get(f"/console/events/{event_id}/rounds/open/2").text) == out_after_1
    assert _left(director.get(f"/console/events/{event_id}/rounds/open/3").text) == {**out_after_1, **out_after_2}
    public = site.client.get(f"/events/{event_id}/rounds/open/3")
    assert public.status_code == 200
    assert _left(public.text) == {**out_after_1, **out_after_2}
    assert "淘汰 / 不再编排 (6)" in public.text
    api = site.client.get(f"/api/events/{event_id}/rounds/open/3").json()
    assert {x["name"]: x["why"] for x in api["left_out"]} == {**out_after_1, **out_after_2}

"""Seed 000's round 10 (同名次决赛) on the public pages and the printed 对阵表: each board says
who meets whom for which places, the final standings show each player's group, and "为何"
speaks of the final game (or, below the final, of the stated rule).

The field is ``tests/services/test_final_order.py``'s (40 players, A/B × 9, round 10); the
expected words are worked out from the stored round-10 games: board k is A_k–B_k for places
2k−1 and 2k, its winner takes 2k−1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from tests.services.test_final_order import final  # noqa: F401  (the fixture)
from yisai.services.context import Context
from yisai.services.printing import PrintOptions, build_document
from yisai.services.publishing import publish_round
from yisai.services.rounds import round_view
from yisai.services.settings import Settings
from yisai.web.app import create_app


@pytest.fixture(scope="module")
def client(final: tuple[Context, int]) -> Iterator[TestClient]:  # noqa: F811
    ctx, event_id = final
    with ctx.work() as w:
        for n in range(1, 11):
            publish_round(w, str(event_id), "open", n)
    app = create_app(replace(Settings(database=ctx.settings.database), clock=ctx.settings.clock),
                     secret="test-secret", refresh_seconds=0)
    with TestClient(app) as c:
        yield c


def _board_one(ctx: Context, event_id: int) -> tuple[str, str, str, str]:
    """(winner name, loser name, winner's group, loser's group) of the final's board 1."""
    with ctx.work() as w:
        view = round_view(w, event_id, "open", 10)
    g = next(x for x in view.rounds[0].games if x.board == 1)
    win, lose = (g.black, g.white) if g.outcome_for(g.black) == "W" else (g.white, g.black)
    assert win and lose
    return view.names[win], view.names[lose], view.seats[win][0], view.seats[lose][0]


def test_the_public_round_page_labels_each_board_of_the_final(client: TestClient,
                                                              final: tuple[Context, int]) -> None:  # noqa: F811
    _ctx, event_id = final
    page = client.get(f"/events/{event_id}/rounds/open/10").text
    labels = re.findall(r'<tr class="matchup"><td colspan="5">(.*?)</td></tr>', page)
    assert labels == [f"A组第{k}名 — B组第{k}名 (争第{2 * k - 1}–{2 * k}名)" for k in range(1, 17)]
    round9 = client.get(f"/events/{event_id}/rounds/open/9").text
    assert 'class="matchup"' not in round9  # group rounds have no such line


def test_final_standings_show_the_group_and_why(client: TestClient, final: tuple[Context, int]) -> None:  # noqa: F811
    ctx, event_id = final
    winner, loser, wg, lg = _board_one(ctx, event_id)
    page = client.get(f"/events/{event_id}/standings/open").text
    table = page.split('<table class="standings keep-name">', 1)[1].split("</table>", 1)[0]
    head = re.findall(r"<th>(.*?)</th>", table)
    assert head[:6] == ["名次", "姓名", "性别", "单位", "段位", "分组"]
    rows = [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]]
    assert rows[0][:2] == ["1", winner] and rows[0][5] == f"{wg}组"
    assert rows[1][:2] == ["2", loser] and rows[1][5] == f"{lg}组"
    with ctx.work() as w:
        everyone = round_view(w, event_id, "open", 10).seats  # both groups' players
    assert {r[5] for r in rows} == {"A组", "B组"} and len(rows) == len(everyone)
    why = client.get(f"/events/{event_id}/standings/open", params={"explain": winner}).text
    assert f"同名次决赛 {wg}组第1名胜{lg}组第1名, 获第1名" in why
    why = client.get(f"/events/{event_id}/standings/open", params={"explain": rows[32][1]}).text
    assert "同名次决赛只决定第1–32名" in why and "组第17名获第33名" in why


def test_the_printed_final_pairings_say_which_places(final: tuple[Context, int]) -> None:  # noqa: F811
    ctx, event_id = final
    with ctx.work() as w:
        doc = build_document(w, event_id, "pairings", PrintOptions(division="open", round=10))
    [table] = [t for s in doc.sections for t in s.tables]
    assert doc.landscape and [c.title for c in table.columns][:3] == ["台次", "同名次决赛", "黑方"]
    assert [row[:2] for row in table.rows] == [
        (str(k), f"A组第{k}名 — B组第{k}名 (争第{2 * k - 1}–{2 * k}名)") for k in range(1, 17)]

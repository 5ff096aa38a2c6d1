"""Places below a knockout as the 规程 states them (``knockout.places_below``), by hand.

The example championship (tests/services/rrko_event.py) with its 规程's place rules written:
  第5–8名按小组赛积分、对手分; 第9名以后按小组名次、小组积分、对手分,
and the 5th–8th prizes made different (800/600/500/400) so the order is money.

Group stage by hand (win 2; a bye scores nothing and is no opponent):
  A: 16 → 6; 01, 08, 09 → 4 (小循环 01, 08, 09); 17 → 2      B: 02 8, 07 6, 10 4, 15 2, 18 0
  C: 03 6, 06 4, 11 2, 14 0                                  D: 04 6, 05 4, 12 2, 13 0
Quarter-final losers 07 (B2), 05 (D2), 02 (B1), 04 (D1):
  02 8 points → 5th; 07 and 04 on 6: 对手分 07 = 02 8 + 10 4 + 15 2 + 18 0 = 14,
  04 = 05 4 + 12 2 + 13 0 = 6 → 07 6th, 04 7th; 05 4 points → 8th.
Not qualified, by group place, then points, then 对手分:
  3rd: 08 4 (对手分 16 6 + 01 4 + 09 4 + 17 2 = 16), 10 4 (02 8 + 07 6 + 15 2 + 18 0 = 16) → 9th =;
       11 2 (03 6 + 06 4 + 14 0 = 10), 12 2 (04 6 + 05 4 + 13 0 = 10) → 11th =
  4th: 09 4 → 13th; 15 2 → 14th; 14 0 (03 6 + 06 4 + 11 2 = 12), 13 0 (04 6 + 05 4 + 12 2 = 12) → 15th =
  5th: 17 2 → 17th; 18 0 → 18th.
A women's list (女子前3名 1000/600/400) with 06, 07 and 04 entered as women: 06 (3rd) is the
first woman, then 07 (6th) and 04 (7th) — without the rule 07 and 04 were both 5th =, both the
second woman, and the 2nd women's prize was paid twice (600 + 600, the 3rd prize to nobody).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.services.rrko_event import EXAMPLE, NOW, play_example
from yisai.regulation.loader import RegulationError, loads
from yisai.services import reports
from yisai.services.context import open_context

RULES = """third_place = true
places_below = [
  { from = 5, to = 8, criteria = ["score", "sos"] },
  { from = 9, criteria = ["group_place", "score", "sos"] },
]
"""


WOMEN = """
[[prizes.lists]]
id = "women"
name = "女子"
division = "open"
ranking = "women"
places = 3
cumulative_with = ["top8"]
rows = [{ from = 1, to = 1, amount = 1000 }, { from = 2, to = 2, amount = 600 }, { from = 3, to = 3, amount = 400 }]
"""


def _variant(tmp: Path) -> Path:
    text = EXAMPLE.read_text("utf-8")
    assert "third_place = true\n" in text
    text = text.replace("third_place = true\n", RULES, 1)
    text = text.replace("{ from = 5, to = 8, amount = 500 },",
                        "{ from = 5, to = 5, amount = 800 }, { from = 6, to = 6, amount = 600 }, "
                        "{ from = 7, to = 7, amount = 500 }, { from = 8, to = 8, amount = 400 },")
    text = text.replace('name = "个人总名次"\n', 'name = "个人总名次"\n[[divisions.rankings]]\nid = "women"\n'
                        'name = "女子名次"\ngender = "F"\n', 1)
    text += WOMEN
    path = tmp / "rrko-places.toml"
    path.write_text(text, "utf-8")
    return path


def test_places_below_the_bracket_follow_the_regulation(tmp_path: Path) -> None:
    with open_context(str(tmp_path / "e.sqlite"), actor="裁判长", now=NOW) as ctx:
        eid, _views = play_example(ctx, regulation=_variant(tmp_path), women=frozenset({"选手06", "选手07", "选手04"}))
        with ctx.work() as w:
            rows = reports.event_standings(w, eid, "open").standings.rows
            view = reports.prizes(w, str(eid))
    assert [(r.place, r.player.name) for r in rows] == [
        (1, "选手01"), (2, "选手03"), (3, "选手06"), (4, "选手16"),
        (5, "选手02"), (6, "选手07"), (7, "选手04"), (8, "选手05"),
        (9, "选手08"), (9, "选手10"), (11, "选手11"), (11, "选手12"),
        (13, "选手09"), (14, "选手15"), (15, "选手14"), (15, "选手13"),
        (17, "选手17"), (18, "选手18"),
    ]
    paid = [(ln.place, ln.name, ln.amount) for ln in view.report.list("top8").lines]
    assert paid[4:] == [(5, "选手02", 800), (6, "选手07", 600), (7, "选手04", 500), (8, "选手05", 400)]
    women = [(ln.place, ln.name, ln.amount) for ln in view.report.list("women").lines]
    assert women == [(1, "选手06", 1000), (2, "选手07", 600), (3, "选手04", 400)]


def test_overlapping_place_rules_are_refused_naming_the_field() -> None:
    text = EXAMPLE.read_text("utf-8").replace("third_place = true\n", """third_place = true
places_below = [
  { from = 5, to = 10, criteria = ["score"] },
  { from = 9, criteria = ["group_place"] },
]
""", 1)
    with pytest.raises(RegulationError) as err:
        loads(text, "rrko.toml")
    assert "places_below" in str(err.value) and "重叠" in str(err.value)

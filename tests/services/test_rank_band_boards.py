"""Boards by rank band (#41): "九路围空: 6级(20级), 5级(15级) … 黑45子取胜; 19路围空: 4级(10级)以上 …
黑185子取胜" (../shared/testdata/regulations-real/25, 少年纵横棋王赛 北京站). In every real text of
the corpus that sets a board by level (25 by rank band, 04 幼儿组 13路, 03 吃子组/级位组) the band is
a group of its own, so the regulation states it as divisions: eligibility by rank and the
division's board_size (regulations/examples/2024-zongheng-rank-bands.toml, docs/regulation.md).

Stones Black needs with komi 7.5, more than (points + komi) / 2: 9路 (81 + 7.5) / 2 = 44.25 → 45,
19路 (361 + 7.5) / 2 = 184.25 → 185: the text's "黑45子取胜" and "黑185子取胜".
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.services.context import open_context
from yisai.services.events import read_regulation_file
from yisai.services.printing import PrintOptions, build_document
from yisai.services.settings import Settings
from yisai.store import roster_rows
from yisai.vocabulary.rank import Rank

EXAMPLE = REGULATIONS / "examples" / "2024-zongheng-rank-bands.toml"
NINE = "本组棋盘9路, 贴7.5目(3又3/4子), 黑45子胜"
runner = CliRunner()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("bands") / "demo.sqlite")
    r = runner.invoke(app, ["demo", "--regulation", str(EXAMPLE), "--seed", "3", "--scale", "0.5",
                            "--boards", "1", "--db", db])
    assert r.exit_code == 0, r.output
    return db


def test_regulation_show_gives_each_band_its_board() -> None:
    r = runner.invoke(app, ["regulation", "show", str(EXAMPLE)])
    assert r.exit_code == 0, r.output
    nine, nineteen = r.output.split("19路围空 (shijiulu)")
    assert "段级位: 6级 至 5级" in nine and NINE in nine
    assert "段级位: 4级 至 不限" in nineteen and "本组棋盘" not in nineteen  # the event's 19路
    assert "棋盘19路" in r.output


def test_each_band_plays_on_its_board_in_the_demo(demo_db: str) -> None:
    reg = read_regulation_file(EXAMPLE)[1]
    assert reg.play_rules_for("jiulu").board_size == 9 and reg.play_rules_for("shijiulu").board_size == 19
    with open_context(demo_db) as c, c.work() as w:
        players = {p.id: p for p in roster_rows.list_players(w.session, 1)}
        bands = {"jiulu": (Rank.parse("6级"), Rank.parse("5级")), "shijiulu": (Rank.parse("4级"), None)}
        for division, (low, high) in bands.items():
            entries = roster_rows.list_entries(w.session, 1, division=division)
            assert entries
            for e in entries:  # who plays where: the band of the text
                rank = players[e.player_id].rank
                assert rank is not None and rank >= low and (high is None or rank <= high)
        for number in range(1, 6):  # 各组都进行五轮比赛: every round's slips carry the band's board
            nine = build_document(w, "1", "slips", PrintOptions(division="jiulu", round=number))
            full = build_document(w, "1", "slips", PrintOptions(division="shijiulu", round=number))
            assert nine.slips and all(s.caption.endswith(" 9路 贴7.5目 黑45子胜") for s in nine.slips)
            assert full.slips and not any("贴" in s.caption for s in full.slips)  # the event's 19路


def test_the_public_summary_shows_the_band_board(demo_db: str) -> None:
    from yisai.web.app import create_app

    with TestClient(create_app(Settings(database=demo_db), secret="t", refresh_seconds=0)) as client:
        page = client.get("/events/1")
        assert page.status_code == 200
        assert NINE in page.text and "6级 至 5级" in page.text

"""regulations/examples/2026-youth-boards-lateness.toml end to end through `yisai demo`: each
division's own board and clock (乙组(成长组) 13路 20分钟, 丙组(启蒙组) 9路 20分钟, 甲组 19路 on the
stage's 45分钟) in `regulation show`, the public summary and the score slips; and the absence
rules ("迟到15分钟判弃权负, 累计两轮弃权不再编排") firing in the demo, where one player of each
division never comes.

Stones Black needs with komi 7.5 (3¾ stones), more than (points + komi) / 2: 19路 (361 + 7.5) / 2 =
184.25 → 185; 13路 (169 + 7.5) / 2 = 88.25 → 89; 9路 (81 + 7.5) / 2 = 44.25 → 45 (the real text's
"九路围空: 黑贴3又3/4子, 黑45子取胜").
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.services.context import open_context
from yisai.services.printing import PrintOptions, build_document
from yisai.services.settings import Settings
from yisai.store import roster_rows, round_rows

EXAMPLE = REGULATIONS / "examples" / "2026-youth-boards-lateness.toml"
runner = CliRunner()

BOARD_LINES = ("本组棋盘13路, 贴7.5目(3又3/4子), 黑89子胜", "本组棋盘9路, 贴7.5目(3又3/4子), 黑45子胜",
               "本组用时: 20分钟")


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("boards") / "demo.sqlite")
    r = runner.invoke(app, ["demo", "--regulation", str(EXAMPLE), "--seed", "5", "--scale", "0.5",
                            "--boards", "1", "--db", db])
    assert r.exit_code == 0, r.output
    return db


def test_regulation_show_states_each_divisions_board_and_clock() -> None:
    r = runner.invoke(app, ["regulation", "show", str(EXAMPLE)])
    assert r.exit_code == 0, r.output
    for line in BOARD_LINES:
        assert line in r.output
    assert "棋盘19路" in r.output  # the event's own rules, for 甲组
    assert "迟到15分钟者该轮按弃权处理" in r.output and "弃权满2轮者取消其后比赛资格" in r.output


def test_the_public_summary_shows_them(demo_db: str) -> None:
    from yisai.web.app import create_app

    with TestClient(create_app(Settings(database=demo_db), secret="t", refresh_seconds=0)) as client:
        page = client.get("/events/1")
        assert page.status_code == 200
        for line in BOARD_LINES:
            assert line in page.text


def test_score_slips_carry_the_divisions_board(demo_db: str) -> None:
    with open_context(demo_db) as c, c.work() as w:
        yi = build_document(w, "1", "slips", PrintOptions(division="yi", round=5))
        bing = build_document(w, "1", "slips", PrintOptions(division="bing", round=5))
        jia = build_document(w, "1", "slips", PrintOptions(division="jia", round=5))
    assert yi.slips and all(s.caption.endswith(" 13路 贴7.5目 黑89子胜") for s in yi.slips)
    assert bing.slips and all(s.caption.endswith(" 9路 贴7.5目 黑45子胜") for s in bing.slips)
    assert jia.slips and not any("路" in s.caption for s in jia.slips)


def test_the_absentee_is_excluded_after_two_forfeits_and_paired_no_more(demo_db: str) -> None:
    with open_context(demo_db) as c, c.work() as w:
        for division in ("jia", "yi", "bing"):
            (gone,) = [e for e in roster_rows.list_entries(w.session, 1, division=division) if e.status.value == "withdrawn"]
            games = [g for g in round_rows.games(w.session, 1, division) if gone.player_id in (g.black, g.white)]
            forfeits = [g for g in games if not g.is_bye and not g.played]
            # every game he was paired in is his forfeit …
            assert all(g.reason == "弃权" and g.outcome_for(gone.player_id) == "L" for g in forfeits)
            # … the second one ends his event: no game after it
            assert len(forfeits) == 2 and max(g.round for g in games) == forfeits[1].round
            assert "按规程弃权满2轮取消其后比赛资格" in gone.note

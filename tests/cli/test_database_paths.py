"""Where the command finds its database, and what it shows of a division (issue 43 items 6, 7):
a relative ``YISAI_DB`` read from another folder is an error naming the path, not a new empty
store; ``--db`` is a root option too; a division ranked by gender prints each official list."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.vocabulary import Rank

SEED_002 = str(REGULATIONS / "2025-xiaoqiwang.toml")


def _event(db: Path) -> None:
    """Seed 002's 甲组 with two boys and two girls, round 1 played (boards 1 and 2: Black wins)."""
    people = [("男一", Gender.MALE), ("男二", Gender.MALE), ("女一", Gender.FEMALE), ("女二", Gender.FEMALE)]
    with open_context(str(db), actor="裁判长", now=datetime(2025, 4, 10, 9)) as ctx, ctx.work() as w:
        event = create_event(w, SEED_002, seed=1)
        for i, (name, gender) in enumerate(people, 1):
            register_player(w, event, Player(
                id="", name=name, gender=gender, birth_date=date(2013, 1, i), rank=Rank.parse("1段"),
                certificate_no=f"C{i}", region="中国大陆", province="浙江"), division="jia")
        paired = pair(w, event.id, "jia", 1)
        for b in paired.parts[0][1].boards:
            record_result(w, event.id, "jia", 1, b.board, "黑胜")


def test_a_relative_database_from_another_folder_is_named_not_created(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    as_director(monkeypatch, tmp_path / "event.sqlite", "2025-04-10T09:00")
    monkeypatch.setenv("YISAI_DB", "event.sqlite")  # relative, as the README's export writes it
    run_cli("event", "create", "--regulation", SEED_002)
    (tmp_path / "pdf").mkdir()
    monkeypatch.chdir(tmp_path / "pdf")
    out = run_cli("entry", "list", code=2)
    assert "数据库文件不存在" in out and str(tmp_path / "pdf" / "event.sqlite") in out
    assert "YISAI_DB" in out
    assert not (tmp_path / "pdf" / "event.sqlite").exists()  # nothing created in the wrong place
    # the root option reaches it from anywhere, before the command as after it
    assert "2025-xiaoqiwang" in run_cli("--db", str(tmp_path / "event.sqlite"), "event", "list")
    run_cli("--db", str(tmp_path / "event.sqlite"), "entry", "list")


def test_standings_of_a_division_ranked_by_gender_print_each_official_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "y.sqlite"
    _event(db)
    as_director(monkeypatch, db, "2025-05-02T09:00")
    out = run_cli("standings", "1", "-d", "jia")
    boys, girls = out.index("甲组男子"), out.index("甲组女子")
    mixed = out.index("甲组男女混合排名")
    assert boys < girls < mixed
    assert "男一" in out[boys:girls] and "女一" not in out[boys:girls]
    assert "女一" in out[girls:mixed] and "男一" not in out[girls:mixed]
    assert "男一" in out[mixed:] and "女一" in out[mixed:]
    # a filter still selects one list, as before
    only = run_cli("standings", "1", "-d", "jia", "--filter", "gender=女")
    assert "女一" in only and "男一" not in only

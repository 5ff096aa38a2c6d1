"""Papers and check-in on both stores: SQLite and PostgreSQL (a fresh schema per test)."""

from __future__ import annotations

from pathlib import Path

from tests.papers.helpers import BEFORE_DEADLINE, JPEG, PDF, UNITS, make_event
from yisai.services import checkin, papers, rounds
from yisai.services.context import open_context
from yisai.services.settings import Settings


def test_upload_list_check_in_pair_and_purge(db_url: str, tmp_path: Path) -> None:
    two = [u for u in UNITS if u[0] in ("浙江队", "江苏队")]
    with open_context(Settings(database=db_url, files_dir=tmp_path / "f"), now=BEFORE_DEADLINE) as ctx:
        event = make_event(ctx, tmp_path, two)
        with ctx.work() as w:
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF, "a.pdf")
            papers.upload(w, event, "浙江队", papers.IDENTITY_PROOF, JPEG, "a.jpg", player_ref="浙江1号")
            for name in ("浙江1号", "江苏1号"):
                checkin.tick(w, event, name, insured=True)
        with ctx.work() as w:
            missing = {t.team: len(t.missing) for t in papers.list_papers(w, event)}
            assert missing == {"浙江队": 5, "江苏队": 7}  # 7 owed each; 浙江 gave the form + 1 proof
            paired = rounds.pair(w, str(event.id), "甲组", 1)
            [(_, pairing)] = paired.parts
            assert len(pairing.boards) == 1 and len(paired.held_back) == 2  # 4 甲组, 2 arrived
            assert papers.purge(w, event) == 2
        assert not [p for p in (tmp_path / "f").rglob("*") if p.is_file()]

"""One store style (issue 42 item 6): the store is reached through the row modules
(``x_rows.fn(work.session, …)``, writes with ``work.stamp``); the older ``Repository`` handle
(``work.repo``) is gone, from src and from the tests."""

from __future__ import annotations

import re
from pathlib import Path

import yisai.store
from yisai.services.context import Work

ROOT = Path(__file__).resolve().parents[2]
REPO_CALL = re.compile(r"\b\w+\.repo\.\w+")


def test_no_file_calls_a_repository() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}" for top in ("src", "tests") for p in sorted((ROOT / top).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if REPO_CALL.search(line) and p.name != "test_one_store_style.py"]
    assert found == []
    assert not hasattr(yisai.store, "Repository") and "repo" not in Work.__dataclass_fields__


def test_the_guard_sees_a_planted_call() -> None:
    # the pattern on a line the old style wrote: it must match, or the test above proves nothing
    assert REPO_CALL.search("    team = work.repo.get_team(team_id)")
    assert not REPO_CALL.search("    team = team_rows.get_team(work.session, team_id)")

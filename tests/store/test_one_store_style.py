"""One store style (issue 42 item 6): code under src/ reaches the store through the row modules
(``x_rows.fn(work.session, …)``), never through the older ``work.repo`` handle."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "yisai"
REPO_CALL = re.compile(r"\bwork\.repo\.|\bself\.repo\.(?!stamp\b)")


def test_no_source_file_calls_the_repository() -> None:
    found = [f"{p.relative_to(SRC)}:{n}" for p in sorted(SRC.rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if REPO_CALL.search(line)]
    assert found == []


def test_the_guard_sees_a_planted_call() -> None:
    # the same pattern on a line a service would write: it must match, or the test above proves nothing
    assert REPO_CALL.search("    team = work.repo.get_team(team_id)")
    assert not REPO_CALL.search("    team = team_rows.get_team(work.session, team_id)")

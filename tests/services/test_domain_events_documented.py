"""docs/services.md lists every domain event a service emits, and nothing it does not: the
list a web or live server subscribes from must be the code's."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _emitted() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "src" / "yisai" / "services").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"\.emit\(\s*\"([a-z_]+)\"", text))
        if 'emit(f"paper_{status}"' in text:  # papers: one per decision (accept, return)
            found |= {f"paper_{s}" for s in re.findall(r"_decide\(work, paper_id, \"([a-z]+)\"", text)}
    return found


def _documented() -> set[str]:
    text = (ROOT / "docs" / "services.md").read_text(encoding="utf-8")
    block = text.split("**Domain events.**", 1)[1].split("* **Errors are data.**", 1)[0]
    return set(re.findall(r"`([a-z]+_[a-z_]+)`", block)) - {"work_emit"}


def test_the_documented_domain_events_are_the_emitted_ones() -> None:
    emitted = _emitted()
    assert {"result_recorded", "live_game_finished", "paper_accepted", "paper_returned"} <= emitted
    assert _documented() == emitted

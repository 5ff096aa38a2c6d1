"""When reminders go out is the regulation's setting (``confirm_reminder_days``), not a constant:
here a regulation asking for one reminder 5 days before the deadline day (6/10, see
test_period_to_final), and one asking for none."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.qualification.conftest import player
from yisai.regulation import RegulationError, loads
from yisai.services import live
from yisai.services import qualification as q
from yisai.services.context import Context, open_context
from yisai.services.events import create_event
from yisai.services.simulation import SimClock

SEED = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
ANCHOR = "confirm_within_working_days = 10\n"


def _with(setting: str) -> str:
    assert ANCHOR in SEED
    return SEED.replace(ANCHOR, ANCHOR + setting + "\n")


@pytest.fixture(params=["[5]", "[]"])
def world(request: pytest.FixtureRequest, db_url: str, tmp_path: Path) -> Iterator[tuple[Context, SimClock]]:
    path = tmp_path / "reg.toml"
    path.write_text(_with(f"confirm_reminder_days = {request.param}"), encoding="utf-8")
    clock = SimClock(datetime(2025, 5, 6, 10, 0))
    ctx = open_context(db_url, actor="裁判长", now=clock)
    with ctx.work() as work:
        create_event(work, path)
    try:
        yield ctx, clock
    finally:
        ctx.close()


def test_reminders_follow_the_regulation(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, cfg = closed
    wanted = cfg.ladder.confirm_reminder_days
    for day in (4, 5, 6, 7, 8, 9):  # 6/4 is six days before 6/10 … 6/9 is one day before
        clock.now = datetime(2025, 6, day, 9, 0)
        with ctx.work() as work:
            q.send_reminders(work, None)
    with ctx.work(player("T04")) as work:
        kinds = sorted(n.kind for n in q.my_notices(work, None))
    assert kinds == (["qualified", "reminder_5"] if wanted == [5] else ["qualified"])


def test_the_setting_is_range_checked() -> None:
    assert loads(SEED, "seed.toml").stages[0].format.confirm_reminder_days == [3, 1]  # type: ignore[union-attr]
    with pytest.raises(RegulationError) as exc:
        loads(_with("confirm_reminder_days = [61]"), "bad.toml")
    assert any("confirm_reminder_days" in i.path for i in exc.value.issues)

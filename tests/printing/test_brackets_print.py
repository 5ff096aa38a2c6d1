"""循环赛交叉表与淘汰赛对阵 (``yisai print brackets``): the example event's crosstables, bracket
and final places on paper, read back with pdftotext; an event without a round robin is refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.printing.conftest import page_images, pdftotext
from tests.services.rrko_event import NOW, play_example
from yisai.services.context import InputError, open_context, unit_of_work
from yisai.services.printing import print_pdf


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    db = tmp_path_factory.mktemp("rrko-print") / "p.sqlite"
    with open_context(str(db), actor="裁判长", now=NOW) as ctx:
        event_id, _views = play_example(ctx)
    yield str(db), event_id


def _rows(text: str) -> list[list[str]]:
    """Layout lines as cells; typesetting puts a thin space between 选手 and the digits."""
    text = re.sub(r"选手\s+(\d)", r"选手\1", text)
    return [line.split() for line in text.splitlines() if line.strip()]


def test_crosstables_bracket_and_places_on_paper(example: tuple[str, int]) -> None:
    db, event_id = example
    with unit_of_work(db) as work:
        pdf = print_pdf(work, event_id, "brackets")
    text = pdftotext(pdf)
    rows = _rows(text)
    # Final places by hand (tests/services/rrko_event.py): 01, 03, 06, 16, then 5= for the
    # quarter-final losers.
    places = [r for r in rows if len(r) == 2 and r[1].startswith("选手")]
    assert places[:5] == [["1", "选手01"], ["2", "选手03"], ["3", "选手06"], ["4", "选手16"], ["5=", "选手07"]]
    # Group A's crosstable: 选手16 6 points, place 1; 选手09 4 points, place 4 (小循环).
    a16 = next(r for r in rows if len(r) > 6 and r[1] == "选手16")
    a09 = next(r for r in rows if len(r) > 6 and r[1] == "选手09")
    assert a16[-2:] == ["6", "1"] and a09[-2:] == ["4", "4"]
    for word in ("A组循环赛交叉表", "1/4决赛", "半决赛", "决赛", "季军赛", "裁判长"):
        assert word in text.replace(" ", "")
    assert page_images(pdf, "rrko-brackets")


def test_an_event_without_round_robin_has_nothing_to_print(tmp_path: Path) -> None:
    from tests.conftest import REGULATIONS
    from yisai.services.events import create_event

    db = tmp_path / "s.sqlite"
    with open_context(str(db), actor="裁判长", now=NOW) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=1)
    with pytest.raises(InputError) as info, unit_of_work(str(db)) as work:
        print_pdf(work, event.id, "brackets")
    assert info.value.code == "nothing_to_print"

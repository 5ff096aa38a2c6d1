"""Both seeds' demo events (small scale), with three prize winners renamed to names that need
the CJK extension planes: 䶮 (U+4DAE, Ext A), 𠇔 (U+201D4, Ext B, in Noto CJK) and 𪚥
(U+2A6A5, Ext B, not in Noto CJK: HanaMin must catch it)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from yisai.awards.prizes import compute_prizes
from yisai.services.context import unit_of_work
from yisai.services.results import load_event_results
from yisai.store import event_rows, player_rows

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "out" / "print"  # git-ignored: page images for review
RARE = {"1": ["龚䶮"], "2": ["李𠇔", "王𪚥"]}


@dataclass(frozen=True)
class DemoDb:
    path: Path
    events: tuple[str, str]


def pdftotext(pdf: bytes, *, layout: bool = True) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (poppler-utils) is not installed; scripts/setup.sh installs it")
    args = ["pdftotext", "-enc", "UTF-8"] + (["-layout"] if layout else []) + ["-", "-"]
    return subprocess.run(args, input=pdf, capture_output=True, check=True).stdout.decode("utf-8")


def pdffonts(pdf: bytes, tmp: Path) -> str:
    f = tmp / "fonts.pdf"
    f.write_bytes(pdf)
    return subprocess.run(["pdffonts", str(f)], capture_output=True, check=True, text=True).stdout


def page_images(pdf: bytes, name: str, pages: int = 2) -> list[Path]:
    """The first pages as PNGs under out/print/ for review."""
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob(f"{name}-*.png"):  # pdftoppm pads page numbers by the page count
        old.unlink()
    src = OUT / f"{name}.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", str(pages), str(src),
                    str(OUT / name)], check=True)
    return sorted(OUT.glob(f"{name}-*.png"))


@pytest.fixture(scope="session")
def demo_db(seed_demo_db: Path) -> Iterator[DemoDb]:
    """This worker's copy of both seeds' demo events (built once per session), with the rare
    names put in."""
    # Its own temporary folder: pytest prunes old numbered base folders, and another pytest
    # session on the same machine must not delete this database half-way through ours.
    folder = Path(tempfile.mkdtemp(prefix="yisai-print-test-"))
    try:
        shutil.copy(seed_demo_db, folder / "demo.sqlite")
        yield _rename_winners(folder / "demo.sqlite")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _rename_winners(db: Path) -> DemoDb:
    with unit_of_work(str(db)) as work:
        events = [str(e.id) for e in event_rows.list_events(work.session)]
        assert len(events) == 2
        for event in events:
            report = compute_prizes(load_event_results(work, event))
            winners = [ln.player_id for pl in report.lists for ln in pl.lines if ln.player_id]
            for name, pid in zip(RARE[event], dict.fromkeys(winners), strict=False):
                p = player_rows.get_player(work.session, pid)
                player_rows.update_player(work.session, work.stamp, p.model_copy(update={"name": name}), note="rare-character test")
    return DemoDb(db, (events[0], events[1]))

"""The board client's own logic under Node (installed with npm by scripts/setup.sh): captures
when replaying the server's move list, and the clock display between server messages. The
expected positions and times are worked out by hand in each case."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

PLAY = Path(__file__).resolve().parents[2] / "src/yisai/web/static/play"
NODE = shutil.which("node")
# skipped only off CI: under CI a missing node is a failure (the suite's rule for real components)
pytestmark = pytest.mark.skipif(NODE is None and not os.environ.get("CI"),
                                reason="node is installed with npm (scripts/setup.sh)")


def run(script: str) -> Any:
    code = f"import * as board from '{PLAY / 'board.js'}'; import * as clock from '{PLAY / 'clock.js'}';\n{script}"
    assert NODE is not None, "node is not installed: scripts/setup.sh installs it with npm"
    out = subprocess.run([NODE, "--input-type=module", "-e", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def moves(*points: str) -> list[dict[str, Any]]:
    return [{"kind": "move", "color": "BW"[i % 2], "point": p} for i, p in enumerate(points)]


def test_a_corner_stone_and_a_two_stone_chain_are_captured() -> None:
    # B A2, W A1, B B1: the white stone in the corner has no liberty left → removed, 1 prisoner.
    got = run(f"const r = board.replay(19, {json.dumps(moves('A2', 'A1', 'B1'))});"
              "console.log(JSON.stringify({a1: r.board[18][0], a2: r.board[17][0], p: r.prisoners, last: r.last}))")
    assert got == {"a1": 0, "a2": 1, "p": {"B": 1, "W": 0}, "last": [1, 18]}
    # White K10-K11 surrounded by J10 J11 L10 L11 K9 K12 (Black; White elsewhere): both go.
    seq = moves("J10", "K10", "J11", "K11", "L10", "A1", "L11", "A3", "K9", "A5", "K12")
    got = run(f"const r = board.replay(19, {json.dumps(seq)});"
              "const at = (p) => { const [x, y] = board.vertexOf(p, 19); return r.board[y][x]; };"
              "console.log(JSON.stringify({k10: at('K10'), k11: at('K11'), a1: at('A1'), p: r.prisoners}))")
    assert got == {"k10": 0, "k11": 0, "a1": -1, "p": {"B": 2, "W": 0}}


def test_points_and_vertices_skip_the_letter_i() -> None:
    got = run("console.log(JSON.stringify([board.vertexOf('J10', 19), board.pointOf([8, 9], 19), board.pointOf([18, 0], 19)]))")
    assert got == [[8, 9], "J10", "T19"]


def test_the_clock_counts_down_main_time_then_the_byo_yomi_periods() -> None:
    c = {"main": 10, "periods": 3, "period_left": 20, "byoyomi": False}
    got = run(f"const c = {json.dumps(c)};"
              "console.log(JSON.stringify([clock.timeNow(c, true, 4000, 20), clock.timeNow(c, true, 12000, 20),"
              " clock.timeNow(c, true, 35000, 20), clock.timeNow(c, true, 99000, 20), clock.timeNow(c, false, 99000, 20),"
              " clock.mmss(1799.4)]))")  # fmt: skip
    # 4 s: 6 s of main left; 12 s: 2 s into the first period (18 left, 3 periods);
    # 35 s: 25 s over = one period used, 15 left of the second (2 periods); 99 s: all used (0, 1);
    # not running: unchanged; 1799.4 s shows 29:59.
    assert got[0] == {"main": 6, "periods": 3, "left": 20, "byo": False}
    assert got[1] == {"main": 0, "periods": 3, "left": 18, "byo": True}
    assert got[2] == {"main": 0, "periods": 2, "left": 15, "byo": True}
    assert got[3] == {"main": 0, "periods": 1, "left": 0, "byo": True}
    assert got[4] == {"main": 10, "periods": 3, "left": 20, "byo": False}
    assert got[5] == "29:59"

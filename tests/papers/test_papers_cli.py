"""`yisai papers ...` and `yisai checkin ...` end to end through typer's CliRunner."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.formats.roster_files import team_rows, write_csv
from tests.papers.helpers import EXE, PDF, SEED_002, UNITS


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    as_director(monkeypatch, tmp_path / "y.sqlite", "2025-04-10T09:00")
    return run_cli


def test_papers_and_check_in_from_the_terminal(run: Callable[..., str], tmp_path: Path) -> None:
    zj = next(u for u in UNITS if u[0] == "浙江队")
    roster = write_csv(tmp_path / "zj.csv", team_rows(*zj), "utf-8")
    run("event", "create", "--regulation", str(SEED_002), "--seed", "1")
    run("team", "import", str(roster))
    out = run("papers", "form", "--team", "浙江队")
    form = tmp_path / "浙江队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表.xlsx"
    assert form.is_file() and str(form.name) in out
    (tmp_path / "fake.pdf").write_bytes(EXE)
    assert "Windows 可执行程序" in run("papers", "upload", "fake.pdf", "--team", "浙江队", code=1)
    (tmp_path / "scan.pdf").write_bytes(PDF)
    assert "已上传 #1" in run("papers", "upload", "scan.pdf", "--team", "浙江队")
    assert (tmp_path / "y.files").is_dir()  # next to the database file by default
    listed = run("papers", "list")
    assert "缺6项" in listed and "身份证明: 浙江1号" in listed
    assert "已退回" in run("papers", "return", "1", "--reason", "未盖章")
    run("papers", "download", "1", "--out", "copy.pdf")
    assert (tmp_path / "copy.pdf").read_bytes() == PDF
    assert "已清除1个文件" in run("papers", "purge", "--note", "赛后清除")
    assert "已报到: 2" in run("checkin", "tick", "浙江1号", "浙江2号", "--insured")
    arrivals = run("checkin", "list")
    assert "浙江队: 已报到 2/6" in arrivals and "保险已确认" in arrivals

"""The public awards page of a 段位赛 shows 升段/定级 under its own heading (issue 23 item 5)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app as cli
from yisai.services.settings import Settings
from yisai.web.app import create_app

EXAMPLE = REGULATIONS / "examples" / "2026-kids-dan-grading.toml"


def test_awards_page_lists_promotions_apart_from_rank_awards(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    run = CliRunner().invoke(cli, ["demo", "--regulation", str(EXAMPLE), "--seed", "5", "--scale", "0.3",
                                   "--boards", "1", "--db", str(db)])
    assert run.exit_code == 0, run.output
    web = create_app(Settings(database=str(db)), secret="test-secret", refresh_seconds=0)
    with TestClient(web) as client:
        page = client.get("/events/1/awards")
    assert page.status_code == 200
    html = page.text
    assert "<h2>升段/定级</h2>" in html and "<h3>升段/定级名单</h3>" in html
    assert "<h3>段位组升段（7轮）</h3>" in html and "<h3>定级组定级（5轮）</h3>" in html
    assert "段位申报" not in html  # the example grants no 段位 by place: no empty applicants table
    promoted = run.output.split("【升段/定级名单】")[1].split("【")[0].splitlines()[2:]
    names = [ln.split("  ")[1] for ln in promoted if ln.count("  ") >= 6]
    assert names and all(f"<td>{n}</td>" in html for n in names)

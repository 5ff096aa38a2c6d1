"""`yisai fees list|export|mark-paid|refund` on the fee event of the payment tests (two teams of
six, 赛事服务费260元 per player not refunded to a no-show, 报名费600元 per team): the ledger in
元, a manual 已缴费 mark, a partial refund, the no-show refusal quoting the regulation, the
export, and the console's role checks."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.services.fee_event import NOW, fee_event
from yisai.cli.app import app
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import roster_rows

runner = CliRunner()


@pytest.fixture
def entry_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    db = tmp_path / "fees.sqlite"
    settings = Settings(database=str(db), clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
    with open_context(settings) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as work:
            first = int(roster_rows.list_entries(work.session, event.id)[0].id)
    monkeypatch.setenv("YISAI_DB", str(db))
    monkeypatch.setenv("YISAI_NOW", NOW.isoformat())
    return first


def _run(*args: str) -> str:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_list_mark_paid_refund_and_export(entry_id: int, tmp_path: Path) -> None:
    listed = _run("fees", "list")
    # due: 12 players × 260元 + 2 teams × 600元 = 3120 + 1200 = 4320元; nothing paid yet
    assert "4320.00" in listed and "费用" in listed
    assert "已缴 260.00 元" in _run("fees", "mark-paid", str(entry_id), "--note", "现场缴纳现金")
    refused = runner.invoke(app, ["fees", "refund", "entry", str(entry_id), "--reason", "未到场", "--absent"])
    assert refused.exit_code != 0 and "报名后无故不参加比赛者，赛事服务费不予退还" in refused.output
    # the organiser agrees to give 100元 back for another reason: 260 - 100 = 160元 kept
    assert "已退款 100.00 元" in _run("fees", "refund", "entry", str(entry_id), "--yuan", "100", "--reason", "组委会同意退费")
    out = tmp_path / "fees.csv"
    _run("fees", "export", str(out))
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    # the total row: due 4320.00, paid 260.00, refunded 100.00, owed 4320 - 260 = 4060.00
    assert rows[-1][3:] == ["4320.00", "260.00", "100.00", "4060.00"]
    bad = runner.invoke(app, ["fees", "refund", "entry", str(entry_id), "--yuan", "1.234", "--reason", "x"])
    assert bad.exit_code != 0 and "最多两位小数" in bad.output


def test_roles_are_checked_as_in_the_console(entry_id: int) -> None:
    assert "4320.00" in _run("--role", "referee", "fees", "list")  # an official sees the ledger
    for args in (["fees", "mark-paid", str(entry_id)], ["fees", "refund", "entry", str(entry_id), "--reason", "x"]):
        refused = runner.invoke(app, ["--role", "referee", *args])  # only the chief referee marks and refunds
        assert refused.exit_code != 0 and "裁判员" in refused.output

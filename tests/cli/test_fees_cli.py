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
from yisai.store import event_rows, roster_rows, team_rows

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


def test_an_online_payment_is_refunded_after_the_commands_transaction(entry_id: int, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``yisai fees refund`` with WeChat Pay configured in the command's environment: the refund is
    committed ``requested``, then sent; a provider that cannot be reached leaves it for the
    server's timer, one that refuses fails it (exit code 1)."""
    from tests.payments.wechat_server import Keys, WeChatPayServer
    from yisai.services.payments import flow
    from yisai.services.payments.registry import providers_from_environment

    keys = Keys()
    with WeChatPayServer(keys) as server:
        env = keys.environment(tmp_path, server.gateway)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        settings = Settings(database=str(tmp_path / "fees.sqlite"), clock=lambda: NOW,
                            payments=providers_from_environment(env), actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
        with open_context(settings) as ctx:
            with ctx.work() as work:
                event_id = event_rows.list_events(work.session)[0].id
                team = next(t for t in team_rows.list_teams(work.session, event_id) if t.name == "辽宁队")
            order = flow.pay_team(ctx, None, str(event_id), int(team.id), "wechat", "native").order
            server.pay(order.out_trade_no)
            assert flow.settle_open_orders(ctx)["paid"] == 1
        # 报名费600元 = 60000 分, back through WeChat Pay
        assert "已退款 600.00 元" in _run("fees", "refund", "team", str(team.id), "--reason", "组委会同意退还队费")
        (no,) = server.refunds
        assert server.refunds[no]["refund"] == 60_000 and server.orders[order.out_trade_no]["refunded"] == 60_000
        member = next(sid for kind, sid, _ in order.items if kind == "entry" and sid != entry_id)
        server.down = True
        said = _run("fees", "refund", "entry", str(member), "--yuan", "100", "--reason", "组委会同意退费")
        assert "退款已记录 100.00 元" in said and "自动重试" in said and len(server.refunds) == 1
        server.down = False
        server.refuse_refunds = (403, "NOT_ENOUGH", "基本账户余额不足，请充值后重新发起")
        refused = runner.invoke(app, ["fees", "refund", "entry", str(member), "--yuan", "50", "--reason", "再退50元"])
        assert refused.exit_code == 1 and "退款 50.00 元失败" in refused.output and "NOT_ENOUGH" in refused.output

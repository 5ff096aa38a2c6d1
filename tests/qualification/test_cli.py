"""`yisai qualifier close / places / final / decide / suspend` on a closed period (CliRunner)."""

from __future__ import annotations

from datetime import datetime

from typer.testing import CliRunner

from tests.qualification.conftest import CLOSE
from yisai.cli.app import app
from yisai.services import live
from yisai.services.context import Context
from yisai.services.simulation import SimClock
from yisai.store import live_rows


def test_cli_round_trip(closed: tuple[Context, SimClock, live.LiveConfig], db_url: str,
                        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ctx, _, cfg = closed
    with ctx.work() as work:
        x1 = live_rows.games_of(work.session, cfg.event_id, "X1")[0].info.id
    runner = CliRunner()
    monkeypatch.setenv("YISAI_NOW", CLOSE.isoformat())
    out = runner.invoke(app, ["qualifier", "close", "--period", "1", "--db", db_url])
    assert out.exit_code == 0, out.output
    assert "并列第38名，一同晋级" in out.output and "晋级40人" in out.output
    out = runner.invoke(app, ["qualifier", "decide", "--game", str(x1), "--decision", "annul", "--reason",
                              "经查使用软件", "--db", db_url])
    assert out.exit_code == 0 and "晋级名单已更正 (第2版)" in out.output, out.output
    out = runner.invoke(app, ["qualifier", "decide", "--game", str(x1), "--decision", "B+5", "--reason", "x",
                              "--db", db_url])
    assert out.exit_code == 2 and "结果只能是" in out.output
    monkeypatch.setenv("YISAI_NOW", datetime(2025, 6, 11, 0, 0).isoformat())
    out = runner.invoke(app, ["qualifier", "places", "--status", "lapsed", "--db", db_url])
    assert out.exit_code == 0 and out.output.count("逾期弃权") == 39, out.output  # 40 − X1 (revoked)
    out = runner.invoke(app, ["qualifier", "final", "--db", db_url])
    assert out.exit_code == 0 and "预览" in out.output
    out = runner.invoke(app, ["qualifier", "suspend", "--player", "T09", "--periods", "9", "--reason", "x",
                              "--db", db_url])
    assert out.exit_code == 2 and "禁赛期数须为1至6" in out.output

"""`yisai demo` runs both seeds' offline stages end to end (small scale to keep the suite fast)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from yisai.cli.app import app
from yisai.record import Result
from yisai.services.context import unit_of_work
from yisai.store import event_rows, round_rows


def test_demo_runs_both_seeds_end_to_end(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    result = CliRunner().invoke(app, ["demo", "--scale", "0.2", "--boards", "2", "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = result.output
    # Registration: the deliberately ineligible entries are refused with their reasons.
    assert "出生日期2011-08-31不在少年组范围(2011-09-01至2019-08-31)" in out
    assert "缺少中国围棋协会监制的业余段级位证书" in out
    # Seed 000's final: groups A and B for 9 rounds, then the same-place final in round 10.
    assert "公开组 A组 第9轮" in out and "公开组 B组 第9轮" in out
    assert "公开组 同名次决赛 第10轮" in out
    # Seed 002: three groups, 7 rounds each (the regulation's provisional count).
    for group in ("甲组", "乙组", "丙组"):
        assert f"{group} 第7轮" in out
    for heading in ("男子团体", "女子团体", "公开组男子个人", "甲组男子", "参赛奖", "段位申报"):
        assert heading in out, heading
    assert out.count("完成:") == 2
    with unit_of_work(str(db)) as work:
        events = event_rows.list_events(work.session)
        assert len(events) == 2
        for event in events:
            for rnd in round_rows.list_rounds(work.session, event.id):
                assert all(g.result != Result.UNKNOWN for g in rnd.games), (rnd.division, rnd.number)
        # No rematch anywhere in any division.
        for event in events:
            seen: dict[str, set[frozenset[str]]] = {}
            for rnd in round_rows.list_rounds(work.session, event.id):
                key = f"{rnd.division}/{rnd.stage}"
                for g in rnd.games:
                    if g.white:
                        pair = frozenset((g.black, g.white))
                        assert pair not in seen.setdefault(key, set())
                        seen[key].add(pair)

"""Friction met in the field test (issue 9, items 16 and 10): approve all eligible entries,
reasons that follow corrected data, registration windows worded plainly, pairing failures that
name people, place names without doubling, typed-in players told about their inputs."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.formats.awards_report import place_of
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services import approvals, entries, events, roster_import
from yisai.services.context import open_context
from yisai.store import event_rows
from yisai.vocabulary import Rank

NOW = datetime(2025, 4, 10, 9)


def _kid(name: str, born: date, cert: str | None = "C1") -> Player:
    return Player(id="", name=name, gender=Gender.MALE, birth_date=born, rank=Rank.parse("1段"),
                  certificate_no=cert, region="中国大陆", province="浙江")


def test_approve_all_eligible_and_reasons_that_follow_corrections(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    with open_context(db, now=NOW) as ctx, ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
        ok = entries.register_player(w, event, _kid("合格", date(1960, 5, 1)), division="中老年组")
        bad = entries.register_player(w, event, _kid("无证", date(1961, 5, 1), None),
                                           division="中老年组")
    assert ok.entry is not None and bad.entry is not None
    assert bad.entry.reasons  # no certificate
    with open_context(db, now=NOW) as ctx, ctx.work() as w:
        done, left = approvals.approve_all_eligible(w, event_rows.get_event(w.session, event.id))
    assert [v.entry.id for v in left] == [bad.entry.id]
    with open_context(db, now=NOW) as ctx, ctx.work() as w:
        status = {v.player.name: v.entry.status for v in entries.list_entries(w, event_rows.get_event(w.session, event.id))}
    assert status == {"合格": EntryStatus.APPROVED, "无证": EntryStatus.PENDING}
    assert all(e.status is EntryStatus.APPROVED for e in done)
    # The certificate number is supplied later: the listed reason disappears at once.
    with open_context(db, now=NOW) as ctx, ctx.work() as w:
        entries.register_player(w, event_rows.get_event(w.session, event.id), _kid("无证", date(1961, 5, 1), "C9"))
        views = {v.player.name: v for v in entries.list_entries(w, event_rows.get_event(w.session, event.id))}
    assert views["无证"].entry.reasons == () and views["无证"].entry.status is EntryStatus.PENDING


def test_cli_approve_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YISAI_DB", str(tmp_path / "c.sqlite"))
    monkeypatch.setenv("YISAI_NOW", "2025-07-01T09:00")
    runner = CliRunner()
    assert runner.invoke(app, ["event", "create", "--regulation",
                               str(REGULATIONS / "2025-shanhai-cup.toml")]).exit_code == 0
    r = runner.invoke(app, ["player", "add", "--name", "王老", "--gender", "男", "--birth",
                            "1958-01-01", "--rank", "3段", "--cert", "X1", "--region", "中国大陆",
                            "--division", "中老年组"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["entry", "approve", "--all"])
    assert r.exit_code == 0 and "已批准" in r.output, r.output
    assert runner.invoke(app, ["entry", "approve"]).exit_code == 2  # numbers or --all


def test_a_closed_window_is_worded_plainly_and_once(tmp_path: Path) -> None:
    from yisai.registry.eligibility import check_team
    from yisai.registry.team import Team

    with open_context(str(tmp_path / "w.sqlite"), now=NOW) as ctx, ctx.work() as w:
        reg = events.regulation_of(events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=1))
    assert reg.teams is not None
    late = check_team(Team(name="浙江队", province="浙江"), {}, reg.teams, reg,
                      at=datetime(2025, 4, 19, 9))
    window = [r for r in late if "报名时间" in r]
    assert len(window) == 1 and "不限" not in window[0] and "2025-04-18" in window[0]


def test_a_typed_in_player_is_told_about_the_options(tmp_path: Path) -> None:
    from yisai.services.errors import InputError

    with open_context(str(tmp_path / "p.sqlite"), now=NOW) as ctx, ctx.work() as w:
        reg = events.regulation_of(events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=1))
    with pytest.raises(InputError) as info:
        roster_import.row_from_fields(reg, {"姓名": "张三", "出生日期": "2013-01-01"},
                                     {"姓名": "--name", "性别": "--gender", "身份证号": "--id-number",
                                      "出生日期": "--birth"})
    text = "\n".join(info.value.render_details("zh"))
    assert "--gender" in text and "--id-number" in text and "列" not in text


def test_place_names_are_not_doubled() -> None:
    bj = Player(id="1", name="甲", gender=Gender.MALE, province="北京", city="北京")
    nb = Player(id="2", name="乙", gender=Gender.MALE, province="浙江", city="宁波")
    assert place_of(bj) == "北京" and place_of(nb) == "浙江宁波"

"""Who may enter by membership (issue 41): "须为本协会注册会员" / "俱乐部在册会员" as
``eligibility.members_of``; the director imports the register (CLI, console) and registration
and approval check it, with the reason.

The kids' example, its 段位组 limited to the members of 宁波市围棋协会. Three players register
before the register is imported (each pending: "名单尚未导入"). The register lists 王一 by his
ID number and 李二 by name only; 赵三 is not on it. After the import: 王一 and 李二 have no
membership reason; 赵三's reason is "不在…名单中" and his entry is not approved unforced. A
namesake 王一 with another ID number is not a member (the row with a number matches the number).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS
from tests.idnumbers import make_id_number
from yisai.registry.person import Gender

REGISTER = "宁波市围棋协会注册会员"


def _event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REGULATIONS / "examples" / "2026-kids-dan-grading.toml").read_text("utf-8")
    text = text.replace('certificate_required = true\n', f'certificate_required = true\nmembers_of = "{REGISTER}"\n', 1)
    path = tmp_path / "kids.toml"
    path.write_text(text, "utf-8")
    as_director(monkeypatch, tmp_path / "m.sqlite", "2026-03-01T09:00")
    monkeypatch.setenv("COLUMNS", "300")  # one entry a line: the reasons are not wrapped
    run_cli("event", "create", "--regulation", str(path), "--seed", "1")


def _add(name: str, born: date, seq: int) -> str:
    number = make_id_number("330203", born, seq, Gender.MALE)
    run_cli("player", "add", "--name", name, "--id-number", number, "--rank", "2段", "--cert", f"C{seq}",
            "--division", "段位组")
    return number


def test_the_register_is_imported_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _event(tmp_path, monkeypatch)
    wang = _add("王一", date(2014, 3, 1), 11)
    _add("李二", date(2014, 4, 1), 13)
    _add("赵三", date(2014, 5, 1), 15)
    entries = run_cli("entry", "list")
    assert entries.count("名单尚未导入") == 3
    assert f"须为{REGISTER}" in run_cli("regulation", "show", str(tmp_path / "kids.toml"))
    register = tmp_path / "members.csv"
    register.write_text(f"姓名,身份证号\n王一,{wang}\n李二\n", "utf-8")
    out = run_cli("member", "import", str(register))
    assert f"已导入“{REGISTER}”名单 2 人" in out and "3 条待审报名" in out
    entries = run_cli("entry", "list")
    assert "名单尚未导入" not in entries
    assert entries.count("不在“宁波市围棋协会注册会员”名单中") == 1
    line = next(ln for ln in entries.splitlines() if "不在“" in ln)
    assert "赵三" in line
    refused = run_cli("entry", "approve", "3", code=1)
    assert "不在“宁波市围棋协会注册会员”名单中" in refused
    # a namesake of 王一 with another ID number is not the member the register names
    _add("王一", date(2015, 6, 1), 17)
    assert run_cli("entry", "list").count("不在“宁波市围棋协会注册会员”名单中") == 2


def test_bad_registers_are_refused_with_the_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _event(tmp_path, monkeypatch)
    empty = tmp_path / "empty.csv"
    empty.write_text("姓名,身份证号\n\n", "utf-8")
    assert "名单是空的" in run_cli("member", "import", str(empty), code=2)
    bad = tmp_path / "bad.csv"
    bad.write_text("王一\n,330203201403010011\n", "utf-8")
    assert "bad.csv 第2行: 第一列应为姓名" in run_cli("member", "import", str(bad), code=2)
    assert "尚未导入会员名单" in run_cli("member", "show")


def test_the_console_imports_the_register(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace
    from datetime import datetime

    from fastapi.testclient import TestClient

    from tests.web.conftest import PASSWORDS, Clock, Site, csrf_of
    from yisai.services.accounts import create_user
    from yisai.services.context import open_context
    from yisai.services.identity import Actor, Role
    from yisai.services.settings import Settings
    from yisai.web.app import create_app

    _event(tmp_path, monkeypatch)
    _add("赵三", date(2014, 5, 1), 15)
    db = str(tmp_path / "m.sqlite")
    with open_context(db) as ctx, ctx.work(actor=Actor.system()) as w:
        create_user(w, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORDS["director"])
    now = datetime(2026, 3, 1, 9, 0)
    app = create_app(replace(Settings(database=db), clock=Clock(now)), secret="test-secret", refresh_seconds=0)
    with TestClient(app) as client:
        director = Site(db, Clock(now), client).login("director")
        page = director.get("/console/events/1/entries")
        assert "导入会员名单" in page.text and "名单尚未导入" in page.text
        done = director.post("/console/events/1/members", data={"csrf": csrf_of(director)},
                             files={"members": ("members.csv", "王一\n李二\n".encode(), "text/csv")},
                             follow_redirects=False)
        assert done.status_code == 303
        page = director.get("/console/events/1/entries")
        assert "名单尚未导入" not in page.text and "不在“宁波市围棋协会注册会员”名单中" in page.text

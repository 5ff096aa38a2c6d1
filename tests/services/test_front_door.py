"""The services seam on its own (no CLI): settings passed in, two languages and two databases in
one process, roles checked by the services, domain events returned by every write, reports and
imports as data."""

from __future__ import annotations

import threading
from datetime import date, datetime
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.conftest import REGULATIONS
from yisai.i18n import use_language
from yisai.registry.person import Gender, Player
from yisai.services import accounts, approvals, entries, events, reports, round_results, rounds
from yisai.services.context import open_context
from yisai.services.errors import Forbidden, InputError
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings, settings_from_environment
from yisai.store import account_rows, audit_rows, event_rows
from yisai.vocabulary.rank import Rank

NOW = datetime(2025, 4, 10, 9)
CHIEF = Actor.cli("裁判长", Role.CHIEF_REFEREE)
REFEREE = Actor.cli("裁判员甲", Role.REFEREE)
LEADER = Actor.cli("浙江领队", Role.TEAM_LEADER)


def _player(i: int, gender: Gender = Gender.MALE) -> Player:
    return Player(id="", name=f"棋手{i}", gender=gender, birth_date=date(2013, 1, i),
                  rank=Rank.parse("2段"), certificate_no=f"C{i}", region="中国大陆", province="浙江")


def _event_with_players(db: str, n: int = 6) -> int:
    with open_context(Settings(database=db, actor=CHIEF, clock=lambda: NOW)) as ctx, ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=9)
        for i in range(1, n + 1):
            entries.register_player(w, event, _player(i), division="甲组")
        return event.id


def test_settings_come_from_the_entry_point_only(tmp_path: Path) -> None:
    env = {"YISAI_DB": str(tmp_path / "a.sqlite"), "YISAI_LANG": "en", "YISAI_ACTOR": "王裁判",
           "YISAI_ROLE": "referee", "YISAI_NOW": "2025-04-10T09:00"}
    s = settings_from_environment(env)
    assert (s.database, s.language, s.actor.name, s.actor.role) == (
        str(tmp_path / "a.sqlite"), "en", "王裁判", Role.REFEREE)
    assert s.clock() == NOW
    assert settings_from_environment(env, database="b.sqlite").database == "b.sqlite"
    with pytest.raises(InputError):
        settings_from_environment({"YISAI_ROLE": "president"})


def test_two_databases_in_one_process(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    first, second = _event_with_players(a, 4), _event_with_players(b, 6)
    with open_context(a) as ca, open_context(b) as cb, ca.work() as wa, cb.work() as wb:
        assert len(entries.list_entries(wa, event_rows.get_event(wa.session, first))) == 4
        assert len(entries.list_entries(wb, event_rows.get_event(wb.session, second))) == 6


def test_two_languages_in_one_process_at_the_same_time(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    _event_with_players(db)
    seen: dict[str, str] = {}
    barrier = threading.Barrier(2)

    def ask(lang: str) -> None:
        with use_language(lang), open_context(db) as ctx:
            barrier.wait(timeout=10)
            try:
                with ctx.work() as w:
                    rounds.round_view(w, None, "jia", 3)
            except InputError as exc:
                seen[lang] = str(exc)  # rendered in this thread's language

    threads = [threading.Thread(target=ask, args=(lang,)) for lang in ("zh", "en")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert seen["zh"] == "甲组第3轮尚未编排" and seen["en"] == "round 3 of 甲组 is not paired yet"


def test_errors_are_data_rendered_by_the_front_end(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    _event_with_players(db)
    with pytest.raises(InputError) as info, open_context(db) as ctx, ctx.work() as w:
        rounds.pair(w, None, "丁组", 1)
    err = info.value
    assert err.code == "unknown_division" and err.params == {"division": "丁组"}
    assert "没有组别“丁组”" in err.render("zh") and "no division '丁组'" in err.render("en")
    assert err.as_dict("en")["message"] == err.render("en") and err.status == 400


def test_roles_are_checked_by_the_services(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    event_id = _event_with_players(db)
    with open_context(db) as ctx:
        with pytest.raises(Forbidden) as info, ctx.work(actor=REFEREE) as w:
            rounds.pair(w, event_id, "jia", 1)
        assert info.value.render("zh") == "裁判员无权编排" and info.value.status == 403
        with pytest.raises(Forbidden), ctx.work(actor=LEADER) as w:
            approvals.approve_entry(w, 1)
        with pytest.raises(Forbidden), ctx.work(actor=REFEREE) as w:
            events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml")
        with ctx.work(actor=CHIEF) as w:
            paired = rounds.pair(w, event_id, "jia", 1)
        assert [e.kind for e in w.events] == ["round_paired"]
        board = paired.parts[0][1].boards[0].board
        with ctx.work(actor=REFEREE) as w:  # a referee enters results …
            entry = round_results.record_result(w, event_id, "jia", 1, board, "黑胜")
        assert entry.changed and [e.kind for e in w.events] == ["result_recorded"]
        assert w.events[0].data["board"] == board
        with pytest.raises(Forbidden), ctx.work(actor=LEADER) as w:  # … a team leader does not
            round_results.record_result(w, event_id, "jia", 1, board, "白胜", change=True)
        with ctx.work() as w:
            audit = [a for a in audit_rows.audit_log(w.session, event_id) if a.action == "result"]
        assert audit[-1].actor == "裁判员甲"


def test_accounts_hash_passwords_and_authenticate(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    with open_context(Settings(database=db, actor=CHIEF, clock=lambda: NOW)) as ctx:
        with ctx.work() as w:
            user = accounts.create_user(w, "ref1", "李裁判", "referee", "correct horse")
        with ctx.work() as w:
            actor = accounts.authenticate(w, "ref1", "correct horse")
            stored = account_rows.find_user(w.session, "ref1")
        assert actor.role is Role.REFEREE and actor.id == str(user.id)
        assert stored is not None and stored[1] is not None and "correct horse" not in stored[1]
        for login, password in (("ref1", "wrong password"), ("nobody", "correct horse")):
            with pytest.raises(Exception) as info, ctx.work() as w:
                accounts.authenticate(w, login, password)
            assert getattr(info.value, "code", "") == "bad_credentials"
        with pytest.raises(Forbidden), ctx.work(actor=REFEREE) as w:
            accounts.create_user(w, "x", "x", "chief_referee", "12345678")


def test_reports_and_exports_as_data(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    event_id = _event_with_players(db, 4)
    with open_context(Settings(database=db, actor=CHIEF, clock=lambda: NOW)) as ctx:
        with ctx.work() as w:
            paired = rounds.pair(w, event_id, "jia", 1)
            for b in paired.parts[0][1].boards:
                round_results.record_result(w, event_id, "jia", 1, b.board, "黑胜")
        with ctx.work() as w:
            st = reports.event_standings(w, event_id, "jia").standings
            view = rounds.round_view(w, event_id, "jia", 1)
            prize = reports.prizes(w, event_id)
            award = reports.awards(w, event_id)
    winners = {g.black for g in view.rounds[0].games}
    assert {r.player.id for r in st.rows if r.values["score"] == 2} == winners
    assert view.rounds[0].version_of(1) == 2  # entered once
    book = load_workbook(filename=_bytes_file(tmp_path / "p.xlsx", prize.xlsx()))
    assert book.sheetnames and any("甲组" in n for n in book.sheetnames)
    assert award.xlsx()[:2] == b"PK"


def _bytes_file(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path

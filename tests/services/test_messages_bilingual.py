"""Messages as data (issue 8 item 3), through the services only: eligibility and team reasons are
stored in both languages and shown in the reader's; service errors carry a code and render in
either language; no service raises with a bare Chinese string.

Expected Chinese sentences follow the 规程 (seed 000: 少年组 born 2011-09-01 to 2019-08-31;
seed 002: each province enters one 省队); the English ones are the translations written next to
them in ``registry.eligibility`` (the wording is the specification here, not our output).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.conftest import REGULATIONS, ROOT
from tests.idnumbers import make_id_number
from tests.store.conftest import db_url  # noqa: F401  (the fixture: both backends)
from yisai.i18n import Text, use_language
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services import (
    approvals,
    entries,
    events,
    roster_import,
    teams,
    withdrawal,
)
from yisai.services.context import Context, Work, open_context
from yisai.services.errors import InputError, Refused, ServiceError
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import EventRecord, audit_rows, entry_rows, roster_rows
from yisai.store.models import EntryRow, TeamRow

NOW = datetime(2025, 4, 10, 9, 30)
CHIEF = Actor.cli("裁判长", Role.CHIEF_REFEREE)

JUNIOR_ZH = "出生日期2010-08-31不在少年组范围(2011-09-01至2019-08-31)"
JUNIOR_EN = "birth date 2010-08-31 is outside 少年组's range (2011-09-01 to 2019-08-31)"
PER_PLACE_ZH = "浙江已报1支省队, 每地限报1支"
PER_PLACE_EN = "浙江 has already entered 1 team(s) (省队); the limit is 1 per place"
JUNIOR = Text(JUNIOR_ZH, JUNIOR_EN)


def shown(reasons: tuple[Text, ...]) -> tuple[str, ...]:
    """What a front end shows: each reason worded in the reader's language."""
    return tuple(r.render() for r in reasons)


@pytest.fixture
def ctx(db_url: str) -> Iterator[Context]:  # noqa: F811  (the imported fixture)
    """SQLite and PostgreSQL (the store's JSON columns hold the ``{"zh", "en"}`` objects)."""
    with open_context(Settings(database=db_url, actor=CHIEF, clock=lambda: NOW)) as c:
        yield c


def _event(ctx: Context, name: str) -> EventRecord:
    with ctx.work() as w:
        return events.create_event(w, REGULATIONS / f"{name}.toml", seed=7)


def _kid(name: str, born: date, gender: Gender = Gender.MALE, seq: int = 1) -> Player:
    return Player(id="", name=name, gender=gender, birth_date=born,
                  id_number=make_id_number("330282", born, seq, gender), certificate_no=f"C{seq}",
                  province="浙江")


def test_entry_reasons_are_stored_in_both_languages_and_shown_in_the_readers(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup")
    with ctx.work() as w:  # registered by a Chinese front end
        entry = entries.register_player(w, ev, _kid("王三", date(2010, 8, 31)), division="少年组").entry
    # the store reads data, the same in every language; the reader's language words it
    assert entry is not None and entry.reasons == (JUNIOR,) and shown(entry.reasons) == (JUNIOR_ZH,)
    with use_language("en"), ctx.work() as w:
        [view] = entries.list_entries(w, ev)
        assert shown(view.entry.reasons) == (JUNIOR_EN,)
        assert entry_rows.get_entry(w.session, entry.id).reasons == (JUNIOR,)
        english = roster_rows.list_entries(w.session, ev.id)
    with ctx.work() as w:
        [view] = entries.list_entries(w, ev)
        assert shown(view.entry.reasons) == (JUNIOR_ZH,)
        # one roster read serves both languages: the cache holds no wording
        assert roster_rows.list_entries(w.session, ev.id) == english and english[0].reasons == (JUNIOR,)
        stored = w.session.scalars(select(EntryRow.reasons)).one()
        assert stored == [{"zh": JUNIOR_ZH, "en": JUNIOR_EN}]
    # The refusal lists the same reasons, rendered by whoever shows it.
    with pytest.raises(Refused) as err, ctx.work() as w:
        approvals.approve_entry(w, entry.id)
    assert err.value.code == "ineligible" and err.value.params["entry"] == entry.id
    assert err.value.render_details("en") == [JUNIOR_EN]
    assert err.value.render_details("zh") == [JUNIOR_ZH]
    assert "is not eligible" in err.value.render("en") and "不符合参赛资格" in err.value.render("zh")


def test_forced_approval_keeps_both_languages(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup")
    with use_language("en"), ctx.work() as w:  # this time an English front end registers
        entry = entries.register_player(w, ev, _kid("王三", date(2010, 8, 31)), division="junior").entry
        assert entry is not None and shown(entry.reasons) == (JUNIOR_EN,)
        forced = approvals.approve_entry(w, entry.id, force=True, note="wild card")
        assert shown(forced.reasons) == (JUNIOR_EN,) and forced.forced
    with ctx.work() as w:
        assert shown(entry_rows.get_entry(w.session, entry.id).reasons) == (JUNIOR_ZH,)
        [log] = [a for a in audit_rows.audit_log(w.session, ev.id, "entry", entry.id) if a.action == "force-approve"]
        assert log.after is not None and log.after["reasons"] == [{"zh": JUNIOR_ZH, "en": JUNIOR_EN}]


def test_rows_written_before_reasons_were_bilingual_still_load(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup")
    with ctx.work() as w:
        entry = entries.register_player(w, ev, _kid("王三", date(2010, 8, 31)), division="少年组").entry
        assert entry is not None
        row = w.session.get(EntryRow, int(entry.id))
        assert row is not None
        row.reasons = ["旧版本保存的原因"]
    for lang in ("zh", "en"):
        with use_language(lang), ctx.work() as w:
            assert shown(entry_rows.get_entry(w.session, entry.id).reasons) == ("旧版本保存的原因",)
    # Rechecking the pending entry replaces the old string by the bilingual reasons.
    with ctx.work() as w:
        assert approvals.recheck_entries(w, ev) == 1
    with use_language("en"), ctx.work() as w:
        assert shown(entry_rows.get_entry(w.session, entry.id).reasons) == (JUNIOR_EN,)
        assert approvals.recheck_entries(w, ev) == 0


def test_team_reasons_follow_the_reader_language(ctx: Context) -> None:
    ev = _event(ctx, "2025-xiaoqiwang")
    with ctx.work() as w:
        teams.add_team(w, ev, Team(name="浙江队", province="浙江"))
        with pytest.raises(Refused) as err:
            teams.add_team(w, ev, Team(name="浙江二队", province="浙江省"))
    assert err.value.code == "team_composition" and err.value.params == {"team": "浙江二队"}
    assert err.value.render_details("zh") == [PER_PLACE_ZH]
    assert err.value.render_details("en") == [PER_PLACE_EN]
    with ctx.work() as w:
        forced = teams.add_team(w, ev, Team(name="浙江二队", province="浙江省"), force=True, note="递补")
        assert forced.reasons == (PER_PLACE_ZH,)
    with use_language("en"), ctx.work() as w:
        views = {v.team.name: v for v in teams.list_teams(w, ev)}
        assert views["浙江二队"].reasons == (PER_PLACE_EN,) and views["浙江队"].reasons == ()
    with ctx.work() as w:
        views = {v.team.name: v for v in teams.list_teams(w, ev)}
        assert views["浙江二队"].reasons == (PER_PLACE_ZH,)
        stored = w.session.scalars(select(TeamRow.reasons).where(TeamRow.name == "浙江二队")).one()
        assert stored == [{"zh": PER_PLACE_ZH, "en": PER_PLACE_EN}]
        # an older team row holding a plain Chinese string still reads
        w.session.scalars(select(TeamRow).where(TeamRow.name == "浙江队")).one().reasons = ["旧原因"]
    with use_language("en"), ctx.work() as w:
        views = {v.team.name: v for v in teams.list_teams(w, ev)}
        assert views["浙江队"].reasons == ("旧原因",)


def _error(ctx: Context, call: Callable[[Work], object]) -> ServiceError:
    with pytest.raises(ServiceError) as err, ctx.work() as w:
        call(w)
    return err.value


def test_service_errors_have_a_code_and_render_in_each_language(ctx: Context) -> None:
    none = _error(ctx, lambda w: events.resolve_event(w, None))
    assert isinstance(none, InputError) and none.code == "no_event"
    assert none.render("zh").startswith("数据库中还没有比赛") and none.render("en").startswith("the database has no event")
    ev = _event(ctx, "2025-shanhai-cup")
    seed = _error(ctx, lambda w: events.create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=-1))
    assert (seed.code, seed.params) == ("bad_seed", {"seed": -1})
    assert "抽签种子须在0至" in seed.render("zh") and "the lot seed must be between 0 and" in seed.render("en")
    missing = _error(ctx, lambda w: approvals.approve_entry(w, 999))
    # a store NotFound handed on in both languages
    assert (missing.code, missing.params) == ("entry_not_found", {"entry": "999"})
    assert (missing.render("zh"), missing.render("en")) == ("没有编号为999的报名", "no entry numbered 999")
    with ctx.work() as w:
        e = entries.register_player(w, ev, _kid("赵四", date(2015, 5, 5)), division="少年组").entry
        assert e is not None
        withdrawal.withdraw_entry(w, e.id, "本人申请")
    bad = _error(ctx, lambda w: approvals.approve_entry(w, e.id))
    assert bad.code == "bad_transition"
    assert bad.params == {"entry": e.id, "status": "withdrawn", "target": "approved"}
    assert bad.render("zh") == f"报名{e.id}当前状态为已退赛, 不能改为已通过"
    assert bad.render("en") == f"entry {e.id} is withdrawn; it cannot become approved"
    stage = _error(ctx, lambda w: entries.register_player(w, ev, _kid("钱五", date(2015, 5, 5), seq=2),
                                                               division="少年组", stage="决赛圈"))
    assert (stage.code, stage.params) == ("unknown_stage", {"stage": "决赛圈"})
    assert stage.render("zh").startswith("没有阶段“决赛圈”") and stage.render("en").startswith("no stage '决赛圈'")
    reason = _error(ctx, lambda w: approvals.reject_entry(w, e.id, " "))
    assert reason.code == "reason_required" and reason.render("zh") != reason.render("en")
    # str() stays in the caller's language (Chinese by default), as the CLI has always shown it
    assert str(reason) == "不予批准须写明理由" and reason.hint == "reason"
    with use_language("en"):
        assert str(reason) == "a rejection needs a reason"


# The services whose every error is data; the lead's modules are checked when they join the list.
SERVICES = ("registration", "players", "entries", "approvals", "teams", "roster_import", "registration_window",
            "eligibility", "events", "event_data", "rounds", "result_sheets", "workdays", "results")
ERRORS = {"InputError", "Refused", "Conflict", "ServiceError", "NotFoundError"}


def _bare_messages(path: Path) -> list[str]:
    """``raise X("...")`` / ``raise X(f"...")`` (a string literal as the message) or a raise
    without ``code=`` in ``path``; each as FILE:LINE."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        if not (isinstance(call.func, ast.Name) and call.func.id in ERRORS):
            continue
        first = call.args[0] if call.args else None
        literal = isinstance(first, ast.JoinedStr) or (
            isinstance(first, ast.Constant) and isinstance(first.value, str))
        if literal or not any(k.arg == "code" for k in call.keywords):
            out.append(f"{path.name}:{node.lineno}")
    return out


def test_no_service_raises_a_bare_chinese_message() -> None:
    found = [hit for name in SERVICES
             for hit in _bare_messages(ROOT / "src" / "yisai" / "services" / f"{name}.py")]
    assert found == [], "raise with Text(zh, en) and code=: " + ", ".join(found)


def test_the_check_finds_what_it_forbids(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'raise InputError(f"没有{x}")\n'
        'raise Refused("不行", code="no")\n'
        'raise InputError(Text("甲", "a"))\n'
        'raise Conflict(Text("甲", "a"), code="ok")\n',
        encoding="utf-8",
    )
    assert _bare_messages(sample) == ["sample.py:1", "sample.py:2", "sample.py:3"]


def test_text_from_stored_data() -> None:
    assert Text.from_data({"zh": "甲", "en": "a"}) == Text("甲", "a")
    assert Text.from_data("旧") == Text("旧", "旧")


def test_round_and_result_errors_have_codes_and_both_languages(ctx: Context) -> None:
    from yisai.formats.result_sheet import ResultSheet, SheetRow
    from yisai.record.parse import parse_result
    from yisai.services import result_sheets, round_results, rounds

    ev = _event(ctx, "2025-xiaoqiwang")
    with ctx.work() as w:
        for i in range(1, 7):
            entries.register_player(w, ev, _kid(f"棋手{i}", date(2013, 1, i), seq=i), division="甲组")
    early = _error(ctx, lambda w: rounds.pair(w, None, "甲组", 2))
    assert (early.code, early.params["round"]) == ("previous_round_not_paired", 2)
    assert early.render("zh") == "第1轮尚未编排, 不能编排第2轮"
    assert early.render("en") == "round 1 is not paired yet: round 2 cannot be paired"
    with use_language("en"):  # an error of the pairing core, raised while a web page asked in English
        unknown = _error(ctx, lambda w: rounds.pair(w, None, "甲组", 1, absent=("999",)))
    assert (unknown.code, unknown.params) == ("pairing_failed", {"round": 1, "division": "jia"})
    assert unknown.render("zh") == "裁判长指令中有未知棋手: 999"
    assert unknown.render("en") == "unknown players in controls: 999"
    with ctx.work() as w:
        rounds.pair(w, None, "甲组", 1)
    board = _error(ctx, lambda w: round_results.record_result(w, None, "甲组", 1, 9, "黑胜"))
    assert (board.code, board.params["board"]) == ("no_such_board", 9)
    assert (board.render("zh"), board.render("en")) == ("第1轮没有第9台", "round 1 has no board 9")
    with ctx.work() as w:
        round_results.record_result(w, None, "甲组", 1, 1, "黑胜")
    again = _error(ctx, lambda w: round_results.record_result(w, None, "甲组", 1, 1, "白胜"))
    assert isinstance(again, Refused) and again.code == "result_exists"
    assert "已有成绩" in again.render("zh") and "already has a result" in again.render("en")
    word = _error(ctx, lambda w: round_results.record_result(w, None, "甲组", 1, 2, "好棋"))
    assert word.code == "bad_result" and word.params == {"text": "好棋"}
    assert "无法识别的成绩" in word.render("zh")
    # A sheet row naming a board the round does not have: the place is the same in both languages.
    row = SheetRow("r1.xlsx", "成绩", 3, 9, "9", "", "", "", "黑胜", parse_result("黑胜"), {"board": "A(台次)"})
    sheet = _error(ctx, lambda w: result_sheets.import_results(w, None, "甲组", 1, ResultSheet("r1.xlsx", [row])))
    assert sheet.code == "bad_result_sheet" and sheet.params["problems"] == 1
    assert sheet.render_details("zh") == ["r1.xlsx:成绩:3:A(台次): 第1轮没有第9台 (允许: 第1–3台)"]
    assert sheet.render_details("en") == ["r1.xlsx:成绩:3:A(台次): round 1 has no board 9 (allowed: boards 1–3)"]


def test_roster_import_reports_reasons_in_the_callers_language(ctx: Context, tmp_path: Path) -> None:
    from tests.formats.roster_files import write_csv, xqw_rows

    ev = _event(ctx, "2025-xiaoqiwang")
    rows = xqw_rows()
    rows[0][6] = ""  # no certificate (seed 002 requires the 中国围棋协会 grade certificate)
    path = write_csv(tmp_path / "r.csv", rows, "utf-8")
    with use_language("en"), ctx.work() as w:
        report = roster_import.import_roster(w, ev, path.read_bytes(), path.name)
    assert report.ineligible == [
        "陈浩然(甲组): no amateur grade certificate issued under the Chinese Weiqi Association "
        "(fill in the certificate number)"]
    with ctx.work() as w:
        pending = [v for v in entries.list_entries(w, ev) if v.entry.reasons]
    assert [shown(v.entry.reasons) for v in pending] == [("缺少中国围棋协会监制的业余段级位证书(请填写证书编号)",)]


RUN_TWICE = ("both", "bilingual", "bilingual_list", "failure_text")


def test_no_message_is_made_by_running_code_once_per_language() -> None:
    """Issue 42 item 3: messages are data built once (``Text``), never a computation run again in
    the other language only to word it; the helpers that did so are gone and nothing calls them."""
    import yisai.i18n

    assert [name for name in RUN_TWICE if hasattr(yisai.i18n, name)] == []
    calls = []
    for path in sorted((ROOT / "src" / "yisai").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "yisai.i18n":
                calls += [f"{path.name}:{node.lineno}" for a in node.names if a.name in RUN_TWICE]
            elif isinstance(node, ast.Attribute) and node.attr in RUN_TWICE and \
                    isinstance(node.value, ast.Name) and node.value.id == "i18n":
                calls.append(f"{path.name}:{node.lineno}")
    assert calls == []


def test_a_pairing_failure_is_paired_once_and_worded_in_both_languages(
        ctx: Context, monkeypatch: pytest.MonkeyPatch) -> None:
    """The failed round is paired once, not once more to word the error in the other language."""
    from yisai.services import rounds

    ev = _event(ctx, "2025-xiaoqiwang")
    with ctx.work() as w:
        for i in range(1, 5):
            entries.register_player(w, ev, _kid(f"棋手{i}", date(2013, 1, i), seq=i), division="甲组")
    real = rounds.play_of
    paired: list[int] = []

    class Counted:
        def __init__(self, play: object) -> None:
            self.play = play

        def __getattr__(self, name: str) -> object:
            return getattr(self.play, name)

        def pair(self, call: object) -> object:
            paired.append(1)
            return self.play.pair(call)  # type: ignore[attr-defined]

    monkeypatch.setattr(rounds, "play_of", lambda fmt: Counted(real(fmt)))
    for lang in ("zh", "en"):
        with use_language(lang):
            error = _error(ctx, lambda w: rounds.pair(w, None, "甲组", 1, absent=("999",)))
        assert (error.render("zh"), error.render("en")) == (
            "裁判长指令中有未知棋手: 999", "unknown players in controls: 999")
    assert len(paired) == 2  # one pairing per request, two requests

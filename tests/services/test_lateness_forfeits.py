"""迟到与弃权满N轮, applied by the engine as results are entered (CLI, console, sheet), then seen in
pairing, standings, the entry list, the audit and the public pages.

The event: 8 players P1..P8 holding 1..8段, Swiss over 4 rounds ranked by 积分, 对手分, 累进分,
round 1 by the regulation's slide pairing (8–4, 7–3, 6–2, 5–1 段). The rules are those of a
real 规程 (华西少儿赛): "比赛迟到15分钟判弃权负, 累计两轮弃权不再编排", i.e.
``lateness.minutes = 15`` (15 minutes late is already too late), ``outcome = "forfeit"``, and
``withdrawal.exclude_after_forfeits = 2``. Scores are the defaults: win 2, loss 0, the player
who forfeits 0 and his opponent 2; a forfeit does not count in 对手分.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from yisai.cli.app import app
from yisai.services.context import open_context
from yisai.services.settings import Settings
from yisai.store import audit_rows, entry_rows, roster_rows, round_rows

runner = CliRunner()

REGULATION = """
schema_version = 1
id = "test-lateness"
name = "迟到测试赛"
year = 2026
[issued]
by = "测试围棋协会"
on = 2026-01-10
[organisers]
hosts = ["测试围棋协会"]
[ranking]
criteria = ["积分", "对手分", "累进分"]
[pairing]
round1_seeding = ["rank", "lot"]
round1_method = "slide"
[[divisions]]
id = "open"
name = "公开组"
[[divisions.rankings]]
id = "all"
name = "公开组名次"
[[stages]]
id = "main"
name = "比赛"
kind = "main"
divisions = ["open"]
start = 2026-03-28
end = 2026-03-29
[stages.format]
kind = "swiss"
rounds = 4
[stages.time_control]
main_minutes = 60
"""

FORFEIT_RULES = """
[lateness]
minutes = 15
outcome = "forfeit"
[withdrawal]
exclude_after_forfeits = 2
"""


def run(db: str, *args: str) -> tuple[int, str]:
    r = runner.invoke(app, [*args, "--db", db])
    return r.exit_code, r.output


def cli(db: str, *args: str) -> str:
    code, out = run(db, *args)
    assert code == 0, out
    return out


def boards(db: str, rnd: int) -> list[tuple[str, str | None]]:
    """(black, white) names per board of round ``rnd``; white None for a bye."""
    with open_context(db) as c, c.work() as w:
        names = {p.id: p.name for p in roster_rows.list_players(w.session, 1)}
        (r,) = [r for r in round_rows.list_rounds(w.session, 1, "open") if r.number == rnd]
        return [(names[g.black], names[g.white] if g.white else None) for g in r.games]


def event(tmp_path: Path, extra: str) -> str:
    reg = tmp_path / "reg.toml"
    reg.write_text(REGULATION + extra, encoding="utf-8")
    db = str(tmp_path / "t.sqlite")
    cli(db, "event", "create", "--regulation", str(reg), "--seed", "3")
    for i in range(1, 9):
        cli(db, "player", "add", "--name", f"P{i}", "--gender", "男", "--birth", f"2000-0{i}-01",
            "--rank", f"{i}段", "--division", "open")
    cli(db, "pair", "-d", "open", "-r", "1")
    # Slide by rank: 8段–4段, 7段–3段, 6段–2段, 5段–1段 (colours by lot).
    assert boards(db, 1) == [("P8", "P4"), ("P3", "P7"), ("P2", "P6"), ("P5", "P1")]
    return db


def result(db: str, rnd: int, board: int, text: str) -> tuple[int, str]:
    return run(db, "result", text, "-d", "open", "-r", str(rnd), "-b", str(board))


def scores(db: str) -> dict[str, tuple[str, str]]:
    """name → (place, 积分) from the CSV export."""
    out = cli(db, "standings", "1", "--division", "open", "--format", "csv")
    _header, *rows = out.strip().splitlines()
    return {c[1]: (c[0], c[4]) for c in (row.split(",") for row in rows)}


def test_late_by_the_limit_forfeits_the_round_and_two_forfeits_exclude(tmp_path: Path) -> None:
    db = event(tmp_path, FORFEIT_RULES)
    # Board 1: White (P4) 20 minutes late, over 15: P4 forfeits, P8 wins by forfeit.
    code, out = result(db, 1, 1, "白迟到20分钟")
    assert code == 0 and "黑胜(弃权)" in out and "白方迟到20分钟, 按规程 lateness (迟到15分钟该轮按弃权处理)" in out
    # Board 2: Black (P3) 10 minutes late, under 15: nothing stored, the game goes ahead and
    # 10 minutes come off P3's clock (clock_factor 1).
    code, out = result(db, 1, 2, "黑迟到10分钟")
    assert code != 0
    assert "未到规程的时限" in out and "迟到15分钟" in out and "扣除10分钟" in out
    cli(db, "result", "黑胜", "-d", "open", "-r", "1", "-b", "2")
    cli(db, "result", "黑胜", "-d", "open", "-r", "1", "-b", "3")
    # Board 4: White (P1) exactly 15 minutes late: the limit is reached (迟到15分钟 = 15 or more).
    code, out = result(db, 1, 4, "白迟到15分钟")
    assert code == 0 and "黑胜(弃权)" in out
    with open_context(db) as c, c.work() as w:
        (r1,) = round_rows.list_rounds(w.session, 1, "open")
        stored = {g.board: (g.result.value, g.played, g.reason) for g in r1.games}
        audit = [a.note for a in audit_rows.audit_log(w.session, 1, "game")]
    assert stored[1] == ("B+", False, "弃权") and stored[4] == ("B+", False, "弃权")
    assert any("白方迟到20分钟" in n and "lateness" in n for n in audit)
    # After round 1: P8, P3, P2, P5 2 each (two by forfeit); the other four 0.
    after_1 = scores(db)
    assert {n: s for n, (_p, s) in after_1.items()} == {
        "P8": "2", "P3": "2", "P2": "2", "P5": "2", "P4": "0", "P7": "0", "P6": "0", "P1": "0"}

    cli(db, "pair", "-d", "open", "-r", "2")
    r2 = boards(db, 2)
    p1_board = next(i for i, pair in enumerate(r2, start=1) if "P1" in pair)
    p1_black = r2[p1_board - 1][0] == "P1"
    # P1's second forfeit (entered as plain 弃权): the rule excludes him at once.
    code, out = result(db, 2, p1_board, "黑弃权" if p1_black else "白弃权")
    assert code == 0, out
    assert "P1已弃权2轮 (第1、2轮)" in out and "不再编排" in out
    for board, (_b, white) in enumerate(r2, start=1):
        if board != p1_board and white is not None:
            cli(db, "result", "黑胜", "-d", "open", "-r", "2", "-b", str(board))
    with open_context(db) as c, c.work() as w:
        entry = entry_rows.find_entry(w.session, "1", "open")
        assert entry is not None and entry.status.value == "withdrawn"
        assert entry.note == "第1、2轮弃权, 按规程弃权满2轮取消其后比赛资格, 已赛成绩有效"
        actions = [(a.action, a.note) for a in audit_rows.audit_log(w.session, 1, "entry", entry.id)]
    assert any(action == "exclude" and "第1、2轮弃权" in note for action, note in actions)
    # P4 has one forfeit only: still in.
    with open_context(db) as c, c.work() as w:
        p4 = entry_rows.find_entry(w.session, "4", "open")
        assert p4 is not None and p4.status.value == "approved"

    # Round 3 pairs the seven others (one bye), never P1; his games stand (0 points, marked).
    cli(db, "pair", "-d", "open", "-r", "3")
    seated = {n for pair in boards(db, 3) for n in pair if n}
    assert seated == {"P2", "P3", "P4", "P5", "P6", "P7", "P8"}
    after = scores(db)
    assert after["P1（退赛）"][1] == "0"

    # The console's entry list and the public standings show it.
    from yisai.web.app import create_app

    web = create_app(Settings(database=db), secret="test", refresh_seconds=0)
    with TestClient(web) as client:
        page = client.get("/events/1/standings/open")
        assert page.status_code == 200 and "P1（退赛）" in page.text
        summary = client.get("/events/1")
        assert summary.status_code == 200
        assert "迟到15分钟者该轮按弃权处理" in summary.text
        assert "弃权满2轮者取消其后比赛资格" in summary.text
        assert client.get("/events/1/awards").status_code == 200
        (api_row,) = [r for r in client.get("/api/events/1/standings/open").json()["rows"] if r["name"] == "P1"]
        assert api_row["status"] == "withdrawn"
    # The prize list and the standings commands still run with him marked.
    cli(db, "prizes", "1")


def test_a_loss_by_lateness_is_not_a_forfeit_and_excludes_nobody(tmp_path: Path) -> None:
    # "棋手迟到15分钟该局判负, 弃权1次取消竞赛资格": a loss by lateness is stored as 迟到判负.
    db = event(tmp_path, "[lateness]\nminutes = 15\n[withdrawal]\nexclude_after_forfeits = 1\n")
    code, out = result(db, 1, 4, "白迟到16分钟")
    assert code == 0 and "迟到判负" in out
    with open_context(db) as c, c.work() as w:
        (r1,) = round_rows.list_rounds(w.session, 1, "open")
        (g,) = [g for g in r1.games if g.board == 4]
        assert (g.result.value, g.played, g.reason) == ("B+", False, "迟到判负")
        p1 = entry_rows.find_entry(w.session, "1", "open")
        assert p1 is not None and p1.status.value == "approved"
    # A forfeit on board 1 is the first forfeit of P4: with the limit 1 he is out at once.
    code, out = result(db, 1, 1, "白弃权")
    assert code == 0 and "P4已弃权1轮" in out
    with open_context(db) as c, c.work() as w:
        p4 = entry_rows.find_entry(w.session, "4", "open")
        assert p4 is not None and p4.status.value == "withdrawn"


def test_more_than_the_limit_and_double_clock(tmp_path: Path) -> None:
    # "迟到超过10分钟者判负" with "遲到加倍扣時": 10 minutes is within the limit, 11 is over.
    db = event(tmp_path, "[lateness]\nminutes = 10\ninclusive = false\nclock_factor = 2\n")
    code, out = result(db, 1, 1, "黑迟到10分钟")
    assert code != 0 and "迟到超过10分钟" in out and "扣除20分钟(迟到加倍扣时)" in out
    code, out = result(db, 1, 1, "黑迟到11分钟")
    assert code == 0 and "迟到判负" in out


def test_minutes_late_without_a_rule_are_refused_and_name_the_field(tmp_path: Path) -> None:
    db = event(tmp_path, "")
    code, out = result(db, 1, 1, "黑迟到30分钟")
    assert code != 0 and "lateness" in out and "黑迟到负" in out
    # The referee's own decision is entered as before.
    code, out = result(db, 1, 1, "黑迟到负")
    assert code == 0


def test_the_console_grid_applies_the_rule(tmp_path: Path) -> None:
    import re

    from yisai.services.accounts import create_user
    from yisai.services.identity import Actor, Role
    from yisai.web.app import create_app

    db = event(tmp_path, FORFEIT_RULES)
    with open_context(db) as c, c.work(actor=Actor.system()) as w:
        create_user(w, "referee", "裁判", Role.REFEREE, "referee-pw")
    web = create_app(Settings(database=db), secret="test", refresh_seconds=0)
    with TestClient(web) as client:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/console/login").text)
        assert token
        r = client.post("/console/login", data={"login": "referee", "password": "referee-pw",
                                                "csrf": token.group(1)}, follow_redirects=False)
        assert r.status_code == 303
        page = client.get("/console/events/1/rounds/open/1").text
        assert "迟到: 输入 黑迟到17分钟" in page and "迟到15分钟该轮弃权" in page
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf

        def post(board: int, text: str) -> tuple[int, dict]:
            r = client.post("/console/events/1/rounds/open/1/result", headers={"X-CSRF-Token": csrf.group(1)},
                            json={"board": board, "result": text, "version": 1, "note": "", "group": ""})
            return r.status_code, r.json()

        status, answer = post(3, "白迟到12分钟")  # P6 within the limit: refused, nothing stored
        assert status == 400 and "对局照常进行" in answer["message"] and "扣除12分钟" in answer["message"]
        status, answer = post(3, "白迟到25")
        assert status == 200 and answer["result"] == "白弃权"


def test_a_disqualifying_rule_marks_the_player_disqualified(tmp_path: Path) -> None:
    db = event(tmp_path, '[withdrawal]\nexclude_after_forfeits = 1\nexcluded_as = "disqualified"\n')
    code, _out = result(db, 1, 4, "双方弃权")
    assert code == 0
    # 双方弃权 is a forfeit of both: P5 and P1 are out, disqualified, without a place.
    with open_context(db) as c, c.work() as w:
        for pid in ("5", "1"):
            e = entry_rows.find_entry(w.session, pid, "open")
            assert e is not None and e.status.value == "disqualified"
    for board, text in ((1, "黑胜"), (2, "黑胜"), (3, "黑胜")):
        cli(db, "result", text, "-d", "open", "-r", "1", "-b", str(board))
    rows = scores(db)
    assert rows["P5（取消资格）"][0] == "—" and rows["P1（取消资格）"][0] == "—"


def test_a_forfeit_corrected_away_leaves_the_exclusion_to_the_chief_referee(tmp_path: Path) -> None:
    db = event(tmp_path, "[withdrawal]\nexclude_after_forfeits = 1\n")
    code, out = result(db, 1, 4, "白弃权")
    assert code == 0 and "P1已弃权1轮 (第1轮)" in out
    # The referee finds P1 did play and lost: the forfeit is corrected, the exclusion stays (a
    # person decides to undo it) and the referee is told so.
    out = cli(db, "result", "黑胜", "-d", "open", "-r", "1", "-b", "4", "--change", "--note", "记录有误")
    assert "P1曾因弃权满1轮被取消其后比赛资格, 更正后弃权0轮" in out and "恢复参赛" in out
    cli(db, "entry", "reinstate", "1", "--reason", "弃权记录有误")
    with open_context(db) as c, c.work() as w:
        p1 = entry_rows.find_entry(w.session, "1", "open")
        assert p1 is not None and p1.status.value == "approved"


def test_a_result_sheet_gives_minutes_late_row_by_row(tmp_path: Path) -> None:
    db = event(tmp_path, FORFEIT_RULES)
    bad = tmp_path / "bad.csv"
    # Board 2: 黑 (P3) 10 minutes late is within 15: the row is refused by its place, nothing saved.
    bad.write_text("台次,结果\n1,白迟到20分钟\n2,黑迟到10分钟\n3,黑胜\n4,黑胜\n", encoding="utf-8")
    code, out = run(db, "result", "import", str(bad), "-d", "open", "-r", "1")
    assert code == 2
    assert "bad.csv:bad.csv:3:B(结果): 第2台: 黑方迟到10分钟, 未到规程的时限" in out.replace("\n", "")
    with open_context(db) as c, c.work() as w:
        (r1,) = round_rows.list_rounds(w.session, 1, "open")
        assert all(g.result.value == "?" for g in r1.games)
    good = tmp_path / "good.csv"
    good.write_text("台次,结果\n1,白迟到20分钟\n2,黑胜\n3,黑胜\n4,黑胜\n", encoding="utf-8")
    cli(db, "result", "import", str(good), "-d", "open", "-r", "1")
    with open_context(db) as c, c.work() as w:
        (r1,) = round_rows.list_rounds(w.session, 1, "open")
        (g,) = [g for g in r1.games if g.board == 1]
        assert (g.result.value, g.played, g.reason) == ("B+", False, "弃权")
        assert any("白方迟到20分钟" in a.note for a in audit_rows.audit_log(w.session, 1, "game"))

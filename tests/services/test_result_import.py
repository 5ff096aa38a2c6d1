"""The referee's paperwork through the CLI: print the result sheet, import it back (all or
nothing, never twice by accident), show the round with scores, explanations with names."""

from __future__ import annotations

import csv
import re
from datetime import date
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.cli.app import app
from yisai.record import Game, Result
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services.context import unit_of_work
from yisai.services.events import resolve_event
from yisai.store import audit_rows, entry_rows, player_rows, roster_rows, round_rows
from yisai.vocabulary.rank import Rank

runner = CliRunner()


def _cli(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.output


def _add_players(n: int, start: int = 1) -> None:
    for i in range(start, start + n):
        code, out = _cli("player", "add", "--name", f"选手{i}", "--gender", "男", "--birth", f"2013-0{i}-01",
                         "--rank", f"{i}段", "--cert", f"C{i}", "--region", "中国大陆", "--province", "浙江",
                         "--division", "jia")
        assert code == 0, out


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Seed 002 (小棋王), 甲组: 选手1 … 选手5 holding 1段 … 5段."""
    path = str(tmp_path / "t.sqlite")
    monkeypatch.setenv("YISAI_DB", path)
    monkeypatch.setenv("YISAI_NOW", "2025-04-10T09:00")  # seed 002 takes entries until 2025-04-18 17:00
    monkeypatch.chdir(tmp_path)
    code, out = _cli("event", "create", "--regulation", str(REGULATIONS / "2025-xiaoqiwang.toml"), "--seed", "7")
    assert code == 0, out
    _add_players(5)
    return path


def _names(db: str) -> dict[str, str]:
    with unit_of_work(db) as work:
        return {p.id: p.name for p in roster_rows.list_players(work.session, resolve_event(work, None).id)}


def _round(db: str, n: int, division: str = "jia") -> list[tuple[str, Game]]:
    """(group, game) of round ``n``, games named by player name instead of id."""
    names = _names(db)
    with unit_of_work(db) as work:
        rounds = [r for r in round_rows.list_rounds(work.session, resolve_event(work, None).id, division) if r.number == n]
    return [
        (r.group, Game(g.round, names[g.black], names.get(g.white or ""), g.result, g.played, g.board,
                       reason=g.reason))
        for r in rounds for g in r.games
    ]


def _history_lengths(db: str, n: int) -> list[int]:
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        rounds = [r for r in round_rows.list_rounds(work.session, event.id, "jia") if r.number == n]
        return [len(round_rows.result_history(work.session, r.id, g.board)) for r in rounds for g in r.games if not g.is_bye]


def _write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def test_sheet_round_trip_import_once_and_scores(db: str, tmp_path: Path) -> None:
    assert _cli("pair", "-d", "jia", "-r", "1")[0] == 0
    games = {g.board: g for _grp, g in _round(db, 1) if not g.is_bye}
    # Slide pairing by rank (1 v n/2+1 of the four not on a bye): 5段–3段 on board 1, 4段–2段 on 2.
    assert {frozenset((g.black, g.white)) for g in games.values()} == {
        frozenset(("选手5", "选手3")), frozenset(("选手4", "选手2"))}
    assert {frozenset((games[1].black, games[1].white))} == {frozenset(("选手5", "选手3"))}

    code, out = _cli("round", "sheet", "-d", "jia", "-r", "1", "-o", str(tmp_path / "r1.xlsx"))
    assert code == 0 and "(2台)" in out, out
    book = openpyxl.load_workbook(tmp_path / "r1.xlsx")
    ws = book.active
    cells = [[c if c is not None else "" for c in row] for row in ws.iter_rows(values_only=True)]
    assert "第1轮" in cells[0][0] and "成绩登记表" in cells[0][0]
    assert cells[1] == ["台次", "分组", "黑方", "白方", "结果"]
    assert cells[2:] == [["1", "", games[1].black, games[1].white, ""],
                         ["2", "", games[2].black, games[2].white, ""],
                         ["", "", "选手1", "(轮空)", "轮空"]]  # fmt: skip

    # The referee fills the printed sheet in: board 1 won by Black, board 2 White forfeits.
    ws["E3"], ws["E4"] = "黑中盘胜", "白弃权"
    book.save(tmp_path / "r1.xlsx")
    code, out = _cli("result", "import", str(tmp_path / "r1.xlsx"), "-d", "jia", "-r", "1")
    assert code == 0 and "保存2台成绩" in out, out
    stored = {g.board: g for _grp, g in _round(db, 1)}
    assert (stored[1].result, stored[1].played, stored[1].reason) == (Result.BLACK_WINS, True, "中盘胜")
    assert (stored[2].result, stored[2].played, stored[2].reason) == (Result.BLACK_WINS, False, "弃权")
    assert _history_lengths(db, 1) == [1, 1]

    # Printed again, the sheet shows the same words: the export reads back what import wrote.
    assert _cli("round", "sheet", "-d", "jia", "-r", "1", "-o", str(tmp_path / "again.csv"))[0] == 0
    with (tmp_path / "again.csv").open(encoding="utf-8-sig") as f:
        assert [row[4] for row in csv.reader(f)] == ["结果", "黑中盘胜", "白弃权", "轮空"]

    # The same sheet again: identical rows are no change (no --change needed), nothing duplicated.
    code, out = _cli("result", "import", str(tmp_path / "r1.xlsx"), "-d", "jia", "-r", "1")
    assert code == 0 and "保存0台成绩, 未变2台" in out, out
    assert _history_lengths(db, 1) == [1, 1]
    # A different result on a board that has one still needs --change.
    ws["E3"] = "白胜"
    book.save(tmp_path / "r1.xlsx")
    code, out = _cli("result", "import", str(tmp_path / "r1.xlsx"), "-d", "jia", "-r", "1")
    assert code == 1 and "未保存任何成绩" in out
    assert "r1.xlsx:成绩登记表:3:E(结果): 第1轮第1台已有成绩 黑中盘胜" in out
    assert "未保存任何成绩 (改正后重新导入) (如需更改请加 --change" in out  # the CLI's words for the hint
    assert _history_lengths(db, 1) == [1, 1]
    ws["E3"] = "黑中盘胜"
    book.save(tmp_path / "r1.xlsx")
    # With --change, results already stored are left alone (no new history entries) …
    code, out = _cli("result", "import", str(tmp_path / "r1.xlsx"), "-d", "jia", "-r", "1", "--change")
    assert code == 0 and "保存0台成绩, 未变2台" in out, out
    assert _history_lengths(db, 1) == [1, 1]
    # … and a corrected board is changed once, audited with its note.
    ws["E3"] = "白胜"
    book.save(tmp_path / "r1.xlsx")
    code, out = _cli("result", "import", str(tmp_path / "r1.xlsx"), "-d", "jia", "-r", "1", "--change",
                     "--note", "记录台笔误")
    assert code == 0 and "保存1台成绩, 未变1台" in out, out
    assert _history_lengths(db, 1) == [2, 1]
    with unit_of_work(db) as work:
        event = resolve_event(work, None)
        log = [a for a in audit_rows.audit_log(work.session, event.id) if a.action == "result"]
    assert [a.note for a in log] == ["", "", "记录台笔误"]

    # round show: 台次 黑方 白方 积分 (before the round) 结果.
    code, out = _cli("round", "show", "-d", "jia", "-r", "1")
    assert code == 0 and re.search(r"台次\s*┃\s*黑方\s*┃\s*白方\s*┃\s*积分\s*┃\s*结果", out), out
    assert out.count("0:0") == 2
    assert _cli("pair", "-d", "jia", "-r", "2")[0] == 0
    # By hand: board 1 is now a White win, board 2 a win by forfeit for Black, 选手1 had the
    # bye: winners and 选手1 have 2 points (win 2, forfeit win 2, bye 2), the others 0.
    before = {games[1].white: 2, games[1].black: 0, games[2].black: 2, games[2].white: 0, "选手1": 2}
    code, out = _cli("round", "show", "-d", "jia", "-r", "2")
    assert code == 0, out
    for _grp, g in _round(db, 2):
        [line] = [ln for ln in out.splitlines() if re.search(rf"│\s*{g.black}\s*│", ln)]
        expected = f"{before[g.black]}" if g.is_bye else f"{before[g.black]}:{before[g.white]}"
        assert re.search(rf"│\s*{re.escape(expected)}\s*│", line), (line, expected)


def test_a_bad_sheet_saves_nothing_and_names_every_problem(db: str, tmp_path: Path) -> None:
    assert _cli("pair", "-d", "jia", "-r", "1")[0] == 0
    games = {g.board: g for _grp, g in _round(db, 1) if not g.is_bye}
    b1, b2 = games[1], games[2]
    sheet = _write_csv(tmp_path / "bad.csv", [
        ["台次", "黑方", "白方", "结果"],
        ["1", b1.white, b1.black, "黑胜"],  # colours written the wrong way round
        ["2", b2.black, b2.white, "黑赢了"],  # not a result word
        ["2", b2.black, b2.white, "白胜"],  # board 2 twice
        ["7", "", "", "黑胜"],  # no such board
        ["", "选手1", "(轮空)", "轮空"],  # the bye: fine
        ["", "选手2", "", "黑胜"],  # no board number
        ["", "选手3", "(轮空)", "轮空"],  # not the player with the bye
    ])  # fmt: skip
    code, out = _cli("result", "import", str(sheet), "-d", "jia", "-r", "1")
    assert code == 2, out
    lines = [ln.strip() for ln in out.splitlines()]
    assert lines[0] == "bad.csv: 共7处问题, 未保存任何成绩 (改正后重新导入)"
    pairing = f"第1台为 黑方 {b1.black} — 白方 {b1.white}; 黑白方写反了"
    assert lines[1:] == [
        f"bad.csv:bad.csv:2:B(黑方): 黑方“{b1.white}”与编排不符 ({pairing})",
        f"bad.csv:bad.csv:2:C(白方): 白方“{b1.black}”与编排不符 ({pairing})",
        lines[3],  # the unreadable word, checked below
        "bad.csv:bad.csv:4:A(台次): 第2台重复, 已在第3行出现 (每台只能填一行)",
        "bad.csv:bad.csv:5:A(台次): 第1轮没有第7台 (允许: 第1–2台)",
        "bad.csv:bad.csv:7:A(台次): 台次不能为空 (允许: 第1–2台; 轮空行的结果填“轮空”)",
        "bad.csv:bad.csv:8:B(黑方): 选手3本轮没有轮空 (本轮轮空: 选手1)",
    ]
    assert lines[3].startswith("bad.csv:bad.csv:3:D(结果): 无法识别的成绩“黑赢了” (允许: 黑胜/白胜")
    # Nothing saved, not even the good row for board 1's result or board 2's second line.
    assert all(g.result == Result.UNKNOWN for _grp, g in _round(db, 1) if not g.is_bye)
    assert _history_lengths(db, 1) == [0, 0]
    # A board entered with `yisai result` is protected in the sheet too.
    assert _cli("result", "黑胜", "-d", "jia", "-r", "1", "-b", "1")[0] == 0
    good = _write_csv(tmp_path / "good.csv", [["台次", "结果"], ["1", "白胜"], ["2", "和"]])
    code, out = _cli("result", "import", str(good), "-d", "jia", "-r", "1")
    assert code == 1 and "good.csv:good.csv:2:B(结果): 第1轮第1台已有成绩 黑胜" in out, out
    assert [g.result for _grp, g in sorted(_round(db, 1), key=lambda x: x[1].board)][:2] == [
        Result.BLACK_WINS, Result.UNKNOWN]
    # A file that cannot be read at all: exit 2 and the file named.
    code, out = _cli("result", "import", str(tmp_path / "nope.csv"), "-d", "jia", "-r", "1")
    assert code == 2 and "nope.csv: 无法读取" in out


def test_explanations_print_names(db: str) -> None:
    names = set(_names(db).values())
    code, out = _cli("pair", "-d", "jia", "-r", "1", "--explain")
    assert code == 0, out
    heads = re.findall(r"第(\d)台 (\S+)\(黑, 0分\) — (\S+)\(白, 0分\)", out)
    assert len(heads) == 2 and all(b in names and w in names for _n, b, w in heads), out
    assert "轮空 选手1 (+2分)" in out
    code, shown = _cli("round", "show", "-d", "jia", "-r", "1", "--explain")
    assert code == 0
    assert re.findall(r"第(\d)台 (\S+)\(黑, 0分\) — (\S+)\(白, 0分\)", shown) == heads
    assert "轮空 选手1 (+2分)" in shown


def test_two_byes_in_one_round_are_stored_and_printed(db: str, tmp_path: Path) -> None:
    _add_players(1, start=6)
    ids = {v: k for k, v in _names(db).items()}
    # 选手3 asked for a bye; five remain, so the lowest seed (选手1) gets the other.
    code, out = _cli("pair", "-d", "jia", "-r", "1", "--bye", ids["选手3"])
    assert code == 0, out
    byes = sorted(g.black for _grp, g in _round(db, 1) if g.is_bye)
    assert byes == ["选手1", "选手3"]
    assert _cli("round", "sheet", "-d", "jia", "-r", "1", "-o", str(tmp_path / "s.csv"))[0] == 0
    with (tmp_path / "s.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert sorted(r[2] for r in rows if r[4] == "轮空") == ["选手1", "选手3"]
    code, out = _cli("result", "import", str(tmp_path / "s.csv"), "-d", "jia", "-r", "1")
    assert code == 0 and "保存0台成绩, 未变0台, 未填2台, 轮空2行" in out, out


@pytest.fixture
def two_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Seed 000's final (山海杯 公开组): eight approved players, split into groups A and B."""
    path = str(tmp_path / "g.sqlite")
    monkeypatch.setenv("YISAI_DB", path)
    code, out = _cli("event", "create", "--regulation", str(REGULATIONS / "2025-shanhai-cup.toml"), "--seed", "3")
    assert code == 0, out
    with unit_of_work(path) as work:
        event = resolve_event(work, None)
        for i in range(8):
            p = player_rows.add_player(work.session, work.stamp, event.id, Player(id="", name=f"棋手{i + 1}", gender=Gender.MALE,
                                                      birth_date=date(1990, 1, 1 + i), rank=Rank.dan(7 - i % 7)))
            entry_rows.add_entry(work.session, work.stamp, event.id, Entry(player_id=p.id, division="open", status=EntryStatus.APPROVED))
    code, out = _cli("pair", "-d", "open", "-r", "1")
    assert code == 0, out
    return path


def test_groups_are_told_apart_by_the_sheet_or_the_option(two_groups: str, tmp_path: Path) -> None:
    games = _round(two_groups, 1, "open")
    assert sorted(grp for grp, _g in games) == ["A", "A", "B", "B"]  # 4 + 4 players, 2 boards each
    code, out = _cli("round", "sheet", "-d", "open", "-r", "1", "-o", str(tmp_path / "g.csv"))
    assert code == 0, out
    with (tmp_path / "g.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert sorted((r[0], r[1]) for r in rows[1:]) == [("1", "A"), ("1", "B"), ("2", "A"), ("2", "B")]
    # Without 分组 the boards are ambiguous: every row is named, nothing saved.
    plain = _write_csv(tmp_path / "plain.csv", [["台次", "黑方", "结果"]] + [[r[0], r[2], "黑胜"] for r in rows[1:]])
    code, out = _cli("result", "import", str(plain), "-d", "open", "-r", "1")
    assert code == 2, out
    for n in range(2, 6):
        assert f"plain.csv:plain.csv:{n}:A(台次): 本轮有多个分组, 请填写分组 (允许: A、B)\n" in out
    assert "(请用 --group 指定分组)" in out
    # --group A takes the A rows; a B name on an A board is a mismatch.
    a_rows = [r for r in rows[1:] if r[1] == "A"]
    only_a = _write_csv(tmp_path / "a.csv", [["台次", "黑方", "结果"]] + [[r[0], r[2], "白胜"] for r in a_rows])
    code, out = _cli("result", "import", str(only_a), "-d", "open", "-r", "1", "--group", "A")
    assert code == 0 and "保存2台成绩" in out, out
    assert sorted((grp, g.result) for grp, g in _round(two_groups, 1, "open")) == [
        ("A", Result.WHITE_WINS), ("A", Result.WHITE_WINS), ("B", Result.UNKNOWN), ("B", Result.UNKNOWN)]
    # The full sheet with its 分组 column: the A boards are refused (already entered) → nothing.
    for r in rows[1:]:
        r[4] = "和"
    full = _write_csv(tmp_path / "full.csv", rows)
    code, out = _cli("result", "import", str(full), "-d", "open", "-r", "1")
    assert code == 1 and out.count("已有成绩") == 2, out
    rows = [r for r in rows if r[1] != "A"]
    code, out = _cli("result", "import", str(_write_csv(tmp_path / "b.csv", rows)), "-d", "open", "-r", "1")
    assert code == 0 and "保存2台成绩" in out, out
    assert {g.result for _grp, g in _round(two_groups, 1, "open") if _grp == "B"} == {Result.DRAW}
    code, out = _cli("round", "show", "-d", "open", "-r", "1")
    assert code == 0 and "A组 第1轮" in out and "B组 第1轮" in out


def test_both_win_is_printed_and_kept_but_never_typed(db: str, tmp_path: Path) -> None:
    assert _cli("pair", "-d", "jia", "-r", "1")[0] == 0
    with unit_of_work(db) as work:  # as an OpenGotha import would store a referee's 1-1
        rnd = round_rows.list_rounds(work.session, resolve_event(work, None).id, "jia")[0]
        round_rows.record_result(work.session, work.stamp, rnd.id, 1, Result.BOTH_WIN)
    assert _cli("round", "sheet", "-d", "jia", "-r", "1", "-o", str(tmp_path / "s.csv"))[0] == 0
    with (tmp_path / "s.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert [r[4] for r in rows[1:3]] == ["双方胜", ""]
    code, out = _cli("result", "import", str(tmp_path / "s.csv"), "-d", "jia", "-r", "1", "--change")
    assert code == 0 and "未变1台" in out, out
    rows[2][4] = "双方胜"
    code, out = _cli("result", "import", str(_write_csv(tmp_path / "t.csv", rows)), "-d", "jia", "-r", "1")
    assert code == 2 and "t.csv:t.csv:3:E(结果): 双方胜只能保留导入的成绩, 不能录入 (允许: 黑胜/白胜" in out, out
    assert _history_lengths(db, 1) == [1, 0]

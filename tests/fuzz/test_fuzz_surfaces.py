"""Bounded fuzzing of every input surface through the CLI (hypothesis): whatever comes in, the
command ends with exit code 0 or 2 (1 only where the command documents it), no exception
escapes, no traceback is printed, and whatever was stored is valid: results are always
documented results, names never hold control characters.

Bounded so the whole folder runs in well under a minute: few examples per surface, no
shrinking-heavy strategies, a per-example deadline off (a CLI call opens the store each time).
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.conftest import IN_TIME, assert_clean_exit, player_names, round_games, run
from yisai.formats.sheets import read_sheets
from yisai.game.sgf import SgfError, read_sgf
from yisai.record import Result
from yisai.record.text import clean_text

FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Pieces the fuzzer of the issue used: result words, junk, controls, bidi, emoji, markup, quotes.
PIECES = ["黑", "白", "黑方", "胜", "负", "中盘胜", "弃权", "超时负", "迟到负", "和", "双方弃权", "轮空",
          "bye", "B+", "W+", "R", "T", "F", "2.5", "3/4", "子", "目", "又", "半", "?", "=", "0-0", "-5",
          "abc", "<b>x</b>", "\x1b[31m", "\x1b]0;t\x07", "\u202e", "\u2066", "\U0001f600", "\x00", " ",
          "\t", "\u3000", "\n", '"', ",", "；", "１", "²"]  # fmt: skip
hostile_text = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=6).map("".join)
# Documented words with something before or after them: the prefix reading the issue found.
WORDS = ["黑胜", "白胜", "黑方胜", "黑中盘胜", "白超时负", "黑弃权", "双方弃权", "和", "B+", "W+R", "B+2.5",
         "黑胜3/4子", "轮空", "bye", "?"]  # fmt: skip
near_word = st.tuples(st.sampled_from(["", "", " ", "\x1b[1m", "\u202e"]), st.sampled_from(WORDS),
                      st.sampled_from(PIECES) | st.text(max_size=2)).map("".join)
result_text = near_word | hostile_text

# What a stored result may be (the words of yisai.record.parse, written out independently).
REASON = re.compile(r"|中盘胜|超时判负|弃权|迟到判负|双方弃权|"
                    r"胜(?:(?:\d{1,3}又)?(?:[13]/4|1/2)子|\d{1,3}(?:\.\d{1,2})?[子目]|\d{1,3}目半|半[子目])")


def _stored_results_are_documented(db: str) -> None:
    for g in round_games(db):
        if g.is_bye:
            assert (g.result, g.played) == (Result.BLACK_WINS, False), g
            continue
        assert g.result in (Result.BLACK_WINS, Result.WHITE_WINS, Result.DRAW, Result.BOTH_LOSE,
                            Result.UNKNOWN), g
        assert REASON.fullmatch(g.reason), g
        if g.result is Result.DRAW or g.result is Result.UNKNOWN:
            assert g.reason == "" and g.played, g
        if g.reason in ("弃权", "迟到判负", "双方弃权"):
            assert not g.played, g


@FUZZ
@given(word=result_text)
def test_fuzz_single_result(paired_db: str, word: str) -> None:
    out = run("result", "enter", "-d", "jia", "-r", "1", "-b", "1", "--change", "--", word, db=paired_db)
    assert_clean_exit(out)
    _stored_results_are_documented(paired_db)


@FUZZ
@given(rows=st.lists(st.tuples(st.sampled_from(["1", "2", "", "0", "x", "１", "3", "1_0", "²"]) | hostile_text,
                               result_text), min_size=1, max_size=4),
       quote=st.booleans())
def test_fuzz_result_sheet(paired_db: str, tmp_path: Path, rows: list[tuple[str, str]], quote: bool) -> None:
    lines = ["台次,结果"] + [f"{b},{r}" if not quote else f'"{b}",{r}' for b, r in rows]
    path = tmp_path / "r.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    out = run("result", "import", str(path), "-d", "jia", "-r", "1", "--change", db=paired_db)
    assert_clean_exit(out)
    _stored_results_are_documented(paired_db)


@FUZZ
@given(rows=st.lists(st.tuples(hostile_text, st.sampled_from(["男", "女", "", "男\x1b"]) | hostile_text,
                               st.sampled_from(["2013-05-01", "2014-02-30", ""]) | hostile_text),
                     min_size=1, max_size=4),
       raw=st.binary(max_size=40))
def test_fuzz_roster(paired_db: str, tmp_path: Path, rows: list[tuple[str, str, str]], raw: bytes) -> None:
    cells = [[f"选手{name}", gender, born, "甲组"] for name, gender, born in rows]
    text = "姓名,性别,出生日期,组别\n" + "\n".join(",".join(row) for row in cells)
    path = tmp_path / "p.csv"
    path.write_bytes(text.encode("utf-8", errors="surrogatepass") + raw)
    out = run("player", "import", str(path), db=paired_db, now=IN_TIME)
    assert_clean_exit(out)
    for name in player_names(paired_db):
        assert name == clean_text(name) and name, repr(name)


@FUZZ
@given(name=st.tuples(st.sampled_from(["张三", "Lee", ""]), hostile_text).map("".join))
def test_fuzz_player_name(paired_db: str, name: str) -> None:
    out = run("player", "add", "--name", name, "--gender", "男", "--birth", "2013-05-01", db=paired_db,
              now=IN_TIME)
    assert_clean_exit(out)
    for stored in player_names(paired_db):
        assert stored == clean_text(stored) and stored, repr(stored)


SGF_PIECES = ["(", ")", ";", "(;", "B[aa]", "W[bb]", "B[]", "AB[cc]", "SZ[9]", "SZ[19:19]", "SZ[c2b2]",
              "SZ[ 19]", "SZ[19:19:19]", "SZ[１９]", "SZ[²]", "SZ[0]", "SZ[9][9]", "KM[x]", "C[", "]", "\\", "C[(;)]",
              "CA[GB2312]", "\xe9", "聂卫平"]  # fmt: skip


@FUZZ
@given(pieces=st.lists(st.sampled_from(SGF_PIECES), max_size=20), depth=st.integers(0, 3),
       junk=st.binary(max_size=8))
def test_fuzz_sgf(tmp_path: Path, pieces: list[str], depth: int, junk: bytes) -> None:
    n = (0, 10, 20_000, 200_000)[depth]  # 20,000 and 200,000 pass the nesting and node limits
    data = b"(;FF[4]" + "".join(pieces).encode() + b"(;C[x]" * n + b")" * n + junk + b")"
    path = tmp_path / "g.sgf"
    path.write_bytes(data)
    for command in ("check", "score"):
        out = run("sgf", command, str(path))
        assert_clean_exit(out, (0, 1, 2))
        if out.code == 1:  # 1 is documented for a well-formed record with an illegal move
            assert "illegal" in out.output


@FUZZ
@given(scheme=st.sampled_from(["mysql", "mysql+pymysql", "oracle", "postgres", "postgresql+asyncpg",
                               "postgresql+nodriver", "sqlite+aiosqlite", "SQLITE", "mssql+pyodbc", "", "+",
                               "postgresql", "sqlite"]) | st.text(max_size=8),
       rest=st.sampled_from(["u:pw@127.0.0.1:1/db", "u@h:port/db", "/x.sqlite", "//h/x.sqlite", "", "@@:"]))
def test_fuzz_database_address(tmp_path: Path, scheme: str, rest: str) -> None:
    # postgresql on port 1 of this machine fails to connect at once (no network wait).
    address = f"{scheme}://{rest}"
    out = run("event", "list", db=str(tmp_path / "none") if "\x00" in address else address)
    assert_clean_exit(out)


@FUZZ
@given(data=st.binary(max_size=300))
def test_fuzz_sheet_reader(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(data)
    try:
        read_sheets(path)
    except ValueError as exc:  # SheetError: a message, never csv.Error or a decoding error
        assert type(exc).__name__ == "SheetError", exc


@FUZZ
@given(data=st.binary(max_size=200))
def test_fuzz_sgf_reader(data: bytes) -> None:
    with contextlib.suppress(SgfError):  # a located SgfError is fine; anything else fails
        read_sgf(b"(;" + data + b")")

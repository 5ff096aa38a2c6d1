"""SGF: charsets, every tag this project writes, variations, and errors with offsets (fuzzed)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yisai.game.board import BLACK, WHITE, Reason
from yisai.game.sgf import (
    IllegalRecord,
    SgfError,
    SgfRecord,
    check_result,
    parse_overtime,
    read_sgf,
    replay,
)
from yisai.regulation.rules import PlayRules, TimeControl


def _game(pb: str, extra: str = "") -> str:
    return f"(;GM[1]FF[4]SZ[19]{extra}PB[{pb}]PW[白方];B[pd];W[dp])"


# ----- character sets -------------------------------------------------------------------
def test_utf8_without_ca() -> None:
    record = read_sgf(_game("柯洁").encode("utf-8"))
    assert record.info("PB") == "柯洁" and record.info("PW") == "白方"
    assert record.encoding == "UTF-8"


@pytest.mark.parametrize("codec", ["gb2312", "gbk", "gb18030"])
@pytest.mark.parametrize("ca", ["", "CA[GB2312]", "CA[UTF-8]", "CA[gbk]"])
def test_gb_family_with_or_without_a_truthful_ca(codec: str, ca: str) -> None:
    record = read_sgf(_game("聂卫平", ca).encode(codec))
    assert record.info("PB") == "聂卫平" and record.info("PW") == "白方"
    assert record.encoding == "GB18030"


def test_gbk_trail_bytes_that_look_like_sgf_syntax() -> None:
    # 乚 is 0x81 0x5D in GBK (0x5D is "]") and 乗 is 0x81 0x5C (0x5C is "\").
    data = _game("乚乗").encode("gbk")
    assert b"\x81]" in data
    record = read_sgf(data)
    assert record.info("PB") == "乚乗"
    assert [m.point for m in record.moves] == [(15, 3), (3, 15)]


def test_gb18030_four_byte_character() -> None:
    record = read_sgf(_game("𠀀").encode("gb18030"))
    assert record.info("PB") == "𠀀"


def test_latin1_without_ca_falls_back_to_the_sgf_default() -> None:
    data = b"(;GM[1]FF[4]SZ[19]PB[Ren\xe9];B[pd])"  # "\xe9]" would be one GBK character
    record = read_sgf(data)
    assert record.info("PB") == "René" and record.encoding == "ISO-8859-1"


def test_declared_latin1_is_honoured() -> None:
    record = read_sgf(b"(;CA[ISO-8859-1]SZ[9]PB[Andr\xe9s];B[ee])")
    assert record.info("PB") == "Andrés"


def test_undecodable_bytes_name_the_offset() -> None:
    data = b"(;CA[GB2312]SZ[9]PB[\x80\x80\xff];B[ee])"
    with pytest.raises(SgfError) as exc:
        read_sgf(data)
    assert exc.value.offset == data.index(b"\x80")


# ----- writing and reading every tag -------------------------------------------------------
def test_round_trip_of_every_tag() -> None:
    record = SgfRecord.create(
        PlayRules(),
        black="柯洁",
        white="申真谞",
        black_rank="9段",
        white_rank="9p",
        date="2025-10-01",
        event="山海杯",
        round="3",
        time_control=TimeControl(main_minutes=30, byoyomi_periods=3, byoyomi_seconds=20),
    )
    record.append_move(BLACK, (15, 3), time_left=1795.5, periods_left=3)
    record.append_move(WHITE, (3, 15), time_left=12.25, periods_left=2)
    record.append_move(BLACK, None)
    record.set_result("B+R")
    data = record.to_bytes()
    text = data.decode("utf-8")
    for tag in (
        "FF[4]", "CA[UTF-8]", "RU[Chinese]", "KM[7.5]", "SZ[19]", "PB[柯洁]", "PW[申真谞]",
        "BR[9段]", "WR[9p]", "DT[2025-10-01]", "EV[山海杯]", "RO[3]", "TM[1800]",
        "OT[3x20 byo-yomi]", "RE[B+R]", "BL[1795.5]", "OB[3]", "WL[12.25]", "OW[2]", "B[]",
    ):  # fmt: skip
        assert tag in text, tag
    again = read_sgf(data)
    assert again.komi == 7.5 and again.size == 19 and again.rules == "Chinese"
    assert again.main_time == 1800 and parse_overtime(again.info("OT")) == (3, 20.0)
    assert again.result == "B+R"
    moves = again.moves
    assert [(m.color, m.point) for m in moves] == [
        (BLACK, (15, 3)),
        (WHITE, (3, 15)),
        (BLACK, None),
    ]
    assert (moves[0].time_left, moves[0].periods_left) == (1795.5, 3)
    assert (moves[1].time_left, moves[1].periods_left) == (12.25, 2)


@pytest.mark.parametrize(
    "result",
    [
        "B+R",
        "W+R",
        "W+T",
        "B+T",
        "B+F",
        "W+F",
        "B+2.5",
        "W+0.5",
        "0",
        "Draw",
        "Void",
        "?",
        "B+Resign",
        "W+Time",
    ],
)
def test_every_ending_is_a_valid_result(result: str) -> None:
    assert check_result(result) == result
    record = SgfRecord.create(result=result)
    assert read_sgf(record.to_bytes()).result == result


@pytest.mark.parametrize("bad", ["B+X", "X+R", "B-2", "1-0", "B+2.5.5"])
def test_bad_results_are_refused(bad: str) -> None:
    with pytest.raises(SgfError):
        check_result(bad)


def test_handicap_setup_is_written_and_replayed() -> None:
    record = SgfRecord.create(PlayRules(board_size=9, komi=0.5), handicap=[(2, 6), (6, 2)])
    record.append_move(WHITE, (4, 4))
    board = replay(read_sgf(record.to_bytes()))
    assert board[board.point(2, 6)] == BLACK and board[board.point(4, 4)] == WHITE


def test_variations_are_kept_and_written_back() -> None:
    data = b"(;FF[4]SZ[9](;B[aa];W[bb](;B[cc])(;B[dd]))(;B[ee]C[other line]))"
    record = read_sgf(data)
    assert len(record.root.children) == 2
    assert [m.point for m in record.moves] == [(0, 0), (1, 1), (2, 2)]
    again = read_sgf(record.to_bytes())
    assert len(again.root.children) == 2
    assert again.root.children[1].get("C") == "other line"
    assert len(again.root.children[0].children[0].children) == 2


def test_text_escapes_survive() -> None:
    record = SgfRecord.create(event="A] tricky \\ name")
    assert read_sgf(record.to_bytes()).info("EV") == "A] tricky \\ name"


# ----- errors ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "offset"),
    [
        (b"(;SZ[9];B[aa]", 13),  # end of data before ')'
        (b"(;SZ[9];B[aa", 9),  # value never closed: reported at its '['
        (b"(;SZ[9]W)", 7),  # property with no value
        (b"(;[aa])", 2),  # value with no property name
        (b"(;SZ[9]())", 8),  # empty variation
        (b"(;SZ[9];B[aa]#)", 13),  # junk
        (b"B[aa]", 0),  # no '(;' at all
        ("(;PB[聂卫平];B[aa".encode("gbk"), 14),  # offset counts GBK bytes, not UTF-8 ones
    ],
)
def test_syntax_errors_name_the_byte_offset(data: bytes, offset: int) -> None:
    with pytest.raises(SgfError) as exc:
        read_sgf(data)
    assert exc.value.offset == offset
    assert str(exc.value).startswith(f"字节 {offset}: ")


def test_bad_coordinate_names_the_move() -> None:
    with pytest.raises(SgfError) as exc:
        read_sgf(b"(;SZ[9];B[aa];W[zz])")
    assert exc.value.move == 2 and "第2手" in str(exc.value)


@pytest.mark.parametrize("root", [b"SZ[30]", b"SZ[1]", b"SZ[abc]", b"SZ[9:13]", b"KM[seven]"])
def test_bad_game_info_is_reported(root: bytes) -> None:
    with pytest.raises(SgfError):
        read_sgf(b"(;" + root + b";B[aa])")


def test_illegal_move_message() -> None:
    record = read_sgf(b"(;SZ[9]RU[Chinese];B[aa];W[aa])")
    with pytest.raises(IllegalRecord) as exc:
        replay(record)
    assert str(exc.value) == "第2手 (W a9): 不合法: 该点已有棋子"
    assert exc.value.reason == Reason.OCCUPIED and exc.value.move == 2


def test_rules_from_ru() -> None:
    assert read_sgf(b"(;RU[Japanese])").play_rules().superko == "simple_ko"
    assert read_sgf(b"(;RU[Chinese])").play_rules().superko == "positional"
    assert read_sgf(b"(;RU[NZ])").play_rules().suicide_allowed
    assert read_sgf(b"(;SZ[13]KM[6.5])").play_rules().komi == 6.5


def test_pass_as_tt_on_small_boards() -> None:
    record = read_sgf(b"(;SZ[19];B[tt];W[])")
    assert [m.point for m in record.moves] == [None, None]


# ----- fuzzing: any input gives a record or an SgfError, never another exception ---------
VALID = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]PB[黑]PW[白]RE[B+R];B[ee];W[cc](;B[gg];W[ce])(;B[aa]))".encode()


def _read_and_replay(data: bytes) -> None:
    try:
        record = read_sgf(data)
        replay(record)
        record.to_bytes()
    except SgfError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_fuzz_random_bytes(data: bytes) -> None:
    _read_and_replay(data)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(VALID)), st.integers(0, 3), st.binary(min_size=0, max_size=4)),
        min_size=1,
        max_size=4,
    )
)
def test_fuzz_mutated_records(edits) -> None:
    data = bytearray(VALID)
    for pos, cut, insert in edits:
        pos = min(pos, len(data))
        data[pos : pos + cut] = insert
    _read_and_replay(bytes(data))


SGF_PIECES = st.sampled_from(
    ["(", ")", ";", "B[aa]", "W[bb]", "B[]", "W[tt]", "AB[cc]", "AW[dd]", "AE[cc]", "SZ[9]", "SZ[2]",
     "KM[x]", "KM[7.5]", "B[zz]", "[", "]", "\\", "C[注释]", "AB[aa:cc]", "PL[W]", "OB[x]", "BL[1e400]",
     "SZ[25]", "W[aa]", "B[ab]", "W[ba]"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(SGF_PIECES, max_size=25))
def test_fuzz_sgf_shaped_input(pieces: list[str]) -> None:
    _read_and_replay(("(;" + "".join(pieces)).encode("utf-8"))

"""Hostile SGF: malformed SZ and absurd sizes or nesting (issue 16, items 3 and 4).

SZ is FF[4]'s ``Number`` or ``Number:Number`` (one value; digits, optionally ``+``; 1 to 52 per
dimension, https://www.red-bean.com/sgf/properties.html#SZ); our board is square, 2 to 25.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from yisai.game.sgf import MAX_DEPTH, MAX_NODES, MAX_SGF_BYTES, MAX_VALUES, SgfError, read_sgf
from yisai.i18n import set_language


@pytest.fixture(autouse=True)
def _chinese() -> Iterator[None]:
    set_language("zh")
    yield
    set_language("zh")


MALFORMED_SZ = [
    "c2b2",  # the fuzzer's find: once a ValueError traceback
    "19:x",
    "19:19:19",  # were accepted: three parts …
    " 19",  # … spaces …
    "19: 19",
    "１９",  # … and full-width digits (str.isdigit() says yes)
    "²",  # isdigit() yes, int() no: once a traceback
    "-5",
    "",
    "1e1",
    "19.0",
]


@pytest.mark.parametrize("sz", MALFORMED_SZ)
def test_malformed_sz_is_refused_at_its_byte_offset(sz: str) -> None:
    data = f"(;FF[4]C[a;b]SZ[{sz}];B[aa])".encode()
    with pytest.raises(SgfError) as info:
        read_sgf(data)
    # "(;FF[4]C[a;b]" is 13 bytes: SZ starts at byte 13 (the ';' in the comment is not a node).
    assert info.value.offset == 13
    assert str(info.value).startswith(f"字节 13: SZ[{sz}] 格式不对: 应为一个值")


def test_two_sz_values_are_malformed() -> None:
    with pytest.raises(SgfError) as info:
        read_sgf(b"(;SZ[9][13];B[aa])")
    assert str(info.value).startswith("字节 2: SZ[9][13] 格式不对")


def test_offset_counts_bytes_of_the_original_charset() -> None:
    data = "(;PB[聂卫平]SZ[x])".encode("gbk")  # 聂卫平 is 6 bytes in GBK (9 in UTF-8)
    with pytest.raises(SgfError) as info:
        read_sgf(data)
    assert info.value.offset == 2 + 3 + 6 + 1


@pytest.mark.parametrize(
    ("sz", "message"),
    [
        ("0", "SZ[0] 超出 SGF 允许的范围 1 到 52"),
        ("53", "SZ[53] 超出 SGF 允许的范围 1 到 52"),
        ("19:99", "SZ[19:99] 超出 SGF 允许的范围 1 到 52"),
        ("1", "SZ[1] 无效: 棋盘须为 2 到 25 路的正方形"),  # valid SGF, not a board we play on
        ("26", "SZ[26] 无效: 棋盘须为 2 到 25 路的正方形"),
        ("19:13", "SZ[19:13] 无效: 棋盘须为 2 到 25 路的正方形"),
    ],
)
def test_sizes_out_of_range(sz: str, message: str) -> None:
    with pytest.raises(SgfError) as info:
        read_sgf(f"(;SZ[{sz}])".encode())
    assert str(info.value) == f"字节 2: {message}"


@pytest.mark.parametrize(("sz", "size"), [("9", 9), ("19:19", 19), ("+13", 13), ("013", 13), ("2", 2), ("25", 25)])
def test_well_formed_sizes(sz: str, size: int) -> None:
    assert read_sgf(f"(;SZ[{sz}])".encode()).size == size


def test_a_million_nested_variations_are_refused_quickly() -> None:
    n = 1_000_000
    data = b"(;FF[4]SZ[19]" + b"(;C[x]" * n + b")" * n + b")"
    with pytest.raises(SgfError) as info:
        read_sgf(data)
    # The root's '(' is level 1; variation k opens level k + 1 at byte 13 + 6(k - 1), so level
    # MAX_DEPTH + 1 is variation k = MAX_DEPTH.
    assert info.value.offset == 13 + 6 * (MAX_DEPTH - 1)
    assert f"变化图嵌套超过 {MAX_DEPTH} 层" in str(info.value)


def test_nesting_at_the_limit_is_read_without_recursion() -> None:
    n = MAX_DEPTH - 1  # the root's own '(' is the first level
    data = b"(;FF[4]SZ[9]" + b"(;B[aa]" * 1 + b"(;W[bb]" * (n - 1) + b")" * n + b")"
    record = read_sgf(data)
    assert len(record.main_line()) == n + 1
    assert [m.number for m in record.moves][:2] == [1, 2]


def test_too_many_nodes_or_values_are_refused_at_the_first_one_too_many() -> None:
    nodes = b"(;SZ[9]" + b";C[x]" * MAX_NODES + b")"  # the root plus MAX_NODES
    with pytest.raises(SgfError) as info:
        read_sgf(nodes)
    assert info.value.offset == 7 + 5 * (MAX_NODES - 1) and f"节点超过 {MAX_NODES} 个" in str(info.value)
    values = b"(;SZ[9]C" + b"[x]" * MAX_VALUES + b")"  # SZ[9] is the first value
    with pytest.raises(SgfError) as info:
        read_sgf(values)
    assert info.value.offset == 8 + 3 * (MAX_VALUES - 1) and f"属性值超过 {MAX_VALUES} 个" in str(info.value)


def test_semicolons_and_parentheses_inside_values_do_not_count() -> None:
    comment = b";()" * (MAX_NODES + 1)
    record = read_sgf(b"(;SZ[9]C[" + comment + b"];B[aa])")
    assert len(record.main_line()) == 2


def test_a_file_over_the_byte_limit_is_refused() -> None:
    with pytest.raises(SgfError) as info:
        read_sgf(b"(;C[" + b"x" * MAX_SGF_BYTES + b"])")
    assert "超过上限 20971520 字节 (20 MB)" in str(info.value)


def test_english_message() -> None:
    set_language("en")
    with pytest.raises(SgfError) as info:
        read_sgf(b"(;SZ[c2b2])")
    assert str(info.value).startswith("byte 2: SZ[c2b2] is malformed: one value, a number (SZ[19])")


@pytest.mark.parametrize("km", ["1e308", "-1001", "1000.5"])
def test_absurd_komi_is_refused_at_its_byte_offset(km: str) -> None:
    with pytest.raises(SgfError) as info:
        read_sgf(f"(;SZ[9]KM[{km}];B[aa])".encode())
    assert str(info.value) == f"字节 7: KM[{km}] 超出范围: 贴目须在 -1000 到 1000 目之间"


def test_komi_at_the_bound_is_read() -> None:
    assert read_sgf(b"(;SZ[9]KM[-1000])").komi == -1000

"""OpenGotha XML and EGD h9 files within stated limits (issue 30, item 8): size, line count and
length, element count and nesting; entity declarations ("billion laughs") refused outright.
Each refusal names the file and the limit and comes before the file is read whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hangs import no_hang
from yisai.formats.h9 import H9Error, read_h9
from yisai.formats.limits import (
    MAX_H9_BYTES,
    MAX_H9_LINE_CHARS,
    MAX_H9_LINES,
    MAX_OPENGOTHA_BYTES,
    MAX_OPENGOTHA_DEPTH,
    MAX_OPENGOTHA_ELEMENTS,
)
from yisai.formats.opengotha import OpenGothaError, read_opengotha
from yisai.i18n import set_language
from yisai.services.standings_source import SourceError, load_source


@pytest.fixture(autouse=True)
def _chinese() -> Iterator[None]:
    set_language("zh")
    yield
    set_language("zh")


LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE Tournament [\n<!ENTITY a "lollollollollollollollollollol">\n'
          + b"".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">\n'.encode() for i in range(9))
          + b"]>\n<Tournament><Players><Player name=\"&j;\"/></Players></Tournament>\n")


def _og_refused(data: bytes, path: str = "t.xml") -> str:
    with pytest.raises(OpenGothaError) as info:
        read_opengotha(path, data)
    return str(info.value)


def test_billion_laughs_is_refused_at_its_first_declaration() -> None:
    # Ten levels of ten: 3 × 10^10 bytes if expanded.
    assert _og_refused(LAUGHS) == "t.xml: 第2行: 含有 DOCTYPE 内部声明或实体声明, OpenGotha 不会写出这样的文件, 未读取"


def test_opengothas_own_doctype_is_read(testdata: Path) -> None:
    path = testdata / "opengotha" / "rgf" / "egc2011.xml"
    assert b'<!DOCTYPE Tournament SYSTEM "tournament.dtd">' in path.read_bytes()[:200]
    assert len(read_opengotha(path).players) > 100


def test_deep_nesting_and_too_many_elements_are_refused() -> None:
    deep = b"<Tournament>" + b"<a>" * 100 + b"</a>" * 100 + b"</Tournament>"
    assert _og_refused(deep) == (f"t.xml: 第1行 <a>: 元素嵌套超过 {MAX_OPENGOTHA_DEPTH} 层 (OpenGotha 只嵌套 3 层), 未读取")
    many = b"<Tournament>\n" + b"<Game/>\n" * MAX_OPENGOTHA_ELEMENTS + b"</Tournament>"
    with no_hang():  # refused at the element past the limit: the message says where it stopped
        refused = _og_refused(many)
    assert refused == f"t.xml: 第{MAX_OPENGOTHA_ELEMENTS + 1}行: 元素超过 {MAX_OPENGOTHA_ELEMENTS} 个, 未读取"


def test_an_opengotha_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.xml"
    with path.open("wb") as f:
        f.write(b"<Tournament>")
        f.truncate(MAX_OPENGOTHA_BYTES + 1)  # sparse
    with pytest.raises(SourceError) as info:
        load_source(str(path))
    assert str(info.value) == f"{path}: 文件超过 OpenGotha 文件的上限 20 MB ({MAX_OPENGOTHA_BYTES} 字节), 未读取"


H9_LINE = "1 Rey Jean 2d FR Lill 3 0+ 0+ 0+\n"


def _h9_refused(data: bytes) -> str:
    with pytest.raises(H9Error) as info:
        read_h9("r.h9", data)
    return str(info.value)


def test_a_million_h9_lines_are_refused_at_once() -> None:
    data = (H9_LINE * 1_000_000).encode()  # on main: read line by line, more than 10 s
    with no_hang():  # the byte limit refuses it before a line is read (the message says so)
        message = _h9_refused(data)
    assert message == f"r.h9: 文件超过 h9 文件的上限 5 MB ({MAX_H9_BYTES} 字节), 未读取"
    lines = (H9_LINE[:10] + "\r\n") * (MAX_H9_LINES + 1)  # small enough for the byte limit
    assert len(lines) < MAX_H9_BYTES
    assert _h9_refused(lines.encode()) == f"r.h9: 文件有 {MAX_H9_LINES + 1} 行, 超过 h9 文件的上限 {MAX_H9_LINES} 行, 未读取"


def test_an_overlong_h9_line_is_refused_with_its_number() -> None:
    data = (H9_LINE + "2 Long " + "x" * MAX_H9_LINE_CHARS + " 2d FR Lill 1 0+ 0+ 0+\n").encode()
    assert _h9_refused(data) == (f"r.h9: 第2行: 一行超过 {MAX_H9_LINE_CHARS} 个字符 (一名选手的行不到 500 个字符), 未读取")


def test_an_h9_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.h9"
    with path.open("wb") as f:
        f.write(H9_LINE.encode())
        f.truncate(10 * MAX_H9_BYTES)
    with pytest.raises(H9Error) as info:
        read_h9(path)
    assert str(info.value).startswith(f"{path}: 文件超过 h9 文件的上限 5 MB")


def test_english_messages() -> None:
    set_language("en")
    assert _og_refused(LAUGHS).startswith("t.xml: line 2: a DOCTYPE with declarations or an entity declaration")
    assert _h9_refused(b"x\n" * (MAX_H9_LINES + 1)).startswith(f"r.h9: the file has {MAX_H9_LINES + 1} lines, over")

"""A 规程 given as .docx, as a PDF with a text layer or as GB18030 text drafts the same as the
UTF-8 .txt; a scanned PDF, an image, an old .doc, an oversized or undecodable file is refused
with a message that says why."""

from __future__ import annotations

import json
from pathlib import Path

import docx
import pytest
import typst
from typer.testing import CliRunner

from tests.regulation.draft.flat import shown
from tests.regulation.draft.test_seed_round_trip import seed
from yisai.cli.app import app
from yisai.formats.limits import MAX_REGULATION_SOURCE_BYTES
from yisai.formats.regulation_source import SourceError, read_bytes, unwrap

FONTS = ["/usr/share/fonts/opentype/noto"]


def _typst_pdf(tmp_path: Path, lines: list[str]) -> bytes:
    body = "\n\n".join("#" + json.dumps(line, ensure_ascii=False) for line in lines)
    src = tmp_path / "doc.typ"
    src.write_text('#set page(paper: "a4")\n#set text(font: "Noto Sans CJK SC", size: 10pt, lang: "zh")\n'
                   + body, encoding="utf-8")
    return typst.compile(str(src), font_paths=FONTS)


def _drafted(tmp_path: Path, source: Path) -> dict[str, object]:
    out = tmp_path / f"{source.name}.toml"
    result = CliRunner().invoke(app, ["regulation", "draft", str(source), "-o", str(out), "--id", "x"])
    assert result.exit_code == 0, result.output
    # a PDF puts spaces between Chinese and Latin text; values are compared without whitespace
    return {k: _squeeze(v) for k, v in shown(str(out)).items()}


def _squeeze(v: object) -> object:
    if isinstance(v, str):
        return "".join(v.split())
    if isinstance(v, list):
        return [_squeeze(x) for x in v]
    return v


@pytest.fixture
def text_002() -> str:
    return seed("002_2572b431dc52b55f.txt").read_text(encoding="utf-8")


def test_docx_drafts_the_same_as_txt(tmp_path: Path, text_002: str) -> None:
    document = docx.Document()
    for line in text_002.splitlines():
        document.add_paragraph(line)
    path = tmp_path / "规程.docx"
    document.save(str(path))
    assert _drafted(tmp_path, path) == _drafted(tmp_path, seed("002_2572b431dc52b55f.txt"))


def test_pdf_with_text_layer_drafts_the_same_as_txt(tmp_path: Path, text_002: str) -> None:
    path = tmp_path / "规程.pdf"
    path.write_bytes(_typst_pdf(tmp_path, text_002.splitlines()))
    assert _drafted(tmp_path, path) == _drafted(tmp_path, seed("002_2572b431dc52b55f.txt"))


def test_gb18030_text_drafts_the_same_as_utf8(tmp_path: Path, text_002: str) -> None:
    path = tmp_path / "gbk.txt"
    path.write_bytes(text_002.encode("gb18030"))
    assert _drafted(tmp_path, path) == _drafted(tmp_path, seed("002_2572b431dc52b55f.txt"))


def test_pdf_line_wraps_are_undone() -> None:
    page = ("（二）甲乙丙组个人男、女分别录取前 8 名；若报名人数不足 8 人，按照总人数减 1 录取。颁发奖牌、\n"
            "荣誉证书，奖励相应价值电商卡：\n"
            "1、甲组参赛 6 段（含）以上棋手达到 60 人，授予男女混合排名前两名 7 段（顺延到前 8 名），第三、\n"
            "四、五名 6 段（顺延到前 30 名）；\n"
            "二、支持单位")
    assert unwrap(page).splitlines() == [
        "（二）甲乙丙组个人男、女分别录取前8名；若报名人数不足8人，按照总人数减1录取。颁发奖牌、荣誉证书，奖励相应价值电商卡：",
        "1、甲组参赛6段（含）以上棋手达到60人，授予男女混合排名前两名7段（顺延到前8名），第三、四、五名6段（顺延到前30名）；",
        "二、支持单位",
    ]


def test_scanned_pdf_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "scan.typ"
    src.write_text('#rect(width: 10cm, height: 5cm, fill: gray)\n#pagebreak()\n#circle(radius: 2cm)',
                   encoding="utf-8")
    path = tmp_path / "扫描件.pdf"
    path.write_bytes(typst.compile(str(src), font_paths=FONTS))
    result = CliRunner().invoke(app, ["regulation", "draft", str(path)])
    assert result.exit_code == 2
    assert "没有文字层 (可能是扫描件或图片)" in result.output
    en = CliRunner().invoke(app, ["--lang", "en", "regulation", "draft", str(path)])
    assert "has no text layer (a scan or pictures)" in en.output


@pytest.mark.parametrize(("name", "data", "words"), [
    ("photo.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 100, "这是一张图片"),
    ("规程.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "这是一张图片"),
    ("old.doc", b"\xd0\xcf\x11\xe0" + b"\0" * 100, "另存为 .docx"),
    ("broken.docx", b"PK\x03\x04" + b"\0" * 100, "不是有效的 Word (.docx) 文件"),
    ("broken.pdf", b"%PDF-1.7\n" + b"\0" * 100, "PDF"),
    ("garbage.txt", b"\xff" * 50, "无法识别的文字编码"),
    ("empty.txt", b"   \n", "没有文字"),
])
def test_unreadable_files_are_refused_with_the_reason(name: str, data: bytes, words: str) -> None:
    with pytest.raises(SourceError) as info:
        read_bytes(data, name)
    assert words in info.value.text.zh
    assert name in info.value.text.en


def test_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    with path.open("wb") as f:
        f.truncate(MAX_REGULATION_SOURCE_BYTES + 1)
    result = CliRunner().invoke(app, ["regulation", "draft", str(path)])
    assert result.exit_code == 2
    assert "超过规程文件的上限 20 MB" in result.output

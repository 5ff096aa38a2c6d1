"""The typst layer on its own: long lists paginate with the header on every page, names are
data (never markup), templates ship inside the package, bad input is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.printing.conftest import DemoDb, page_images, pdftotext
from yisai.cli.app import app
from yisai.formats.printing import (
    Column,
    Document,
    PrintError,
    Section,
    Table,
    render_pdf,
    render_png,
)
from yisai.formats.printing.render import TEMPLATE_FILES, template_text


def _doc(rows: list[tuple[str, ...]], **kw: object) -> Document:
    table = Table("参赛名单", (Column("序号", "right"), Column("姓名", share=1), Column("单位", share=1)),
                  tuple(rows))
    return Document(template="report", kind="参赛名单", event="测试赛", title="参赛名单",  # type: ignore[arg-type]
                    printed_at="2025-05-01 09:00", sections=(Section(tables=(table,)),), **kw)  # type: ignore[arg-type]


def test_four_hundred_players_paginate_with_the_header_on_every_page() -> None:
    rows = [(str(i), f"选手{i:03d}", f"第{i % 37}队") for i in range(1, 401)]
    pdf = render_pdf(_doc(rows))
    pages = pdftotext(pdf).split("\f")[:-1]
    # A4 portrait at 9 pt with 15 mm margins holds 40–60 rows: 400 rows need 7–10 pages.
    assert 7 <= len(pages) <= 10
    seen: list[int] = []
    for k, page in enumerate(pages, start=1):
        assert re.search(r"序号\s+姓名\s+单位", page), f"page {k} lacks the table header"
        assert f"第 {k} 页 / 共 {len(pages)} 页".replace(" ", "") in re.sub(r"\s+", "", page)
        seen += [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\s+选手\s*\d{3}", page, re.M)]
    assert seen == list(range(1, 401))  # every row once, in order, none lost at a page break
    page_images(pdf, "render-400-rows", pages=2)


def test_a_long_name_wraps_inside_its_cell() -> None:
    long = "欧阳" + "长" * 60
    pdf = render_pdf(_doc([("1", long, "杭州队"), ("2", "李四", "宁波队")]))
    text = pdftotext(pdf, layout=False)
    assert text.count("长") == 60 and "欧阳" in text  # all of it printed, over several lines
    assert pdftotext(pdf).count("\f") == 1


def test_names_are_data_not_markup() -> None:
    tricky = ['#set text(red)', '*粗* _斜_ $x$', '[a] = b', '\\ ` @ref <lbl> // x', '"引号"']
    pdf = render_pdf(_doc([(str(i), name, "") for i, name in enumerate(tricky, 1)]))
    text = pdftotext(pdf, layout=False)
    for name in tricky:
        assert name in text, name


def test_templates_are_package_resources() -> None:
    for name in TEMPLATE_FILES:
        assert template_text(name).startswith("//"), name
    here = Path(__file__).resolve().parents[2] / "src" / "yisai" / "formats" / "printing" / "templates"
    assert sorted(p.name for p in here.glob("*.typ")) == sorted(TEMPLATE_FILES)


def test_bad_rows_and_backgrounds_are_named() -> None:
    with pytest.raises(ValueError, match="row 1: 2 cells for 3 columns"):
        Table("x", (Column("a"), Column("b"), Column("c")), (("1", "2"),))
    doc = Document(template="certificates", kind="获奖证书", event="e", title="t", printed_at="p")
    with pytest.raises(PrintError, match=r"背景图片须为 \.png/\.jpg/\.jpeg/\.svg"):
        render_pdf(doc, background=Path("bg.gif"))


def test_png_thumbnails_are_the_requested_width() -> None:
    pngs = render_png(_doc([("1", "张三", "杭州队")]), width_px=600)
    assert len(pngs) == 1 and pngs[0].startswith(b"\x89PNG")
    width = int.from_bytes(pngs[0][16:20], "big")  # IHDR width
    assert abs(width - 600) <= 2


def test_cli_print_writes_pdf_and_thumbnail(demo_db: DemoDb, tmp_path: Path) -> None:
    pdf, png = tmp_path / "对阵表.pdf", tmp_path / "pairings.png"
    result = CliRunner().invoke(app, ["print", "对阵表", "1", "--db", str(demo_db.path), "-d", "open",
                                      "-o", str(pdf), "--png", str(png)])
    assert result.exit_code == 0, result.output
    assert pdf.read_bytes().startswith(b"%PDF-") and png.read_bytes().startswith(b"\x89PNG")
    assert "公开组同名次决赛第10轮对阵表" in re.sub(r"\s+", "", pdftotext(pdf.read_bytes()))
    bad = CliRunner().invoke(app, ["print", "海报", "1", "--db", str(demo_db.path)])
    assert bad.exit_code == 2 and "未知的打印种类: 海报" in bad.output
    wrong = CliRunner().invoke(app, ["print", "standings", "1", "--db", str(demo_db.path),
                                     "-o", str(tmp_path / "x.txt")])
    assert wrong.exit_code == 2 and "文件须以 .pdf 结尾" in wrong.output

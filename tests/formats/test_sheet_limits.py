"""Hostile tables: oversized cells, too many rows or columns, unclosed quotes (issue 16, items
2, 5 and 7), and workbooks built to exhaust the reader (issue 30, item 1). Every one is refused
with the line (or sheet and row, or the limit it passes) and nothing is read."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest
import xlsxwriter

from tests.formats import hostile_workbooks as hw
from yisai.formats.limits import (
    MAX_SHARED_STRINGS,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROW,
    MAX_ZIP_ENTRIES,
    MAX_ZIP_ENTRY_BYTES,
    MB,
    SHEET_WORKER_MEMORY,
    SHEET_WORKER_SECONDS,
)
from yisai.formats.result_sheet import read_result_sheet
from yisai.formats.roster import read_roster
from yisai.formats.sheets import MAX_COLUMNS, MAX_ROWS, SheetError, read_sheets
from yisai.i18n import set_language


@pytest.fixture(autouse=True)
def _chinese() -> Iterator[None]:
    set_language("zh")
    yield
    set_language("zh")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_cell_over_the_csv_field_limit_is_refused_with_its_line(tmp_path: Path) -> None:
    huge = "x" * (10 * 1024 * 1024)  # a 10 MB line (Python's csv limit is 131,072 characters)
    path = _write(tmp_path / "r.csv", f"台次,结果\n1,黑胜\n2,{huge}\n")
    with pytest.raises(SheetError) as info:
        read_sheets(path)
    assert str(info.value).startswith(f"第3行: 有一格超过 {csv.field_size_limit()} 个字符")
    # Both importers turn it into a located problem for the file, never csv.Error.
    [issue] = read_result_sheet(path).issues
    assert str(issue).startswith("r.csv: 第3行: 有一格超过")
    roster = _write(tmp_path / "p.csv", f"姓名,性别\n张三,男\n{huge},男\n")
    [problem] = read_roster(roster).issues
    assert str(problem).startswith("p.csv: 第3行: 有一格超过")


def test_the_field_limit_is_not_raised_for_everyone(tmp_path: Path) -> None:
    before = csv.field_size_limit()
    with pytest.raises(SheetError):
        read_sheets(_write(tmp_path / "s.csv", "a\n" + "y" * (before + 1) + "\n"))
    assert csv.field_size_limit() == before


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('台次,结果\n1,黑胜\n2,"白胜\n3,和\n', 3),  # never closed: reported where the quote starts
        ('姓名,性别\n"张三,男\n', 2),
        ('台次,结果\n1,"黑胜"x\n', 2),  # text after a closing quote
    ],
)
def test_broken_quotes_are_refused_with_the_line(tmp_path: Path, text: str, line: int) -> None:
    with pytest.raises(SheetError) as info:
        read_sheets(_write(tmp_path / "q.csv", text))
    assert str(info.value).startswith(f"第{line}行: 引号")


def test_a_quoted_cell_may_span_lines_and_contain_quotes(tmp_path: Path) -> None:
    [sheet] = read_sheets(_write(tmp_path / "ok.csv", '台次,结果,备注\n1,黑胜,"第一行\n第二行 ""引号"""\n2,和,\n'))
    assert sheet.cells == [["台次", "结果", "备注"], ["1", "黑胜", '第一行\n第二行 "引号"'], ["2", "和", ""]]


def _rows_csv(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["台次", "结果"])
        w.writerows([str(i), "黑胜"] for i in range(1, n + 1))
    return path


def test_rows_over_the_limit_are_refused_at_the_first_row_too_many(tmp_path: Path) -> None:
    # MAX_ROWS filled rows including the header: the header + MAX_ROWS - 1 data rows pass …
    [sheet] = read_sheets(_rows_csv(tmp_path / "ok.csv", MAX_ROWS - 1))
    assert len(sheet.cells) == MAX_ROWS
    # … one more does not; 100,000 rows stop at the same line, so nothing further is read.
    for n in (MAX_ROWS, 100_000):
        with pytest.raises(SheetError) as info:
            read_sheets(_rows_csv(tmp_path / f"{n}.csv", n))
        assert str(info.value).startswith(f"第{MAX_ROWS + 1}行: 文件超过 {MAX_ROWS} 行 (含表头) 的上限")


def test_blank_lines_do_not_count(tmp_path: Path) -> None:
    text = "台次,结果\n" + "\n" * (MAX_ROWS + 5) + "1,黑胜\n"
    [sheet] = read_sheets(_write(tmp_path / "b.csv", text))
    assert sheet.cells[-1] == ["1", "黑胜"]


def test_excel_rows_over_the_limit_are_refused_with_sheet_and_row(tmp_path: Path) -> None:
    path = tmp_path / "big.xlsx"
    book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = book.add_worksheet("成绩")
    ws.write_string(0, 0, "比赛标题")  # a title row counts as a filled row
    ws.write_row(1, 0, ["台次", "结果"])
    for r in range(2, MAX_ROWS + 5):
        ws.write_row(r, 0, [str(r - 1), "黑胜"])
    book.close()
    with pytest.raises(SheetError) as info:
        read_sheets(path)
    assert str(info.value).startswith(f"工作表\u201c成绩\u201d第{MAX_ROWS + 1}行: 文件超过 {MAX_ROWS} 行")


def test_too_many_columns_are_refused(tmp_path: Path) -> None:
    wide = ",".join(["x"] * (MAX_COLUMNS + 1))
    with pytest.raises(SheetError) as info:
        read_sheets(_write(tmp_path / "w.csv", f"台次,结果\n{wide}\n"))
    assert str(info.value).startswith(f"第2行: 有 {MAX_COLUMNS + 1} 列, 超过上限 {MAX_COLUMNS} 列")


def test_english_messages(tmp_path: Path) -> None:
    set_language("en")
    with pytest.raises(SheetError) as info:
        read_sheets(_write(tmp_path / "q.csv", '台次,结果\n1,"黑胜\n'))
    assert str(info.value).startswith("line 2: a quote is never closed")


def test_roster_names_are_stored_without_control_characters(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.csv", "姓名,性别,出生日期,队名,领队\n"
                  "\u202e张\x1b[1m三,男,2013-01-01,浙江\x07队,周\u200b领队、吴\x00教练\n")
    roster = read_roster(path)
    assert roster.ok, roster.issues
    [row] = roster.rows
    assert (row.player.name, row.team, row.leaders) == ("张[1m三", "浙江队", ("周领队", "吴教练"))


def test_roster_cells_made_of_controls_or_too_long_are_located(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.csv", "姓名,性别,出生日期\n\x1b\x07,男,2013-01-01\n" + "长" * 101
                  + ",男,2013-01-01\n李四,\x1b[31m男,2013-01-01\n")
    issues = [str(i) for i in read_roster(path).issues]
    assert issues == [
        "p.csv 第2行 A列(姓名): 姓名不能为空",
        "p.csv 第3行 A列(姓名): 姓名超过100个字符, 请检查该格",
        "p.csv 第4行 B列(性别): 无法识别的性别\u201c\\x1b[31m男\u201d, 请填 男 或 女",
    ]


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_any_line_end_reads_the_same(tmp_path: Path, end: str) -> None:
    path = tmp_path / "e.csv"
    path.write_bytes(end.join(["台次,结果", "1,黑胜", '2,"和"', ""]).encode("utf-8"))
    [sheet] = read_sheets(path)
    assert sheet.cells == [["台次", "结果"], ["1", "黑胜"], ["2", "和"]]


# ------------------------------------------------------------------ hostile workbooks (issue 30, item 1)
# calamine allocates the rectangle from A1 to the farthest cell with a value: the probe's 1.6 KB
# file with one cell at XFD1048576 asked for 549,755,813,888 bytes and aborted the process. Each
# file below is refused with the limit it passes, before calamine sees it.

PAST = f"超过上限 (最多 {MAX_COLUMNS} 列、第 {MAX_SHEET_ROW} 行, 从 A1 起最多 {MAX_SHEET_CELLS} 个单元格), 未读取"


def _refused(path: Path) -> str:
    with pytest.raises(SheetError) as info:
        read_sheets(path)
    return str(info.value)


@pytest.mark.parametrize(
    ("rows", "where"),
    [
        (hw.row(1048576, hw.inline("XFD1048576")), "XFD1048576"),  # the probe's file: 549 GB
        (hw.row(1000000, hw.inline("GR1000000")), "GR1000000"),  # 200 columns x 1,000,000 rows: 6.4 GB
        (hw.HEADER + hw.row(1048576, hw.inline("XFD1048576")), "XFD1048576"),
        (hw.HEADER + hw.row(100_001, hw.inline("A100001")), "A100001"),  # one row past MAX_SHEET_ROW
        (hw.HEADER + hw.row(1048576, '<c t="inlineStr"><is><t>x</t></is></c>'), "A1048576"),  # placed by its row
        (hw.HEADER + hw.row(2, *['<c t="inlineStr"><is><t>x</t></is></c>'] * (MAX_COLUMNS + 1)), "GS2"),
        (hw.HEADER + hw.row(99_999_999, hw.inline("A99999999")), "A99999999"),
        (hw.HEADER + "<row r='1048576'><c r='XFD1048576' t='inlineStr'><is><t>x</t></is></c></row>", "XFD1048576"),
        (hw.HEADER + hw.row(20_000, '<c r="CW20000"><v>1</v></c>'), "CW20000"),  # 101 x 20,000 > 2,000,000 cells
    ],
)
def test_a_cell_past_the_limits_is_refused_before_calamine_allocates(tmp_path: Path, rows: str, where: str) -> None:
    path = hw.xlsx(tmp_path / "r.xlsx", rows)
    assert path.stat().st_size < 2000
    assert _refused(path) == (f"工作表\u201c成绩\u201d有内容的单元格 {where}, {PAST};"
                              " 请删除表格以外的内容, 或把表格复制到新的工作簿")


def test_the_probes_files_are_refused_through_both_importers(tmp_path: Path) -> None:
    path = hw.one_cell_at(tmp_path / "probe.xlsx", "XFD1048576")
    [issue] = read_roster(path).issues
    assert str(issue).startswith("probe.xlsx: 工作表\u201c成绩\u201d有内容的单元格 XFD1048576, 超过上限")
    path = hw.one_cell_at(tmp_path / "gr.xlsx", "GR1000000")
    [issue] = read_result_sheet(path).issues
    assert str(issue).startswith("gr.xlsx: 工作表\u201c成绩\u201d有内容的单元格 GR1000000, 超过上限")


def test_cells_without_a_value_and_blank_rows_cost_nothing_and_pass(tmp_path: Path) -> None:
    # Excel writes styled empty cells and rows; calamine skips them, so they are allowed anywhere.
    rows = hw.HEADER + hw.row(2, hw.inline("A2", "1"), hw.inline("B2", "黑胜")) + (
        '<row r="1048576"><c r="XFD1048576" s="1"/></row>')
    [sheet] = read_sheets(hw.xlsx(tmp_path / "ok.xlsx", rows))
    assert sheet.cells == [["台次", "结果"], ["1", "黑胜"]]
    [sheet] = read_sheets(hw.xlsx(tmp_path / "far.xlsx", hw.HEADER + hw.row(MAX_SHEET_ROW, hw.inline(
        f"A{MAX_SHEET_ROW}"))))  # at the limit
    assert len(sheet.cells) == MAX_SHEET_ROW and sheet.cells[-1] == ["x", ""]


def test_a_declared_range_past_the_limits_is_refused(tmp_path: Path) -> None:
    path = hw.xlsx(tmp_path / "d.xlsx", dimension="A1:XFD1048576")
    assert _refused(path).startswith(f"工作表\u201c成绩\u201d声明的范围到 XFD1048576, {PAST}")


def test_a_declared_count_of_shared_strings_past_the_limit_is_refused(tmp_path: Path) -> None:
    # calamine reserves the declared count at once: 4,000,000,000 strings asked for 96 GB.
    sst = (f'<?xml version="1.0"?><sst xmlns="{hw.MAIN}" count="4000000000" uniqueCount="4000000000">'
           "<si><t>x</t></si></sst>")
    path = hw.xlsx(tmp_path / "s.xlsx", '<row r="1"><c r="A1" t="s"><v>0</v></c></row>', shared_strings=sst)
    assert _refused(path) == f"工作簿声明了 4000000000 个字符串, 超过上限 {MAX_SHARED_STRINGS} 个, 未读取"


def test_zip_bombs_are_refused_by_their_sizes(tmp_path: Path) -> None:
    bomb = hw.zip_bomb(tmp_path / "bomb.xlsx", MAX_ZIP_ENTRY_BYTES // MB + 1)
    assert bomb.stat().st_size < 1024 * 1024
    assert _refused(bomb).startswith(
        f"工作簿内的 xl/worksheets/sheet1.xml 解压后有 {MAX_ZIP_ENTRY_BYTES // MB + 1} MB,"
        f" 超过每个部分 {MAX_ZIP_ENTRY_BYTES // MB} MB 的上限, 未读取")
    many = hw.many_entries(tmp_path / "many.xlsx", MAX_ZIP_ENTRIES)
    assert _refused(many).startswith(f"工作簿内有 {MAX_ZIP_ENTRIES + 5} 个文件, 超过上限 {MAX_ZIP_ENTRIES} 个, 未读取")
    # A part that inflates past the size its directory declares stops there: the CRC fails.
    assert _refused(hw.lying_size(tmp_path / "lie.xlsx")).startswith("无法读取Excel文件: 压缩包已损坏 (Bad CRC-32")


def test_xml_tricks_are_refused(tmp_path: Path) -> None:
    doctype = hw.xlsx(tmp_path / "dtd.xlsx", extra={"xl/x.xml": '<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>'})
    assert _refused(doctype) == "工作簿内的 xl/x.xml 含有 DOCTYPE 或实体声明, Excel 不会写出这样的文件, 未读取"
    escaped = hw.xlsx(tmp_path / "esc.xlsx", hw.row(1, '<c r="&#88;FD1" t="inlineStr"><is><t>x</t></is></c>'))
    assert _refused(escaped).startswith("无法读取Excel文件: 工作簿内的 xl/worksheets/sheet1.xml 有无法识别的内容 r=")


@pytest.mark.parametrize(
    ("rows", "where"),
    [
        # repeated rows (LibreOffice writes them), then a value: calamine fills them all
        (hw.ODS_HEADER + '<table:table-row table:number-rows-repeated="1048574"><table:table-cell/>'
         f"</table:table-row><table:table-row>{hw.ODS_CELL}</table:table-row>", "A1048576"),
        (f'<table:table-row table:number-rows-repeated="1000000">{hw.ODS_CELL}</table:table-row>', "A1000000"),
        ('<table:table-row><table:table-cell office:value-type="string" table:number-columns-repeated="16384">'
         "<text:p>x</text:p></table:table-cell></table:table-row>", "XFD1"),
    ],
)
def test_ods_repeats_past_the_limits_are_refused(tmp_path: Path, rows: str, where: str) -> None:
    assert _refused(hw.ods(tmp_path / "r.ods", rows)).startswith(f"工作表\u201c成绩\u201d有内容的单元格 {where}, {PAST}")


def test_ods_trailing_empty_repeats_are_read(tmp_path: Path) -> None:
    rows = (hw.ODS_HEADER + '<table:table-row table:number-rows-repeated="1048575">'
            '<table:table-cell table:number-columns-repeated="16384"/></table:table-row>')
    [sheet] = read_sheets(hw.ods(tmp_path / "ok.ods", rows))
    assert sheet.cells == [["台次", "结果"]]


def test_an_xls_calamine_would_fill_to_a_gigabyte_is_refused_by_the_readers_memory_limit(tmp_path: Path) -> None:
    # BIFF cannot be checked before reading: the reading process's address space limit stops it.
    assert _refused(hw.xls_corner(tmp_path / "corner.xls")) == (
        f"读取该文件需要超过 {SHEET_WORKER_MEMORY // MB} MB 内存或 {SHEET_WORKER_SECONDS} 秒, 已拒绝, 未读取;"
        " 文件可能已损坏, 或含有表格以外的大量内容; 请把表格复制到新的工作簿再保存")


def test_hostile_workbook_messages_in_english(tmp_path: Path) -> None:
    set_language("en")
    assert _refused(hw.one_cell_at(tmp_path / "p.xlsx", "XFD1048576")).startswith(
        f"sheet \u201c成绩\u201d has a filled cell at XFD1048576, past the limits (at most {MAX_COLUMNS} columns,"
        f" row {MAX_SHEET_ROW}, {MAX_SHEET_CELLS} cells from A1); nothing was read")


def test_docs_state_every_limit_with_its_value() -> None:
    from tests.conftest import ROOT
    from yisai.formats import limits

    doc = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    section = doc[doc.index("### 上传与导入文件的上限 / Limits on files"):doc.index("\n## Tests")]
    rows = {line.split("`")[1]: line for line in section.splitlines() if line.startswith("| ") and "`" in line}
    names = [n for n in limits.__all__ if n.isupper() and n != "MB"] + list(limits._CORE)
    for name in names:
        value = getattr(limits, name)
        shown = f"{value // limits.MB} MB" if value % limits.MB == 0 and value >= limits.MB else str(value)
        assert name in rows and shown in rows[name], (name, shown)


def test_a_sheet_stored_under_another_name_is_scanned_too(tmp_path: Path) -> None:
    # calamine follows the workbook's relationships to any part name and reads it as XML.
    rows = hw.HEADER + hw.row(1048576, hw.inline("XFD1048576"))
    path = hw.xlsx(tmp_path / "dat.xlsx", rows, part="worksheets/sheet1.dat")
    assert _refused(path).startswith(f"工作表\u201c成绩\u201d有内容的单元格 XFD1048576, {PAST}")
    [sheet] = read_sheets(hw.xlsx(tmp_path / "ok.xlsx", part="worksheets/sheet1.dat"))
    assert sheet.cells == [["台次", "结果"]]

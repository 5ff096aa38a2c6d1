"""Hostile tables: oversized cells, too many rows or columns, unclosed quotes (issue 16, items
2, 5 and 7). Every one is refused with the line (or sheet and row) and nothing is read."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest
import xlsxwriter

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

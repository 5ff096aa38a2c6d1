"""Result sheets as files: written, read back, and every bad cell named by sheet/row/column."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import xlsxwriter

from yisai.formats.result_sheet import (
    SheetLine,
    read_result_sheet,
    write_result_sheet,
)
from yisai.record import Result
from yisai.record.groups import group_id
from yisai.record.parse import parse_result, result_word

# Every way a referee writes a result that the ledger keeps apart (parse_result's vocabulary).
WORDS = [
    "黑胜", "白胜", "黑中盘胜", "白中盘胜", "黑胜1/4子", "白胜2.5目", "B+R", "W+T", "B+2.5", "W+",
    "和", "=", "黑弃权", "白弃权", "B+F", "双方弃权", "0-0", "黑超时负", "白超时负", "黑迟到负",
    "白迟到负", "轮空",
]  # fmt: skip


@pytest.mark.parametrize("word", WORDS)
def test_result_word_reads_back_as_the_same_result(word: str) -> None:
    parsed = parse_result(word)
    again = parse_result(result_word(parsed.result, parsed.played, parsed.reason, parsed.bye))
    assert again == parsed


def test_result_words_a_referee_recognises() -> None:
    # Hand-written expectations: the loser is named for forfeits, lateness and time losses.
    assert result_word(Result.WHITE_WINS, False, "弃权") == "黑弃权"
    assert result_word(Result.BLACK_WINS, True, "超时判负") == "白超时负"
    assert result_word(Result.BLACK_WINS, False, "迟到判负") == "白迟到负"
    assert result_word(Result.WHITE_WINS, True, "中盘胜") == "白中盘胜"
    assert result_word(Result.UNKNOWN, True, "") == ""


def test_group_names_people_write() -> None:
    assert [group_id(t) for t in ("A", "a", "A组", " B组 ", "同名次决赛", "决赛", "final")] == [
        "A", "A", "A", "B", "final", "final", "final"]  # fmt: skip


LINES = [
    SheetLine(1, "", "张三", "李四", "黑胜"),
    SheetLine(2, "", "王五", "赵六", ""),
    SheetLine(None, "", "孙七", "", "轮空"),
]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_written_sheet_reads_back(tmp_path: Path, suffix: str) -> None:
    path = write_result_sheet(tmp_path / f"r1{suffix}", "测试赛 第1轮 成绩登记表", LINES)
    sheet = read_result_sheet(path)
    assert sheet.issues == [] and sheet.warnings == []
    got = [(r.board, r.group, r.black, r.white, r.result_text) for r in sheet.rows]
    assert got == [(1, "", "张三", "李四", "黑胜"), (2, "", "王五", "赵六", ""), (None, "", "孙七", "(轮空)", "轮空")]
    assert sheet.rows[2].is_bye and not sheet.rows[0].is_bye
    # The xlsx has a title above the header: data starts on row 3, the CSV's on row 2.
    assert sheet.rows[0].row == (3 if suffix == ".xlsx" else 2)


def test_unsupported_output_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.xlsx 或 \.csv"):
        write_result_sheet(tmp_path / "r1.xls", "t", LINES)


def _csv(path: Path, rows: list[list[str]], encoding: str = "utf-8") -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def test_gb18030_csv_with_other_headers_and_numbers_from_excel(tmp_path: Path) -> None:
    path = _csv(tmp_path / "成绩.csv", [["序号", "台号", "执黑", "执白", "成绩", "备注"],
                                        ["1", "1", "张三", "李四", "B+R", ""]], "gb18030")  # fmt: skip
    sheet = read_result_sheet(path)
    assert sheet.issues == [] and sheet.warnings == []
    [row] = sheet.rows
    assert (row.board, row.black, row.white, row.result_text) == (1, "张三", "李四", "B+R")
    assert row.columns == {"board": "B(台号)", "black": "C(执黑)", "white": "D(执白)", "result": "E(成绩)"}


def test_xlsx_numbers_and_several_sheets(tmp_path: Path) -> None:
    path = tmp_path / "r.xlsx"
    book = xlsxwriter.Workbook(str(path))
    a = book.add_worksheet("A组")
    a.write_row(0, 0, ["台次", "分组", "结果"])
    a.write_row(1, 0, [1.0, "A", "黑胜"])  # Excel keeps board numbers as floats
    b = book.add_worksheet("B组")
    b.write_row(0, 0, ["说明: 请用黑色笔填写"])
    b.write_row(2, 0, ["台次", "分组", "结果"])
    b.write_row(3, 0, [1, "B", "白胜"])
    book.close()
    sheet = read_result_sheet(path)
    assert sheet.issues == []
    assert [(r.sheet, r.row, r.board, r.group) for r in sheet.rows] == [("A组", 2, 1, "A"), ("B组", 4, 1, "B")]


def test_xls_is_read(tmp_path: Path) -> None:
    xlwt = pytest.importorskip("xlwt")
    book = xlwt.Workbook(encoding="utf-8")
    ws = book.add_sheet("第1轮")
    for c, h in enumerate(["台次", "黑方", "白方", "结果"]):
        ws.write(0, c, h)
    for c, v in enumerate([3, "张三", "李四", "和"]):
        ws.write(1, c, v)
    book.save(str(tmp_path / "r.xls"))
    sheet = read_result_sheet(tmp_path / "r.xls")
    assert sheet.issues == [] and [(r.board, r.result_text) for r in sheet.rows] == [(3, "和")]


def test_bad_cells_are_named_by_file_sheet_row_and_column(tmp_path: Path) -> None:
    path = _csv(tmp_path / "r.csv", [["台次", "黑方", "白方", "结果"],
                                     ["1", "张三", "李四", "黑赢了"],
                                     ["二", "王五", "赵六", "白胜"],
                                     ["0", "", "", "和"]])  # fmt: skip
    sheet = read_result_sheet(path)
    text = [str(i) for i in sheet.issues]
    assert text[0].startswith("r.csv:r.csv:2:D(结果): 无法识别的成绩“黑赢了” (允许: 黑胜/白胜")
    assert text[1] == "r.csv:r.csv:3:A(台次): 台次“二”不是正整数 (应填本轮的台次, 如 1、2、3; 轮空行可留空)"
    assert text[2].startswith("r.csv:r.csv:4:A(台次): 台次“0”")
    assert len(text) == 3 and len(sheet.rows) == 3  # rows are kept so the service can check the rest


def test_file_level_problems(tmp_path: Path) -> None:
    no_result = _csv(tmp_path / "a.csv", [["台次", "黑方"], ["1", "张三"]])
    assert [str(i) for i in read_result_sheet(no_result).issues] == [
        "a.csv:a.csv:1:: 缺少“结果”列 (表头须有: 台次、分组、黑方、白方、结果; 分组、黑方、白方可省略)"]
    no_header = _csv(tmp_path / "b.csv", [["姓名", "成绩"], ["张三", "黑胜"]])
    assert [str(i) for i in read_result_sheet(no_header).issues] == [
        "b.csv:b.csv:1:: 找不到表头行: 前10行中须有一行包含“台次”和“结果”"]
    twice = _csv(tmp_path / "c.csv", [["台次", "结果", "成绩"], ["1", "黑胜", "白胜"]])
    assert [str(i) for i in read_result_sheet(twice).issues] == [
        "c.csv:c.csv:1:C(成绩): 与B列重复 (每列只能出现一次, 请删除其中一列)"]
    (tmp_path / "d.pdf").write_bytes(b"%PDF")
    assert [str(i) for i in read_result_sheet(tmp_path / "d.pdf").issues] == [
        "d.pdf: 不支持的文件类型.pdf: 请使用 .xlsx、.xls 或 .csv"]
    (tmp_path / "e.xlsx").write_bytes(b"not a zip")
    [issue] = read_result_sheet(tmp_path / "e.xlsx").issues
    assert str(issue).startswith("e.xlsx: 无法读取Excel文件: ")
    assert str(read_result_sheet(tmp_path / "missing.csv").issues[0]).startswith("missing.csv: 无法读取")

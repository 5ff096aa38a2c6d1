"""Reading rosters: every format, Chinese headers, and bad rows named by sheet, row and column."""

from __future__ import annotations

from datetime import date

import pytest

from tests.conftest import REGULATIONS
from tests.formats.roster_files import HEADERS, write_csv, write_xls, write_xlsx, xqw_rows
from yisai.formats.regulation_file import load
from yisai.formats.roster import read_roster
from yisai.formats.template import template_columns, write_roster_template
from yisai.registry.person import Gender
from yisai.regulation import Regulation
from yisai.vocabulary.rank import Rank


@pytest.fixture(scope="module")
def xqw() -> Regulation:
    return load(REGULATIONS / "2025-xiaoqiwang.toml")


def _check_good(roster, xqw_expected=xqw_rows()) -> None:  # type: ignore[no-untyped-def]
    assert roster.issues == []
    assert len(roster.rows) == 6
    first = roster.rows[0]
    assert first.player.name == "陈浩然" and first.player.gender is Gender.MALE
    assert first.player.birth_date == date(2013, 4, 12)
    assert first.player.id_number == xqw_expected[0][4]
    assert first.player.rank == Rank.dan(5)
    assert first.player.phone == "13800000001"
    assert first.division == "jia" and first.team == "浙江队"
    assert first.leaders == ("周领队",) and first.coaches == ("吴教练",)
    assert [r.division for r in roster.rows] == ["jia", "jia", "yi", "yi", "bing", "bing"]


def test_xlsx_with_a_title_row_above_the_headers(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    path = write_xlsx(tmp_path / "r.xlsx", xqw_rows(), title_rows=1)
    roster = read_roster(path, xqw)
    _check_good(roster)
    assert roster.rows[0].row == 3 and roster.rows[0].sheet == "报名表"


def test_legacy_xls(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    _check_good(read_roster(write_xls(tmp_path / "r.xls", xqw_rows()), xqw))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gb18030"])
def test_csv_encodings(tmp_path, xqw: Regulation, encoding: str) -> None:  # type: ignore[no-untyped-def]
    _check_good(read_roster(write_csv(tmp_path / "r.csv", xqw_rows(), encoding), xqw))


def test_numbers_stored_by_excel_come_back_as_text(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[0][10] = 13800000001  # phone typed as a number
    rows[0][6] = 2024001  # certificate number typed as a number
    roster = read_roster(write_xlsx(tmp_path / "r.xlsx", rows), xqw)
    assert roster.issues == []
    assert roster.rows[0].player.phone == "13800000001"
    assert roster.rows[0].player.certificate_no == "2024001"


def test_id_numbers_excel_turned_into_numbers_are_reported(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    roster = read_roster(write_xlsx(tmp_path / "r.xlsx", rows, numeric_ids=True), xqw)
    # Excel keeps 15 significant digits: every 18-digit number without X loses its tail.
    numeric = [r for r in rows if r[4].isdigit()]
    assert len(roster.issues) == len(numeric) > 0
    issue = roster.issues[0]
    assert (issue.sheet, issue.column, issue.header) == ("报名表", "E", "身份证号")
    assert "身份证号被Excel存成了数字" in issue.message and "请把该列设为文本格式" in issue.message


def test_bad_rows_are_named_by_sheet_row_and_column(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[1][2] = "未知"  # 性别 (C) on sheet row 3
    rows[2][4] = rows[2][4][:-1] + ("0" if rows[2][4][-1] != "0" else "1")  # 身份证号 (E) row 4
    rows[3][3] = "2015-02-30"  # 出生日期 (D) row 5
    rows[4][5] = "十段"  # 段位 (F) row 6
    rows[5][11] = "丁组"  # 组别 (L) row 7
    roster = read_roster(write_xlsx(tmp_path / "bad.xlsx", rows), xqw)
    where = [(i.sheet, i.row, i.column, i.header) for i in roster.issues]
    assert where == [
        ("报名表", 3, "C", "性别"),
        ("报名表", 4, "E", "身份证号"),
        ("报名表", 5, "D", "出生日期"),
        ("报名表", 6, "F", "段位"),
        ("报名表", 7, "L", "组别"),
    ]
    text = [str(i) for i in roster.issues]
    assert text[0] == "报名表 第3行 C列(性别): 无法识别的性别“未知”, 请填 男 或 女"
    assert "校验位错误" in text[1]
    assert "2015-02-30不是存在的日期" in text[2]
    assert text[4].endswith("没有名为“丁组”的组别, 可选: 甲组、乙组、丙组")
    assert len(roster.rows) == 1  # only the untouched first row parsed


def test_cross_checks_against_the_id_number(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[0][2] = "女"
    rows[1][3] = "2014-07-02"
    roster = read_roster(write_csv(tmp_path / "r.csv", rows, "utf-8"), xqw)
    assert [str(i) for i in roster.issues] == [
        "r.csv 第2行 C列(性别): 性别女与身份证号(第17位表示男)不一致",
        "r.csv 第3行 D列(出生日期): 出生日期2014-07-02与身份证号中的2014-07-01不一致",
    ]


def test_duplicate_person_in_one_file(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows.append(list(rows[0]))
    roster = read_roster(write_csv(tmp_path / "r.csv", rows, "utf-8"), xqw)
    assert [str(i) for i in roster.issues] == [
        f"r.csv 第8行: 身份证号{rows[0][4]}与第2行重复, 请删除其中一行"
    ]


def test_missing_headers_and_unknown_columns(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    path = write_csv(tmp_path / "r.csv", [["a", "b"]], "utf-8", headers=["名单", "其他"])
    roster = read_roster(path, xqw)
    assert [str(i) for i in roster.issues] == [
        "r.csv 第1行: 找不到表头行: 前10行中须有一行包含“姓名”等列名"
    ]
    path = write_csv(tmp_path / "s.csv", [["甲", "男", "x"]], "utf-8", headers=["姓名", "性别", "爱好"])
    roster = read_roster(path, xqw)
    assert roster.issues == [] and roster.warnings == ["s.csv C列“爱好”不是已知列名, 已忽略"]


def test_unsupported_and_unreadable_files(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "r.pdf").write_bytes(b"%PDF")
    assert "不支持的文件类型.pdf" in str(read_roster(tmp_path / "r.pdf", xqw).issues[0])
    (tmp_path / "r.xlsx").write_bytes(b"not a zip")
    assert "无法读取Excel文件" in str(read_roster(tmp_path / "r.xlsx", xqw).issues[0])
    assert "无法读取" in str(read_roster(tmp_path / "none.csv", xqw).issues[0])


def test_template_columns_follow_the_regulation(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    import openpyxl

    cols = template_columns(xqw)
    # seed 002: certificate required, amateurs only, mainland only, provincial teams in slots.
    for needed in ("证书编号", "职业身份", "地区", "队名", "席位", "领队", "教练"):
        assert needed in cols
    assert "已缴费" not in cols  # 参赛棋手免收赛事服务费
    path = write_roster_template(xqw, tmp_path / "t.xlsx")
    ws = openpyxl.load_workbook(path)["报名表"]
    assert [c.value for c in ws[1]] == cols
    validations = {str(dv.sqref).split(":")[0]: dv.formula1 for dv in ws.data_validations.dataValidation}
    letter = {h: openpyxl.utils.get_column_letter(i + 1) for i, h in enumerate(cols)}
    assert validations[f"{letter['性别']}2"] == '"男,女"'
    assert validations[f"{letter['组别']}2"] == '"甲组,乙组,丙组"'
    assert "甲组男" in validations[f"{letter['席位']}2"]
    for text_col in ("身份证号", "手机", "证书编号"):
        assert ws.column_dimensions[letter[text_col]].number_format == "@"
    # The template reads back as an empty, valid roster.
    roster = read_roster(path, xqw)
    assert roster.issues == [] and roster.rows == [] and roster.warnings == []


def test_headers_constant_matches_what_the_reader_knows() -> None:
    from yisai.formats.roster import header_key

    assert all(header_key(h) for h in HEADERS if h != "序号")


def test_a_column_without_a_header_is_refused_not_dropped(tmp_path, xqw: Regulation) -> None:  # type: ignore[no-untyped-def]
    # Header cells A1:B1 merged: B1 reads as blank, yet B2 holds the gender "男". Dropping column B
    # silently would blame row 2 for an empty gender; the header cell B1 itself is what to fix.
    path = write_csv(tmp_path / "m.csv", [["甲", "男", "2015-03-01"]], "utf-8", headers=["姓名", "", "出生日期"])
    roster = read_roster(path, xqw)
    assert [str(i) for i in roster.issues] == [
        "m.csv 第1行 B列: 列名为空, 但下方各行有内容 (合并的表头单元格常会这样); 请在此格填写列名, 或删除该列的内容",
        "m.csv 第1行: 须有\u201c性别\u201d或\u201c身份证号\u201d列",  # only 姓名 and 出生日期 are known
    ]
    # A blank header over an empty column (a spacer) is harmless and stays silent.
    path = write_csv(tmp_path / "s.csv", [["甲", "", "男"]], "utf-8", headers=["姓名", "", "性别"])
    assert read_roster(path, xqw).issues == []

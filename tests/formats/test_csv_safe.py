"""CSV exports never hand a spreadsheet a formula: a cell starting with = + - @ is written with
a leading ', a plain number is left as it is, and a result sheet reads its own guard back."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from yisai.formats import csv_safe, fees_export
from yisai.formats.result_sheet import SheetLine, read_result_sheet, write_result_sheet
from yisai.registry.ledger import ENTRY, Line, totals


def test_formula_cells_get_a_quote_and_numbers_do_not() -> None:
    assert csv_safe.guard('=HYPERLINK("http://x","点我")') == '\'=HYPERLINK("http://x","点我")'
    assert [csv_safe.guard(c) for c in ("+1+1", "-2+3", "@SUM(A1)", "\tx", "张三")] == \
        ["'+1+1", "'-2+3", "'@SUM(A1)", "'\tx", "张三"]
    assert [csv_safe.guard(c) for c in ("-12.50", "+3", "-7", 5, None)] == ["-12.50", "+3", "-7", 5, None]
    assert csv_safe.unguard("'=1+1") == "=1+1" and csv_safe.unguard("'张三") == "'张三"


def test_the_fee_export_guards_a_players_name_and_keeps_a_negative_balance() -> None:
    # paid 300元 of a 260元 due: balance 26000 - 30000 = -4000 分 = -40.00元, a number, not a formula
    lines = [Line(ENTRY, 1, "=cmd|' /C calc'!A0", 26_000, 30_000, 0)]
    rows = list(csv.reader(io.StringIO(fees_export.to_csv(lines, totals(lines)))))
    assert rows[1][2].startswith("'=cmd")
    assert "-40.00" in rows[1]


def test_a_result_sheet_reads_back_a_guarded_name(tmp_path: Path) -> None:
    path = write_result_sheet(tmp_path / "r.csv", "第1轮", [SheetLine(1, "", "=张三", "@李四", "黑胜")])
    raw = path.read_text(encoding="utf-8-sig")
    assert "'=张三" in raw and "'@李四" in raw
    (row,) = read_result_sheet(path).rows
    assert (row.black, row.white, row.result_text) == ("=张三", "@李四", "黑胜")

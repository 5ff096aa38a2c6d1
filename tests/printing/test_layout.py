"""Column widths estimated from the cells (hand-computed expectations)."""

from __future__ import annotations

import pytest

from yisai.formats.printing import Column, Table
from yisai.formats.printing.layout import line_width_pt, table_layout, text_em


def test_text_width_estimate() -> None:
    assert text_em("李四") == 2.0
    assert text_em("12.5") == pytest.approx(2.4)  # four narrow characters of 0.6 em
    assert text_em("10级") == pytest.approx(2.45)  # 0.6 + 0.6 + 1 + the CJK–Latin quarter em


def test_spare_width_goes_to_the_shared_columns() -> None:
    t = Table("", (Column("名次", "right"), Column("姓名", share=1)), (("1", "张三"),))
    lay = table_layout(t, landscape=False)
    avail = (210 - 30) * 72 / 25.4  # A4 portrait minus 15 mm margins, in pt
    assert line_width_pt(False) == pytest.approx(avail)
    assert lay.size == 9.0
    # 名次: header 2 em × 9 pt + insets 8 pt + 1 pt = 27 pt; 姓名 takes the rest of the line.
    assert lay.widths == pytest.approx((27.0, avail - 27.0), abs=0.01)


def test_too_wide_long_columns_share_one_width_and_short_ones_keep_theirs() -> None:
    long = "长" * 80  # 80 em × 9 pt = 720 pt, more than the 510 pt line
    t = Table("", (Column("名次"), Column("说明"), Column("备注")), (("1", long, long),))
    lay = table_layout(t, landscape=False)
    avail = line_width_pt(False)
    assert lay.widths[0] == pytest.approx(27.0)
    assert lay.widths[1] == lay.widths[2] == pytest.approx((avail - 27.0) / 2, abs=0.01)

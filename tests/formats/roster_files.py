"""Helpers that write roster files the way real users' tools do (Excel, WPS, old .xls, CSV)."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path
from typing import Any

import xlsxwriter

from tests.idnumbers import make_id_number
from yisai.registry.person import Gender

HEADERS = ["序号", "姓名", "性别", "出生日期", "身份证号", "段位", "证书编号", "省份", "城市", "单位", "手机", "组别", "队名", "领队", "教练"]


def xqw_rows() -> list[list[Any]]:
    """Seed 002: one complete provincial team (甲乙丙 × 男女) from 浙江 with leader and coach."""
    spec = [
        ("陈浩然", Gender.MALE, date(2013, 4, 12), "5段", "甲组"),
        ("林雨欣", Gender.FEMALE, date(2014, 7, 1), "3段", "甲组"),
        ("王子轩", Gender.MALE, date(2016, 2, 29), "2段", "乙组"),
        ("张一诺", Gender.FEMALE, date(2015, 11, 30), "1段", "乙组"),
        ("刘宇航", Gender.MALE, date(2018, 9, 9), "5级", "丙组"),
        ("赵可馨", Gender.FEMALE, date(2019, 1, 15), "10级", "丙组"),
    ]
    rows = []
    for i, (name, g, born, rank, division) in enumerate(spec, start=1):
        rows.append([
            i, name, g.label, born.isoformat(), make_id_number("330282", born, i, g), rank,
            f"ZJ{2024000 + i}", "浙江省", "宁波", "慈溪市实验小学", f"1380000{i:04d}", division,
            "浙江队", "周领队", "吴教练",
        ])  # fmt: skip
    return rows


def team_rows(team: str, province: str, city: str, area: str, seq: int = 1,
              count: int = 6) -> list[list[Any]]:
    """Another seed-002 team shaped like ``xqw_rows`` (甲乙丙 × 男女) with people of its own: names
    ``浙江1号`` …, ID numbers from the area code (sequence ``seq * 10 + i``, so teams with
    different ``seq`` never share one), certificate numbers, place, team name, leader and coach."""
    rows = []
    for i, row in enumerate(xqw_rows()[:count], start=1):
        born = date.fromisoformat(row[3])
        gender = Gender.MALE if row[2] == Gender.MALE.label else Gender.FEMALE
        row = list(row)
        row[1] = f"{team[:-1]}{i}号"
        row[4] = make_id_number(area, born, seq * 10 + i, gender)
        row[6] = f"{area}{i}"
        row[7], row[8], row[12] = province, city, team
        row[13], row[14] = f"{team[:-1]}领队", f"{team[:-1]}教练"
        rows.append(row)
    return rows


def write_xlsx(path: Path, rows: list[list[Any]], *, sheet: str = "报名表", title_rows: int = 0,
               headers: list[str] = HEADERS, numeric_ids: bool = False) -> Path:  # fmt: skip
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet(sheet)
    for r in range(title_rows):
        ws.write(r, 0, "2025“银边庙山杯”首届中国围棋小棋王大赛报名表")
    ws.write_row(title_rows, 0, headers)
    id_col = headers.index("身份证号") if "身份证号" in headers else -1
    for r, row in enumerate(rows, start=title_rows + 1):
        for c, value in enumerate(row):
            if c == id_col and numeric_ids and str(value).isdigit():
                ws.write_number(r, c, int(value))
            else:
                ws.write_string(r, c, str(value)) if isinstance(value, str) else ws.write(r, c, value)
    book.close()
    return path


def write_xls(path: Path, rows: list[list[Any]], headers: list[str] = HEADERS) -> Path:
    import xlwt

    book = xlwt.Workbook(encoding="utf-8")
    ws = book.add_sheet("报名表")
    for c, h in enumerate(headers):
        ws.write(0, c, h)
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            ws.write(r, c, value)
    book.save(str(path))
    return path


def write_csv(path: Path, rows: list[list[Any]], encoding: str, headers: list[str] = HEADERS) -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        w = csv.writer(f)
        w.writerow(headers)
        w.writerows(rows)
    return path

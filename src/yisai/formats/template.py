"""报名表模板: an .xlsx roster template shaped by the regulation, which the importer reads back.

Only the columns the regulation needs are included (证书编号 when a certificate is required,
队名/领队/教练 when there are teams ...). Drop-downs keep 性别/组别/段位 spelt the way the importer
expects, and ID/phone columns are text so Excel cannot turn them into rounded numbers.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import xlsxwriter

from yisai.registry.eligibility import window_text
from yisai.regulation import Regulation

RANKS = [f"{k}级" for k in range(25, 0, -1)] + [f"{d}段" for d in range(1, 9)]
DATA_ROWS = 1000
SHEET = "报名表"


def template_columns(regulation: Regulation) -> list[str]:
    """Headers in order; every one is a header ``formats.roster`` understands."""
    rules = [d.eligibility for d in regulation.divisions]
    cols = ["姓名", "性别", "出生日期", "身份证号", "段位"]
    if any(r.certificate_required for r in rules):
        cols.append("证书编号")
    if any(r.professionals != "allowed" for r in rules):
        cols.append("职业身份")
    if any(r.regions or r.region_notes for r in rules):
        cols.append("地区")
    cols += ["省份", "城市", "单位", "手机", "组别"]
    if regulation.teams is not None:
        cols.append("队名")
        if regulation.teams.slots:
            cols.append("席位")
        cols += ["领队", "教练"]
    if any(item.amount > 0 for item in regulation.fees.items):
        cols.append("已缴费")
    return cols


def _choices(regulation: Regulation) -> dict[str, list[str]]:
    choices = {
        "性别": ["男", "女"],
        "组别": [d.name for d in regulation.divisions],
        "段位": RANKS,
        "职业身份": ["业余", "当年新定段职业", "职业"],
        "地区": ["中国大陆", "香港", "澳门", "台湾", "国外"],
        "已缴费": ["是", "否"],
    }
    if regulation.teams is not None and regulation.teams.slots:
        choices["席位"] = [s.label for s in regulation.teams.slots]
    return choices


def _notes(regulation: Regulation) -> list[str]:
    lines = [regulation.name, "", "填写说明:"]
    lines.append("每名棋手一行, 从第2行开始填写; 请勿修改第1行的列名。")
    lines.append("身份证号、手机、证书编号列已设为文本格式, 请直接输入, 不要改成数字格式。")
    lines.append("出生日期写成如 2012-05-01; 段位写成如 5段 或 3级。")
    lines.append("")
    lines.append("组别与参赛资格:")
    for d in regulation.divisions:
        e = d.eligibility
        parts = []
        if e.born_from or e.born_to:
            parts.append(f"出生日期{window_text(e.born_from, e.born_to)}")
        if e.genders:
            parts.append("限" + "、".join(g.label for g in e.genders))
        if e.certificate_required:
            parts.append("须有业余段级位证书")
        if e.professionals == "forbidden":
            parts.append("仅限业余棋手")
        elif e.professionals == "new_pro_as_amateur":
            parts.append("当年新定段的职业棋手按业余身份参赛")
        if e.regions:
            parts.append("仅限" + "、".join(e.regions))
        if e.approval_required:
            parts.append("报名后须审核")
        lines.append(f"  {d.name}: {'; '.join(parts) or '不限'}")
    if regulation.teams is not None:
        t = regulation.teams
        lines.append("")
        rule = f"{t.name}: 每队最多{t.max_players}人"
        if t.max_men is not None or t.max_women is not None:
            rule += f" (男{t.max_men if t.max_men is not None else '不限'}人, 女{t.max_women if t.max_women is not None else '不限'}人)"
        if t.slots:
            rule += "; 席位: " + "、".join(s.label for s in t.slots)
        lines.append(rule)
    return lines


def write_roster_template(regulation: Regulation, path: str | Path) -> Path:
    out = Path(path)
    book = xlsxwriter.Workbook(str(out))
    try:
        header = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "align": "center"})
        text = book.add_format({"num_format": "@"})
        day = book.add_format({"num_format": "yyyy-mm-dd"})
        sheet = book.add_worksheet(SHEET)
        cols = template_columns(regulation)
        choices = _choices(regulation)
        for i, title in enumerate(cols):
            sheet.write_string(0, i, title, header)
            width = 20 if title in ("身份证号", "单位", "队名") else 14 if title in ("出生日期", "手机", "证书编号", "职业身份") else 10
            if title in ("身份证号", "手机", "证书编号"):
                sheet.set_column(i, i, width, text)
            elif title == "出生日期":
                sheet.set_column(i, i, width, day)
                sheet.data_validation(1, i, DATA_ROWS, i, {
                    "validate": "date", "criteria": "between",
                    "minimum": _excel_date(1900), "maximum": _excel_date(2100),
                    "error_title": "出生日期", "error_message": "请输入日期, 如 2012-05-01",
                })  # fmt: skip
            else:
                sheet.set_column(i, i, width)
            if title in choices:
                sheet.data_validation(1, i, DATA_ROWS, i, {
                    "validate": "list", "source": choices[title],
                    "error_title": title, "error_message": f"请从下拉列表中选择{title}",
                })  # fmt: skip
        sheet.freeze_panes(1, 0)
        notes = book.add_worksheet("填写说明")
        notes.set_column(0, 0, 100)
        for r, line in enumerate(_notes(regulation)):
            notes.write_string(r, 0, line)
    finally:
        book.close()
    return out


def _excel_date(year: int) -> date:
    return date(year, 1, 1)

"""统一下发的报名表: the roster template with one team's own header and a stamp box.

The organiser hands each team this workbook; the team fills in one row per player, prints it,
stamps it (加盖公章) and uploads the scan, and sends the filled workbook back, which the roster
import reads as it reads any roster (the header block sits above the column titles, inside the
rows the importer searches for its header).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import xlsxwriter

from yisai.formats.template import RANKS, template_columns
from yisai.registry.person import Player, ProStatus
from yisai.regulation import Regulation

SHEET = "报名表"
BLANK_ROWS = 6  # empty lines after the known players, for the team to fill in
PRO_TEXT = {ProStatus.AMATEUR: "业余", ProStatus.NEW_PRO: "当年新定段职业", ProStatus.PRO: "职业"}


@dataclass(frozen=True)
class FormPlayer:
    player: Player
    division: str = ""  # division name (甲组)
    slot: str = ""
    fee_paid: bool | None = None


@dataclass(frozen=True)
class FormTeam:
    name: str
    unit: str = ""  # 单位 (the association sending the team)
    leaders: tuple[str, ...] = ()
    coaches: tuple[str, ...] = ()
    contact: str = ""
    phone: str = ""
    players: Sequence[FormPlayer] = field(default_factory=tuple)


def _cell(title: str, team: FormTeam, fp: FormPlayer) -> str:
    p = fp.player
    values: dict[str, object] = {
        "姓名": p.name, "性别": p.gender.label,
        "出生日期": p.birth_date.isoformat() if p.birth_date else "",
        "身份证号": p.id_number, "段位": str(p.rank) if p.rank is not None else "",
        "证书编号": p.certificate_no, "职业身份": PRO_TEXT.get(p.pro_status, ""),
        "地区": p.region, "省份": p.province, "城市": p.city, "单位": p.club, "手机": p.phone,
        "组别": fp.division, "队名": team.name, "席位": fp.slot,
        "领队": "、".join(team.leaders), "教练": "、".join(team.coaches),
        "已缴费": "" if fp.fee_paid is None else ("是" if fp.fee_paid else "否"),
    }  # fmt: skip
    value = values.get(title)
    return "" if value is None else str(value)


def entry_form_xlsx(regulation: Regulation, team: FormTeam) -> bytes:
    """The team's entry form as xlsx bytes (known players filled in, blank lines after them)."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    title_f = book.add_format({"bold": True, "font_size": 14, "align": "center"})
    label_f = book.add_format({"bold": True, "border": 1})
    box_f = book.add_format({"border": 1})
    stamp_f = book.add_format({"border": 2, "align": "center", "valign": "vcenter",
                               "font_color": "#C00000"})
    header_f = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "align": "center"})
    text_f = book.add_format({"num_format": "@", "border": 1})
    sheet = book.add_worksheet(SHEET)
    cols = template_columns(regulation)
    last = max(len(cols) - 1, 5)
    sheet.merge_range(0, 0, 0, last, f"{regulation.name}报名表", title_f)
    # The header block: no cell here may read 姓名, so the importer finds the column titles below.
    block = [
        ("参赛队", team.name, "单位(盖章)", team.unit or team.name),
        ("领队", "、".join(team.leaders), "教练", "、".join(team.coaches)),
        ("联系人", team.contact, "联系电话", team.phone),
    ]
    for r, (a, av, b, bv) in enumerate(block, start=1):
        sheet.write_string(r, 0, a, label_f)
        sheet.merge_range(r, 1, r, 2, av, box_f)
        sheet.write_string(r, 3, b, label_f)
        sheet.merge_range(r, 4, r, last - 2 if last > 6 else 4, bv, box_f)
    if last > 6:
        sheet.merge_range(1, last - 1, 3, last, "公章", stamp_f)
    header_row = 5
    for i, title in enumerate(cols):
        sheet.write_string(header_row, i, title, header_f)
        width = 20 if title in ("身份证号", "单位", "队名") else 12
        sheet.set_column(i, i, width)
    rows = list(team.players)
    for r, fp in enumerate(rows, start=header_row + 1):
        for i, title in enumerate(cols):
            sheet.write_string(r, i, _cell(title, team, fp), text_f)
    first_blank = header_row + 1 + len(rows)
    end = first_blank + BLANK_ROWS - 1
    for i, title in enumerate(cols):
        sheet.write_blank(first_blank, i, None, text_f)
        choices = {
            "性别": ["男", "女"], "组别": [d.name for d in regulation.divisions], "段位": RANKS,
            "队名": [team.name], "已缴费": ["是", "否"],
            "席位": [s.label for s in regulation.teams.slots] if regulation.teams else [],
        }.get(title)  # fmt: skip
        if choices:
            sheet.data_validation(header_row + 1, i, end, i, {"validate": "list", "source": choices})
    notes = book.add_worksheet("填写说明")
    notes.set_column(0, 0, 100)
    lines = [
        f"{regulation.name}报名表 — {team.name}",
        "每名棋手一行, 填在列名下方; 请勿修改列名。每行“队名”均填写: " + team.name,
        "身份证号、手机、证书编号请按文本填写; 出生日期写成如 2014-05-01; 段位写成如 5段 或 3级。",
        "填写完毕后打印, 加盖公章, 将盖章后扫描的PDF或拍照的图片与每名棋手的身份证明一起上传。",
        *regulation.registration.required_documents,
    ]
    for r, line in enumerate(lines):
        notes.write_string(r, 0, line)
    book.close()
    return out.getvalue()

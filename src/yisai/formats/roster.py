"""报名表 (roster) import: .xlsx, legacy .xls and CSV with Chinese headers, validated cell by cell.

Reading is all-or-nothing by design: ``read_roster`` returns every problem with its sheet, row
and column and what to fix, and the importing service saves nothing while any problem remains.
ID-card and phone numbers are turned back into text even when Excel stored them as numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from yisai.formats.sheets import Sheet, find_header_row, read_sheets
from yisai.formats.sheets import cell_text as _text
from yisai.formats.sheets import column_letter as _column_letter
from yisai.i18n import tr
from yisai.record.text import clean_text, shown
from yisai.registry.eligibility import canonical_region
from yisai.registry.idcard import IdCard, parse_id_number
from yisai.registry.person import MAX_NAME_LENGTH, Gender, Player, ProStatus
from yisai.regulation import Regulation
from yisai.vocabulary.rank import Rank

# canonical field → header shown in templates, then every header people actually write.
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("姓名", "名字", "棋手姓名", "选手姓名", "队员姓名"),
    "gender": ("性别",),
    "birth_date": ("出生日期", "出生年月日", "生日", "出生年月"),
    "id_number": ("身份证号", "身份证号码", "身份证", "证件号码", "公民身份号码"),
    "rank": ("段位", "段级位", "棋力", "段级"),
    "certificate_no": ("证书编号", "段级位证书编号", "段位证书编号", "证书号"),
    "pro_status": ("职业身份", "身份"),
    "region": ("地区",),
    "province": ("省份", "省", "省市"),
    "city": ("城市", "市"),
    "club": ("单位", "俱乐部", "学校", "单位学校", "所在单位"),
    "phone": ("手机", "手机号", "手机号码", "电话", "联系电话"),
    "division": ("组别",),
    "stage": ("阶段", "赛段"),
    "team": ("队名", "代表队", "队伍", "参赛队"),
    "slot": ("席位",),
    "leader": ("领队",),
    "coach": ("教练",),
    "fee_paid": ("已缴费", "缴费", "是否缴费"),
    "rating": ("等级分",),
}
IGNORED = ("序号", "备注", "编号", "说明")
MAX_CELL_LENGTH = 200  # a checked cell (date, ID, rank, phone, choice …) longer than this is a slip
_ALIASES = {alias: key for key, names in COLUMNS.items() for alias in names}
NOTE_SHEETS = ("填写说明", "说明")  # the template's instructions sheet, skipped silently

PRO_LABELS = {
    "业余": ProStatus.AMATEUR,
    "业余棋手": ProStatus.AMATEUR,
    "当年新定段职业": ProStatus.NEW_PRO,
    "当年新定段职业棋手": ProStatus.NEW_PRO,
    "当年新定段": ProStatus.NEW_PRO,
    "新定段职业": ProStatus.NEW_PRO,
    "职业": ProStatus.PRO,
    "职业棋手": ProStatus.PRO,
    "amateur": ProStatus.AMATEUR,
    "new_pro": ProStatus.NEW_PRO,
    "pro": ProStatus.PRO,
}
_YES = {"是", "已缴", "已缴费", "已交", "y", "yes", "true", "1", "√", "✓"}
_NO = {"否", "未缴", "未缴费", "未交", "n", "no", "false", "0", "×"}
_PHONE = re.compile(r"^\+?[\d\- ]{5,20}$")
_DATE_PATTERNS = (
    re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T]00:00(?::00)?)?$"),
    re.compile(r"^(\d{4})年(\d{1,2})月(\d{1,2})日?$"),
    re.compile(r"^(\d{4})(\d{2})(\d{2})$"),
)


@dataclass(frozen=True)
class RosterIssue:
    """One problem: where it is (sheet, 1-based row, column letter and header) and what to do."""

    sheet: str
    row: int
    column: str
    header: str
    message: str
    missing: tuple[str, ...] = ()  # headers of which one is needed (a form words it as its inputs)

    def __str__(self) -> str:
        if self.row == 0:  # the file as a whole (unreadable, wrong type)
            return f"{self.sheet}: {self.message}"
        head = f"({self.header})" if self.header else ""
        col = tr(f" {self.column}列", f" column {self.column}") if self.column else ""
        return tr(f"{self.sheet} 第{self.row}行{col}{head}: {self.message}",
                  f"{self.sheet} row {self.row}{col}{head}: {self.message}")


@dataclass(frozen=True)
class RosterRow:
    sheet: str
    row: int
    player: Player  # id is "" (not yet stored)
    division: str | None = None  # division id
    stage: str = ""
    team: str | None = None
    slot: str | None = None
    leaders: tuple[str, ...] = ()
    coaches: tuple[str, ...] = ()
    fee_paid: bool | None = None


@dataclass
class Roster:
    rows: list[RosterRow] = field(default_factory=list)
    issues: list[RosterIssue] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.issues


class _CellError(ValueError):
    """A cell's value cannot be used; the message says what to fix."""


# ------------------------------------------------------------------ headers


def header_key(text: object) -> str | None:
    """The canonical field a header names: 出生日期(YYYY-MM-DD) and *姓名 both work."""
    t = re.sub(r"\s+", "", str(text or "")).strip("*＊")
    t = re.split(r"[(（]", t, maxsplit=1)[0].replace("/", "").replace("／", "")
    return _ALIASES.get(t)


def _find_header(sheet: Sheet) -> int | None:
    return find_header_row(sheet, lambda row: any(header_key(c) == "name" for c in row))


# ------------------------------------------------------------------ cell parsing


def _parse_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = _text(value)
    for pattern in _DATE_PATTERNS:
        m = pattern.match(text)
        if m:
            try:
                return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError:
                raise _CellError(tr(f"{text}不是存在的日期, 请写成如 2012-05-01",
                                    f"{text} is not a real date; write it like 2012-05-01")) from None
    raise _CellError(tr(f"无法识别的日期\u201c{text}\u201d, 请写成如 2012-05-01",
                        f"not a date: \u201c{text}\u201d; write it like 2012-05-01"))


def _parse_id(value: Any) -> IdCard:
    if isinstance(value, int | float) and not isinstance(value, bool):
        # Never trusted, even when the checksum happens to pass: Excel keeps 15 digits of 18.
        raise _CellError(tr(
            f"身份证号被Excel存成了数字({_text(value)}), 后几位已丢失(Excel只保留15位有效数字);"
            " 请把该列设为文本格式后重新填写",
            f"Excel stored the ID number as a number ({_text(value)}) and lost its last digits (Excel"
            " keeps 15); format the column as text and type the numbers again",
        ))
    try:
        return parse_id_number(_text(value))
    except ValueError as exc:
        raise _CellError(str(exc)) from None


def _parse_rank(value: Any) -> Rank:
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise _CellError(tr(f"段位\u201c{_text(value)}\u201d缺少单位, 请写成如 5段 或 3级",
                            f"rank \u201c{_text(value)}\u201d has no unit; write it like 5段 (dan) or 3级 (kyu)"))
    try:
        return Rank.parse(_text(value))
    except ValueError:
        raise _CellError(tr(f"无法识别的段级位\u201c{_text(value)}\u201d, 请写成如 5段、3级 (25级至8段)",
                            f"not a rank: \u201c{_text(value)}\u201d; write it like 5段 or 3级 (25级 to 8段)")) from None


def _parse_phone(value: Any) -> str:
    text = _text(value)
    if not _PHONE.match(text):
        raise _CellError(tr(f"手机号\u201c{text}\u201d格式不对, 只能包含数字(可带+和-)",
                            f"phone number \u201c{text}\u201d: digits only (with + and - if needed)"))
    digits = re.sub(r"\D", "", text)
    if len(digits) == 11 and not digits.startswith("1"):
        raise _CellError(tr(f"手机号{text}应以1开头", f"mobile number {text} should start with 1"))
    return text


def _parse_bool(value: Any) -> bool:
    text = _text(value).lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise _CellError(tr(f"\u201c{_text(value)}\u201d应填 是 或 否", f"\u201c{_text(value)}\u201d: write 是 (yes) or 否 (no)"))


def _split_names(value: Any) -> tuple[str, ...]:
    return tuple(n for n in (clean_text(s) for s in re.split(r"[、,，;；/]", _text(value))) if n)


def _choice(value: Any, options: dict[str, str], what: str) -> str:
    text = _text(value)
    key = options.get(text) or options.get(text.removesuffix("组")) or options.get(text + "组")
    if key is None:
        shown = "、".join(dict.fromkeys(options.values()).keys())
        names = "、".join(k for k in options if not k.isascii())
        raise _CellError(tr(f"没有名为\u201c{text}\u201d的{what}, 可选: {names or shown}",
                            f"no {what} named \u201c{text}\u201d; choose from: {names or shown}"))
    return key


def division_options(regulation: Regulation) -> dict[str, str]:
    """Names and ids a roster may use for each division → division id."""
    out: dict[str, str] = {}
    for d in regulation.divisions:
        out[d.name] = d.id
        out[d.id] = d.id
    return out


def stage_options(regulation: Regulation) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in regulation.stages:
        out[s.name] = s.id
        out[s.id] = s.id
    return out


# ------------------------------------------------------------------ rows


def read_roster(path: str | Path, regulation: Regulation | None = None) -> Roster:
    """Parse a roster file; ``regulation`` maps 组别/阶段 names to ids and lists the choices."""
    p = Path(path)
    try:
        sheets = read_sheets(p)
    except (OSError, ValueError) as exc:
        msg = str(exc) if isinstance(exc, ValueError) else f"无法读取 {p}: {exc.strerror or exc}"
        return Roster(issues=[RosterIssue(p.name, 0, "", "", msg)])
    return parse_sheets(sheets, regulation)


def parse_sheets(sheets: list[Sheet], regulation: Regulation | None = None) -> Roster:
    roster = Roster()
    used = False
    for sheet in sheets:
        header_row = _find_header(sheet)
        if header_row is None:
            if sheet.name not in NOTE_SHEETS and any(_text(c) for row in sheet.cells for c in row):
                roster.warnings.append(tr(f"工作表\u201c{shown(sheet.name)}\u201d没有\u201c姓名\u201d表头, 已跳过",
                                          f"sheet \u201c{shown(sheet.name)}\u201d has no 姓名 (name) header; skipped"))
            continue
        used = True
        _parse_sheet(sheet, header_row, regulation, roster)
    if not used:
        name = sheets[0].name if sheets else "文件"
        roster.issues.append(
            RosterIssue(name, 1, "", "", tr("找不到表头行: 前10行中须有一行包含\u201c姓名\u201d等列名",
                                            "no header row: one of the first 10 rows must hold 姓名 (name) and the other headers"))
        )
    _check_duplicates(roster)
    return roster


def _parse_sheet(sheet: Sheet, header_row: int, regulation: Regulation | None, roster: Roster) -> None:
    columns: dict[str, int] = {}
    for i, cell in enumerate(sheet.cells[header_row]):
        title = _text(cell)
        if not title:
            _check_headless_column(sheet, header_row, i, roster)
            continue
        key = header_key(title)
        if key is None:
            if re.split(r"[(（]", title, maxsplit=1)[0].strip("*＊ ") not in IGNORED:
                roster.warnings.append(tr(
                    f"{shown(sheet.name)} {_column_letter(i)}列\u201c{shown(title)}\u201d不是已知列名, 已忽略",
                    f"{shown(sheet.name)} column {_column_letter(i)} \u201c{shown(title)}\u201d is not a known header; ignored"))
            continue
        if key in columns:
            roster.issues.append(
                RosterIssue(
                    sheet.name, header_row + 1, _column_letter(i), shown(title),
                    tr(f"与{_column_letter(columns[key])}列重复, 请删除其中一列",
                       f"same as column {_column_letter(columns[key])}; delete one of them"),
                )
            )
            continue
        columns[key] = i
    if "gender" not in columns and "id_number" not in columns:
        roster.issues.append(
            RosterIssue(sheet.name, header_row + 1, "", "", tr("须有\u201c性别\u201d或\u201c身份证号\u201d列",
                                                           "a 性别 (gender) or 身份证号 (ID number) column is needed"),
                        missing=("性别", "身份证号"))
        )
        return
    for r in range(header_row + 1, len(sheet.cells)):
        cells = sheet.cells[r]
        if not any(_text(c) for c in cells):
            continue
        row = _parse_row(sheet.name, r + 1, cells, columns, regulation, roster.issues)
        if row is not None:
            roster.rows.append(row)


def _check_headless_column(sheet: Sheet, header_row: int, column: int, roster: Roster) -> None:
    """A blank header above filled cells (often a merged header cell) would drop a column unseen."""
    rows = sheet.cells[header_row + 1:]
    if any(column < len(cells) and _text(cells[column]) for cells in rows):
        roster.issues.append(RosterIssue(
            sheet.name, header_row + 1, _column_letter(column), "",
            tr("列名为空, 但下方各行有内容 (合并的表头单元格常会这样); 请在此格填写列名, 或删除该列的内容",
               "the header is empty but the rows below hold data (a merged header cell does this); "
               "write the header in this cell, or delete the column's contents")))


def _parse_row(
    sheet: str,
    number: int,
    cells: list[Any],
    columns: dict[str, int],
    regulation: Regulation | None,
    issues: list[RosterIssue],
) -> RosterRow | None:
    values: dict[str, Any] = {}
    start = len(issues)

    def cell(key: str) -> Any:
        i = columns.get(key)
        return cells[i] if i is not None and i < len(cells) else None

    def problem(key: str, message: str) -> None:
        i = columns.get(key)
        letter = _column_letter(i) if i is not None else ""
        header = COLUMNS[key][0]
        # Messages quote the cell: its control characters are written out, never sent raw.
        issues.append(RosterIssue(sheet, number, letter, header, shown(message, None)))

    def parse(key: str, fn: Any) -> Any:
        raw = cell(key)
        text = _text(raw)
        if text == "":
            return None
        if len(text) > MAX_CELL_LENGTH:
            problem(key, tr(f"内容超过{MAX_CELL_LENGTH}个字符, 请检查该格",
                            f"longer than {MAX_CELL_LENGTH} characters; check the cell"))
            return None
        try:
            return fn(raw)
        except _CellError as exc:
            problem(key, str(exc))
            return None

    name = clean_text(_text(cell("name")))
    if not name:
        problem("name", tr("姓名不能为空", "the name is empty"))
    elif len(name) > MAX_NAME_LENGTH:
        problem("name", tr(f"姓名超过{MAX_NAME_LENGTH}个字符, 请检查该格", f"the name is longer than"
                           f" {MAX_NAME_LENGTH} characters; check the cell"))
    card: IdCard | None = parse("id_number", _parse_id)
    gender: Gender | None = parse("gender", _parse_gender)
    born: date | None = parse("birth_date", _parse_date)
    if card is not None:
        if gender is not None and gender is not card.gender:
            problem("gender", tr(f"性别{gender.label}与身份证号(第17位表示{card.gender.label})不一致",
                                 f"gender {gender.label} does not match the ID number (its 17th digit says {card.gender.label})"))
        if born is not None and born != card.birth_date:
            problem("birth_date", tr(f"出生日期{born:%Y-%m-%d}与身份证号中的{card.birth_date:%Y-%m-%d}不一致",
                                     f"birth date {born:%Y-%m-%d} does not match {card.birth_date:%Y-%m-%d} in the ID number"))
        gender = gender or card.gender
        born = born or card.birth_date
    elif gender is None and _text(cell("gender")) == "":
        problem("gender", tr("性别不能为空(填 男 或 女)", "the gender is empty (write 男 or 女)"))
    if born is not None and not date(1900, 1, 1) <= born <= date(2100, 1, 1):
        problem("birth_date", tr(f"出生日期{born:%Y-%m-%d}不合理", f"birth date {born:%Y-%m-%d} is not plausible"))
    values["rank"] = parse("rank", _parse_rank)
    values["pro_status"] = parse("pro_status", _choice_pro)
    values["phone"] = parse("phone", _parse_phone)
    values["rating"] = parse("rating", _parse_int)
    # Only what the file states is passed on, so a re-import never blanks stored data.
    values = {k: v for k, v in values.items() if v is not None}
    fee_paid = parse("fee_paid", _parse_bool)
    division = stage = None
    if regulation is not None:
        division = parse("division", lambda v: _choice(v, division_options(regulation), "组别"))
        stage = parse("stage", lambda v: _choice(v, stage_options(regulation), "阶段"))
    else:
        division = _text(cell("division")) or None
        stage = _text(cell("stage")) or None
    if len(issues) > start or gender is None or not name:
        return None
    region = _text(cell("region"))
    player = Player(
        id="",
        name=name,
        gender=gender,
        birth_date=born,
        id_number=card.number if card else None,
        certificate_no=_text(cell("certificate_no")) or None,
        region=canonical_region(region) if region else None,
        province=_text(cell("province")) or None,
        city=_text(cell("city")) or None,
        club=_text(cell("club")) or None,
        **values,
    )
    return RosterRow(
        sheet=sheet,
        row=number,
        player=player,
        division=division,
        stage=stage or "",
        team=clean_text(_text(cell("team"))) or None,
        slot=clean_text(_text(cell("slot"))) or None,
        leaders=_split_names(cell("leader")),
        coaches=_split_names(cell("coach")),
        fee_paid=fee_paid,
    )


def _parse_gender(value: Any) -> Gender:
    try:
        return Gender.parse(_text(value))
    except ValueError:
        raise _CellError(tr(f"无法识别的性别\u201c{_text(value)}\u201d, 请填 男 或 女",
                            f"not a gender: \u201c{_text(value)}\u201d; write 男 or 女")) from None


def _choice_pro(value: Any) -> ProStatus:
    text = _text(value)
    if text in PRO_LABELS:
        return PRO_LABELS[text]
    raise _CellError(tr(f"无法识别的职业身份\u201c{text}\u201d, 可选: 业余、当年新定段职业、职业",
                        f"not a status: \u201c{text}\u201d; choose 业余 (amateur), 当年新定段职业 (new pro), 职业 (pro)"))


def _parse_int(value: Any) -> int:
    text = _text(value)
    try:
        return int(text)
    except ValueError:
        raise _CellError(tr(f"\u201c{text}\u201d应为整数", f"\u201c{text}\u201d should be a whole number")) from None


def _check_duplicates(roster: Roster) -> None:
    """The same person twice for the same division is a copy-paste slip; say which rows."""
    seen: dict[tuple, RosterRow] = {}
    for row in roster.rows:
        p = row.player
        who = ("id", p.id_number) if p.id_number else ("nb", p.name, p.birth_date)
        key = (*who, row.division, row.stage)
        first = seen.get(key)
        if first is None:
            seen[key] = row
            continue
        what = tr(f"身份证号{p.id_number}", f"ID number {p.id_number}") if p.id_number else f"{p.name}({p.birth_date})"
        where = tr(f"第{first.row}行", f"row {first.row}")
        if first.sheet != row.sheet:
            where = f"{first.sheet} {where}"
        roster.issues.append(RosterIssue(row.sheet, row.row, "", "", tr(
            f"{what}与{where}重复, 请删除其中一行", f"{what} repeats {where}; delete one of the rows")))

"""会员名单: the member register a division's ``eligibility.members_of`` asks for ("须为本协会注册
会员", "俱乐部在册会员"). The director imports it (CLI or console); it is stored with the event
(audited), undecided entries are checked again, and every later registration and approval
checks it, with the reason "不在…名单中".

The file is text (UTF-8 or GBK): one member a line, ``姓名`` or ``姓名,身份证号`` (a member
number instead of the ID number is kept but not matched: the name is); a first line
``姓名,…`` is a header.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.members import MemberList
from yisai.services.approvals import recheck_entries
from yisai.services.context import InputError, Refused, Work
from yisai.services.eligibility import members_of
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action
from yisai.store import event_rows

MAX_MEMBERS = 200_000


@dataclass(frozen=True)
class MemberImport:
    register: str  # the regulation's words (本协会注册会员)
    members: int
    rechecked: int  # undecided entries whose reasons changed


def parse_members(data: bytes, source: str) -> MemberList:
    """The register's rows; a line that is not ``姓名[,证件号]`` is refused with its number."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("gb18030")
        except UnicodeDecodeError:
            raise InputError(Text(f"{source}: 无法识别的文字编码, 请存为 UTF-8 的文本或 CSV 文件",
                                  f"{source}: unknown text encoding; save it as UTF-8 text or CSV"),
                             code="bad_member_file") from None
    rows: list[list[str]] = []
    for number, cells in enumerate(csv.reader(io.StringIO(text.replace("，", ","))), start=1):
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if number == 1 and cells[0] in ("姓名", "name"):
            continue
        if not cells[0] or any(ch in cells[0] for ch in "\t\r"):
            raise InputError(Text(f"{source} 第{number}行: 第一列应为姓名", f"{source} line {number}: the first "
                                  "column must be the name"), code="bad_member_file", params={"line": number})
        rows.append(cells[:2])
        if len(rows) > MAX_MEMBERS:
            raise InputError(Text(f"{source}: 名单超过{MAX_MEMBERS}人", f"{source}: more than {MAX_MEMBERS} members"),
                             code="bad_member_file")
    if not rows:
        raise InputError(Text(f"{source}: 名单是空的 (每行一名会员: 姓名,身份证号)",
                              f"{source}: the register is empty (one member a line: name,ID number)"),
                         code="bad_member_file")
    return MemberList.of(rows)


def import_members(work: Work, event_ref: str | int | None, data: bytes, source: str, note: str = "") -> MemberImport:
    """Store the register (replacing an earlier one) and check undecided entries again."""
    work.require(Action.APPROVE)
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    registers = sorted({d.eligibility.members_of for d in reg.divisions if d.eligibility.members_of})
    if not registers:
        raise Refused(Text("规程没有要求会员资格 (divisions.eligibility.members_of), 无需导入会员名单",
                           "the regulation asks for no membership (divisions.eligibility.members_of)"),
                      code="no_membership_rule", params={"field": "eligibility.members_of"})
    members = parse_members(data, source)
    saved = event_rows.set_event_setting(work.session, work.stamp, event.id, "members", {"rows": [list(r) for r in members.rows],
                                                                                         "source": source},
                                         note or f"导入会员名单 {source}: {len(members.rows)}人")
    return MemberImport("、".join(registers), len(members.rows), recheck_entries(work, saved))


def member_count(work: Work, event_ref: str | int | None) -> int | None:
    """How many members the imported register holds (None: none imported)."""
    members = members_of(resolve_event(work, event_ref))
    return None if members is None else len(members.rows)

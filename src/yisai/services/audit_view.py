"""The audit log as a director reads it: who did what to whom, each change as 旧 → 新, a page at a time.

The store keeps every write as raw data (English keys, ids, whole rounds); this module names the
people, rounds and games, labels the fields in both languages and keeps only what changed, so the
console never shows JSON. Personal data (ID number, phone, birth date) is said to have changed,
never shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from yisai.i18n import Text
from yisai.record import Result
from yisai.record.parse import result_word
from yisai.registry.entry import EntryStatus
from yisai.services.context import Work
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action, Role
from yisai.store import (
    AuditRecord,
    account_rows,
    audit_rows,
    event_rows,
    roster_rows,
    round_rows,
    team_rows,
)

PAGE_SIZE = 50

ACTIONS: dict[str, Text] = {
    "create": Text("新建", "created"),
    "update": Text("修改", "changed"),
    "approve": Text("批准", "approved"),
    "reject": Text("不予通过", "rejected"),
    "withdraw": Text("退赛", "withdrew"),
    "disqualify": Text("取消资格", "disqualified"),
    "reinstate": Text("恢复参赛", "reinstated"),
    "exclude": Text("按规程弃权满轮取消资格", "excluded by the forfeit rule"),
    "result": Text("录入成绩", "result entered"),
    "result_refused": Text("成绩未被接受", "result refused"),
    "replace": Text("重新编排", "re-paired"),
    "replace-member": Text("换人", "member replaced"),
    "request_change": Text("申请修改", "change requested"),
    "change_approved": Text("批准修改", "change approved"),
    "change_rejected": Text("驳回修改", "change rejected"),
    "appeal_filed": Text("提出申诉", "appeal filed"),
    "appeal_decided": Text("裁决申诉", "appeal decided"),
    "check_in": Text("报到", "checked in"),
    "individual": Text("个人报名", "individual entry"),
    "upload": Text("上传", "uploaded"),
    "download": Text("下载", "downloaded"),
    "purge": Text("清除", "purged"),
    "unlock": Text("解除登录限制", "sign-in unlocked"),
    "logout": Text("退出登录", "logged out"),
    "publish": Text("公布", "published"),
    "amend": Text("更正", "amended"),
    "lapse": Text("逾期弃权", "lapsed"),
    "confirm": Text("确认", "confirmed"),
    "final_entries": Text("生成决赛名单", "final entries made"),
    "suspend": Text("暂停", "suspended"),
    "finish": Text("结束", "finished"),
}

ENTITIES: dict[str, Text] = {
    "entry": Text("报名", "entry"), "player": Text("棋手", "player"), "team": Text("队", "team"),
    "round": Text("轮次", "round"), "game": Text("对局", "game"), "user": Text("账号", "account"),
    "event": Text("比赛", "event"), "lineup": Text("出场名单", "line-up"),
    "appeal": Text("申诉", "appeal"), "paper": Text("报名附件", "paper"),
    "papers": Text("报名附件", "papers"), "player_change": Text("修改申请", "change request"),
    "live_game": Text("网络对局", "online game"), "live_player": Text("网络棋手", "online player"),
    "qualifier_list": Text("晋级名单", "qualification list"),
    "qualifier_place": Text("晋级名额", "qualifying place"),
}  # fmt: skip

FIELDS: dict[str, Text] = {
    "name": Text("姓名", "name"), "status": Text("状态", "status"), "division": Text("组别", "division"),
    "stage": Text("阶段", "stage"), "group": Text("小组", "group"), "number": Text("轮次", "round"),
    "round": Text("轮次", "round"), "board": Text("台次", "board"), "black": Text("黑方", "Black"),
    "white": Text("白方", "White"), "result": Text("成绩", "result"), "handicap": Text("让子", "handicap"),
    "games": Text("对局", "games"), "fee_due": Text("报名费", "fee"), "fee_paid": Text("已缴费", "fee paid"),
    "note": Text("备注", "note"), "reasons": Text("审核意见", "reasons"), "forced": Text("强制通过", "forced"),
    "gender": Text("性别", "gender"), "rank": Text("段位", "rank"), "rating": Text("等级分", "rating"),
    "region": Text("地区", "region"), "province": Text("省份", "province"), "city": Text("城市", "city"),
    "club": Text("单位", "club"), "pro_status": Text("职业身份", "professional status"),
    "certificate_no": Text("证书编号", "certificate no."), "id_number": Text("身份证号", "ID number"),
    "phone": Text("手机", "phone"), "birth_date": Text("出生日期", "birth date"),
    "login": Text("账号", "login"), "role": Text("角色", "role"), "active": Text("启用", "active"),
    "team_id": Text("所属队", "team"), "event_id": Text("所属比赛", "event"),
    "password": Text("密码", "password"), "sessions": Text("登录状态", "sessions"),
    "max_teams": Text("可报队数", "teams allowed"), "members": Text("队员", "members"),
    "leaders": Text("领队", "leaders"), "coaches": Text("教练", "coaches"),
    "regulation_id": Text("规程", "regulation"), "seed": Text("抽签种子", "lot seed"),
    "decision": Text("裁决", "decision"), "kind": Text("类别", "kind"), "change": Text("修改申请", "change"),
    "login_failures": Text("登录失败次数", "failed sign-ins"),
}  # fmt: skip

PRIVATE = frozenset({"id_number", "phone", "birth_date"})
HIDDEN = frozenset({"id", "player_id", "version"})  # ids: the subject column names the thing
IN_SUBJECT = {"round": frozenset({"division", "stage", "group", "number"})}  # said once, not twice

ROUND_STATUS = {"paired": Text("已编排", "paired"), "published": Text("已公布", "published"),
                "draft": Text("草稿", "draft")}
ENTRY_STATUS_EN = {"pending": "pending", "approved": "approved", "rejected": "rejected",
                   "withdrawn": "withdrawn"}
WORDS = {"changed": Text("已修改", "changed"), "ended": Text("已结束", "ended"),
         "cleared": Text("已清零", "cleared")}


@dataclass(frozen=True)
class Change:
    field: Text
    before: Text
    after: Text


@dataclass(frozen=True)
class AuditLine:
    at: datetime
    actor: str
    action: Text
    subject: Text
    changes: tuple[Change, ...]
    note: str


@dataclass(frozen=True)
class AuditPage:
    lines: list[AuditLine]
    page: int
    pages: int
    total: int


def audit_page(work: Work, event_ref: str | int | None, page: int = 1) -> AuditPage:
    """Page ``page`` (from 1, newest first) of an event's log, in words (referees and operators)."""
    if not work.actor.may(Action.MANAGE_USERS):
        work.require(Action.RECORD_RESULT)
    event = resolve_event(work, event_ref)
    total, _ = audit_rows.audit_newest(work.session, event.id, 0, 0)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 1), pages)  # past the end shows the oldest page, not an empty one
    _, records = audit_rows.audit_newest(work.session, event.id, (page - 1) * PAGE_SIZE, PAGE_SIZE)
    names = _Names(work, event.id, {d.id: d.name for d in regulation_of(event).divisions})
    return AuditPage([describe(r, names) for r in records], page, pages, total)


class _Names:
    """Ids to names, read once per page."""

    def __init__(self, work: Work, event_id: int, divisions: Mapping[str, str]) -> None:
        self.players = {p.id: p.name for p in roster_rows.list_players(work.session, event_id)}
        self.teams = {t.id: t.name for t in team_rows.list_teams(work.session, event_id)}
        self.rounds = {str(r.id): r for r in round_rows.list_rounds(work.session, event_id)}
        users = account_rows.list_users(work.session)
        self.logins = {u.login: u.display_name for u in users}
        self.users = {str(u.id): u for u in users}
        self.divisions = divisions
        self.events = {str(e.id): e.name for e in event_rows.list_events(work.session)}

    def player(self, pid: object) -> str:
        return self.players.get(str(pid), str(pid)) if pid not in (None, "") else Text("轮空", "bye").render()

    def actor(self, stamp: str) -> str:
        """A web account signs ``name#id``; the CLI and scripts sign a plain name."""
        name, _, uid = stamp.rpartition("#")
        user = self.users.get(uid) if name else None
        if user is not None:
            return f"{user.display_name} ({user.login})"
        shown = self.logins.get(stamp)
        return f"{shown} ({stamp})" if shown and shown != stamp else stamp

    def division(self, did: str) -> str:
        return self.divisions.get(did, did)


def describe(r: AuditRecord, names: _Names) -> AuditLine:
    action = ACTIONS.get(r.action, Text(r.action, r.action))
    return AuditLine(r.at, names.actor(r.actor), action, _subject(r, names), _changes(r, names), r.note)


def _subject(r: AuditRecord, names: _Names) -> Text:
    data = r.after or r.before or {}
    kind = ENTITIES.get(r.entity, Text(r.entity, r.entity))
    if r.entity == "game" and "board" in data:
        pair = f"{names.player(data.get('black'))} — {names.player(data.get('white'))}"
        return Text(f"第{data.get('round')}轮第{data['board']}台 {pair}",
                    f"round {data.get('round')} board {data['board']} {pair}")
    if r.entity == "game" and r.entity_id.count("/") == 2:  # a refused entry names division/round/board
        div, rnd, board = r.entity_id.split("/")
        return Text(f"{names.division(div)}第{rnd}轮第{board}台",
                    f"{names.division(div)} round {rnd} board {board}")
    if r.entity == "round":
        found = names.rounds.get(r.entity_id)
        div = found.division if found else str(data.get("division", ""))
        number = found.number if found else data.get("number", "?")
        group = (found.group if found else data.get("group")) or ""
        g = f" {group}" if group else ""
        return Text(f"{names.division(div)}{g}第{number}轮", f"{names.division(div)}{g} round {number}")
    if r.entity == "entry":
        who = names.player(data.get("player_id", ""))
        div = names.division(str(data.get("division", "")))
        return Text(f"{who} 报名{div}", f"{who}: entry to {div}")
    if r.entity == "player":
        who = names.players.get(r.entity_id) or str(data.get("name", r.entity_id))
        return Text(f"棋手 {who}", f"player {who}")
    if r.entity == "team":
        team = names.teams.get(r.entity_id) or str(data.get("name", r.entity_id))
        return Text(f"队 {team}", f"team {team}")
    if r.entity == "user":
        user = names.users.get(r.entity_id)
        login = user.login if user else str(data.get("login", r.entity_id))
        return Text(f"账号 {login}", f"account {login}")
    return Text(f"{kind.zh} {r.entity_id}", f"{kind.en} {r.entity_id}")


def _changes(r: AuditRecord, names: _Names) -> tuple[Change, ...]:
    before, after = dict(r.before or {}), dict(r.after or {})
    if r.entity == "game" and ("result" in before or "result" in after):
        return _game_change(before, after)
    out: list[Change] = []
    for key in [*before, *(k for k in after if k not in before)]:
        if key in HIDDEN or key in IN_SUBJECT.get(r.entity, ()) or (key in before and key in after and before[key] == after[key]):
            continue
        if r.action == "create" and after.get(key) in (None, "", [], False) and key not in before:
            continue  # a new thing's empty fields say nothing
        label = FIELDS.get(key, Text(key, key))
        if key in PRIVATE:
            said = WORDS["changed"] if key in before else Text("已登记", "recorded")
            out.append(Change(label, Text("", ""), said))
            continue
        out.append(Change(label, _value(r.entity, key, before.get(key), names, key in before),
                          _value(r.entity, key, after.get(key), names, key in after)))
    return tuple(out)


def _game_change(before: dict[str, Any], after: dict[str, Any]) -> tuple[Change, ...]:
    def word(g: dict[str, Any]) -> Text:
        if not g:
            return Text("", "")
        res = Result(g.get("result", "?"))
        w = result_word(res, bool(g.get("played", True)), str(g.get("reason", "")), g.get("white") is None)
        return Text(w, w) if w else Text("(未录入)", "(none)")

    return (Change(FIELDS["result"], word(before), word(after)),)


def _value(entity: str, key: str, value: object, names: _Names, present: bool) -> Text:
    if not present:
        return Text("", "")
    labelled = _label(entity, key, value, names)
    if labelled is not None:
        return labelled
    if value is None or value == "":
        return Text("—", "—")
    if isinstance(value, bool):
        return Text("是", "yes") if value else Text("否", "no")
    if isinstance(value, list | dict):
        unit = Text(f"{len(value)} 台", f"{len(value)} boards") if key == "games" else None
        return unit or Text(f"{len(value)} 项", f"{len(value)} items")
    if isinstance(value, str) and value in WORDS:
        return WORDS[value]
    return Text(str(value), str(value))


def _label(entity: str, key: str, value: object, names: _Names) -> Text | None:
    """Stored codes in words: statuses, roles, gender, division and team names, money."""
    v = str(value)
    if key == "status" and entity == "entry" and v in ENTRY_STATUS_EN:
        return Text(EntryStatus(v).label, ENTRY_STATUS_EN[v])
    if key == "status" and entity == "round" and v in ROUND_STATUS:
        return ROUND_STATUS[v]
    if key == "role" and v in {r.value for r in Role}:
        return Role(v).label
    if key == "gender" and v in ("M", "F"):
        return Text("男", "male") if v == "M" else Text("女", "female")
    if key == "division" and v:
        return Text(names.division(v), names.division(v))
    if key == "team_id" and value is not None:
        return Text(names.teams.get(v, v), names.teams.get(v, v))
    if key == "event_id" and value is not None:
        return Text(names.events.get(v, v), names.events.get(v, v))
    if key == "fee_due" and isinstance(value, int):
        return Text(f"{value}元", f"{value} yuan")
    return None

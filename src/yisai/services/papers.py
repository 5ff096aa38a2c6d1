"""Registration papers (报名附件): the uniform entry form, the stamped scan, identity proofs.

Seed 002 十一(二): every team fills in the uniform entry form, stamps it, and uploads the scan
(PDF) or a photo together with each player's identity proof, named
"XXX队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表", by the deadline of 十一(一).

* Files are kept outside the database rows (``store.files``); a row records who uploaded what,
  its size, checksum, and the director's decision (accepted, or returned with a reason).
* The type is read from the content (PDF ``%PDF-``, JPEG ``FF D8 FF``, PNG ``89 50 4E 47``),
  never from the name: an ``.exe`` renamed ``.pdf`` is refused.
* Visibility: a team leader sees and uploads only their own team's papers; referees and the chief
  referee see all; nobody else. Identity proofs are never public. Every download is audited,
  and after the event the chief referee purges the files (an audit line records it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from yisai.formats.entry_form import FormPlayer, FormTeam, entry_form_xlsx
from yisai.i18n import Text
from yisai.registry.idcard import normalise
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation import Regulation
from yisai.regulation.admin import Attachments
from yisai.services.context import Work
from yisai.services.errors import Forbidden, Hint, InputError, NotFoundError, Refused
from yisai.services.events import regulation_of
from yisai.services.identity import Action, Role
from yisai.store import EventRecord, audit_rows, event_rows, player_rows, roster_rows, team_rows
from yisai.store.files import FileStore, default_files_dir, safe_part
from yisai.store.paper_rows import PaperRecord, PaperRows

ENTRY_FORM = "entry_form"
IDENTITY_PROOF = "identity_proof"
KINDS = {
    ENTRY_FORM: Text("盖章报名表", "stamped entry form"),
    IDENTITY_PROOF: Text("身份证明", "identity proof"),
}
STATUS = {
    "submitted": Text("待审核", "submitted"),
    "accepted": Text("已通过", "accepted"),
    "returned": Text("已退回", "returned"),
    "replaced": Text("已被新文件替换", "replaced"),
    "purged": Text("已清除", "purged"),
}
LIVE = ("submitted", "accepted")
MAGIC = {"pdf": (b"%PDF-",), "jpeg": (b"\xff\xd8\xff",), "png": (b"\x89PNG\r\n\x1a\n",)}
EXTENSION = {"pdf": ".pdf", "jpeg": ".jpg", "png": ".png"}
CONTENT_TYPE = {"pdf": "application/pdf", "jpeg": "image/jpeg", "png": "image/png"}
TYPE_LABEL = {"pdf": "PDF", "jpeg": "JPEG", "png": "PNG"}
OFFICIALS = (Role.CHIEF_REFEREE, Role.REFEREE)


@dataclass(frozen=True)
class PaperView:
    paper: PaperRecord
    team: str
    player: str | None  # the player's name for an identity proof

    @property
    def kind_label(self) -> Text:
        return KINDS[self.paper.kind]

    @property
    def status_label(self) -> Text:
        return STATUS.get(self.paper.status, Text(self.paper.status, self.paper.status))


@dataclass(frozen=True)
class TeamPapers:
    """One team's papers and what is still missing (the director's per-team line)."""

    team_id: str
    team: str
    papers: tuple[PaperView, ...]
    missing: tuple[Text, ...]

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass(frozen=True)
class Download:
    file_name: str
    content_type: str
    data: bytes


# ------------------------------------------------------------------ rules and helpers


def attachment_rules(regulation: Regulation) -> Attachments:
    """The regulation's ``registration.attachments``; without one, PDF/JPEG/PNG up to 10 MB."""
    return regulation.registration.attachments or Attachments()


def sniff(data: bytes) -> str | None:
    """The file type read from the first bytes: pdf, jpeg, png, or None."""
    for kind, prefixes in MAGIC.items():
        if any(data.startswith(p) for p in prefixes):
            return kind
    return None


def _what_it_is(data: bytes) -> Text:
    if data.startswith(b"MZ"):
        return Text("Windows 可执行程序", "a Windows executable")
    if data.startswith(b"PK\x03\x04"):
        return Text("压缩包或 Office 文档", "a zip archive or Office document")
    if data.startswith(b"\x7fELF"):
        return Text("可执行程序", "an executable")
    return Text("无法识别的内容", "unrecognised content")


def files_of(work: Work) -> FileStore:
    return FileStore(work.settings.files_dir or default_files_dir(work.settings.database))


def rows(work: Work) -> PaperRows:
    return PaperRows(work.session)


def team_label(name: str) -> str:
    return name if name.endswith("队") else f"{name}队"


def paper_file_name(rules: Attachments, team: str, kind: str, file_type: str,
                    player: str | None = None) -> str:
    """The name the regulation asks for: XXX队 replaced by the team (identity proofs add the
    player's name)."""
    base = rules.name_pattern.replace("XXX队", team_label(team)).replace("XXX", team)
    if kind == IDENTITY_PROOF:
        base = f"{team_label(team)}_{player}_身份证明"
    return safe_part(base) + EXTENSION[file_type]


def _is_official(work: Work) -> bool:
    return work.actor.role in OFFICIALS


def check_event_access(work: Work, event_id: int) -> None:
    if work.actor.event is not None and work.actor.event != event_id:
        raise Forbidden(Text("该账号不属于这个比赛", "this account belongs to another event"),
                        code="papers_forbidden")


def check_team_access(work: Work, event_id: int, team_id: str) -> None:
    """Officials see every team; a team leader only their own; nobody else anything."""
    check_event_access(work, event_id)
    if _is_official(work):
        return
    if work.actor.leads(team_id):
        return
    raise Forbidden(Text("只能查看和上传本队的报名附件", "you may only see and upload your own "
                         "team's papers"), code="papers_forbidden", params={"team": str(team_id)})


def resolve_team(work: Work, event: EventRecord, ref: str | int | None) -> Team:
    """A team by id or name; a team leader with no reference gets their own team."""
    if ref is None or str(ref).strip() == "":
        if work.actor.team is not None:
            ref = work.actor.team
        else:
            raise InputError(Text("请指定队伍 (编号或队名)", "name the team (id or name)"),
                             code="team_required")
    text = str(ref).strip()
    for t in team_rows.list_teams(work.session, event.id):
        if text in (t.id, t.name):
            return t
    raise NotFoundError(Text(f"没有队伍“{text}”", f"no team {text!r}"),
                        code="team_not_found", params={"team": text}, hint=Hint.LIST_TEAMS)


def _member(work: Work, event: EventRecord, team: Team, ref: str) -> Player:
    players = roster_rows.players_by_id(work.session, event.id)
    members = [players[m.player_id] for m in team.members if m.player_id in players]
    text = ref.strip()
    for p in members:
        if text in (p.id, p.name) or (p.id_number and normalise(text) == p.id_number):
            return p
    names = "、".join(p.name for p in members) or "—"
    raise InputError(Text(f"{team.name}没有棋手“{text}” (本队棋手: {names})",
                          f"{team.name} has no player {text!r} (its players: {names})"),
                     code="player_not_in_team", params={"player": text})


def _view(work: Work, event: EventRecord, paper: PaperRecord) -> PaperView:
    team = team_rows.get_team(work.session, paper.team_id).name
    player = player_rows.get_player(work.session, paper.player_id).name if paper.player_id is not None else None
    return PaperView(paper, team, player)


# ------------------------------------------------------------------ the entry form


def entry_form(work: Work, event: EventRecord, team_ref: str | int | None) -> tuple[str, bytes]:
    """The uniform entry form for one team, as (file name, xlsx bytes)."""
    regulation = regulation_of(event)
    team = resolve_team(work, event, team_ref)
    check_team_access(work, event.id, team.id)
    players = roster_rows.players_by_id(work.session, event.id)
    names = {d.id: d.name for d in regulation.divisions}
    entries = {e.player_id: e for e in roster_rows.list_entries(work.session, event.id)}
    listed = []
    for m in team.members:
        p = players[m.player_id]
        e = entries.get(p.id)
        division = names.get(m.division or (e.division if e else ""), "")
        listed.append(FormPlayer(p, division, m.slot or "", e.fee_paid if e else None))
    form = FormTeam(name=team.name, unit=team.place if team.place != team.name else "",
                    leaders=team.leaders, coaches=team.coaches, players=tuple(listed))
    name = safe_part(attachment_rules(regulation).name_pattern.replace("XXX队", team_label(team.name)))
    return name + ".xlsx", entry_form_xlsx(regulation, form)


# ------------------------------------------------------------------ uploads


def _check_deadline(work: Work, rules: Attachments, force: bool, note: str) -> None:
    if rules.deadline is None or work.now <= rules.deadline:
        return
    if force:
        work.require(Action.APPROVE)
        if not note.strip():
            raise InputError(Text("截止后补交须写明理由", "a late upload needs a note giving the reason"),
                             code="note_required", hint=Hint.NOTE)
        return
    wording = rules.deadline_wording or f"{rules.deadline:%m月%d日%H:%M}前上传报名附件"
    raise Refused(
        Text(f"报名附件已截止上传。规程规定: “{wording}”",
             f"uploads are closed. The regulation says: “{wording}” "
             f"(deadline {rules.deadline:%Y-%m-%d %H:%M} Beijing time)"),
        code="papers_closed", params={"deadline": rules.deadline.isoformat()},
    )


def _check_content(rules: Attachments, data: bytes, filename: str) -> str:
    limit = int(rules.max_mb * 1024 * 1024)
    shown = safe_part(filename or "upload")
    if not data:
        raise InputError(Text(f"{shown} 是空文件", f"{shown} is empty"), code="empty_file")
    if len(data) > limit:
        mb = f"{rules.max_mb:g}"
        raise Refused(
            Text(f"{shown} 大小为 {len(data) / 1048576:.1f} MB, 超过规定的每个文件 {mb} MB 上限",
                 f"{shown} is {len(data) / 1048576:.1f} MB, over the limit of {mb} MB per file"),
            code="file_too_large", params={"size": len(data), "limit": limit, "max_mb": rules.max_mb},
        )
    kind = sniff(data)
    allowed = "、".join(TYPE_LABEL[k] for k in rules.kinds)
    if kind is None or kind not in rules.kinds:
        actual = TYPE_LABEL[kind] if kind else None
        found = Text(actual, actual) if actual else _what_it_is(data)
        raise Refused(
            Text(f"{shown} 的内容是{found.zh}, 不是允许的文件类型 ({allowed}); 文件类型按内容识别, "
                 "改扩展名无效",
                 f"{shown} contains {found.en}, not an allowed type ({allowed}); the type is read "
                 "from the content, renaming does not help"),
            code="file_type", params={"found": kind, "allowed": list(rules.kinds)},
        )
    return kind


def upload(
    work: Work,
    event: EventRecord,
    team_ref: str | int | None,
    kind: str,
    data: bytes,
    filename: str,
    *,
    player_ref: str | None = None,
    force: bool = False,
    note: str = "",
) -> PaperView:
    """Attach a file to a team: its stamped entry form, or one player's identity proof.

    A new upload of the same paper replaces the earlier one (its file is deleted at once).
    """
    work.require(Action.REGISTER)
    regulation = regulation_of(event)
    rules = attachment_rules(regulation)
    team = resolve_team(work, event, team_ref)
    check_team_access(work, event.id, team.id)
    if kind not in KINDS:
        raise InputError(Text(f"未知附件类别: {kind} (可选: {', '.join(KINDS)})",
                              f"unknown paper kind: {kind} (one of: {', '.join(KINDS)})"),
                         code="paper_kind")
    player = None
    if kind == IDENTITY_PROOF:
        if not player_ref:
            raise InputError(Text("身份证明须指明棋手", "an identity proof names its player"),
                             code="player_required")
        player = _member(work, event, team, player_ref)
    _check_deadline(work, rules, force, note)
    file_type = _check_content(rules, data, filename)
    name = paper_file_name(rules, team.name, kind, file_type, player.name if player else None)
    digest = hashlib.sha256(data).hexdigest()
    key = f"event-{event.id}/team-{team.id}/{digest[:16]}-{name}"
    store, table = files_of(work), rows(work)
    for old in table.list(event.id, int(team.id)):
        if old.kind == kind and old.player_id == (int(player.id) if player else None) \
                and old.status in (*LIVE, "returned"):
            if old.storage_key and old.storage_key != key:
                store.delete(old.storage_key)
            table.update(old.id, status="replaced", storage_key=None)
    store.put(key, data)
    saved = table.add(
        event_id=event.id, team_id=int(team.id), player_id=int(player.id) if player else None,
        kind=kind, file_type=file_type, file_name=name, uploaded_name=safe_part(filename or name),
        size=len(data), sha256=digest, storage_key=key, status="submitted", reason="",
        uploaded_at=work.now, uploaded_by=work.actor.audit_name,
    )
    audit_rows.audit(work.session, work.stamp, event.id, "upload", "paper", saved.id, None,
                     {"team": team.name, "kind": kind, "player": player.name if player else None,
                     "file": name, "size": len(data), "sha256": digest}, note)
    work.emit("paper_uploaded", event.id, paper=saved.id, team=team.id, paper_kind=kind)
    return PaperView(saved, team.name, player.name if player else None)


# ------------------------------------------------------------------ the director's view


def _missing(regulation: Regulation, team: Team, players: dict[str, Player],
             papers: list[PaperRecord]) -> list[Text]:
    rules = attachment_rules(regulation)
    live = [p for p in papers if p.status in LIVE]
    returned = {(p.kind, p.player_id): p.reason for p in papers if p.status == "returned"}
    out: list[Text] = []

    def why(kind: str, pid: int | None) -> tuple[str, str]:
        r = returned.get((kind, pid))
        return (f" (已退回: {r})", f" (returned: {r})") if r is not None else ("", "")

    if rules.entry_form and not any(p.kind == ENTRY_FORM for p in live):
        zh, en = why(ENTRY_FORM, None)
        out.append(Text("盖章报名表" + zh, "stamped entry form" + en))
    if rules.identity_proofs:
        have = {p.player_id for p in live if p.kind == IDENTITY_PROOF}
        for m in team.members:
            if int(m.player_id) not in have:
                name = players[m.player_id].name if m.player_id in players else m.player_id
                zh, en = why(IDENTITY_PROOF, int(m.player_id))
                out.append(Text(f"身份证明: {name}{zh}", f"identity proof: {name}{en}"))
    return out


def list_papers(work: Work, event: EventRecord, team_ref: str | int | None = None) -> list[TeamPapers]:
    """Per team: its papers (newest state) and what is missing. Officials get every team when
    no team is named; a team leader gets their own team only."""
    check_event_access(work, event.id)
    regulation = regulation_of(event)
    if team_ref is None and not _is_official(work):  # a team leader: the own team(s)
        teams = [t for t in team_rows.list_teams(work.session, event.id) if work.actor.leads(t.id)]
        if not teams:
            check_team_access(work, event.id, "")
    else:
        teams = [resolve_team(work, event, team_ref)] if team_ref is not None else \
            team_rows.list_teams(work.session, event.id)
    players = roster_rows.players_by_id(work.session, event.id)
    all_papers = rows(work).list(event.id)
    out = []
    for t in teams:
        check_team_access(work, event.id, t.id)
        mine = [p for p in all_papers if str(p.team_id) == t.id]
        shown = tuple(PaperView(p, t.name, players[str(p.player_id)].name if p.player_id is not None
                                and str(p.player_id) in players else None)
                      for p in mine if p.status != "replaced")
        out.append(TeamPapers(t.id, t.name, shown, tuple(_missing(regulation, t, players, mine))))
    return out


def _paper_for(work: Work, paper_id: int | str) -> PaperRecord:
    """A paper the actor may see; an id of another team's paper, or one that does not exist,
    is refused the same way for a team leader (guessing ids tells nothing)."""
    try:
        number = int(str(paper_id).strip())
    except ValueError:
        raise InputError(Text(f"附件编号须为数字: {paper_id}", f"a paper id is a number: {paper_id}"),
                         code="bad_paper_id") from None
    paper = rows(work).get(number)
    if paper is None:
        if not _is_official(work):
            check_team_access(work, work.actor.event or 0, "")
        raise NotFoundError(Text(f"没有附件 {number}", f"no paper {number}"), code="paper_not_found")
    check_team_access(work, paper.event_id, str(paper.team_id))
    return paper


def _decide(work: Work, paper_id: int | str, status: str, reason: str) -> PaperView:
    work.require(Action.APPROVE)
    paper = _paper_for(work, paper_id)
    if paper.status not in (*LIVE, "returned"):
        raise Refused(Text(f"附件 {paper.id} {STATUS[paper.status].zh}, 不能再审核",
                           f"paper {paper.id} is {STATUS[paper.status].en}; nothing to decide"),
                      code="paper_not_live")
    saved = rows(work).update(paper.id, status=status, reason=reason, decided_at=work.now,
                              decided_by=work.actor.audit_name)
    audit_rows.audit(work.session, work.stamp, paper.event_id, status, "paper", paper.id, {"status": paper.status},
                     {"status": status, "reason": reason})
    work.emit(f"paper_{status}", paper.event_id, paper=paper.id, team=str(paper.team_id))
    event = event_rows.get_event(work.session, paper.event_id)
    return _view(work, event, saved)


def accept(work: Work, paper_id: int | str) -> PaperView:
    return _decide(work, paper_id, "accepted", "")


def return_paper(work: Work, paper_id: int | str, reason: str) -> PaperView:
    """Send a paper back to its team; the reason is shown to the team leader."""
    if not reason.strip():
        raise InputError(Text("退回须写明理由", "say why the paper is returned"),
                         code="reason_required")
    return _decide(work, paper_id, "returned", reason.strip())


def download(work: Work, paper_id: int | str) -> Download:
    """The file itself; every download is written to the audit log (who, when, which)."""
    paper = _paper_for(work, paper_id)
    if paper.storage_key is None:
        raise Refused(Text(f"附件 {paper.id} 的文件已清除或已被替换",
                           f"paper {paper.id}'s file was purged or replaced"), code="paper_gone")
    try:
        data = files_of(work).get(paper.storage_key)
    except FileNotFoundError:
        raise Refused(Text(f"附件 {paper.id} 的文件不在文件存储中", f"paper {paper.id}'s file is "
                           "missing from the file store"), code="paper_file_missing") from None
    audit_rows.audit(work.session, work.stamp, paper.event_id, "download", "paper", paper.id, None,
                     {"file": paper.file_name, "kind": paper.kind})
    return Download(paper.file_name, CONTENT_TYPE[paper.file_type], data)


def purge(work: Work, event: EventRecord, *, note: str = "",
          kinds: tuple[str, ...] = (IDENTITY_PROOF, ENTRY_FORM)) -> int:
    """After the event: delete the files (identity proofs and forms by default) and keep only the
    rows' bookkeeping; one audit line records how many files were removed and by whom. Purging
    every kind also clears the event's folder of files left by uploads that were rolled back."""
    work.require(Action.APPROVE)
    check_event_access(work, event.id)
    store, table = files_of(work), rows(work)
    removed = 0
    for paper in table.list(event.id):
        if paper.kind not in kinds or paper.storage_key is None:
            continue
        store.delete(paper.storage_key)
        table.update(paper.id, storage_key=None, status="purged", purged_at=work.now)
        removed += 1
    leftovers = 0
    if set(kinds) >= set(KINDS):  # everything: also files whose upload was rolled back
        leftovers = store.delete_under(f"event-{event.id}")
    audit_rows.audit(work.session, work.stamp, event.id, "purge", "papers", event.id, None,
                     {"files": removed, "kinds": list(kinds), "unreferenced": leftovers}, note)
    work.emit("papers_purged", event.id, files=removed)
    return removed


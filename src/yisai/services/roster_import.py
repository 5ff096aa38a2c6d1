"""Roster import (报名表导入): a whole file of players, their entries and their teams in one go.

Any bad row, or any team breaking its rules, saves nothing. A team leader's file names the own
team(s) only. ``row_from_fields`` validates one player typed in by hand exactly like a row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from yisai.formats.roster import Roster, RosterIssue, RosterRow, Sheet, parse_sheets
from yisai.formats.uploads import read_roster_bytes
from yisai.i18n import Text, tr
from yisai.registry.eligibility import window_texts
from yisai.registry.entry import EntryStatus
from yisai.registry.team import Team, TeamMember
from yisai.regulation import Regulation
from yisai.services.context import InputError, Refused, Work
from yisai.services.eligibility import division_name
from yisai.services.entries import Registered, register_player
from yisai.services.errors import Forbidden, Hint
from yisai.services.events import regulation_of
from yisai.services.identity import Action, Role
from yisai.services.players import find_existing_player
from yisai.services.registration import team_of_player
from yisai.services.registration_window import late_note, mark_late, require_late_admission
from yisai.services.teams import (
    as_individuals,
    bind_new_team,
    claim_teams,
    fill_slots,
    team_composition_texts,
    team_note_required,
    team_rules,
)
from yisai.store import EventRecord, roster_rows, team_rows


@dataclass
class ImportReport:
    rows: int = 0
    players_created: int = 0
    players_updated: int = 0
    entries_created: int = 0
    entries_pending: int = 0
    teams_created: int = 0
    members_added: int = 0
    changes_pending: int = 0  # changes to registered players waiting for the chief referee
    warnings: list[str] = field(default_factory=list)
    ineligible: list[str] = field(default_factory=list)  # "姓名(组别): reason" in the caller's language


# ------------------------------------------------------------------ helpers


def import_roster(
    work: Work,
    event: EventRecord,
    data: bytes | Roster,
    filename: str = "",
    *,
    require_team: bool = False,
    force: bool = False,
    note: str = "",
    late: bool = False,
) -> ImportReport:
    """Import a roster (the file's bytes and name, or rows already parsed) in one go: any bad
    row, or any team breaking its rules, saves nothing. ``late`` waives the registration
    deadline alone (the chief referee's 逾期报名, ``note`` the reason); ``force`` waives every rule.

    Importing the same file again finds everyone already there and adds nobody.
    """
    work.require(Action.REGISTER)
    work.check_event(event.id)
    regulation = regulation_of(event)
    roster = data if isinstance(data, Roster) else read_roster_bytes(data, filename, regulation)
    path = Path(filename or "roster")
    issues: list[str | Text] = [str(i) for i in roster.issues]
    if require_team:
        issues += [
            Text(f"{r.sheet} 第{r.row}行: 缺少队名, 导入队伍时每行都须填写“队名”",
                 f"{r.sheet} row {r.row}: no team name; importing teams, every row needs “队名”")
            for r in roster.rows
            if not r.team
        ]
    if any(r.team for r in roster.rows) and regulation.teams is None:
        issues.append(Text(f"规程“{regulation.name}”没有代表队规定, 请删除“队名”列",
                           f"regulation “{regulation.name}” has no team rules: delete the “队名” column"))
    if issues:
        raise InputError(
            Text(f"{path.name} 有{len(issues)}处错误, 未导入任何数据",
                 f"{path.name} has {len(issues)} error(s); nothing imported"),
            issues, code="bad_roster", params={"file": path.name},
        )
    if force:
        work.require(Action.APPROVE)
        work.check_event(event.id)
    if late:
        require_late_admission(work, note)
    if work.actor.role is Role.TEAM_LEADER:
        _leader_rows(work, event, roster)
    report = ImportReport(rows=len(roster.rows), warnings=list(roster.warnings))
    registered: list[tuple[RosterRow, Registered]] = []
    for row in roster.rows:
        reg = register_player(
            work, event, row.player, division=row.division, stage=row.stage,
            fee_paid=row.fee_paid, note=note, late=late, team_row=bool(row.team),
        )  # fmt: skip
        registered.append((row, reg))
        report.players_created += reg.player_created
        report.players_updated += not reg.player_created and reg.change_pending is None
        report.changes_pending += reg.change_pending is not None
        if reg.entry_created and reg.entry is not None:
            report.entries_created += 1
            if reg.entry.status is EntryStatus.PENDING:
                report.entries_pending += 1
            if reg.entry.reasons:  # worded here, in the caller's language (the report is shown once)
                name = division_name(regulation, reg.entry.division)
                report.ineligible += [f"{reg.player.name}({name}): {r.render()}" for r in reg.entry.reasons]
    _import_teams(work, event, regulation, registered, report, force=force, note=note, late=late)
    work.emit("roster_imported", event.id, rows=report.rows, created=report.entries_created)
    return report


def _import_teams(
    work: Work,
    event: EventRecord,
    regulation: Regulation,
    registered: list[tuple[RosterRow, Registered]],
    report: ImportReport,
    *,
    force: bool,
    note: str,
    late: bool = False,
) -> None:
    by_team: dict[str, list[tuple[RosterRow, Registered]]] = {}
    for row, reg in registered:
        if row.team:
            by_team.setdefault(row.team, []).append((row, reg))
    if not by_team:
        return
    rules = team_rules(regulation)
    problems: list[Text] = []
    # A closed registration window is the same reason for every team: said once, not per team.
    closed = set(window_texts(work.now, rules))
    shared: dict[Text, list[str]] = {}
    for name, rows in by_team.items():
        existing = team_rows.find_team(work.session, event.id, name)
        have = {m.player_id for m in existing.members} if existing else set()
        new_members = [
            TeamMember(player_id=reg.player.id, slot=row.slot, division=row.division)
            for row, reg in rows
            if reg.player.id not in have
        ]
        players = roster_rows.players_by_id(work.session, event.id)
        new_members = as_individuals(work, event, report.warnings, rules, name, new_members,
                                      players, existing.members if existing else ())
        if existing is not None and not new_members:
            continue
        base = existing or _team_from_rows(name, [r for r, _ in rows])
        filled = fill_slots(rules, [*base.members, *new_members], players)
        candidate = base.model_copy(update={"members": tuple(filled)})
        reasons = team_composition_texts(work, event, candidate)
        waived = late and any(r in closed for r in reasons)
        if waived:  # the chief referee admits the team after the deadline: that reason alone goes
            reasons = [r for r in reasons if r not in closed]
        if reasons and not force:
            rows_text = "、".join(str(r.row) for r, _ in rows)
            rows_en = ", ".join(str(r.row) for r, _ in rows)
            for r in reasons:
                if r in closed:
                    shared.setdefault(r, []).append(name)
                else:
                    problems.append(Text(f"{name}(第{rows_text}行): {r.zh}",
                                         f"{name} (rows {rows_en}): {r.en}"))
            continue
        if reasons and not note.strip():
            raise team_note_required(name)
        if waived:
            reasons = [*reasons, late_note(note)]  # kept with the team: why it came after the deadline
            for _row, reg in rows:
                if reg.entry_created and reg.entry is not None and not reg.entry.note:
                    mark_late(work, reg.entry, note)
        if existing is None:
            made = team_rows.add_team(work.session, work.stamp, event.id, candidate, reasons, note.strip())
            bind_new_team(work, event, int(made.id))
            report.teams_created += 1
            report.members_added += len(candidate.members)
        else:
            added = [m for m in filled if m.player_id not in have]
            for m in added:
                team_rows.add_team_member(work.session, work.stamp, existing.id, m, note.strip())
            report.members_added += len(added)
    only_late = bool(shared) and not problems  # every team failed on the closed window alone
    problems[:0] = [Text(f"{r.zh} (涉及{len(teams)}支队: {'、'.join(teams)})",
                         f"{r.en} ({len(teams)} teams: {', '.join(teams)})")
                    for r, teams in shared.items()]
    if problems:
        raise Refused(
            Text("以下队伍不符合组队规定, 未导入任何数据",
                 "these teams break the team composition rules; nothing imported"),
            problems, code="team_composition", hint=Hint.LATE_IMPORT if only_late else Hint.FORCE_IMPORT,
        )


def _leader_rows(work: Work, event: EventRecord, roster: Roster) -> None:
    """A team leader's file names the own team(s) only, on every row; a row naming another team
    (or a player of another team) refuses the whole file, with the row."""
    problems: list[Text] = []
    new: list[str] = []
    for r in roster.rows:
        where = Text(f"{r.sheet} 第{r.row}行", f"{r.sheet} row {r.row}")
        if not r.team:
            problems.append(Text(f"{where.zh}: 缺少队名 (领队只登记本队棋手, 每行须填写本队队名)",
                                 f"{where.en}: no team name (a team leader registers the own team's players only)"))
            continue
        team = team_rows.find_team(work.session, event.id, r.team)
        if team is not None and not work.actor.leads(team.id):
            problems.append(Text(f"{where.zh}: 队伍“{r.team}”不是本账号的队伍",
                                 f"{where.en}: team {r.team} is not this account's team"))
            continue
        if team is None and r.team not in new:
            new.append(r.team)
        existing = find_existing_player(work, event, r.player)
        other = team_of_player(work, event, existing.id) if existing is not None else None
        if other is not None and not work.actor.leads(other.id):
            problems.append(Text(f"{where.zh}: {existing.name if existing else ''}是{other.name}的队员, 不是本队棋手",
                                 f"{where.en}: {existing.name if existing else ''} plays for {other.name}"))
    if problems:
        raise Forbidden(Text(f"报名表有{len(problems)}行涉及其他队伍, 未导入任何数据; 领队只能登记本队",
                             f"{len(problems)} row(s) of the file concern other teams; nothing imported: a team "
                             "leader registers the own team only"),
                        problems, code="not_own_team")
    claim_teams(work, len(new))


def _team_from_rows(name: str, rows: list[RosterRow]) -> Team:
    def common(values: Iterable[str | None]) -> str | None:
        counted = Counter(v for v in values if v)
        return counted.most_common(1)[0][0] if counted else None

    leaders = tuple(dict.fromkeys(n for r in rows for n in r.leaders))
    coaches = tuple(dict.fromkeys(n for r in rows for n in r.coaches))
    return Team(
        name=name,
        region=common(r.player.region for r in rows),
        province=common(r.player.province for r in rows),
        city=common(r.player.city for r in rows),
        leaders=leaders,
        coaches=coaches,
    )


def row_from_fields(
    regulation: Regulation, fields: dict[str, str | None], labels: dict[str, str] | None = None
) -> RosterRow:
    """One player typed in by hand (CLI, web form), validated exactly like a roster row.

    ``fields`` are keyed by roster header (姓名, 性别 …); ``labels`` name the input each header
    came from (e.g. 性别 → --gender) so messages point at what the user typed.
    """
    # 姓名 is always a column, so a row typed without a name says "姓名: 姓名不能为空" (not
    # "no header row", which speaks of files).
    headers = [h for h, v in fields.items() if v not in (None, "") or h == "姓名"]
    if "姓名" not in headers:
        headers.insert(0, "姓名")
        fields = {**fields, "姓名": None}
    sheet = Sheet("输入", [headers, [fields[h] for h in headers]])
    roster = parse_sheets([sheet], regulation)
    labels = labels or {}

    def problem(issue: RosterIssue) -> str:
        if issue.header:
            return f"{labels.get(issue.header, issue.header)}: {issue.message}"
        if issue.missing and all(h in labels for h in issue.missing):  # the inputs, not sheet columns
            names = [labels[h] for h in issue.missing]
            return tr(f"须给出 {' 或 '.join(names)}", f"give {' or '.join(names)}")
        return issue.message

    problems = [problem(i) for i in roster.issues]
    if problems or not roster.rows:
        raise InputError(Text("输入有误, 未保存", "the input has errors; nothing saved"),
                         problems or [Text("缺少姓名", "the name is missing")], code="bad_player_input")
    return roster.rows[0]

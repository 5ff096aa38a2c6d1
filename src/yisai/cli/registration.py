"""`yisai player|team|entry|template ...`: registration as the director runs it from a terminal.

Each command is one transaction (see ``cli.session``). Roster imports save nothing while any
row is wrong; approvals of ineligible entries are refused with every reason unless forced with
a note, which the audit log keeps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from yisai.cli.render import read_input
from yisai.cli.session import DbOption, EventOption, command_work, console, fail, say
from yisai.formats.awards_report import place_of
from yisai.formats.regulation_file import load
from yisai.formats.template import write_roster_template
from yisai.i18n import tr
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.team import Team
from yisai.regulation import RegulationError
from yisai.services import approvals, capacity, entries, players, roster_import, teams
from yisai.services.events import regulation_of, resolve_event
from yisai.services.roster_import import ImportReport

player_app = typer.Typer(help="棋手: 登记、导入报名表、列表 (players)", no_args_is_help=True)
team_app = typer.Typer(help="代表队: 登记、导入、列表 (teams)", no_args_is_help=True)
entry_app = typer.Typer(help="报名审核: 批准、不予批准、退赛、缴费 (entries)", no_args_is_help=True)
change_app = typer.Typer(help="待审更改: 已审核或截止后对已登记棋手的更改, 由裁判长批准或驳回 (pending changes)",
                          no_args_is_help=True)
template_app = typer.Typer(help="模板: 按规程生成报名表 (templates)", no_args_is_help=True)

ForceOption = Annotated[bool, typer.Option("--force", help="裁判长决定: 不符合规定也执行 (须同时用 --note 写明理由)")]
LateOption = Annotated[bool, typer.Option(
    "--late", help="裁判长决定: 报名截止后逾期报名 (只免除报名时间, 其他规定照常; 须同时用 --note 写明理由)")]
NoteOption = Annotated[str, typer.Option("--note", help="说明 (记入审计日志)")]

OPTION_OF = {
    "姓名": "--name", "性别": "--gender", "出生日期": "--birth", "身份证号": "--id-number",
    "段位": "--rank", "证书编号": "--cert", "职业身份": "--pro", "地区": "--region",
    "省份": "--province", "城市": "--city", "单位": "--club", "手机": "--phone",
    "组别": "--division", "阶段": "--stage", "已缴费": "--paid",
}  # fmt: skip


def _status(status: EntryStatus) -> str:
    """An entry's status in the reader's language (reasons are ``Text``: rendered here)."""
    return tr(status.label, status.value)


def _status_text(e: Entry, division_name: str) -> str:
    fee = ""
    if e.fee_due:
        fee = tr(f", 费{e.fee_due}元{'已缴' if e.fee_paid else '未缴'}", f", fee {e.fee_due} {'paid' if e.fee_paid else 'due'}")
    forced = tr("(强制)", "(forced)") if e.forced else ""
    return f"#{e.id} {division_name}:{_status(e.status)}{forced}{fee}"


def _print_report(report: ImportReport) -> None:
    say(
        tr(
            f"已导入{report.rows}行: 新棋手{report.players_created}人, 已有棋手{report.players_updated}人,"
            f" 新报名{report.entries_created}项 (待审核{report.entries_pending}项),"
            f" 新队伍{report.teams_created}支, 新队员{report.members_added}人",
            f"imported {report.rows} rows: {report.players_created} new players, "
            f"{report.entries_created} new entries, {report.teams_created} new teams",
        ),
        "green",
    )
    if report.changes_pending:
        say(tr(f"{report.changes_pending}名已登记棋手的资料更改须裁判长批准, 暂未生效 (yisai change list)",
               f"{report.changes_pending} change(s) to registered players wait for the chief referee "
               "(yisai change list)"), "yellow")
    for w in report.warnings:
        say(tr(f"提示: {w}", f"note: {w}"), "yellow")
    if report.ineligible:
        say(tr("以下报名不符合参赛资格, 待裁判长审核:", "entries not meeting the rules (pending):"), "yellow")
        for line in report.ineligible:
            say(f"  - {line}")


# ------------------------------------------------------------------ players


@player_app.command("add")
def player_add(
    name: Annotated[str, typer.Option("--name", help="姓名")],
    gender: Annotated[str | None, typer.Option("--gender", help="男 或 女 (有身份证号时可省略)")] = None,
    birth: Annotated[str | None, typer.Option("--birth", help="出生日期, 如 2012-05-01")] = None,
    id_number: Annotated[str | None, typer.Option("--id-number", help="身份证号 (18位)")] = None,
    rank: Annotated[str | None, typer.Option("--rank", help="段级位, 如 5段 或 3级")] = None,
    cert: Annotated[str | None, typer.Option("--cert", help="业余段级位证书编号")] = None,
    pro: Annotated[str | None, typer.Option("--pro", help="业余 / 当年新定段职业 / 职业")] = None,
    region: Annotated[str | None, typer.Option("--region", help="地区: 中国大陆 / 香港 / 澳门 / 台湾 / 国外")] = None,
    province: Annotated[str | None, typer.Option("--province", help="省份")] = None,
    city: Annotated[str | None, typer.Option("--city", help="城市")] = None,
    club: Annotated[str | None, typer.Option("--club", help="单位/学校/俱乐部")] = None,
    phone: Annotated[str | None, typer.Option("--phone", help="手机")] = None,
    division: Annotated[str | None, typer.Option("--division", "-d", help="报名组别 (名称或 id)")] = None,
    stage: Annotated[str | None, typer.Option("--stage", help="阶段 (名称或 id; 默认整个比赛)")] = None,
    paid: Annotated[bool, typer.Option("--paid", help="已缴费")] = False,
    late: LateOption = False,
    note: NoteOption = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """登记一名棋手 (可同时报名一个组别); 已登记的同一人 (身份证号或姓名+出生日期) 会被更新而不重复."""
    fields = {
        "姓名": name, "性别": gender, "出生日期": birth, "身份证号": id_number, "段位": rank,
        "证书编号": cert, "职业身份": pro, "地区": region, "省份": province, "城市": city,
        "单位": club, "手机": phone, "组别": division, "阶段": stage, "已缴费": "是" if paid else None,
    }  # fmt: skip
    with command_work(db) as work:
        ev = resolve_event(work, event)
        regulation = regulation_of(ev)
        row = roster_import.row_from_fields(regulation, fields, OPTION_OF)
        done = entries.register_player(
            work, ev, row.player, division=row.division, stage=row.stage,
            fee_paid=row.fee_paid, late=late, note=note,
        )  # fmt: skip
    names = {d.id: d.name for d in regulation.divisions}
    p = done.player
    verb = tr("已登记", "added") if done.player_created else tr("已更新", "updated")
    if done.change_pending is not None:
        say(tr(f"棋手 #{p.id} {p.name} 的资料更改 (待审更改 #{done.change_pending}) 须裁判长批准, 暂未生效",
               f"the change to player #{p.id} {p.name} (pending change #{done.change_pending}) waits for the "
               "chief referee"), "yellow")
    else:
        say(f"{verb} {tr('棋手', 'player')} #{p.id} {p.name}", "green")
    if done.entry is not None:
        e = done.entry
        say(_status_text(e, names.get(e.division, e.division)))
        for r in e.reasons:
            say(f"  - {r.render()}", "yellow")


@player_app.command("import")
def player_import(
    file: Annotated[Path, typer.Argument(help="报名表: .xlsx / .xls / .csv")],
    force: ForceOption = False,
    late: LateOption = False,
    note: NoteOption = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """导入报名表; 任何一行有错则整个文件都不导入. 重复导入同一文件不会重复登记."""
    _import(file, teams=False, force=force, late=late, note=note, event=event, db=db)


def _import(file: Path, *, teams: bool, force: bool, late: bool, note: str, event: str | None,
            db: str | None) -> None:
    """`player import` and `team import`: one roster service, teams required or not."""
    data = read_input(file)
    with command_work(db) as work:
        report = roster_import.import_roster(work, resolve_event(work, event), data, file.name,
                                   require_team=teams, force=force, late=late, note=note)
    _print_report(report)


@player_app.command("list")
def player_list(
    division: Annotated[str | None, typer.Option("--division", "-d", help="只列该组别的报名棋手")] = None,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """列出棋手及其报名状态和不符合资格的原因."""
    with command_work(db) as work:
        ev = resolve_event(work, event)
        regulation = regulation_of(ev)
        views = players.list_players(work, ev, division=division)
    names = {d.id: d.name for d in regulation.divisions}
    table = Table(
        tr("编号", "id"), tr("姓名", "name"), tr("性别", "sex"), tr("出生日期", "born"),
        tr("段位", "rank"), tr("地区", "place"), tr("队伍", "team"), tr("报名", "entries"),
        title=f"{ev.name} — {len(views)}{tr('人', ' players')}",
    )  # fmt: skip
    for v in views:
        p = v.player
        cell = "\n".join(_status_text(e, names.get(e.division, e.division)) for e in v.entries)
        reasons = [r.render() for e in v.entries if e.status is EntryStatus.PENDING for r in e.reasons]
        if reasons:
            cell += "\n" + "\n".join(f"! {r}" for r in reasons)
        table.add_row(
            p.id, p.name, p.gender.label, f"{p.birth_date:%Y-%m-%d}" if p.birth_date else "",
            str(p.rank) if p.rank else "", place_of(p),
            v.team or "", cell,
        )  # fmt: skip
    console.print(table)


# ------------------------------------------------------------------ teams


@team_app.command("add")
def team_add(
    name: Annotated[str, typer.Option("--name", help="队名")],
    province: Annotated[str | None, typer.Option("--province", help="省份")] = None,
    city: Annotated[str | None, typer.Option("--city", help="城市")] = None,
    region: Annotated[str | None, typer.Option("--region", help="地区")] = None,
    leader: Annotated[list[str] | None, typer.Option("--leader", help="领队姓名 (可重复)")] = None,
    coach: Annotated[list[str] | None, typer.Option("--coach", help="教练姓名 (可重复)")] = None,
    member: Annotated[
        list[str] | None,
        typer.Option("--member", "-m", help="队员: 棋手编号或身份证号, 可加 :席位, 如 12:甲组男 (可重复)"),
    ] = None,
    force: ForceOption = False,
    note: NoteOption = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """登记代表队并按规程检查组队 (人数、男女、席位、领队教练、队数、报名时间、地区)."""
    members = []
    for m in member or []:
        ref, _, slot = m.partition(":")
        if not ref.strip():
            fail(tr(f"--member {m!r}: 须写棋手编号或身份证号", f"--member {m!r}: player missing"))
        members.append((ref.strip(), slot.strip() or None))
    team = Team(
        name=name.strip() or "-", province=province, city=city, region=region,
        leaders=tuple(leader or ()), coaches=tuple(coach or ()),
    )  # fmt: skip
    with command_work(db) as work:
        ev = resolve_event(work, event)
        view = teams.add_team(work, ev, team, members, force=force, note=note)
    say(tr(f"已登记队伍 #{view.team.id} {view.team.name}, 队员{len(view.players)}人",
           f"added team #{view.team.id} {view.team.name}"), "green")  # fmt: skip
    for r in view.reasons:
        say(tr(f"  - (强制登记) {r}", f"  - (forced) {r}"), "yellow")


@team_app.command("replace")
def team_replace(
    team: Annotated[str, typer.Argument(help="队伍编号或队名")],
    out_player: Annotated[str, typer.Option("--out", help="被替换的队员 (编号或身份证号)")],
    in_player: Annotated[str, typer.Option("--in", help="递补的棋手 (编号或身份证号, 须已报名该组别)")],
    note: NoteOption = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """递补: 已报名的棋手替换队员, 占用同一席位 (须写明理由, 记入审计)."""
    with command_work(db) as work:
        view = teams.replace_team_member(work, resolve_event(work, event), team, out_player, in_player,
                                       note=note)
    say(tr(f"已递补: {view.team.name} 现有队员 ", f"replaced: {view.team.name} now has ")
        + "、".join(p.name for p in view.players), "green")
    for r in view.reasons:
        say(f"  ! {r}", "yellow")


@team_app.command("import")
def team_import(
    file: Annotated[Path, typer.Argument(help="报名表 (每行须有队名): .xlsx / .xls / .csv")],
    force: ForceOption = False,
    late: LateOption = False,
    note: NoteOption = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """按报名表导入代表队及队员; 有错误或不符合组队规定则整个文件都不导入. 报名截止后由裁判长 --late --note 逾期导入."""
    _import(file, teams=True, force=force, late=late, note=note, event=event, db=db)


@team_app.command("list")
def team_list(event: EventOption = None, db: DbOption = None) -> None:
    """列出代表队及队员席位."""
    with command_work(db) as work:
        ev = resolve_event(work, event)
        views = teams.list_teams(work, ev)
    table = Table(
        tr("编号", "id"), tr("队名", "team"), tr("地区", "place"), tr("领队", "leader"),
        tr("教练", "coach"), tr("队员", "members"), title=f"{ev.name} — {len(views)}{tr('支队', ' teams')}",
    )  # fmt: skip
    for v in views:
        t = v.team
        members = "\n".join(
            f"{m.slot + ' ' if m.slot else ''}{p.name}({p.gender.label})" for m, p in zip(t.members, v.players, strict=True)
        )
        if v.reasons:
            members += "\n" + "\n".join(f"! {r}" for r in v.reasons)
        table.add_row(t.id, t.name, t.place, "、".join(t.leaders), "、".join(t.coaches), members)
    from yisai.registry.fees import team_fee_for
    from yisai.services.events import regulation_of

    fee = team_fee_for(regulation_of(ev))
    if fee:  # a fee the regulation charges per team (fees.items with per = "team")
        table.caption = tr(f"每队报名费 {fee} 元 (规程按队收取), 共 {fee * len(views)} 元",
                           f"team fee {fee} yuan per team (the regulation charges per team), {fee * len(views)} in all")
    console.print(table)


# ------------------------------------------------------------------ entries


@entry_app.command("approve")
def entry_approve(
    entry_ids: Annotated[list[str] | None, typer.Argument(help="报名编号 (可多个)")] = None,
    all_eligible: Annotated[bool, typer.Option("--all", help="批准全部符合资格的待审报名")] = False,
    force: ForceOption = False,
    note: NoteOption = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """批准报名; 不符合参赛资格时列出全部原因并拒绝, 除非裁判长 --force --note."""
    if all_eligible == bool(entry_ids):
        fail(tr("请给出报名编号, 或用 --all 批准全部符合资格的报名 (二者选一)",
                "give entry numbers, or --all for every eligible pending entry (one of the two)"))
    with command_work(db) as work:
        if all_eligible:
            done, left = approvals.approve_all_eligible(work, resolve_event(work, event), note=note)
        else:
            done, left = [approvals.approve_entry(work, i, force=force, note=note) for i in entry_ids or []], []
    if all_eligible:
        say(tr(f"已批准 {len(done)} 个符合资格的报名; {len(left)} 个仍待审 (有不符合资格的原因)",
               f"approved {len(done)} eligible entries; {len(left)} still pending (with reasons)"), "green")
        for v in left:
            say(f"  #{v.entry.id} {v.player.name} ({v.division_name}): " + "；".join(r.render() for r in v.entry.reasons), "yellow")
        return
    for e in done:
        say(tr(f"已批准报名 #{e.id}", f"approved entry #{e.id}") + (tr(" (强制)", " (forced)") if e.forced else ""), "green")
        for r in e.reasons:
            say(f"  - {r.render()}", "yellow")


@entry_app.command("reject")
def entry_reject(
    entry_id: Annotated[str, typer.Argument(help="报名编号")],
    reason: Annotated[str, typer.Option("--reason", help="不予批准的理由")],
    db: DbOption = None,
) -> None:
    """不予批准报名 (须写理由)."""
    with command_work(db) as work:
        e = approvals.reject_entry(work, entry_id, reason)
    say(tr(f"报名 #{e.id} 不予批准: {e.note}", f"entry #{e.id} rejected: {e.note}"), "green")


@entry_app.command("withdraw")
def entry_withdraw(
    entry_id: Annotated[str, typer.Argument(help="报名编号")],
    reason: Annotated[str, typer.Option("--reason", help="退赛原因 (比赛开始后必填, 仅裁判长)")] = "",
    db: DbOption = None,
) -> None:
    """退赛: 已下的对局保留 (计入对手分与团体), 此后不再编排。"""
    from yisai.services.withdrawal import withdraw_entry

    with command_work(db) as work:
        e = withdraw_entry(work, entry_id, reason)
    say(tr(f"报名 #{e.id} 已退赛", f"entry #{e.id} withdrawn"), "green")


@entry_app.command("disqualify")
def entry_disqualify(
    entry_id: Annotated[str, typer.Argument(help="报名编号")],
    reason: Annotated[str, typer.Option("--reason", help="取消资格的理由 (必填)")] = "",
    db: DbOption = None,
) -> None:
    """取消资格 (裁判长): 不计名次; 已赛对局按规程 withdrawal.disqualified_games 处理。"""
    from yisai.services.withdrawal import disqualify_entry

    with command_work(db) as work:
        e = disqualify_entry(work, entry_id, reason)
    say(tr(f"报名 #{e.id} 已取消资格: {e.note}", f"entry #{e.id} disqualified: {e.note}"), "green")


@entry_app.command("reinstate")
def entry_reinstate(
    entry_id: Annotated[str, typer.Argument(help="报名编号")],
    reason: Annotated[str, typer.Option("--reason", help="恢复参赛的理由 (必填)")] = "",
    db: DbOption = None,
) -> None:
    """恢复参赛 (裁判长): 退赛或取消资格的报名恢复为已通过, 自下一轮起参加编排。"""
    from yisai.services.withdrawal import reinstate_entry

    with command_work(db) as work:
        e = reinstate_entry(work, entry_id, reason)
    say(tr(f"报名 #{e.id} 已恢复参赛", f"entry #{e.id} reinstated"), "green")


@entry_app.command("pay")
def entry_pay(
    entry_id: Annotated[str, typer.Argument(help="报名编号")],
    unpaid: Annotated[bool, typer.Option("--unpaid", help="改回未缴费")] = False,
    db: DbOption = None,
) -> None:
    """登记已缴费 (或用 --unpaid 改回未缴)."""
    with command_work(db) as work:
        e = approvals.set_fee_paid(work, entry_id, not unpaid)
    say(tr(f"报名 #{e.id}: {'已缴费' if e.fee_paid else '未缴费'}", f"entry #{e.id}: paid={e.fee_paid}"), "green")


@entry_app.command("list")
def entry_list(
    division: Annotated[str | None, typer.Option("--division", "-d", help="组别")] = None,
    status: Annotated[
        str | None, typer.Option("--status", help="pending / approved / rejected / withdrawn / disqualified")
    ] = None,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """列出报名及审核状态、原因."""
    wanted = None
    if status:
        try:
            wanted = EntryStatus(status)
        except ValueError:
            fail(tr(f"--status {status}: 应为 pending/approved/rejected/withdrawn/disqualified", f"bad --status {status}"))
    with command_work(db) as work:
        ev = resolve_event(work, event)
        views = entries.list_entries(work, ev, division=division, status=wanted)
        places = [p.text.render() for p in capacity.event_places(work, ev.id, regulation_of(ev))]
    table = Table(
        tr("报名", "entry"), tr("棋手", "player"), tr("组别", "division"), tr("状态", "status"),
        tr("费用", "fee"), tr("原因/说明", "reasons/note"), title=f"{ev.name} — {len(views)}",
    )  # fmt: skip
    for v in views:
        e = v.entry
        fee = tr(f"{e.fee_due}元{'已缴' if e.fee_paid else '未缴'}",
                 f"{e.fee_due} yuan {'paid' if e.fee_paid else 'due'}") if e.fee_due else "-"
        notes = "\n".join([*(r.render() for r in e.reasons), *([e.note] if e.note else [])])
        table.add_row(f"#{e.id}", f"{v.player.name} #{v.player.id}", v.division_name, _status(e.status), fee, notes)
    console.print(table)
    for line in places:  # 名额: 已报 n / N (pending entries hold a place)
        say(line)


# ------------------------------------------------------------------ templates


@template_app.command("roster")
def template_roster(
    regulation: Annotated[Path, typer.Option("--regulation", "-r", help="规程 TOML 文件")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="输出的 .xlsx 文件")] = None,
) -> None:
    """按规程生成报名表模板 (.xlsx): 性别/组别等下拉选择, 身份证号和手机为文本列."""
    try:
        model = load(regulation)
    except RegulationError as exc:
        fail(tr(f"规程文件有{len(exc.issues)}处错误", "regulation has errors"), [str(i) for i in exc.issues])
    out = output or Path(f"{model.id}-报名表.xlsx")
    if out.suffix.lower() != ".xlsx":
        fail(tr(f"--output 须为 .xlsx 文件: {out}", f"--output must end in .xlsx: {out}"))
    if not out.parent.is_dir():
        fail(tr(f"输出目录不存在: {out.parent}", f"no such directory: {out.parent}"))
    write_roster_template(model, out)
    say(tr(f"已生成报名表模板: {out}", f"wrote roster template: {out}"), "green")


@change_app.command("list")
def change_list(
    all_changes: Annotated[bool, typer.Option("--all", help="也列出已批准和已驳回的更改")] = False,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """列出待裁判长审核的棋手资料更改: 编号、棋手、原因、更改前后、提出者."""
    from yisai.services.player_changes import list_changes

    with command_work(db) as work:
        rows = list_changes(work, event, pending_only=not all_changes)
    if not rows:
        say(tr("没有待审更改", "no pending changes"))
        return
    t = Table(title=tr(f"待审更改 ({len(rows)})", f"pending changes ({len(rows)})"), title_style="bold")
    for h in (tr("编号", "no."), tr("棋手", "player"), tr("原因", "why"), tr("更改", "change"),
              tr("提出者", "by"), tr("状态", "status")):
        t.add_column(h)
    for v in rows:
        c = v.change
        what = "; ".join(f"{k}: {c.before.get(k)} → {c.after[k]}" for k in c.after)
        t.add_row(str(c.id), v.player, v.why.render(), what, c.requested_by, v.status_label.render())
    console.print(t)


@change_app.command("approve")
def change_approve(
    change_id: Annotated[str, typer.Argument(help="待审更改编号 (yisai change list)")],
    note: NoteOption = "",
    db: DbOption = None,
) -> None:
    """批准一项更改: 棋手资料随即更新, 报名资格重新检查."""
    from yisai.services.player_changes import approve_change

    with command_work(db) as work:
        p = approve_change(work, change_id, note)
    say(tr(f"已批准更改 #{change_id}: 棋手 #{p.id} {p.name} 已更新", f"change #{change_id} approved: player #{p.id} "
           f"{p.name} updated"), "green")


@change_app.command("reject")
def change_reject(
    change_id: Annotated[str, typer.Argument(help="待审更改编号")],
    reason: Annotated[str, typer.Option("--reason", help="驳回的理由")],
    db: DbOption = None,
) -> None:
    """驳回一项更改 (须写理由): 棋手资料保持原样."""
    from yisai.services.player_changes import reject_change

    with command_work(db) as work:
        c = reject_change(work, change_id, reason)
    say(tr(f"已驳回更改 #{c.id}: {c.reason}", f"change #{c.id} rejected: {c.reason}"), "green")


def register(app: typer.Typer) -> None:
    """Attach `yisai player|team|entry|template ...`."""
    app.add_typer(player_app, name="player")
    app.add_typer(team_app, name="team")
    app.add_typer(entry_app, name="entry")
    app.add_typer(template_app, name="template")
    app.add_typer(change_app, name="change")

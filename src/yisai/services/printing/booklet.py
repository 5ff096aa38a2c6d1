"""Lists and the booklet: 参赛名单, 秩序册, 循环赛交叉表与淘汰赛对阵."""

from __future__ import annotations

from yisai.formats.printing import (
    Column,
    Document,
    Section,
    Table,
)
from yisai.formats.regulation_summary import fmt_date, summarize, time_control, timetable_item
from yisai.i18n import Text, tr
from yisai.registry.team import TeamMember
from yisai.regulation import Regulation
from yisai.services.context import InputError
from yisai.services.event_data import approved_players
from yisai.services.printing.context import PrintContext, signatures
from yisai.services.printing.rounds import pairing_tables, stage_of
from yisai.services.rounds import round_view
from yisai.store import round_rows, team_rows

# ------------------------------------------------------------------ 参赛名单 秩序册


def entry_table(ctx: PrintContext, did: str) -> Table | None:
    """Who plays in a division, for the venue: no ID numbers, phones or birth dates."""
    players = approved_players(ctx.work, ctx.event, did)
    if not players:
        return None
    rows = tuple(
        (str(i), p.name, tr(p.gender.label, p.gender.value), ctx.unit(p.id), str(p.rank) if p.rank is not None else "")
        for i, p in enumerate(players, start=1)
    )
    return Table(tr(f"{ctx.division_name(did)}参赛名单 (共{len(players)}人)",
                    f"{ctx.division_name(did)} entries ({len(players)})"),
                 (Column(tr("序号", "No."), "right"), Column(tr("姓名", "Name"), share=1),
                  Column(tr("性别", "Gender"), "center"), Column(tr("代表队/单位", "Team/unit"), share=1.5),
                  Column(tr("段位", "Rank"), "center")), rows)


def entries_document(ctx: PrintContext) -> Document:
    sections = [Section(tables=(t,), new_page=True)
                for did in ctx.divisions() if (t := entry_table(ctx, did)) is not None]
    if not sections:
        raise InputError(Text("还没有已批准的报名", "no approved entries yet"), code="nothing_to_print")
    return ctx.document("report", "entries", sections=tuple(sections))


def _summary_sections(reg: Regulation) -> list[Section]:
    """The regulation summary, one section per 【…】 heading."""
    sections: list[Section] = []
    heading, lines = "竞赛规程摘要", list[str]()
    for line in summarize(reg, ids=False)[2:]:
        if line.startswith("【") and line.endswith("】"):
            if lines:
                sections.append(Section(heading, tuple(lines)))
            heading, lines = line.strip("【】"), []
        elif line:
            lines.append(line)
    if lines:
        sections.append(Section(heading, tuple(lines)))
    return sections


def _schedule(ctx: PrintContext) -> Table:
    rows = []
    for s in ctx.reg.stages:
        when = (f"{fmt_date(s.start)} {tr('至', 'to')} {fmt_date(s.end)}" if s.start or s.end
                else tr("另行通知", "to be announced"))
        clocks = [time_control(s.time_control)] if s.time_control else []
        clocks += [f"{ctx.division_name(d)}: {time_control(tc)}" for d in s.divisions
                   if (tc := ctx.reg.division(d).time_control) is not None]  # 各组别用时不同
        rows.append((tr(f"第{s.phase}阶段", f"phase {s.phase}"), s.name, when, s.venue or "",
                     "、".join(ctx.division_name(d) for d in s.divisions), "; ".join(clocks)))
    return Table("", (Column(tr("阶段", "Phase")), Column(tr("名称", "Stage"), share=1),
                      Column(tr("日期", "Dates")), Column(tr("地点", "Venue"), share=1),
                      Column(tr("组别", "Divisions"), share=1), Column(tr("用时", "Time control"), share=1)),
                 tuple(rows))


def _timetable(ctx: PrintContext) -> Table | None:
    """竞赛日程: every timetable line of every stage (rounds, 报到, 开幕式 …) in time order."""
    lines = sorted(((e, st) for st in ctx.reg.stages for e in st.timetable), key=lambda x: x[0].at)
    if not lines:
        return None
    rows = tuple(
        (fmt_date(e.at.date()), e.at.strftime("%H:%M"), timetable_item(e),
         "、".join(ctx.division_name(d) for d in st.divisions) if e.round is not None else "",
         e.place or st.venue or "")
        for e, st in lines
    )
    return Table(tr("竞赛日程", "Timetable"),
                 (Column(tr("日期", "Date")), Column(tr("时间", "Time"), "center"),
                  Column(tr("内容", "Item"), share=1.5), Column(tr("组别", "Divisions"), share=1),
                  Column(tr("地点", "Place"), share=1)), rows)


def _officials(ctx: PrintContext) -> Section:
    """技术官员: the named officials when the regulation lists them, else what it says of
    how they are chosen (the chief referee is often appointed after the regulation)."""
    of = ctx.reg.officials
    if of.people:
        table = Table("", (Column(tr("职务", "Role")), Column(tr("姓名", "Name"), share=1),
                           Column(tr("单位", "Unit"), share=1.5)),
                      tuple((o.role, o.name, o.unit or "") for o in of.people))
        return Section(tr("技术官员", "Officials"), tables=(table,))
    return Section(tr("技术官员", "Officials"), paragraphs=(
        tr("裁判长: ", "Chief referee: ") + of.chief_referee,
        tr("其他技术官员: ", "Other officials: ") + of.others,
    ))


def _team_lists(ctx: PrintContext) -> Table | None:
    """参赛队名单: each team with its leader, coach and every member in his seat (甲组男 …)."""
    teams = team_rows.list_teams(ctx.work.session, ctx.event.id)
    if not teams:
        return None
    players = ctx.players()
    rows: list[tuple[str, ...]] = []
    for i, t in enumerate(teams, start=1):
        members: list[TeamMember | None] = [m for m in t.members if m.player_id in players] or [None]
        for k, m in enumerate(members):
            head = (str(i), t.name, "、".join(t.leaders), "、".join(t.coaches)) if k == 0 else ("", "", "", "")
            if m is None:
                rows.append((*head, "", "", "", ""))
                continue
            p = players[m.player_id]
            seat = m.slot or (ctx.division_name(m.division) if m.division else "")
            rows.append((*head, seat, p.name, tr(p.gender.label, p.gender.value),
                         str(p.rank) if p.rank is not None else ""))
    return Table("",
                 (Column(tr("序号", "No."), "right"), Column(tr("队名", "Team"), share=1),
                  Column(tr("领队", "Leader")), Column(tr("教练", "Coach")),
                  Column(tr("组别", "Seat")), Column(tr("队员", "Member"), share=1),
                  Column(tr("性别", "Gender"), "center"), Column(tr("段位", "Rank"), "center")),
                 tuple(rows))


def _round1_draw(ctx: PrintContext) -> list[Table]:
    """第一轮对阵 of every division whose round 1 is paired (the draw the booklet announces)."""
    tables: list[Table] = []
    for did in ctx.divisions():
        stage = stage_of(ctx, did)
        if stage is None or not round_rows.list_rounds(ctx.work.session, ctx.event.id, did, stage=stage.id, number=1):
            continue
        tables += pairing_tables(ctx, round_view(ctx.work, str(ctx.event.id), did, 1, stage.id))
    return tables


def booklet_document(ctx: PrintContext) -> Document:
    reg = ctx.reg
    dated = [s for s in reg.stages if s.start]
    cover = [ctx.event.name]
    if dated:
        cover.append(f"{fmt_date(min(s.start for s in dated if s.start))} {tr('至', 'to')} "
                     f"{fmt_date(max((s.end or s.start) for s in dated if s.start))}")
    venues = list(dict.fromkeys(s.venue for s in reg.stages if s.venue))
    cover += venues
    cover.append(tr("主办单位: ", "Hosts: ") + "、".join(reg.organisers.hosts))
    if reg.organisers.organisers:
        cover.append(tr("承办单位: ", "Organisers: ") + "、".join(reg.organisers.organisers))
    timetable = _timetable(ctx)
    sections = [Section(tr("赛程总表", "Schedule"),
                        tables=(_schedule(ctx), *((timetable,) if timetable else ()))),
                _officials(ctx),
                Section(tr("竞赛规程摘要", "Regulation summary"),
                        paragraphs=(reg.name, f"{tr('发布', 'Issued')}: {reg.issued.by} {fmt_date(reg.issued.on)}"),
                        new_page=True),
                *_summary_sections(reg)]
    teams = _team_lists(ctx)
    if teams is not None:
        n = len(team_rows.list_teams(ctx.work.session, ctx.event.id))
        sections.append(Section(tr(f"参赛队 (共{n}队)", f"Teams ({n})"), tables=(teams,), new_page=True))
    first = True
    for did in ctx.divisions():
        t = entry_table(ctx, did)
        if t is not None:
            sections.append(Section(tr("参赛名单", "Entry lists") if first else "", tables=(t,), new_page=first))
            first = False
    draw = _round1_draw(ctx)
    if draw:
        sections.append(Section(tr("第一轮对阵", "Round 1 pairings"), tables=tuple(draw), new_page=True))
    return ctx.document("report", "booklet", sections=tuple(sections), cover=tuple(cover))


# ------------------------------------------------------------------ 循环赛交叉表 淘汰赛对阵


def brackets_document(ctx: PrintContext) -> Document:
    """Each round-robin / knockout division as the public page shows it
    (``services.stage_view.stage_view``): the final places once decided, every group's crosstable
    with points and places, then the bracket round by round with where each side came from."""
    from yisai.services.stage_view import has_brackets, stage_view

    sections: list[Section] = []
    for did in ctx.divisions():
        if not has_brackets(ctx.reg, did) or not approved_players(ctx.work, ctx.event, did):
            continue
        view = stage_view(ctx.work, ctx.event.id, did)
        if not view.groups and not view.bracket:
            continue
        tables: list[Table] = []
        if view.places:
            tables.append(Table(f"{view.division_name} " + tr("最终名次", "final places"),
                                (Column(tr("名次", "Place"), "right"), Column(tr("姓名", "Name"), share=1.0)),
                                tuple((f"{p}{'=' if shared else ''}", name) for p, shared, name in view.places)))
        for g in view.groups:
            seats = tuple(Column(str(r.seat), "center") for r in g.rows)
            tables.append(Table(
                f"{view.division_name} " + (tr("双循环交叉表", "double round robin crosstable") if view.double else
                                             tr(f"{g.group}组 循环赛交叉表", f"group {g.group} crosstable"))
                + (f" ({view.status})" if view.double and view.status else ""),
                (Column(tr("序号", "Seat"), "right"), Column(tr("姓名", "Name"), share=1.0), *seats,
                 Column(tr("积分", "Pts"), "right"), Column(tr("名次", "Place"), "right")),
                tuple((str(r.seat), r.name, *r.cells, r.score, f"{r.place}{'=' if r.shared else ''}")
                      for r in g.rows)))
        for col in view.bracket:
            if not col.round:
                continue  # not paired yet: the paper shows what was played
            matches = [*col.matches, *([col.third] if col.third else [])]
            rows = []
            for m in matches:
                label = tr("季军赛", "3rd place") if m.number == 0 else str(m.number)
                rows.append((label, f"{m.a_from} {m.a}".strip(), f"{m.b_from} {m.b}".strip(),
                             " · ".join(x for x in (m.result, m.note) if x), m.winner_name))
            tables.append(Table(
                f"{view.division_name} {col.name} " + tr(f"(第{col.round}轮)", f"(round {col.round})"),
                (Column(tr("场次", "Match"), "right"), Column(tr("上方", "Upper"), share=1.0),
                 Column(tr("下方", "Lower"), share=1.0), Column(tr("结果", "Result"), share=0.8),
                 Column(tr("胜者", "Winner"), share=0.8)),
                tuple(rows)))
        sections.append(Section(tables=tuple(tables), new_page=bool(sections)))
    if not sections:
        raise InputError(Text("没有循环赛或淘汰赛可以打印", "no round robin or knockout to print"),
                         code="nothing_to_print")
    return ctx.document("report", "brackets", sections=tuple(sections), signatures=signatures())

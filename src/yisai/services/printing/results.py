"""Result sheets: 成绩表, 团体成绩, 团体对阵单, 获奖名单, 段位申报名单, 获奖证书."""

from __future__ import annotations

from collections.abc import Sequence

from yisai.formats.awards_report import TextTable, pays_money
from yisai.formats.printing import (
    Certificate,
    Column,
    Document,
    Section,
    Table,
)
from yisai.formats.printing.tables import standings_table
from yisai.i18n import Text, tr
from yisai.regulation import Regulation
from yisai.services.context import InputError
from yisai.services.event_data import (
    PLACEMENT_GROUP,
    approved_players,
    group_members,
    standings_input,
)
from yisai.services.events import resolve_division
from yisai.services.printing.context import PrintContext, after_round, signatures
from yisai.services.printing.rounds import stage_of
from yisai.services.results import division_standings, ranking_lists
from yisai.standings import compute_standings
from yisai.store import round_rows

# ------------------------------------------------------------------ 成绩表


def final_complete(ctx: PrintContext, did: str, stage_id: str) -> bool:
    finals = [r for r in round_rows.list_rounds(ctx.work.session, ctx.event.id, did, stage=stage_id)
              if r.group == PLACEMENT_GROUP]
    return bool(finals) and all(g.result.value != "?" for g in finals[0].games)


def _list_title(division: str, ranking: str) -> str:
    """甲组男子 as the regulation names it; 公开组 女子个人 when the name does not say the division."""
    return ranking if ranking.startswith(division) else f"{division} {ranking}"


def standings_document(ctx: PrintContext) -> Document:
    """Each division's standings as `yisai standings EVENT -d DIVISION` computes them (the
    same-place final applied), one section per ranking list the regulation defines (男子,
    女子, 混合 …; 性别 shown where it ranks men and women apart); a two-group stage adds each
    group after its group rounds — the order that paired the final."""
    sections = []
    landscape = False
    for did in ctx.divisions():
        stage = stage_of(ctx, did) if approved_players(ctx.work, ctx.event, did) else None
        if stage is None or not round_rows.games(ctx.work.session, ctx.event.id, did, stage=stage.id):
            continue
        fmt = stage.format_for(did)
        name = ctx.division_name(did)
        st = division_standings(ctx.work, ctx.event, did, round_=ctx.opts.round)
        lists = ranking_lists(ctx.work, ctx.event, did, standings=st)
        gender = any(r.ranking.gender is not None for r in lists)
        tables = []
        group_rounds = fmt.swiss_group_rounds()  # Swiss groups before a same-place final
        groups = group_members(ctx.work, ctx.event, did, stage) if group_rounds is not None else {}
        group_of = {pid: g for g, members in groups.items() for pid in members}
        last_round = fmt.last_round()
        if groups and last_round is not None:
            final = st.round >= last_round and final_complete(ctx, did, stage.id)
            after = (tr("最终名次 (同名次决赛后)", "final places (after the same-place final)")
                     if final else after_round(st.round))
        else:
            after = after_round(st.round)
        for rl in lists:
            if not rl.standings.rows:
                continue
            title = f"{name} {after}" if len(lists) == 1 else f"{_list_title(name, rl.name)} {after}"
            tables.append(standings_table(title, rl.standings, group_of=group_of or None, gender=gender))
            landscape = landscape or len(tables[-1].columns) > 9
            sections.append(Section(tables=(tables[-1],), new_page=True))
        if groups and group_rounds is not None:
            inp = standings_input(ctx.work, ctx.event, did, stage.id)
            last = min(st.round, group_rounds)
            group_tables = []
            for g, members in groups.items():
                gst = compute_standings(inp, round_=last, subset=members, lot_seed=ctx.event.seed)
                group_tables.append(standings_table(f"{name} {tr(f'{g}组', f'group {g}')} {after_round(gst.round)}", gst))
            landscape = landscape or any(len(t.columns) > 9 for t in group_tables)
            sections.append(Section(tables=tuple(group_tables)))
    if not sections:
        raise InputError(Text("还没有任何成绩可以打印", "no results to print yet"), code="nothing_to_print")
    return ctx.document("report", "standings", sections=tuple(sections), landscape=landscape,
                        signatures=signatures())


# ------------------------------------------------------------------ 团体成绩 获奖名单 段位申报名单


def _numeric(cell: object) -> bool:
    s = str(cell).rstrip("=")
    try:
        float(s)
    except ValueError:
        return False
    return True


def _from_text_table(t: TextTable, wide: Sequence[int] = ()) -> Table:
    """A report table of the award code, cells as it worded them."""
    columns = []
    for i, h in enumerate(t.headers):
        cells = [row[i] for row in t.rows if row[i] not in (None, "")]
        numeric = bool(cells) and all(_numeric(c) for c in cells)
        share = 3.0 if i in wide else (None if numeric else 1.0)
        columns.append(Column(h, "right" if numeric else "left", share))
    rows = tuple(tuple("" if c is None else str(c) for c in row) for row in t.rows)
    return Table(t.title, tuple(columns), rows, t.notes)


def teams_document(ctx: PrintContext) -> Document:
    tables = ctx.prizes().team_tables
    if not tables:
        raise InputError(Text("本赛事规程没有团体比赛", "this event's regulation has no team competition"),
                         code="no_team_competition")
    # the members column is the wide one; a match-points table has none (its columns are numbers)
    out = [_from_text_table(t, wide=(len(t.headers) - 2,) if t.headers[-1] == tr("说明", "note") else ())
           for t in tables]
    return ctx.document("report", "teams", sections=(Section(tables=tuple(out)),),
                        landscape=True, signatures=signatures())


def matches_document(ctx: PrintContext) -> Document:
    """团体对阵单: one sheet per team match of the round — boards, players, colours, a result cell
    each (filled in once entered), the 局分 and 场分, and both teams' signatures."""
    from yisai.services.team_matches import (
        board_result_word,
        team_match_stage,
        team_round_view,
        team_rounds,
    )

    found = team_match_stage(ctx.reg, resolve_division(ctx.reg, ctx.opts.division) if ctx.opts.division else None,
                             ctx.opts.stage)
    if found is None:
        raise InputError(Text("本赛事规程没有团体赛阶段", "this event's regulation has no team-match stage"),
                         code="no_team_match_stage")
    numbers = team_rounds(ctx.work, ctx.event, found[1])
    if not numbers:
        raise InputError(Text("团体赛还没有编排任何一轮", "no team round is paired yet"), code="nothing_to_print")
    n = ctx.opts.round if ctx.opts.round is not None else max(numbers)
    view = team_round_view(ctx.work, ctx.event.id, n, division=found[1], stage_ref=found[0].id)
    pn = view.player_names
    columns = (Column(tr("台次", "Board"), "center"), Column(tr("台号", "Table"), "center"),
               Column("", share=1), Column(tr("执色", "Colour"), "center"), Column("", share=1),
               Column(tr("结果 (局分)", "Result (points)"), share=0.8))
    sections = []
    for m in view.matches:
        if m.team_b is None:
            sections.append(Section(heading=tr(f"第{n}轮 第{m.number}场: {m.name_a} 轮空 (记胜一场)",
                                               f"Round {n} match {m.number}: {m.name_a} has the bye")))
            continue
        rows = []
        for b in m.boards:
            table = view.tables.get((m.number, b.board))
            game = view.games.get(table) if table else None
            colour = tr("黑", "B") if view.a_black.get((m.number, b.board)) else tr("白", "W")
            rows.append((str(b.board), str(table or ""), pn.get(b.player_a or "", "—"), colour,
                         pn.get(b.player_b or "", "—"), board_result_word(b, game)))
        total = (f"{m.points_a:g} : {m.points_b:g}" + (tr(f", 场分 {m.match_a} : {m.match_b}",
                                                          f", match points {m.match_a} : {m.match_b}")
                                                       if m.finished else "")) if m.finished else ""
        rows.append(("", "", tr("局分合计", "Board points"), "", "", total))
        cols = (*columns[:2], Column(m.name_a, share=1), columns[3], Column(m.name_b, share=1), columns[5])
        notes = (tr(f"{m.name_a}领队签字: ____________    {m.name_b}领队签字: ____________    裁判员: ____________",
                    f"{m.name_a} leader: ____________    {m.name_b} leader: ____________    referee: ____________"),)
        sections.append(Section(tables=(Table(
            tr(f"第{n}轮 第{m.number}场  {m.name_a} — {m.name_b}", f"Round {n} match {m.number}  {m.name_a} — {m.name_b}"),
            cols, tuple(rows), notes),)))
    rule = tr("对阵表上方的队单数轮单数台执黑、双数台执白, 双数轮相反; 空出的台次判该队负",
              "the first-named team has Black on odd boards in odd rounds, even boards in even rounds; an empty board is lost")
    return ctx.document("report", "matches", title=tr(f"第{n}轮 团体对阵单", f"Round {n} team match sheets"),
                        subtitle=rule, sections=tuple(sections), signatures=signatures())


def prizes_document(ctx: PrintContext) -> Document:
    view = ctx.prizes()
    chosen = ctx.divisions()
    # prize_tables: one table per list in the report's order, then the payout summary
    tables = [
        _from_text_table(t) for pl, t in zip(view.report.lists, view.prize_tables, strict=False)
        if ctx.opts.division is None or pl.division in chosen
    ]
    if ctx.opts.division is None:  # the payout summary covers the whole event
        tables.append(_from_text_table(view.prize_tables[-1]))
    # "税前" only when the regulation says so (seed 002 does not: 奖励相应价值电商卡), and only
    # where there is money: a list of 奖杯、证书 alone has no amounts to qualify
    money = any(pays_money(pl) for pl in view.report.lists)
    subtitle = ((tr("以下金额均为税前, 单位: 元", "Amounts are pre-tax, in yuan") if view.report.pre_tax
                 else tr("金额单位: 元", "Amounts in yuan")) if money
                else tr("以下均为荣誉奖励, 不含奖金", "Honours only, no prize money"))
    return ctx.document("report", "prizes", sections=(Section(tables=tuple(tables)),),
                        subtitle=subtitle, signatures=signatures())


def rank_awards_document(ctx: PrintContext) -> Document:
    view = ctx.awards()
    tables = [_from_text_table(t) for t in view.tables]
    parts: dict[str, object] = {}
    if view.promotion_tables:  # 升段/定级 by wins print with (or instead of) the 段位申报
        parts["title"] = (tr("段位申报与升段/定级名单", "Rank awards and promotions") if view.rank_award_tables
                          else tr("升段/定级名单", "Promotions by wins"))
    return ctx.document("report", "rank-awards", sections=(Section(tables=tuple(tables)),),
                        landscape=True, signatures=signatures(), **parts)


def certificates_document(ctx: PrintContext) -> Document:
    report = ctx.prizes().report
    chosen = ctx.divisions()
    issuer = "、".join(ctx.reg.organisers.hosts)
    date = _certificate_date(ctx.reg)
    certs = []
    for pl in report.lists:
        if pl.source == "participation" or (ctx.opts.division is not None and pl.division not in chosen):
            continue
        division = ctx.division_name(pl.division) if pl.division in {d.id for d in ctx.reg.divisions} else ""
        if pl.name.startswith(division) or any(ln.team_id for ln in pl.lines):
            division = ""  # 公开组男子个人 names its division; a team prize spans divisions
        for ln in pl.lines:
            place = tr(f"第{ln.place}名", f"place {ln.place}") if ln.place is not None else ""
            certs.append(Certificate(ctx.event.name, division, pl.name, place, ln.name,
                                     ctx.unit(ln.player_id) if ln.player_id else "", issuer, date))
    if not certs:
        raise InputError(Text("没有获奖者, 无证书可打印", "no prize winners: no certificates to print"),
                         code="nothing_to_print")
    return ctx.document("certificates", "certificates", certificates=tuple(certs), landscape=True)


def _certificate_date(reg: Regulation) -> str:
    """The event's date, never the day of printing: the regulation's award day, else the last
    day of play; with neither, a blank to fill in by hand."""
    day = reg.award_day()
    if day is None:
        return tr("　　年　　月　　日", "____________")
    return tr(f"{day.year}年{day.month}月{day.day}日", day.strftime("%d %B %Y"))

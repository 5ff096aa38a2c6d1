"""Printed sheets of an event (对阵表, 台签, 记分单, 成绩表, 团体成绩, 获奖名单, 段位申报名单,
获奖证书, 参赛名单, 秩序册) as PDF, for every front end: ``print_pdf(work, event, kind, options)``.

This module only gathers rows that other services and the core already computed — round views,
standings, the results service's final tables, prize and rank-award reports — and words them
for the paper; it never computes a score, a place or an amount of its own. Every call into
another service is in this one file, so a rename elsewhere is a one-file fix here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from yisai.formats.awards_report import TextTable, pays_money, unit_of
from yisai.formats.printing import (
    Certificate,
    Column,
    Document,
    PrintError,
    ScoreSlip,
    Section,
    Table,
    TableCard,
    render_pdf,
    render_png,
)
from yisai.formats.printing.labels import labels
from yisai.formats.printing.tables import standings_table
from yisai.formats.regulation_summary import fmt_date, summarize, time_control, timetable_item
from yisai.i18n import Text, tr
from yisai.record.groups import KNOCKOUT_GROUP
from yisai.record.parse import result_word
from yisai.registry.person import Player
from yisai.registry.team import TeamMember
from yisai.regulation import Regulation
from yisai.regulation.divisions import stones_to_win
from yisai.regulation.stages import Stage
from yisai.services.context import InputError, Work
from yisai.services.event_data import (
    PLACEMENT_GROUP,
    approved_players,
    group_members,
    standings_input,
)
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.reports import AwardView, PrizeView, awards, prizes
from yisai.services.results import division_standings, ranking_lists
from yisai.services.rounds import RoundView, round_view
from yisai.standings import compute_standings
from yisai.store import EventRecord

KINDS: dict[str, str] = {
    "pairings": "对阵表",
    "cards": "台签",
    "slips": "记分单",
    "standings": "成绩表",
    "teams": "团体成绩",
    "matches": "团体对阵单",
    "prizes": "获奖名单",
    "rank-awards": "段位申报名单",
    "certificates": "获奖证书",
    "entries": "参赛名单",
    "booklet": "秩序册",
    "brackets": "循环赛交叉表与淘汰赛对阵",
}
KINDS_EN: dict[str, str] = {
    "pairings": "Pairings", "cards": "Table cards", "slips": "Score slips", "standings": "Standings",
    "teams": "Team standings", "matches": "Team match sheets", "prizes": "Prize list", "rank-awards": "Rank (dan) award list",
    "certificates": "Certificates", "entries": "Entry list", "booklet": "Event booklet",
    "brackets": "Round-robin crosstables and knockout bracket",
}
ALIASES = {zh: key for key, zh in KINDS.items()} | {
    "团体成绩表": "teams", "奖金名单": "prizes", "段位": "rank-awards", "证书": "certificates",
    "报名名单": "entries", "对阵": "pairings", "成绩": "standings",
    "交叉表": "brackets", "循环赛": "brackets", "淘汰赛": "brackets", "对阵图": "brackets",
    "对阵单": "matches", "团体对阵": "matches",
}


@dataclass(frozen=True)
class PrintOptions:
    """What to print: one division (None: all), the round (None: the latest paired), the stage
    (None: the division's playing stage), a certificate background image, and the time printed
    in the footer (None: the unit of work's clock)."""

    division: str | None = None
    round: int | None = None
    stage: str | None = None
    background: Path | None = None
    printed_at: datetime | None = None


def kind_of(name: str) -> str:
    """The document kind for an English key or its Chinese name; InputError lists the choices."""
    key = name.strip()
    if key in KINDS:
        return key
    if key in ALIASES:
        return ALIASES[key]
    choices = ", ".join(f"{k} ({v})" for k, v in KINDS.items())
    raise InputError(Text(f"未知的打印种类: {name} (允许: {choices})",
                          f"unknown document kind: {name} (allowed: {choices})"),
                     code="unknown_print_kind", params={"kind": name})


def file_name(kind: str, options: PrintOptions | None = None, regulation: Regulation | None = None) -> str:
    """The PDF's default file name: 对阵表_甲组_第3轮.pdf (the CLI's default, the web download's);
    with the event's ``regulation`` the division is named, however it was given (jia, 甲)."""
    opts = options or PrintOptions()
    parts = [KINDS[kind_of(kind)]]
    if opts.division:
        found = regulation.find_division(opts.division) if regulation is not None else None
        parts.append(found.name if found is not None else opts.division)
    if opts.round:
        parts.append(f"第{opts.round}轮")
    return "_".join(parts) + ".pdf"


def build_document(work: Work, event_ref: str | int | None, kind: str,
                   options: PrintOptions | None = None) -> Document:
    """The document's content, worded and formatted (what the PDF shows)."""
    opts = options or PrintOptions()
    key = kind_of(kind)
    event = resolve_event(work, event_ref)
    ctx = _Ctx(work, event, regulation_of(event), opts)
    return _BUILDERS[key](ctx)


def print_pdf(work: Work, event_ref: str | int | None, kind: str,
              options: PrintOptions | None = None) -> bytes:
    """The document as PDF bytes (the web download and ``yisai print``)."""
    opts = options or PrintOptions()
    doc = build_document(work, event_ref, kind, opts)
    try:
        return render_pdf(doc, background=opts.background)
    except PrintError as exc:
        raise InputError(exc.text, code="print_failed") from None


def print_png(work: Work, event_ref: str | int | None, kind: str, options: PrintOptions | None = None,
              width_px: int = 600) -> list[bytes]:
    """Every page as a PNG thumbnail ``width_px`` wide (the examples in docs/)."""
    opts = options or PrintOptions()
    doc = build_document(work, event_ref, kind, opts)
    try:
        return render_png(doc, width_px=width_px, background=opts.background)
    except PrintError as exc:
        raise InputError(exc.text, code="print_failed") from None


# ------------------------------------------------------------------ shared context


@dataclass
class _Ctx:
    work: Work
    event: EventRecord
    reg: Regulation
    opts: PrintOptions
    _prizes: PrizeView | None = None
    _players: dict[str, Player] | None = None
    _teams: dict[str, str] | None = None

    @property
    def printed_at(self) -> str:
        return (self.opts.printed_at or self.work.now).strftime("%Y-%m-%d %H:%M")

    def document(self, template: str, kind: str, **parts: object) -> Document:
        name = tr(KINDS[kind], KINDS_EN[kind])
        title = str(parts.pop("title", name))
        return Document(template=template, kind=name, event=self.event.name,  # type: ignore[arg-type]
                        title=title, printed_at=self.printed_at, labels=labels(template),
                        **parts)  # type: ignore[arg-type]

    def divisions(self) -> list[str]:
        """The chosen division (by id or name: 少年组 / 少年 / junior), else all of them."""
        if self.opts.division is None:
            return [d.id for d in self.reg.divisions]
        return [resolve_division(self.reg, self.opts.division)]

    def division_name(self, division: str) -> str:
        return self.reg.division(division).name if division else ""

    def players(self) -> dict[str, Player]:
        if self._players is None:
            self._players = self.work.repo.players_by_id(self.event.id)
        return self._players

    def team_of(self) -> dict[str, str]:
        """player id → team name."""
        if self._teams is None:
            self._teams = {m.player_id: t.name for t in self.work.repo.list_teams(self.event.id)
                           for m in t.members}
        return self._teams

    def unit(self, pid: str | None) -> str:
        """代表队 if the player is in a team, else club/city/province (as the standings show)."""
        if not pid:
            return ""
        return self.team_of().get(pid) or unit_of(self.players().get(pid))

    def prizes(self) -> PrizeView:
        """Team standings, prize lists and the payout summary, as `yisai prizes` shows them."""
        if self._prizes is None:
            self._prizes = prizes(self.work, self.event.id)
        return self._prizes

    def awards(self) -> AwardView:
        return awards(self.work, self.event.id)


def _after(n: int) -> str:
    return tr(f"第{n}轮后成绩", f"after round {n}")


def _signatures() -> tuple[str, ...]:
    return (tr("裁判长", "Chief referee"), tr("日期", "Date"))


def _group_text(group: str) -> str:
    return {"": "", PLACEMENT_GROUP: tr(" 同名次决赛", " same-place final"),
            KNOCKOUT_GROUP: tr(" 淘汰赛", " knockout")}.get(group, tr(f" {group}组", f" group {group}"))


# ------------------------------------------------------------------ rounds: 对阵表 台签 记分单


def _stage(ctx: _Ctx, did: str) -> Stage | None:
    """The division's paired stage; when printing every division, one without any (an online
    ladder only) is left out instead of stopping the whole document."""
    try:
        return playing_stage(ctx.reg, did, ctx.opts.stage)
    except InputError:
        if ctx.opts.division is not None:
            raise
        return None


def _round_views(ctx: _Ctx) -> list[RoundView]:
    """The chosen round (default: the latest paired) of each division that has one."""
    views = []
    for did in ctx.divisions():
        if not approved_players(ctx.work, ctx.event, did):
            continue
        stage = _stage(ctx, did)
        if stage is None:
            continue
        numbers = {r.number for r in ctx.work.repo.list_rounds(ctx.event.id, did, stage=stage.id)}
        if not numbers:
            continue
        n = ctx.opts.round if ctx.opts.round is not None else max(numbers)
        if n not in numbers:
            if ctx.opts.division is not None:
                done = "、".join(map(str, sorted(numbers)))
                raise InputError(Text(f"{ctx.division_name(did)}第{n}轮尚未编排 (已编排: {done})",
                                      f"{did}: round {n} is not paired yet (paired: {done})"),
                                 code="round_not_paired", params={"division": did, "round": n})
            continue
        views.append(round_view(ctx.work, str(ctx.event.id), did, n, stage.id))
    if not views:
        which = ctx.division_name(ctx.divisions()[0]) if ctx.opts.division else "各组别"
        what = f"第{ctx.opts.round}轮" if ctx.opts.round else "已编排的轮次"
        raise InputError(Text(f"{which}还没有{what}, 没有可打印的对阵",
                              "no paired round to print" + (f" (round {ctx.opts.round})" if ctx.opts.round else "")),
                         code="nothing_to_print")
    return views


def _caption(ctx: _Ctx, view: RoundView, group: str) -> str:
    return f"{ctx.division_name(view.division)}{_group_text(group)} " + tr(f"第{view.round}轮", f"round {view.round}")


def _pairing_tables(ctx: _Ctx, view: RoundView) -> list[Table]:
    """One 对阵表 per group of a paired round (board, both players with unit and score); the
    same-place final's boards also say who meets whom for which places (A组第1名 — B组第1名
    (争第1–2名))."""
    tables = []
    for r in view.rounds:
        final = r.group == PLACEMENT_GROUP
        rows = []
        for g in sorted(r.games, key=lambda g: (g.is_bye, g.board)):
            black = view.names.get(g.black, g.black)
            result = result_word(g.result, g.played, g.reason, g.is_bye)
            head = (str(g.board), view.matchup(g.black, g.white)) if final else (str(g.board),)
            if g.is_bye:
                rows.append(("", *head[1:], black, ctx.unit(g.black), str(view.scores.get(g.black, 0)),
                             "", "", "", result))
                continue
            white = g.white or ""
            rows.append((*head, black, ctx.unit(g.black), str(view.scores.get(g.black, 0)),
                         view.names.get(white, white), ctx.unit(white),
                         str(view.scores.get(white, 0)), result))
        matchup = (Column(tr("同名次决赛", "Same-place final"), share=1.6),) if final else ()
        tables.append(Table(
            f"{_caption(ctx, view, r.group)} " + tr("对阵表", "pairings"),
            (Column(tr("台次", "Board"), "right"), *matchup, Column(tr("黑方", "Black"), share=1.2),
             Column(tr("单位", "Unit"), share=1), Column(tr("积分", "Score"), "right"),
             Column(tr("白方", "White"), share=1.2), Column(tr("单位", "Unit"), share=1),
             Column(tr("积分", "Score"), "right"), Column(tr("结果", "Result"), "center")),
            tuple(rows),
            (tr("积分为本轮前的积分。", "Scores are before this round."),),
        ))
    return tables


def _pairings(ctx: _Ctx) -> Document:
    """对阵表 per division and group, printed landscape when a same-place final's extra column
    is on it."""
    views = _round_views(ctx)
    sections = [Section(tables=tuple(_pairing_tables(ctx, view)), new_page=True) for view in views]
    landscape = any(r.group == PLACEMENT_GROUP for view in views for r in view.rounds)
    return ctx.document("report", "pairings", sections=tuple(sections), landscape=landscape)


def _boards(ctx: _Ctx) -> Iterable[tuple[RoundView, str, int, str, str]]:
    for view in _round_views(ctx):
        for r in view.rounds:
            for g in sorted(r.games, key=lambda g: g.board):
                if not g.is_bye and g.white:
                    yield view, r.group, g.board, g.black, g.white


def _cards(ctx: _Ctx) -> Document:
    cards = tuple(
        TableCard(str(board), _caption(ctx, view, group), view.names.get(b, b), ctx.unit(b),
                  view.names.get(w, w), ctx.unit(w))
        for view, group, board, b, w in _boards(ctx)
    )
    return ctx.document("cards", "cards", cards=cards)


def _slips(ctx: _Ctx) -> Document:
    slips = tuple(
        ScoreSlip(_caption(ctx, view, group) + _own_board(ctx, view.division), str(board), view.names.get(b, b),
                  ctx.unit(b), view.names.get(w, w), ctx.unit(w), _choices(ctx.reg.play_rules_for(view.division).komi))
        for view, group, board, b, w in _boards(ctx)
    )
    return ctx.document("slips", "slips", slips=slips)


def _choices(komi: float) -> tuple[str, ...]:
    """The result boxes of a slip: a draw only with an integer komi."""
    choices: tuple[str, ...] = (tr("黑胜", "Black wins"), tr("白胜", "White wins"))
    return (*choices, tr("和棋", "Draw")) if float(komi).is_integer() else choices


def _own_board(ctx: _Ctx, division: str) -> str:
    """`` 13路 贴7.5目 黑89子胜`` for a division with its own board or komi (乙组 13路), else ""."""
    d = ctx.reg.division(division)
    if d.board_size is None and d.komi is None:
        return ""
    r = d.play_rules(ctx.reg.rules)
    return tr(f" {r.board_size}路 贴{r.komi:g}目 黑{stones_to_win(r)}子胜",
              f" {r.board_size}×{r.board_size} komi {r.komi:g}: Black needs {stones_to_win(r)}")


# ------------------------------------------------------------------ 成绩表


def _final_complete(ctx: _Ctx, did: str, stage_id: str) -> bool:
    finals = [r for r in ctx.work.repo.list_rounds(ctx.event.id, did, stage=stage_id)
              if r.group == PLACEMENT_GROUP]
    return bool(finals) and all(g.result.value != "?" for g in finals[0].games)


def _list_title(division: str, ranking: str) -> str:
    """甲组男子 as the regulation names it; 公开组 女子个人 when the name does not say the division."""
    return ranking if ranking.startswith(division) else f"{division} {ranking}"


def _standings(ctx: _Ctx) -> Document:
    """Each division's standings as `yisai standings EVENT -d DIVISION` computes them (the
    same-place final applied), one section per ranking list the regulation defines (男子,
    女子, 混合 …; 性别 shown where it ranks men and women apart); a two-group stage adds each
    group after its group rounds — the order that paired the final."""
    sections = []
    landscape = False
    for did in ctx.divisions():
        stage = _stage(ctx, did) if approved_players(ctx.work, ctx.event, did) else None
        if stage is None or not ctx.work.repo.games(ctx.event.id, did, stage=stage.id):
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
            final = st.round >= last_round and _final_complete(ctx, did, stage.id)
            after = (tr("最终名次 (同名次决赛后)", "final places (after the same-place final)")
                     if final else _after(st.round))
        else:
            after = _after(st.round)
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
                group_tables.append(standings_table(f"{name} {tr(f'{g}组', f'group {g}')} {_after(gst.round)}", gst))
            landscape = landscape or any(len(t.columns) > 9 for t in group_tables)
            sections.append(Section(tables=tuple(group_tables)))
    if not sections:
        raise InputError(Text("还没有任何成绩可以打印", "no results to print yet"), code="nothing_to_print")
    return ctx.document("report", "standings", sections=tuple(sections), landscape=landscape,
                        signatures=_signatures())


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


def _teams(ctx: _Ctx) -> Document:
    tables = ctx.prizes().team_tables
    if not tables:
        raise InputError(Text("本赛事规程没有团体比赛", "this event's regulation has no team competition"),
                         code="no_team_competition")
    # the members column is the wide one; a match-points table has none (its columns are numbers)
    out = [_from_text_table(t, wide=(len(t.headers) - 2,) if t.headers[-1] == tr("说明", "note") else ())
           for t in tables]
    return ctx.document("report", "teams", sections=(Section(tables=tuple(out)),),
                        landscape=True, signatures=_signatures())


def _matches(ctx: _Ctx) -> Document:
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
                        subtitle=rule, sections=tuple(sections), signatures=_signatures())


def _prizes(ctx: _Ctx) -> Document:
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
                        subtitle=subtitle, signatures=_signatures())


def _rank_awards(ctx: _Ctx) -> Document:
    view = ctx.awards()
    tables = [_from_text_table(t) for t in view.tables]
    parts: dict[str, object] = {}
    if view.promotion_tables:  # 升段/定级 by wins print with (or instead of) the 段位申报
        parts["title"] = (tr("段位申报与升段/定级名单", "Rank awards and promotions") if view.rank_award_tables
                          else tr("升段/定级名单", "Promotions by wins"))
    return ctx.document("report", "rank-awards", sections=(Section(tables=tuple(tables)),),
                        landscape=True, signatures=_signatures(), **parts)


def _certificates(ctx: _Ctx) -> Document:
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


# ------------------------------------------------------------------ 参赛名单 秩序册


def _entry_table(ctx: _Ctx, did: str) -> Table | None:
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


def _entries(ctx: _Ctx) -> Document:
    sections = [Section(tables=(t,), new_page=True)
                for did in ctx.divisions() if (t := _entry_table(ctx, did)) is not None]
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


def _schedule(ctx: _Ctx) -> Table:
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


def _timetable(ctx: _Ctx) -> Table | None:
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


def _officials(ctx: _Ctx) -> Section:
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


def _team_lists(ctx: _Ctx) -> Table | None:
    """参赛队名单: each team with its leader, coach and every member in his seat (甲组男 …)."""
    teams = ctx.work.repo.list_teams(ctx.event.id)
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


def _round1_draw(ctx: _Ctx) -> list[Table]:
    """第一轮对阵 of every division whose round 1 is paired (the draw the booklet announces)."""
    tables: list[Table] = []
    for did in ctx.divisions():
        stage = _stage(ctx, did)
        if stage is None or not ctx.work.repo.list_rounds(ctx.event.id, did, stage=stage.id, number=1):
            continue
        tables += _pairing_tables(ctx, round_view(ctx.work, str(ctx.event.id), did, 1, stage.id))
    return tables


def _booklet(ctx: _Ctx) -> Document:
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
        n = len(ctx.work.repo.list_teams(ctx.event.id))
        sections.append(Section(tr(f"参赛队 (共{n}队)", f"Teams ({n})"), tables=(teams,), new_page=True))
    first = True
    for did in ctx.divisions():
        t = _entry_table(ctx, did)
        if t is not None:
            sections.append(Section(tr("参赛名单", "Entry lists") if first else "", tables=(t,), new_page=first))
            first = False
    draw = _round1_draw(ctx)
    if draw:
        sections.append(Section(tr("第一轮对阵", "Round 1 pairings"), tables=tuple(draw), new_page=True))
    return ctx.document("report", "booklet", sections=tuple(sections), cover=tuple(cover))


# ------------------------------------------------------------------ 循环赛交叉表 淘汰赛对阵


def _brackets(ctx: _Ctx) -> Document:
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
                f"{view.division_name} " + tr(f"{g.group}组 循环赛交叉表", f"group {g.group} crosstable"),
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
    return ctx.document("report", "brackets", sections=tuple(sections), signatures=_signatures())


_BUILDERS: dict[str, Callable[[_Ctx], Document]] = {
    "pairings": _pairings,
    "cards": _cards,
    "slips": _slips,
    "standings": _standings,
    "teams": _teams,
    "matches": _matches,
    "prizes": _prizes,
    "rank-awards": _rank_awards,
    "certificates": _certificates,
    "entries": _entries,
    "booklet": _booklet,
    "brackets": _brackets,
}

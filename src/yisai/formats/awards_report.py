"""Prize lists, team standings and rank awards as titled tables of cells (Chinese headers).

One shape for every front end: the CLI draws them with rich, the xlsx export writes them, and
``to_lines`` gives plain text. Amounts stay integers so spreadsheets can sum them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from yisai.awards.prizes import KIND_LABELS, PrizeLine, PrizeListResult, PrizeReport
from yisai.awards.promotions import PromotionReport
from yisai.awards.rank_awards import RankAwardReport
from yisai.i18n import tr
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation.criteria import Scope, by_label
from yisai.standings.teams import (
    METHOD_LABELS,
    METHOD_LABELS_EN,
    TeamStanding,
    TeamTable,
    partial_note,
)
from yisai.vocabulary.money import yuan_text

Cell = str | int | float | None


@dataclass(frozen=True, slots=True)
class TextTable:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()
    money_columns: tuple[int, ...] = ()  # columns holding yuan amounts
    group_columns: tuple[int, ...] = ()  # columns a screen shows once per group of equal rows


def unit_of(p: Player | None) -> str:
    """单位: club, else city, else province."""
    if p is None:
        return ""
    return p.club or p.city or p.province or ""


def team_names(teams: Iterable[Team]) -> dict[str, str]:
    """player id → the name of his team (江苏队), for the 单位 column of a team event."""
    return {m.player_id: t.name for t in teams for m in t.members if m.player_id}


def place_of(p: Player | None) -> str:
    """地区 as people write it: 浙江宁波, but 北京 (not 北京北京) for a municipality."""
    if p is None:
        return ""
    province, city = (p.province or "").strip(), (p.city or "").strip()
    if city and province and (city == province or city.startswith(province)):
        return city
    return province + city


def _place(place: int | None, shared: bool = False) -> Cell:
    if place is None:
        return ""
    return f"{place}=" if shared else place


def pays_money(pl: PrizeListResult) -> bool:
    """A list that pays (or could pay) money: cash or card value on some line."""
    return pl.kind in ("cash", "ecard") and any(ln.amount or ln.nominal for ln in pl.lines)


def honours_of(pl: PrizeListResult, ln: PrizeLine) -> str:
    """The honours a line receives (奖杯、证书, a gift): the list's items and the line's gift."""
    items = [i for i in pl.items if "奖金" not in i and "现金" not in i]  # the money has its own column
    parts = [*items, *([ln.gift] if ln.gift and ln.gift not in items else [])]
    return "、".join(parts)


def prize_table(pl: PrizeListResult, players: Mapping[str, Player],
                teams: Mapping[str, str] | None = None) -> TextTable:
    """One prize list; 单位 is the player's team (``teams``: player id → team name) when he
    plays for one — what a team event's organisers print — else his club/city/province.

    Money goes in its own column only where the list pays money; honours (奖杯、证书, a gift)
    in an 奖励 column on every awarded line, so a list of trophies and certificates shows them
    and a place beyond the money table shows its honours, not a 0."""
    teams = teams or {}
    team = any(ln.team_id for ln in pl.lines)
    money = pays_money(pl)
    honours = any(honours_of(pl, ln) for ln in pl.lines)
    docked = money and any(ln.docked for ln in pl.lines)
    taxed = money and any(ln.tax for ln in pl.lines)
    paid: tuple[str, ...] = (*((tr("扣除(元)", "docked (yuan)"),) if docked else ()),
                             *((tr("代扣个税(元)", "tax withheld (yuan)"),) if taxed else ()),
                             *((tr("实发(元)", "net (yuan)"),) if docked or taxed else ()))
    headers = (
        tr("名次", "place"),
        tr("队名", "team") if team else tr("姓名", "name"),
        *(() if team else (tr("单位", "unit"),)),  # a team is its own unit: no empty column
        *((tr(f"{KIND_LABELS.get(pl.kind, '奖励')}(元)", "amount (yuan)")
           + (tr("(税前)", " (gross)") if taxed else ""),) if money else ()),
        *paid,
        *((tr("奖励", "award"),) if honours or not money else ()),
        tr("说明", "note"),
    )
    rows: list[tuple[Cell, ...]] = []
    for ln in pl.lines:
        p = players.get(ln.player_id) if ln.player_id else None
        unit: tuple[Cell, ...] = () if team else (
            (teams.get(ln.player_id or "") or unit_of(p)),)
        amount: tuple[Cell, ...] = ()
        if money:  # a place the money table does not reach is blank, not 0 yuan
            amount = (ln.amount if (ln.amount or ln.nominal is not None) else None,)
            amount += (*((yuan_cell(ln.docked),) if docked else ()), *((yuan_cell(ln.tax),) if taxed else ()),
                       *((yuan_cell(ln.net) if ln.amount else None,) if docked or taxed else ()))
        award: tuple[Cell, ...] = (honours_of(pl, ln),) if honours or not money else ()
        rows.append((_place(ln.place, ln.shared), ln.name, *unit, *amount, *award, ln.note))
    title = pl.name
    if pl.source == "list":
        title += tr(f"（录取前{pl.places}名）", f" (top {pl.places})")
    notes = [pl.note] if pl.note else []
    if pl.total:
        notes.append(tr(f"小计 {pl.total} 元", f"subtotal {pl.total} yuan")
                     + (tr(f"，实发 {yuan_text(pl.net, cents=False)} 元", f", net {yuan_text(pl.net, cents=False)} yuan")
                        if docked or taxed else ""))
    first = 2 if team else 3
    columns = tuple(range(first, first + 1 + len(paid))) if money else ()
    return TextTable(title, headers, tuple(rows), tuple(notes), columns)


def prize_summary(report: PrizeReport) -> TextTable:
    rows: list[tuple[Cell, ...]] = []
    people = teams = 0
    for pl in report.lists:
        n = len(pl.lines)
        is_team = any(ln.team_id for ln in pl.lines)
        teams += n if is_team else 0
        people += 0 if is_team else n
        count = tr(f"{n}队", f"{n} teams") if is_team else tr(f"{n}人", f"{n} players")
        honours = "、".join(dict.fromkeys(h for ln in pl.lines if (h := honours_of(pl, ln))))
        kind = KIND_LABELS.get(pl.kind, pl.kind) if pays_money(pl) or not honours else honours
        rows.append((pl.name, kind, count, pl.total if pays_money(pl) else None))
    if report.souvenir:  # 参赛棋手均发给纪念品: how many to hand out
        rows.append((tr("纪念品（每名参赛棋手）", "souvenir (every player)"), report.souvenir,
                     tr(f"{report.souvenirs}人", f"{report.souvenirs} players"), None))
    total = tr(f"{people}人", f"{people} players") + (tr(f"、{teams}队", f", {teams} teams") if teams else "")
    money = any(pays_money(pl) for pl in report.lists)
    rows.append((tr("合计", "total"), "", total, report.total if money else None))
    notes = [
        tr(f"{KIND_LABELS.get(k, k)}合计 {v} 元", f"{k}: {v} yuan")
        for k, v in report.totals_by_kind.items()
    ]
    if report.gifts:
        notes.append(tr(f"实物奖励 {report.gifts} 份", f"{report.gifts} gifts"))
    # Only what the regulation states: "税前" when it says so, its own value note otherwise;
    # and only where there is money (奖杯、证书 carry no tax).
    if report.value_note:
        notes.append(report.value_note)
    if money_note := amounts_note(report):
        notes.append(money_note)
    if report.docked or report.tax:
        notes.append(tr(f"税前合计 {report.total} 元，扣除 {yuan_text(report.docked, cents=False)} 元，代扣个税 "
                        f"{yuan_text(report.tax, cents=False)} 元，实发 {yuan_text(report.net, cents=False)} 元",
                        f"gross {report.total} yuan, docked {yuan_text(report.docked, cents=False)}, tax withheld "
                        f"{yuan_text(report.tax, cents=False)}, net {yuan_text(report.net, cents=False)}"))
    if report.overrun:
        notes.append(pool_note(report))
    return TextTable(
        tr("奖励汇总", "payout summary"),
        (tr("奖项", "list"), tr("类别", "kind"), tr("获奖", "awarded"), tr("金额(元)", "yuan")),
        tuple(rows),
        tuple(notes),
        (3,),
    )


def pool_note(report: PrizeReport) -> str:
    """An overrun of the stated pool: open until the chief referee records his decision."""
    head = tr(f"按成绩应发{report.total}元，超过规程写明的奖金总额{report.pool}元{report.overrun}元",
              f"the results pay {report.total} yuan, {report.overrun} more than the stated pool of {report.pool}")
    if report.pool_decision:
        return head + tr(f"；裁判长决定：{report.pool_decision}", f"; chief referee's decision: {report.pool_decision}")
    return head + tr("；待裁判长决定", "; open: the chief referee decides")


def yuan_cell(fen: int) -> Cell:
    """分 as a cell: whole yuan stay integers (spreadsheets sum them), else 1187.50 as text."""
    return fen // 100 if fen % 100 == 0 else yuan_text(fen, cents=False)


def amounts_note(report: PrizeReport) -> str:
    """"以上金额均为税前（元）" where the regulation says so and some prize is money; "金额单位：元"
    for money not called pre-tax; nothing for honours alone."""
    if not any(pays_money(pl) for pl in report.lists):
        return ""
    if report.pre_tax:
        return tr("以上金额均为税前（元）", "amounts are pre-tax, in yuan")
    return tr("金额单位：元", "amounts in yuan")


def prize_tables(report: PrizeReport, players: Mapping[str, Player],
                 teams: Iterable[Team] = ()) -> list[TextTable]:
    names = team_names(teams)
    return [prize_table(pl, players, names) for pl in report.lists] + [prize_summary(report)]


def _tie_header(label: str) -> str:
    """A team tie-break column's title in the reader's language (the registry's label)."""
    found = by_label(label, Scope.TEAM)
    return found.label_in(Scope.TEAM).render() if found is not None else label


def team_table(tt: TeamTable, players: Mapping[str, Player]) -> TextTable:
    comp = tt.competition
    method = tr(METHOD_LABELS.get(comp.method, comp.method), METHOD_LABELS_EN.get(comp.method, comp.method))
    tie_headers = tuple(_tie_header(label)
                        for label, _ in (tt.rows[0].tie_values if tt.rows else ()))
    if comp.method == "match_points":  # 场分制: the table is the matches' (no member places)
        headers = (tr("名次", "place"), tr("队名", "team"), method, *tie_headers)
        return TextTable(comp.name, headers, tuple(
            (_place(r.place), r.name, _num(r.value), *(_tie_cell(v) for _, v in r.tie_values))
            for r in tt.rows), (comp.method_note,) if comp.method_note else ())
    headers = (tr("名次", "place"), tr("队名", "team"), method, *tie_headers,
               tr("队员", "members"), tr("说明", "note"))
    rows = []
    for r in tt.rows:
        members = "、".join(
            f"{players[m.player_id].name if m.player_id in players else m.player_id}"
            f"({m.place if m.place is not None else '-'})"
            for m in r.members
        )
        ties = tuple(_tie_cell(v) for _, v in r.tie_values)
        rows.append((_place(r.place), r.name, _value(r, comp.size), *ties, members, r.note))
    notes = ((comp.method_note,) if comp.method_note else ()) + (
        (partial_note(),) if any(r.partial for r in tt.rows) else ())
    return TextTable(comp.name, headers, tuple(rows), notes)


def _value(r: TeamStanding, size: int) -> Cell:
    """A team's sum; an unranked incomplete team's is marked partial (how many members it sums),
    so it never reads as a better sum than a complete team's."""
    if not r.partial:
        return _num(r.value)
    n = r.counted or 0
    return tr(f"{_num(r.value)} （部分{n}/{size}人）", f"{_num(r.value)} (partial, {n} of {size})")


def _num(v: float) -> Cell:
    return int(v) if float(v).is_integer() else v


def _tie_cell(v: object) -> Cell:
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    if isinstance(v, int | float):
        return _num(v)
    return "" if v is None else str(v)


def rank_award_tables(report: RankAwardReport, players: Mapping[str, Player],
                      teams: Iterable[Team] = ()) -> list[TextTable]:
    if not report.rules:  # the regulation grants no 段位 by place
        return []
    out = [applicant_table(report, players, team_names(teams))]
    for rule in report.rules:
        rows: list[tuple[Cell, ...]] = []
        for g in rule.grants:
            cond = "；".join(
                ("✓ " if c.satisfied else "✗ ") + c.text for c in g.conditions
            ) or tr("无条件", "unconditional")
            if not g.applies:
                rows.append((g.label, cond, "", "", "", g.reason))
                continue
            lines = [(r.place, 0, (g.label, cond, r.place, r.name, r.rank, r.note))
                     for r in g.recipients]
            lines += [(s.place, 1, (g.label, cond, s.place, s.name, tr("未获", "skipped"), s.reason))
                      for s in g.skipped]
            rows.extend(row for _, _, row in sorted(lines, key=lambda x: (x[0], x[1])))
            if g.vacant:
                limit = g.grant.extend_to or g.grant.place_to
                rows.append((g.label, cond, "", "", "", tr(
                    f"顺延到前{limit}名仍无符合条件的棋手，{g.vacant}个名额空缺",
                    f"{g.vacant} left vacant (limit {limit})",
                )))
        out.append(
            TextTable(
                tr(f"{rule.division_name}段位申报（参赛{rule.entrants}人）",
                   f"{rule.division_name} rank awards ({rule.entrants} entrants)"),
                (tr("授予", "grant"), tr("条件", "condition"), tr("名次", "place"),
                 tr("姓名", "name"), tr("结果", "result"), tr("说明", "note")),
                tuple(rows),
                (rule.note,) if rule.note else (),
                group_columns=(0, 1),
            )
        )
    return out


def applicant_table(report: RankAwardReport, players: Mapping[str, Player],
                    teams: Mapping[str, str] | None = None) -> TextTable:
    teams = teams or {}
    rows = []
    for a in report.applicants():
        p = players.get(a.player_id)
        current = str(p.rank) if p is not None and p.rank is not None else ""
        unit = teams.get(a.player_id) or unit_of(p)
        rows.append((a.division_name, a.place, a.name, unit, current, a.text, "；".join(a.notes)))
    return TextTable(
        tr("可申报段位名单", "rank award applicants"),
        (tr("组别", "division"), tr("名次", "place"), tr("姓名", "name"), tr("单位", "unit"),
         tr("现段位", "rank"), tr("可申报", "may apply for"), tr("说明", "note")),
        tuple(rows),
        (tr("段位资格审核、证书颁发按照《中国围棋业余等级制及管理办法》执行",
            "certificates per the CWA amateur grading rules"),),
    )


def promotion_tables(report: PromotionReport, players: Mapping[str, Player]) -> list[TextTable]:
    """升段/定级: the list of players promoted, then one table per rule with every decision."""
    if not report.rules:
        return []
    rows = []
    for o, pr in report.promoted():
        rows.append((o.division_name, pr.name, unit_of(players.get(pr.player_id)), pr.before or tr("无", "none"),
                     pr.wins, pr.after, pr.step, pr.note))
    out = [TextTable(
        tr("升段/定级名单", "promotions by wins"),
        (tr("组别", "division"), tr("姓名", "name"), tr("单位", "unit"), tr("原段级位", "rank held"),
         tr("胜局", "wins"), tr("授予", "granted"), tr("依据", "by"), tr("说明", "note")),
        tuple(rows),
        (tr(f"共{len(rows)}人", f"{len(rows)} players"),),
    )]
    for o in report.rules:
        detail: list[tuple[Cell, ...]] = []
        if not o.applies:
            detail.append(("", "", "", "", o.reason))
        for pr in o.promoted:
            detail.append((pr.name, pr.before or tr("无", "none"), pr.wins, pr.after, pr.note))
        for npr in o.not_promoted:
            detail.append((npr.name, npr.before or tr("无", "none"), npr.wins, tr("未授予", "not granted"),
                           npr.reason))
        out.append(TextTable(
            tr(f"{o.division_name}{o.rule.name}（{o.rounds}轮）", f"{o.division_name} {o.rule.name} ({o.rounds} rounds)"),
            (tr("姓名", "name"), tr("原段级位", "rank held"), tr("胜局", "wins"), tr("结果", "result"),
             tr("说明", "note")),
            tuple(detail),
            (o.label,),
        ))
    return out


def to_lines(tables: Iterable[TextTable]) -> list[str]:
    """Plain text: title, header, one line per row (cells joined by two spaces), notes."""
    lines: list[str] = []
    for t in tables:
        lines.append(f"【{t.title}】")
        lines.append("  ".join(t.headers))
        for row in t.rows:
            lines.append("  ".join("" if c is None else str(c) for c in row).rstrip())
        lines.extend(f"  {n}" for n in t.notes)
        lines.append("")
    return lines


"""Standings, prize lists and rank-award lists as front ends show them: one call each.

Every front end (CLI, web, print) asks here, so a number printed anywhere is the number computed
once by the standings, prize and award engines. Filters accept the words people type
(``gender=女``, ``性别=F``, ``group=A``); divisions accept the id or the Chinese name.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from yisai.awards.inputs import EventResults
from yisai.i18n import Text, language, tr
from yisai.registry.person import Gender
from yisai.services.context import InputError, Work
from yisai.services.errors import Hint
from yisai.services.events import regulation_of, resolve_division, resolve_event
from yisai.services.results import Progress, division_standings, event_progress, load_event_results
from yisai.services.settings import Settings
from yisai.standings import Standings, StandingsInput, compute_standings, resolve_list
from yisai.standings.names import CriterionRef
from yisai.standings.teams import TeamTable
from yisai.store import round_rows

if TYPE_CHECKING:  # the prize and award engines load only for prizes and awards, not standings
    from yisai.awards.prizes import PrizeReport
    from yisai.awards.promotions import PromotionReport
    from yisai.awards.rank_awards import RankAwardReport
    from yisai.formats.awards_report import TextTable

T = TypeVar("T")

FILTER_KEYS: dict[str, str] = {"性别": "gender", "组": "group", "分组": "group", "队": "team",
                               "队伍": "team", "组别": "division"}


def _computed(fn: Callable[[], T]) -> T:
    """Regulation data the engines cannot apply (e.g. an age limit without a date): bad input."""
    try:
        return fn()
    except (ValueError, KeyError) as exc:
        raise InputError(Text(f"规程数据无法应用: {exc}", f"regulation data cannot be applied: {exc}"),
                         code="regulation_not_applicable") from None


def parse_filters(filters: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` words → tag filters; gender accepts 男/女/M/F."""
    wanted: dict[str, str] = {}
    for f in filters:
        if "=" not in f:
            raise InputError(
                Text(f"筛选条件“{f}”应写成 键=值, 如 gender=女 或 group=A",
                     f"filter {f!r} must be KEY=VALUE, e.g. gender=F or group=A"),
                code="bad_filter",
            )
        k, v = (s.strip() for s in f.split("=", 1))
        k = FILTER_KEYS.get(k, k)
        if k == "gender":
            try:
                v = Gender.parse(v).value
            except ValueError:
                raise InputError(Text(f"性别应为 男/女 (或 M/F): {v}", f"gender must be M/F (男/女): {v}"),
                                 code="bad_filter") from None
        wanted[k] = v
    return wanted


def _describe(wanted: Mapping[str, str]) -> str:
    labels = {"gender": tr("性别", "gender"), "group": tr("分组", "group"), "team": tr("队", "team"),
              "division": tr("组别", "division")}
    shown = []
    for k, v in wanted.items():
        if k == "gender":
            v = Gender(v).label if language() == "zh" else v
        shown.append(f"{labels.get(k, k)}={v}")
    return tr("、", ", ").join(shown)


def _subset(inp: StandingsInput, wanted: Mapping[str, str]) -> list[str]:
    ids = list(inp.select(**wanted))
    if not ids:
        keys = sorted({k for p in inp.players for k in p.tags})
        raise InputError(
            Text(f"没有选手符合 {_describe(wanted)} (可用的筛选键: {'、'.join(keys) or '无'})",
                 f"no player matches {_describe(wanted)} (keys available: {', '.join(keys) or 'none'})"),
            code="empty_filter",
        )
    return ids


def ranking_lists(work: Work, event_ref: str | int | None, division: str | None) -> list[tuple[str, str, str]]:
    """The division's official ranking lists the standings filter can select (规程: 男子、女子分别
    录取): ``(id, name, filter)``, the filter empty for the mixed list; none when the division
    has a single list (its standings are the division's). Lists limited by age are the prize
    list's (``yisai prizes``): they need a reference date the standings do not hold."""
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    if division is None:
        return []
    lists = reg.division(resolve_division(reg, division)).rankings
    chosen = [(r.id, r.name, f"gender={r.gender.value}" if r.gender is not None else "")
              for r in lists if r.min_age is None]
    return chosen if any(f for _, _, f in chosen) else []


@dataclass(frozen=True)
class StandingsReport:
    standings: Standings
    source: StandingsInput
    warnings: tuple[str, ...]
    title: str  # event, division and filter, for headings and file names


def event_standings(
    work: Work,
    event_ref: str | int | None,
    division: str | None,
    *,
    round_: int | None = None,
    criteria: Sequence[CriterionRef] | None = None,
    filters: Iterable[str] = (),
) -> StandingsReport:
    """A division's standings (the final applied); refused without a division when several
    divisions play (they never play each other, so one list across them means nothing)."""
    from yisai.services.event_data import standings_input

    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    wanted = parse_filters(filters)
    if division is None:
        division = wanted.pop("division", None)
    playing = [d for d in reg.divisions if round_rows.round_numbers(work.session, event.id, d.id)] or list(reg.divisions)
    if division is None:
        if len(playing) != 1:
            choices = "、".join(f"{d.name}({d.id})" for d in playing)
            raise InputError(
                Text(f"本比赛有{len(playing)}个组别, 各组分别排名: {choices}",
                     f"this event has {len(playing)} divisions, ranked separately: "
                     f"{', '.join(f'{d.id} ({d.name})' for d in playing)}"),
                code="division_required", hint=Hint.DIVISION,
            )
        division = playing[0].id
    did = resolve_division(reg, division)
    inp = standings_input(work, event, did)
    subset = _subset(inp, wanted) if wanted else None
    standings = division_standings(work, event, did, round_=round_, criteria=criteria, subset=subset,
                                   inp=inp, group_table=set(wanted) == {"group"})
    name = reg.division(did).name
    title = " ".join(x for x in (event.name, name, _describe(wanted) if wanted else "") if x)
    return StandingsReport(standings, inp, tuple(inp.warnings), title)


def file_standings(
    source: str,
    *,
    round_: int | None = None,
    criteria: str | None = None,
    filters: Iterable[str] = (),
    division: str | None = None,
    lot_seed: int | None = None,
) -> StandingsReport:
    """Standings recomputed from an OpenGotha .xml or EGD .h9 file (criteria from the games)."""
    from yisai.services.standings_source import SourceError, load_source  # the file readers

    try:
        inp = load_source(source)
    except SourceError as exc:
        raise InputError(str(exc), code="bad_source") from None
    wanted = parse_filters(filters)
    if division is not None:
        wanted["division"] = division
    try:
        refs = resolve_list(criteria) if criteria else None
        subset = _subset(inp, wanted) if wanted else None
        st = compute_standings(inp, round_, refs, subset,
                               lot_seed=int(inp.meta.get("seed", 0)) if lot_seed is None else lot_seed)
    except ValueError as exc:
        raise InputError(str(exc), code="bad_standings_request") from None
    return StandingsReport(st, inp, tuple(inp.warnings), inp.title or source)


def _is_file(source: str) -> bool:
    from pathlib import Path

    path = Path(source)
    return path.is_file() or path.suffix.lower() in (".xml", ".h9") or "/" in source


def standings(
    source: str,
    settings: Settings,
    *,
    division: str | None = None,
    round_: int | None = None,
    criteria: str | None = None,
    filters: Iterable[str] = (),
    lot_seed: int | None = None,
) -> StandingsReport:
    """``yisai standings SOURCE``: a file, or an event (number or name) of the settings' store."""
    from yisai.services.context import unit_of_work

    if _is_file(source):
        return file_standings(source, round_=round_, criteria=criteria, filters=filters,
                              division=division, lot_seed=lot_seed)
    with unit_of_work(settings) as work:
        refs = resolve_list(criteria) if criteria else None
        return event_standings(work, source, division, round_=round_, criteria=refs,
                               filters=filters)


def official_standings(
    source: str,
    settings: Settings,
    *,
    division: str | None = None,
    round_: int | None = None,
    criteria: str | None = None,
    lot_seed: int | None = None,
) -> list[StandingsReport]:
    """``yisai standings EVENT -d yi`` with no filter: the division's official lists one after
    the other (乙组男子, 乙组女子, the mixed list), as the regulation ranks them; a file, or a
    division with one list, gives its one table."""
    from yisai.services.context import unit_of_work

    whole = standings(source, settings, division=division, round_=round_, criteria=criteria,
                      lot_seed=lot_seed)
    if _is_file(source) or division is None:
        return [whole]
    with unit_of_work(settings) as work:
        event_name = resolve_event(work, source).name
        lists = ranking_lists(work, source, division)
    reports = []
    for _id, name, flt in lists:
        try:
            one = whole if not flt else standings(source, settings, division=division, round_=round_,
                                                  criteria=criteria, filters=[flt], lot_seed=lot_seed)
        except InputError as exc:
            if exc.code == "empty_filter":  # nobody of that gender entered: no list to show
                continue
            raise
        reports.append(replace(one, title=f"{event_name} {name}"))
    return reports or [whole]


# ------------------------------------------------------------------ prizes and awards


@dataclass(frozen=True)
class PrizeView:
    results: EventResults
    report: PrizeReport
    teams: list[TeamTable]
    team_tables: list[TextTable]
    prize_tables: list[TextTable]
    progress: tuple[Progress, ...] = ()  # each playing division: final, or after which round

    def xlsx(self) -> bytes:
        from yisai.formats import awards_export  # xlsxwriter loads only for a workbook

        buf = io.BytesIO()
        awards_export.write_prizes(self.report, self.results.players, buf, self.teams,
                                   members=self.results.teams)
        return buf.getvalue()


def _no_promotions() -> PromotionReport:
    from yisai.awards.promotions import PromotionReport

    return PromotionReport(())


@dataclass(frozen=True)
class AwardView:
    """段位申报 and 升段/定级: ``tables`` holds both (rank awards first), as every front end
    shows them; ``promotion_tables`` the promotions alone, for a page that heads them apart."""

    results: EventResults
    report: RankAwardReport
    tables: list[TextTable]
    promotions: PromotionReport = field(default_factory=_no_promotions)
    promotion_tables: list[TextTable] = field(default_factory=list)

    @property
    def rank_award_tables(self) -> list[TextTable]:
        return self.tables[:len(self.tables) - len(self.promotion_tables)]

    def xlsx(self) -> bytes:
        from yisai.formats import awards_export  # xlsxwriter loads only for a workbook

        buf = io.BytesIO()
        awards_export.write_rank_awards(self.report, self.results.players, buf, self.promotions,
                                        teams=self.results.teams)
        return buf.getvalue()


def prize_view(results: EventResults, *, teams: bool = True) -> PrizeView:
    from yisai.awards.prizes import compute_prizes
    from yisai.formats.awards_report import prize_tables, team_table

    report = _computed(lambda: compute_prizes(results))  # an overrun of prizes.pool is shown, not refused
    team = list(_computed(results.team_tables).values()) if teams else []
    return PrizeView(results, report, team, [team_table(t, results.players) for t in team],
                     prize_tables(report, results.players, results.teams))


def team_tables(work: Work, event_ref: str | int | None) -> list[TextTable]:
    """团体名次 alone: the team table never depends on the money, so a prize list that cannot be
    computed does not take it down."""
    from yisai.formats.awards_report import team_table

    results = load_event_results(work, event_ref)
    tables = [team_table(t, results.players) for t in _computed(results.team_tables).values()]
    return [*provisional_marks(PrizeView(results, _no_prizes(), [], tables, []),
                               event_progress(work, event_ref)).team_tables]


def _no_prizes() -> PrizeReport:
    from yisai.awards.prizes import PrizeReport

    return PrizeReport(())


def award_view(results: EventResults) -> AwardView:
    from yisai.awards.promotions import compute_promotions
    from yisai.awards.rank_awards import compute_rank_awards
    from yisai.formats.awards_report import promotion_tables, rank_award_tables

    report = _computed(lambda: compute_rank_awards(results))
    promoted = _computed(lambda: compute_promotions(results))
    extra = promotion_tables(promoted, results.players)
    return AwardView(results, report, rank_award_tables(report, results.players, results.teams) + extra, promoted, extra)


def prizes(work: Work, event_ref: str | int | None, *, teams: bool = True) -> PrizeView:
    """录取名单与奖金 of an event: every list, the special awards and the payout summary; a
    list of a division still playing is titled 暂定 (第N轮后)."""
    view = prize_view(load_event_results(work, event_ref), teams=teams)
    return provisional_marks(view, event_progress(work, event_ref))


def provisional_marks(view: PrizeView, progress: Sequence[Progress]) -> PrizeView:
    """Titles of the lists whose division (or, for team and cross-division lists, any
    division) has not finished say 暂定 and after which round."""
    by_division = {p.division: p for p in progress}
    unfinished = [p for p in progress if not p.final]

    def mark(table: TextTable, division: str) -> TextTable:
        own = by_division.get(division)
        which = [own] if own is not None else unfinished
        if not which or all(p.final for p in which):
            return table
        after = min(p.after for p in which if not p.final)
        note = Progress(division, after, False).note.render()
        return replace(table, title=f"{table.title} · {note}")

    lists = list(view.report.lists)
    tables = [mark(t, lists[i].division if i < len(lists) else "") for i, t in enumerate(view.prize_tables)]
    return replace(view, prize_tables=tables, team_tables=[mark(t, "") for t in view.team_tables],
                   progress=tuple(progress))


def awards(work: Work, event_ref: str | int | None) -> AwardView:
    """段位申报: who may apply for which rank, with every decision of the 顺延 rule; then
    升段/定级 by wins, with the reason for everyone a rule covers who is not promoted."""
    return award_view(load_event_results(work, event_ref))

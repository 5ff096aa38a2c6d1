"""线上海选赛晋级名单: per period, the top N by ladder points; ties by wins; still tied → all.

Seed 000 十(一)1: "公开组每期录取前38名，少儿组每期录取前30名（如积分相同，则胜局数多者列前；
如胜局数也相同，则并列一同晋级）". So the list can be longer than N, never shorter (unless
fewer played), and two players with equal points and wins always share a fate.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from yisai.i18n import tr
from yisai.regulation.stages import LadderFormat


@dataclass(frozen=True, slots=True)
class LadderRecord:
    """A player's result in one period: ladder points and number of wins."""

    points: int
    wins: int


@dataclass(frozen=True, slots=True)
class QualifierRow:
    player_id: str
    place: int  # shared when points and wins are equal
    points: int
    wins: int
    qualified: bool
    note: str = ""


@dataclass(frozen=True, slots=True)
class QualifierList:
    quota: int
    rows: tuple[QualifierRow, ...]

    @property
    def qualified(self) -> tuple[str, ...]:
        return tuple(r.player_id for r in self.rows if r.qualified)

    @property
    def extra(self) -> int:
        """How many beyond the quota qualified because of ties (并列一同晋级)."""
        return max(0, len(self.qualified) - self.quota)


def qualify(
    records: Mapping[str, LadderRecord],
    quota: int,
    *,
    by_wins: bool = True,
    all_tied_qualify: bool = True,
    exclude: Collection[str] = (),
) -> QualifierList:
    """Order by points, then wins (``by_wins``); the top ``quota`` qualify, plus every player
    tied with the last of them when ``all_tied_qualify``. ``exclude`` (e.g. already qualified
    in an earlier period) are listed without taking a place. Ties are listed by player id.
    """
    if quota < 0:
        raise ValueError(f"录取名额不能为负: {quota}")

    def key(pid: str) -> tuple[int, int]:
        rec = records[pid]
        return (rec.points, rec.wins if by_wins else 0)

    ranked = sorted(
        (pid for pid in records if pid not in exclude),
        key=lambda p: (-key(p)[0], -key(p)[1], p),
    )
    rows: list[QualifierRow] = []
    place = 0
    prev: tuple[int, int] | None = None
    cutoff_key: tuple[int, int] | None = None
    for i, pid in enumerate(ranked, start=1):
        k = key(pid)
        if k != prev:
            place, prev = i, k
        if i == quota:
            cutoff_key = k
        within = i <= quota
        tied_in = all_tied_qualify and cutoff_key is not None and not within and k == cutoff_key
        note = tr(f"与第{quota}名积分、胜局数相同，并列晋级", f"tied with place {quota}") if tied_in else ""
        rec = records[pid]
        rows.append(QualifierRow(pid, place, rec.points, rec.wins, within or tied_in, note))
    for pid in sorted(p for p in records if p in exclude):
        rec = records[pid]
        rows.append(
            QualifierRow(pid, 0, rec.points, rec.wins, False, tr("已在前期晋级", "already qualified"))
        )
    return QualifierList(quota=quota, rows=tuple(rows))


def quota_for(ladder: LadderFormat, division: str) -> tuple[str, int]:
    """The quota key (division or pool such as 少儿组 youth = junior + kids) and its number."""
    if division in ladder.qualifiers:
        return division, ladder.qualifiers[division]
    for pool, members in ladder.pools.items():
        if division in members and pool in ladder.qualifiers:
            return pool, ladder.qualifiers[pool]
    raise KeyError(f"海选赛没有组别 {division} 的录取名额 (qualifiers)")


def qualify_period(
    ladder: LadderFormat,
    pool: str,
    records: Mapping[str, LadderRecord],
    exclude: Collection[str] = (),
) -> QualifierList:
    """One period's list for one quota key (division id or pool), as the ladder format says."""
    _, quota = quota_for(ladder, pool)
    return qualify(
        records,
        quota,
        by_wins="wins" in ladder.tie_break,
        all_tied_qualify=ladder.all_tied_qualify,
        exclude=exclude,
    )


def confirm_deadline(after: date, working_days: int, is_workday: Callable[[date], bool]) -> date:
    """The last day to confirm: the ``working_days``-th working day after ``after``.

    Seed 000 十(一)3: "线上晋级选手须在十个工作日内…完善…参赛信息，逾期默认视为弃权". The calendar is
    injected (statutory holidays and 调休 make it data, not arithmetic).
    """
    if working_days < 1:
        raise ValueError(f"工作日数须为正数: {working_days}")
    day, counted = after, 0
    while counted < working_days:
        day += timedelta(days=1)
        if is_workday(day):
            counted += 1
    return day


# ----- the published list of one period (issue 14) ---------------------------------------------
@dataclass(frozen=True, slots=True)
class ListedRow:
    """One line of a published period list. ``qualified``: wins a place in this period;
    ``earlier`` the period where the player already qualified (listed as such, no new place);
    ``tied_at`` the shared place of a tie at the quota that qualifies together."""

    player: str
    name: str
    place: int  # 0: listed without a place (an earlier qualifier whose place passed on)
    points: int
    wins: int
    games: int
    qualified: bool
    earlier: int | None = None
    tied_at: int | None = None

    def note(self) -> str:
        if self.earlier is not None:
            return tr(f"已在第{self.earlier}期晋级", f"qualified in period {self.earlier} already")
        if self.tied_at is not None:
            return tr(f"并列第{self.tied_at}名，一同晋级", f"tied for place {self.tied_at}: all qualify")
        return ""

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "name": self.name, "place": self.place, "points": self.points,
                "wins": self.wins, "games": self.games, "qualified": self.qualified,
                "earlier": self.earlier, "tied_at": self.tied_at}  # fmt: skip

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> ListedRow:
        def num(key: str) -> int:
            v = d.get(key)
            return v if isinstance(v, int) else 0

        def opt(key: str) -> int | None:
            v = d.get(key)
            return v if isinstance(v, int) else None

        return cls(str(d.get("player", "")), str(d.get("name", "")), num("place"), num("points"),
                   num("wins"), num("games"), bool(d.get("qualified")), opt("earlier"), opt("tied_at"))


def period_list(
    ladder: LadderFormat,
    pool: str,
    lines: Mapping[str, tuple[str, int, int, int]],
    earlier: Mapping[str, int],
) -> list[ListedRow]:
    """The list to publish for one period and pool from ``lines`` (player → name, points, wins,
    games) with ``earlier`` (player → the period they already qualified in).

    The regulation's ``earlier_qualifier_place`` decides what an earlier qualifier does to the
    quota: ``kept`` — they keep their place in the ranking and nobody moves up (the default:
    seed 000 is silent); ``passed_on`` — they are listed without a place and the next player
    takes it.
    """
    records = {p: LadderRecord(v[1], v[2]) for p, v in lines.items()}
    passed_on = ladder.earlier_qualifier_place == "passed_on"
    result = qualify_period(ladder, pool, records, exclude=set(earlier) & set(records) if passed_on else ())
    placed = [r for r in result.rows if r.place > 0]
    cutoff = placed[result.quota - 1].place if 0 < result.quota <= len(placed) else None
    group = [r for r in placed if r.place == cutoff] if cutoff is not None else []
    shared = cutoff if len(group) > 1 and any(placed.index(r) >= result.quota for r in group) else None
    out = []
    for r in result.rows:
        name, _, _, games = lines[r.player_id]
        before = earlier.get(r.player_id)
        out.append(ListedRow(
            r.player_id, name, r.place, r.points, r.wins, games,
            qualified=r.qualified and before is None, earlier=before,
            tied_at=shared if r.qualified and shared is not None and r.place == shared else None,
        ))  # fmt: skip
    return out

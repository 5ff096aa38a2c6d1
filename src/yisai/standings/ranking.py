"""Ordering players by the regulation's ordered criteria list, and saying why.

Rules (DESIGN.md "Rules and their defaults"):
- 全胜者冠军 (optional): undefeated players come first, whatever the other criteria say.
- Each criterion splits the still-tied group into sub-groups; every sub-group then continues
  with the NEXT criterion (the sub-group restart rule), never with the one that split it.
- 直胜 only among the players still tied: two players compare their mutual games; three or more
  only when every pair of them has met, else the criterion is skipped.
- 小循环 (mini-league, ``RankingRules.mini_league``, for round robins): right after the first
  criterion, players tied on it are ordered by their points in the games among themselves
  (only when every pair of them has met); a sub-group still tied is compared again among
  itself the same way, and only then do the remaining criteria apply.
- Players equal on everything share the place (并列) unless 抽签 (lot) is in the list.
- A ranking list over a subset (a division, one gender, an age band) orders only that subset's
  rows; the criteria themselves were computed from all games.
Every adjacent pair of the final order records the criterion that separated it, so
``Standings.explain`` can tell a player, in Chinese, why he is above and below his neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, takewhile

from yisai.bursts import allocation_pause
from yisai.i18n import tr
from yisai.regulation.criteria import CRITERIA, criterion_label
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules
from yisai.standings.criteria import Value, column_key
from yisai.standings.ledger import BYE, Ledger
from yisai.standings.model import StandingsPlayer
from yisai.standings.table import CriteriaTable


@dataclass(frozen=True, slots=True)
class RankKey:
    """One criterion as the ranking engine sees it.

    ``values`` is indexed by player index (None for 直胜, which is computed per tied group).
    """

    key: str
    label: str
    values: Sequence[Value] | None = None
    lower_is_better: bool = False
    direct: bool = False
    header: str = ""  # column title in exports (the name as the user typed it)
    repeat: bool = False  # 小循环: a sub-group it leaves tied is compared again among itself

    @property
    def title(self) -> str:
        return self.header or self.label


@dataclass(frozen=True, slots=True)
class Decision:
    """Why ``upper`` is placed above ``lower`` (they are adjacent in the final order)."""

    kind: str  # "criterion" | "direct" | "undefeated" | "tie" | "placement"
    key: str
    label: str
    upper_value: object = None
    lower_value: object = None


@dataclass(frozen=True, slots=True)
class StandingRow:
    place: int
    player: StandingsPlayer
    values: dict[str, Value]
    shared: bool = False  # 并列

    @property
    def player_id(self) -> str:
        return self.player.id


@dataclass(frozen=True, slots=True)
class Explanation:
    player: StandingsPlayer
    place: int
    above: tuple[StandingRow, Decision] | None  # the neighbour just above and why
    below: tuple[StandingRow, Decision] | None  # the neighbour just below and why
    order: tuple[tuple[str, str, bool], ...] = ()  # (key, label, lower is better), in ranking order

    def text(self) -> str:
        lines = [
            tr(f"{self.player.name} 第{self.place}名", f"{self.player.name}: place {self.place}")
        ]
        if self.above is None:
            lines.append(tr("  名列第一, 上方没有选手", "  first: nobody above"))
        else:
            row, d = self.above
            lines.append(
                tr(
                    f"  低于 第{row.place}名 {row.player.name}: ",
                    f"  below #{row.place} {row.player.name}: ",
                )
                + describe(d, upper_is_me=False, order=self.order)
            )
        if self.below is None:
            lines.append(tr("  名列最后, 下方没有选手", "  last: nobody below"))
        else:
            row, d = self.below
            lines.append(
                tr(
                    f"  高于 第{row.place}名 {row.player.name}: ",
                    f"  above #{row.place} {row.player.name}: ",
                )
                + describe(d, upper_is_me=True, order=self.order)
            )
        return "\n".join(lines)


def format_value(v: object) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(format_value(x) for x in v) + ")"
    if hasattr(v, "denominator") and getattr(v, "denominator", 1) != 1:
        return f"{float(v):g}"  # type: ignore[arg-type]
    return str(v)


def describe(d: Decision, upper_is_me: bool, order: Sequence[tuple[str, str, bool]] = ()) -> str:
    """One phrase for a decision, seen from the player being explained, in words a parent
    reads: which criterion decided, that the ones before it were equal, both values and
    which way it counts (``order``: the criteria in ranking order, to name the equal ones)."""
    if d.kind == "undefeated":
        return tr("全胜者冠军 (全胜者名列第一, 不比其他指标)", "undefeated player is champion")
    if d.kind == "placement":  # each side's own reason when given (同名次决赛 A组第1名胜B组第1名…)
        mine = d.upper_value if upper_is_me else d.lower_value
        if isinstance(mine, str) and mine:
            return mine
        return d.label or tr("按同名次决赛后的名次", "by the places after the same-place final")
    if d.kind == "tie":
        return tr("并列 (所有名次指标均相同, 未设抽签)", "tied on every criterion (shared place)")
    up, low = d.upper_value, d.lower_value
    label = d.label
    if isinstance(up, tuple) and isinstance(low, tuple):
        for j, (a, b) in enumerate(zip(up, low, strict=False)):
            if a != b:
                label = tr(
                    f"{d.label}(减去{j + 1}轮后)", f"{d.label} (after removing {j + 1} rounds)"
                )
                up, low = a, b
                break
    mine, theirs = (up, low) if upper_is_me else (low, up)
    known = any(k[0] == d.key for k in order)
    earlier = [k[1] for k in takewhile(lambda k: k[0] != d.key, order)] if known else []
    lower = any(k[0] == d.key and k[2] for k in order)
    same = tr(f"{'、'.join(earlier)}都相同, ", f"equal on {', '.join(earlier)}; ") if earlier else ""
    if d.kind == "direct":
        return same + tr(
            f"由{d.label}决定 (并列者之间对局的得分): {format_value(mine)} 对 {format_value(theirs)}",
            f"decided by {d.label} (points in the games among the tied players): "
            f"{format_value(mine)} vs {format_value(theirs)}",
        )
    if d.key == "lot":
        return same + tr(
            f"由抽签决定: 签号 {format_value(mine)} 对 {format_value(theirs)} (签号小者列前)",
            f"decided by lot: {format_value(mine)} vs {format_value(theirs)} (lower first)",
        )
    return same + tr(
        f"由{label}决定: {format_value(mine)} 对 {format_value(theirs)} ({'低' if lower else '高'}者列前)",
        f"decided by {label}: {format_value(mine)} vs {format_value(theirs)} ({'lower' if lower else 'higher'} first)",
    )


@dataclass(slots=True)
class Standings:
    """A ranking list: rows in order with places, and the decision behind each adjacent pair."""

    rows: list[StandingRow]
    keys: list[RankKey]
    round: int
    decisions: dict[tuple[str, str], Decision] = field(default_factory=dict)
    title: str = ""
    mode: str = "chinese"  # or "opengotha"
    display: list[RankKey] = field(default_factory=list)  # columns shown; default: the keys
    # 退赛/取消资格 players without a place (regulation.withdrawal): shown after ``rows``, place 0,
    # never in prize lists or awards, which read ``rows``
    unranked: list[StandingRow] = field(default_factory=list)

    @property
    def listed(self) -> list[StandingRow]:
        """Every row a printed list shows: the ranked ones, then those without a place."""
        return self.rows + self.unranked if self.unranked else self.rows

    @property
    def shown_keys(self) -> list[RankKey]:
        """Columns with a value per player (直胜 has none), in display order."""
        return self.display or [k for k in self.keys if not k.direct]

    def placed_by_undefeated(self) -> set[str]:
        """Undefeated players standing above a player with more on the first criterion (积分,
        总分 …) by 全胜者冠军 alone: a list says so on their row, or 66 above 72 reads as a
        mistake. A champion who leads on the criteria anyway needs no word."""
        first = next((k for k in self.keys if not k.direct), None)
        if first is None:
            return set()
        rows = {r.player.id: r for r in self.rows}
        out = set()
        for (upper, lower), d in self.decisions.items():
            if d.kind != "undefeated" or upper not in rows or lower not in rows:
                continue
            above, below = rows[upper].values.get(first.key), rows[lower].values.get(first.key)
            try:
                if above is not None and below is not None and below > above:  # type: ignore[operator]
                    out.add(upper)
            except TypeError:
                continue
        return out

    def place_of(self, pid: str) -> int:
        for row in self.rows:
            if row.player.id == pid:
                return row.place
        raise KeyError(pid)

    def find(self, who: str) -> int:
        """Row index of a player given by id or by name (what a referee would type)."""
        for k, row in enumerate(self.rows):
            if row.player.id == who:
                return k
        matches = [
            k
            for k, row in enumerate(self.rows)
            if who in (row.player.name, row.player.name.replace(" ", ""))
        ]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise KeyError(tr(f"名单中没有选手 {who!r}", f"no player {who!r} in this list"))
        raise KeyError(
            tr(f"有多名选手叫 {who!r}, 请用编号", f"several players are called {who!r}; use the id")
        )

    def explain(self, who: str) -> Explanation:
        k = self.find(who)
        row = self.rows[k]
        above = below = None
        if k > 0:
            up = self.rows[k - 1]
            above = (up, self.decisions[(up.player.id, row.player.id)])
        if k + 1 < len(self.rows):
            down = self.rows[k + 1]
            below = (down, self.decisions[(row.player.id, down.player.id)])
        return Explanation(player=row.player, place=row.place, above=above, below=below,
                           order=tuple((key.key, key.label, key.lower_is_better) for key in self.keys))


def direct_points(ledger: Ledger, group: Sequence[int]) -> list[int] | None:
    """直胜 values for a tied group: each one's points from games among the group.

    None when the criterion does not apply: two players who never met, or three or more
    players of whom not every pair has met.
    """
    members = set(group)
    met: set[tuple[int, int]] = set()
    pts = []
    for i in group:
        total = 0
        for o, k, out, p in zip(
            ledger.opponent[i], ledger.kind[i], ledger.outcome[i], ledger.points[i], strict=True
        ):
            if o in members and k != BYE and out != "?":
                total += p
                met.add((i, o))
        pts.append(total)
    for a in group:
        for b in group:
            if a < b and (a, b) not in met:
                return None
    return pts


def rank_by_keys(
    players: Sequence[StandingsPlayer],
    keys: Sequence[RankKey],
    round_: int,
    values_for_row: Callable[[int], dict[str, Value]],
    subset: Iterable[int] | None = None,
    direct: Callable[[Sequence[int]], list[int] | None] | None = None,
    undefeated: Sequence[bool] | None = None,
) -> Standings:
    """The engine: order player indices of ``subset`` by ``keys`` with the rules above."""
    with allocation_pause():
        return _rank(players, keys, round_, values_for_row, subset, direct, undefeated)


def _rank(
    players: Sequence[StandingsPlayer],
    keys: Sequence[RankKey],
    round_: int,
    values_for_row: Callable[[int], dict[str, Value]],
    subset: Iterable[int] | None,
    direct: Callable[[Sequence[int]], list[int] | None] | None,
    undefeated: Sequence[bool] | None,
) -> Standings:
    group = list(range(len(players))) if subset is None else list(subset)
    decisions: dict[tuple[str, str], Decision] = {}
    pid = [p.id for p in players]

    def split(members: list[int], idx: int) -> list[list[int]]:
        if len(members) == 1:
            return [members]
        if idx >= len(keys):
            members = sorted(members, key=lambda i: (players[i].name, pid[i]))
            for a, b in pairwise(members):
                decisions[(pid[a], pid[b])] = Decision("tie", "", tr("并列", "tie"))
            return [members]
        key = keys[idx]
        if key.direct:
            vals = direct(members) if direct is not None else None
            if vals is None:
                return split(members, idx + 1)
            value_of: dict[int, Value] = dict(zip(members, vals, strict=True))
            kind = "direct"
        else:
            assert key.values is not None
            col = key.values
            value_of = {i: col[i] for i in members}
            kind = "criterion"
        ordered = sorted(members, key=lambda i: value_of[i], reverse=not key.lower_is_better)
        runs: list[list[int]] = [[ordered[0]]]
        for i in ordered[1:]:
            if value_of[i] == value_of[runs[-1][0]]:
                runs[-1].append(i)
            else:
                runs.append([i])
        if len(runs) == 1:
            return split(members, idx + 1)
        blocks: list[list[int]] = []
        for run in runs:
            sub = split(run, idx if key.repeat and len(run) > 1 else idx + 1)
            if blocks:
                upper, lower = blocks[-1][-1], sub[0][0]
                decisions[(pid[upper], pid[lower])] = Decision(
                    kind, key.key, key.label, value_of[upper], value_of[lower]
                )
            blocks.extend(sub)
        return blocks

    blocks: list[list[int]] = []
    if undefeated is not None:
        top = [i for i in group if undefeated[i]]
        rest = [i for i in group if not undefeated[i]]
        if top and rest:
            top_blocks = split(top, 0)
            rest_blocks = split(rest, 0)
            upper, lower = top_blocks[-1][-1], rest_blocks[0][0]
            decisions[(pid[upper], pid[lower])] = Decision(
                "undefeated", "undefeated_champion", tr("全胜者冠军", "undefeated champion")
            )
            blocks = top_blocks + rest_blocks
    if not blocks and group:
        blocks = split(group, 0)

    rows: list[StandingRow] = []
    place = 1
    for block in blocks:
        for i in block:
            rows.append(StandingRow(place, players[i], values_for_row(i), shared=len(block) > 1))
        place += len(block)
    return Standings(rows=rows, keys=list(keys), round=round_, decisions=decisions)


MINI_LEAGUE_KEY = "mini_league"


def with_mini_league(keys: list[RankKey], rules: RankingRules) -> list[RankKey]:
    """``keys`` with 小循环 right after the first criterion when the regulation asks for it."""
    if not rules.mini_league or not keys:
        return keys
    mini = RankKey(MINI_LEAGUE_KEY, tr("小循环", "mini-league"), direct=True, repeat=True)
    return [keys[0], mini, *keys[1:]]


def keys_for(table: CriteriaTable, specs: Sequence[CriterionSpec]) -> list[RankKey]:
    out = []
    for spec in specs:
        crit = spec.criterion
        label = criterion_label(crit, spec.from_last_round)
        if crit == Criterion.DIRECT:
            out.append(RankKey("direct", label, direct=True))
            continue
        key = column_key(spec)
        out.append(RankKey(key, label, table.columns[key], lower_is_better=CRITERIA[crit].lower_is_better))
    return out


def rank(
    table: CriteriaTable,
    rules: RankingRules,
    subset: Iterable[str] | None = None,
) -> Standings:
    """The regulation's ranking of ``subset`` (default: everybody) after the table's round."""
    index = table.ledger.index
    sub = None if subset is None else [index[pid] for pid in subset]
    keys = with_mini_league(keys_for(table, rules.criteria), rules)
    shown = [k for k in keys if not k.direct]
    columns = {k.key: k.values for k in shown}
    columns.setdefault("score", table.columns["score"])

    def values_for_row(i: int) -> dict[str, Value]:
        return {k: col[i] for k, col in columns.items() if col is not None}

    return rank_by_keys(
        table.players,
        keys,
        table.ledger.rounds,
        values_for_row,
        subset=sub,
        direct=lambda members: direct_points(table.ledger, members),
        undefeated=table.undefeated if rules.undefeated_champion else None,
    )

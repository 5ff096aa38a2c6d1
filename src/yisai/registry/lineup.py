"""出场名单: which registered players of a team sit on which board in one round.

The rules come from the stage's ``TeamMatchFormat``: at most ``boards`` players, each a
registered member of the team at most once, in the registered order when the board order is
fixed (substitutes may be skipped, nobody moved up past a teammate registered before him), at
least ``min_women`` women, at least ``youth_quota.players`` players under ``youth_quota.under_age``
on the stage's first day (每场至少1名18岁以下棋手出场), and no leader on a board when
``leader_may_play`` is false (names compared with the team's registered leaders). A line-up shorter than ``boards`` leaves the last boards empty:
those boards are forfeited (a missing player loses his board). Pure: reasons, never booleans.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from yisai.i18n import Text
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation.team_match import TeamMatchFormat
from yisai.vocabulary import Gender


def _name(players: Mapping[str, Player], pid: str) -> str:
    p = players.get(pid)
    return p.name if p is not None else pid


def is_young(players: Mapping[str, Player], pid: str, fmt: TeamMatchFormat, age_on: date | None) -> bool:
    """Counts for the youth quota: younger than ``under_age`` on ``age_on`` (no birth date: no)."""
    p = players.get(pid)
    if fmt.youth_quota is None or age_on is None or p is None:
        return False
    age = p.age_on(age_on)
    return age is not None and age < fmt.youth_quota.under_age


def plays_as_leader(team: Team, players: Mapping[str, Player], pid: str, fmt: TeamMatchFormat) -> bool:
    """A registered leader of the team named on a board where the regulation forbids it."""
    p = players.get(pid)
    return not fmt.leader_may_play and p is not None and p.name in team.leaders


def lineup_problems(
    team: Team, lineup: Sequence[str], players: Mapping[str, Player], fmt: TeamMatchFormat,
    *, age_on: date | None = None,
) -> list[Text]:
    """Why ``lineup`` (player ids, board 1 first) breaks the stage's line-up rules (empty: fine).
    ``age_on``: the day ages are counted on for the youth quota (the stage's first day)."""
    out: list[Text] = []
    order = [m.player_id for m in team.members]
    if not lineup:
        out.append(Text("出场名单不能为空", "the line-up cannot be empty"))
    if len(lineup) > fmt.boards:
        out.append(Text(f"出场{len(lineup)}人, 多于每场台数{fmt.boards}",
                        f"{len(lineup)} players named for {fmt.boards} boards"))
    seen: set[str] = set()
    for board, pid in enumerate(lineup, start=1):
        if pid not in order:
            out.append(Text(f"第{board}台 {_name(players, pid)} 不是{team.name}的报名队员",
                            f"board {board}: {_name(players, pid)} is not registered for {team.name}"))
        if pid in seen:
            out.append(Text(f"{_name(players, pid)} 在名单中出现两次",
                            f"{_name(players, pid)} is named twice"))
        seen.add(pid)
    if fmt.fixed_order and not out:
        positions = [order.index(pid) for pid in lineup]
        for board in range(1, len(positions)):
            if positions[board] < positions[board - 1]:
                first, second = lineup[board - 1], lineup[board]
                out.append(Text(
                    f"台次顺序须按报名顺序: {_name(players, second)} (报名第{positions[board] + 1}位) "
                    f"不能排在 {_name(players, first)} (报名第{positions[board - 1] + 1}位) 之后",
                    f"the board order must follow the registered order: {_name(players, second)} "
                    f"(registered {positions[board] + 1}) cannot sit below {_name(players, first)} "
                    f"(registered {positions[board - 1] + 1})"))
                break
    women = sum(1 for pid in lineup if (p := players.get(pid)) is not None and p.gender == Gender.FEMALE)
    if women < fmt.min_women:
        out.append(Text(f"出场名单须至少有{fmt.min_women}名女棋手, 现有{women}名",
                        f"the line-up needs at least {fmt.min_women} women; it has {women}"))
    quota = fmt.youth_quota
    if quota is not None and age_on is not None:
        young = sum(1 for pid in lineup if is_young(players, pid, fmt, age_on))
        if young < quota.players:
            day = f"{age_on.year}年{age_on.month}月{age_on.day}日"
            out.append(Text(f"规程: 每场至少{quota.players}名{quota.under_age}岁以下棋手出场; 名单中{day}未满"
                            f"{quota.under_age}周岁的棋手{young}名",
                            f"the regulation: at least {quota.players} player(s) under {quota.under_age} in every "
                            f"match; this line-up has {young} under {quota.under_age} on {age_on:%Y-%m-%d}"))
    for pid in lineup:
        if plays_as_leader(team, players, pid, fmt):
            out.append(Text(f"规程: 领队不得兼任队员出场; {_name(players, pid)} 是{team.name}的领队",
                            f"the regulation: a leader may not play; {_name(players, pid)} is {team.name}'s "
                            "leader"))
    return out


def default_lineup(team: Team, players: Mapping[str, Player], fmt: TeamMatchFormat,
                   available: Sequence[str] | None = None, *, age_on: date | None = None) -> list[str]:
    """The line-up of a team that submitted none (``lineup_default = "registered_order"``).

    The first ``boards`` registered members (of those ``available``, default all; never a
    leader the regulation keeps off the boards); when that has fewer than ``min_women`` women,
    the lowest-registered men in it give way to the next women in registered order, and then,
    short of the youth quota, the lowest-registered players not needed for the women's quota
    give way to the next young players, so the order stays the registered one. Fewer members
    than boards leaves the last boards empty (forfeited).
    """
    pool = [m.player_id for m in team.members
            if (available is None or m.player_id in available) and not plays_as_leader(team, players, m.player_id, fmt)]
    chosen = _with_women(pool, players, fmt)
    quota = fmt.youth_quota
    if quota is None or age_on is None:
        return chosen
    missing = quota.players - sum(1 for pid in chosen if is_young(players, pid, fmt, age_on))
    if missing <= 0:
        return chosen
    extra = [pid for pid in pool if pid not in chosen and is_young(players, pid, fmt, age_on)][:missing]
    women = sum(1 for pid in chosen if _is_woman(players, pid))
    drop: set[str] = set()
    for pid in reversed(chosen):  # the lowest-registered give way first
        if len(drop) == len(extra):
            break
        if is_young(players, pid, fmt, age_on):
            continue
        if _is_woman(players, pid):
            if women <= fmt.min_women:
                continue
            women -= 1
        drop.add(pid)
    keep = {pid for pid in chosen if pid not in drop} | set(extra[: len(drop)])
    return [pid for pid in pool if pid in keep]


def _is_woman(players: Mapping[str, Player], pid: str) -> bool:
    p = players.get(pid)
    return p is not None and p.gender == Gender.FEMALE


def _with_women(pool: list[str], players: Mapping[str, Player], fmt: TeamMatchFormat) -> list[str]:
    """The first ``boards`` of ``pool``, the lowest-registered men giving way to women up to ``min_women``."""
    chosen = pool[: fmt.boards]
    missing = fmt.min_women - sum(1 for pid in chosen if _is_woman(players, pid))
    if missing > 0:
        extra_women = [pid for pid in pool[fmt.boards:] if _is_woman(players, pid)][:missing]
        men = [pid for pid in chosen if not _is_woman(players, pid)]
        drop = set(men[len(men) - len(extra_women):]) if extra_women else set()
        keep = {pid for pid in chosen if pid not in drop} | set(extra_women)
        chosen = [pid for pid in pool if pid in keep]
    return chosen

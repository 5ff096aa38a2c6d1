"""出场名单: which registered players of a team sit on which board in one round.

The rules come from the stage's ``TeamMatchFormat``: at most ``boards`` players, each a
registered member of the team at most once, in the registered order when the board order is
fixed (substitutes may be skipped, nobody moved up past a teammate registered before him), and
at least ``min_women`` women. A line-up shorter than ``boards`` leaves the last boards empty:
those boards are forfeited (a missing player loses his board). Pure: reasons, never booleans.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yisai.i18n import Text
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation.team_match import TeamMatchFormat
from yisai.vocabulary import Gender


def _name(players: Mapping[str, Player], pid: str) -> str:
    p = players.get(pid)
    return p.name if p is not None else pid


def lineup_problems(
    team: Team, lineup: Sequence[str], players: Mapping[str, Player], fmt: TeamMatchFormat
) -> list[Text]:
    """Why ``lineup`` (player ids, board 1 first) breaks the stage's line-up rules (empty: fine)."""
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
    return out


def default_lineup(team: Team, players: Mapping[str, Player], fmt: TeamMatchFormat,
                   available: Sequence[str] | None = None) -> list[str]:
    """The line-up of a team that submitted none (``lineup_default = "registered_order"``).

    The first ``boards`` registered members (of those ``available``, default all); when that
    has fewer than ``min_women`` women, the lowest-registered men in it give way to the next
    women in registered order, so the order stays the registered one. Fewer members than boards
    leaves the last boards empty (forfeited).
    """
    pool = [m.player_id for m in team.members
            if available is None or m.player_id in available]
    chosen = pool[: fmt.boards]

    def is_woman(pid: str) -> bool:
        p = players.get(pid)
        return p is not None and p.gender == Gender.FEMALE

    missing = fmt.min_women - sum(1 for pid in chosen if is_woman(pid))
    if missing > 0:
        extra_women = [pid for pid in pool[fmt.boards:] if is_woman(pid)][:missing]
        men = [pid for pid in chosen if not is_woman(pid)]
        drop = set(men[len(men) - len(extra_women):]) if extra_women else set()
        keep = {pid for pid in chosen if pid not in drop} | set(extra_women)
        chosen = [pid for pid in pool if pid in keep]
    return chosen

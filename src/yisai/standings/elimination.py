"""积分编排淘汰制: who leaves a Swiss, after which round, and the final order it implies.

The regulation states the rule (``regulation.stages.Elimination``): after round r, whoever has
at most s points is eliminated (三轮以后0分淘汰); whoever has lost N games is eliminated (三败
淘汰); whoever has won N games stops being paired (已达到升段标准者不再编排). Rounds are taken
in order and a player leaves once, at the first round a condition holds; a round counts only
when every one of its results is entered. The pairing leaves these players out of later rounds;
their games stand.

The final order (the regulation's "淘汰者名次列后" read the natural way): the players still in the
Swiss and those who stopped at the promotion mark first, then the eliminated, those who went
out later above those who went out earlier; inside each part the ranking's own order (criteria)
stands, shared places stay shared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from yisai.i18n import Text, tr
from yisai.record import Game
from yisai.regulation.rules import Scoring
from yisai.regulation.stages import Elimination


@dataclass(frozen=True)
class Leaving:
    """``player`` is paired no more after round ``after_round``: eliminated, or stopped at the mark."""

    player: str
    after_round: int
    how: Literal["score", "losses", "wins"]
    value: int  # the score, the losses or the wins that made the rule fire

    @property
    def eliminated(self) -> bool:
        return self.how != "wins"

    def text(self) -> Text:
        """Why the player is paired no more, in both languages at once (a stored round keeps both)."""
        if self.how == "score":
            return Text(f"第{self.after_round}轮后积分{self.value}, 淘汰", f"eliminated after round "
                        f"{self.after_round} with {self.value} points")
        if self.how == "losses":
            return Text(f"第{self.after_round}轮后负{self.value}局, 淘汰", f"eliminated after round "
                        f"{self.after_round} with {self.value} losses")
        return Text(f"第{self.after_round}轮后胜{self.value}局, 达到标准, 不再编排",
                    f"reached {self.value} wins after round {self.after_round}: paired no more")

    def reason(self) -> str:
        return self.text().render()


def complete_rounds(games: Sequence[Game]) -> int:
    """The last round r such that every round up to r is held and fully entered."""
    held: dict[int, bool] = {}
    for g in games:
        held[g.round] = held.get(g.round, True) and g.outcome_for(g.black) != "?"
    last = 0
    while held.get(last + 1):
        last += 1
    return last


def leavings(rule: Elimination, games: Sequence[Game], scoring: Scoring, players: Iterable[str],
             up_to: int | None = None) -> dict[str, Leaving]:
    """Who of ``players`` left the Swiss after which round, through round ``up_to`` (default:
    the last complete round; a round not fully entered, and every later one, is not applied)."""
    last = complete_rounds(games)
    if up_to is not None:
        last = min(last, up_to)
    steps = {s.round: s.score_at_most for s in rule.after_rounds}
    score: dict[str, int] = dict.fromkeys(players, 0)
    wins = dict.fromkeys(score, 0)
    losses = dict.fromkeys(score, 0)
    out: dict[str, Leaving] = {}
    for r in range(1, last + 1):
        seen: set[str] = set()
        for g in games:
            if g.round != r:
                continue
            for p in (g.black, g.white):
                if p is None or p not in score or p in out:
                    continue
                seen.add(p)
                score[p] += scoring.game_points(g, p)
                outcome = g.outcome_for(p)
                wins[p] += outcome == "W"
                losses[p] += outcome == "L"
        for p in score:
            if p in out:
                continue
            if p not in seen:
                score[p] += scoring.absent
            if r in steps and score[p] <= steps[r]:
                out[p] = Leaving(p, r, "score", score[p])
            elif rule.losses is not None and losses[p] >= rule.losses:
                out[p] = Leaving(p, r, "losses", losses[p])
            elif rule.stop_at_wins is not None and wins[p] >= rule.stop_at_wins:
                out[p] = Leaving(p, r, "wins", wins[p])
    return out


def elimination_order(ranked: Sequence[tuple[int, str]], left: dict[str, Leaving]) -> list[tuple[int, str, str]]:
    """(place, player, reason), best first, from the ranking's (place, player) rows: survivors
    first, then the eliminated by the round they went out (later first); each part keeps the
    ranking's order, and two players who shared a place in it and stay neighbours still share."""
    rows = sorted(ranked, key=lambda row: _tier_key(left.get(row[1])))
    out: list[tuple[int, str, str]] = []
    for k, (place, pid) in enumerate(rows):
        if k and place == rows[k - 1][0] and _tier_key(left.get(pid)) == _tier_key(left.get(rows[k - 1][1])):
            new_place = out[-1][0]
        else:
            new_place = k + 1
        leaving = left.get(pid)
        reason = leaving.reason() if leaving is not None else tr("未被淘汰", "not eliminated")
        out.append((new_place, pid, reason))
    return out


def _tier_key(leaving: Leaving | None) -> tuple[int, int]:
    """Survivors (and those stopped at the mark) first, then the later eliminated."""
    if leaving is None or not leaving.eliminated:
        return (0, 0)
    return (1, -leaving.after_round)

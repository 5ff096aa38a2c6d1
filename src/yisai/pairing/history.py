"""What earlier rounds tell the next one: scores, who met whom, colours, byes.

Scores follow the regulation's ``Scoring`` (win 2, draw 1, loss 0, bye 2, forfeits 2–0, an
absent round ``absent`` points) so score groups match the standings' 积分. A game whose
result is still unknown stops the pairing: the next round cannot be paired on a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from yisai.i18n import Text, tr
from yisai.pairing.model import PairingError
from yisai.record import Game, Result
from yisai.regulation.rules import Scoring


@dataclass(slots=True)
class PlayerHistory:
    """One player's past as far as pairing cares."""

    score: int = 0
    opponents: set[str] = field(default_factory=set)
    colours: list[str] = field(default_factory=list)  # 'B'/'W' of played games, in round order
    byes: int = 0
    rounds_present: set[int] = field(default_factory=set)

    @property
    def colour_balance(self) -> int:
        """Blacks minus whites over games played on the board."""
        return self.colours.count("B") - self.colours.count("W")


def build_histories(
    players: Iterable[str], games: Iterable[Game], round_no: int, scoring: Scoring
) -> dict[str, PlayerHistory]:
    """Histories of ``players`` from every game before ``round_no``.

    Any recorded meeting (forfeits included) forbids a rematch; only games played on the board
    count for colours. Raises ``PairingError`` if an earlier result is missing.
    """
    hist = {p: PlayerHistory() for p in players}
    ordered = sorted((g for g in games if g.round < round_no), key=lambda g: (g.round, g.board))
    missing: list[str] = []
    # a game's points for one side depend only on these four facts (Scoring is fixed here)
    points: dict[tuple[bool, bool, Result, bool], int] = {}
    for g in ordered:
        if not g.is_bye and g.result == Result.UNKNOWN and g.played:
            missing.append(tr(f"第{g.round}轮 {g.black}—{g.white}", f"round {g.round} {g.black}—{g.white}"))
        for pid in (g.black, g.white):
            if pid is None or pid not in hist:
                continue
            h = hist[pid]
            h.rounds_present.add(g.round)
            key = (g.white is None, g.played, g.result, pid == g.black)
            got = points.get(key)
            if got is None:
                got = points[key] = scoring.game_points(g, pid)
            h.score += got
            if g.is_bye:
                h.byes += 1
                continue
            opp = g.opponent(pid)
            assert opp is not None
            h.opponents.add(opp)
            if g.played:
                h.colours.append(g.colour_of(pid))
    if missing:
        listed = ", ".join(missing[:20]) + (" …" if len(missing) > 20 else "")
        raise PairingError(
            Text(f"以下对局尚无结果, 不能编排下一轮: {listed}", f"Results missing, cannot pair the next round: {listed}"),
        )
    for h in hist.values():
        absent_rounds = (round_no - 1) - len(h.rounds_present)
        h.score += scoring.points("absent", "") * max(absent_rounds, 0)
    return hist

"""What pairing a round gives back (``PairedRound``) and the scores it pairs on
(``scores_before``): shared by ``rounds.pair``, ``rounds.round_view`` and the team-match pairing
``rounds.pair`` hands a team stage to, so none of them imports the other for it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.regulation.rules import Scoring
from yisai.regulation.stages import Stage
from yisai.store import EventRecord
from yisai.store.revisions import RevisionCache

if TYPE_CHECKING:
    from yisai.pairing import RoundPairing


@dataclass(frozen=True)
class PairedRound:
    """One paired round as ``rounds.pair`` returns it, whichever pairing made it (Swiss, groups,
    Berger table, bracket, team matches)."""

    event: EventRecord
    division: str
    stage: Stage
    round: int
    parts: tuple[tuple[str, RoundPairing], ...]  # (group, pairing); group "" for plain Swiss
    names: dict[str, str] = field(default_factory=dict)  # player id → name, for showing it
    held_back: dict[str, Text] = field(default_factory=dict)  # sat out for check-in, and why
    matches: tuple[Any, ...] = ()  # team matches (services.team_matches.MatchRow) of a team round


SCORES: RevisionCache[tuple[Hashable, ...], dict[str, int]] = RevisionCache(64)


def scores_before(players: set[str], games: list[Game], round_no: int, scoring: Scoring,
                  round_keys: Mapping[int, Hashable] | None = None) -> dict[str, int]:
    """Each player's score after the rounds before ``round_no``, as pairing counts it.

    A game whose result is still missing counts nothing (instead of stopping, as pairing does:
    a table can be shown while a result is being corrected). With ``round_keys`` (round number →
    a key that changes whenever its games do, ``event_data.division_games_keyed``) the scores
    are kept until an earlier round changes: results entered in the round shown cost nothing.
    """
    memo = None
    if round_keys is not None:
        memo = (round_no, scoring, frozenset(players),
                tuple(sorted((n, k) for n, k in round_keys.items() if n < round_no)))
        found = SCORES.get(memo)
        if found is not None:
            return dict(found)  # the caller's own copy: the kept one never changes
    scores = _scores_before(players, games, round_no, scoring)
    if memo is not None:
        SCORES.put_all([(memo, scores)])
    return scores


def _scores_before(players: set[str], games: list[Game], round_no: int, scoring: Scoring) -> dict[str, int]:
    settled = [replace(g, played=False) if g.result == Result.UNKNOWN and not g.is_bye else g
               for g in games if g.round < round_no]
    from yisai.pairing.history import build_histories

    return {p: h.score for p, h in build_histories(players, settled, round_no, scoring).items()}

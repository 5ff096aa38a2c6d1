"""What standings are computed from: the entrants and the games ledger of rounds 1..r.

Kept free of any file format or store so the same input can come from an OpenGotha file, an h9
file or an event in the database (``yisai.services.standings_source`` builds it).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from yisai.i18n import tr
from yisai.record import Game
from yisai.regulation.rules import RankingRules, Scoring
from yisai.vocabulary.rank import Rank


@dataclass(frozen=True, slots=True)
class StandingsPlayer:
    """One entrant as standings need him: identity, strength, grouping tags, absences.

    ``tags`` carries whatever a ranking list filters on (division, gender, age band, team...).
    ``absent_rounds`` are rounds the player declared he would not play (OpenGotha's
    ``participating`` mask); a round without a game and without a bye is "not paired" otherwise.
    """

    id: str
    name: str
    club: str = ""
    rank: Rank | None = None
    rating: int | None = None
    lot: int | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    absent_rounds: frozenset[int] = frozenset()
    country: str = ""
    first_name: str = ""
    last_name: str = ""
    status: str = ""  # "" in play; "withdrawn" 退赛 or "disqualified" 取消资格 (shown beside the name)
    ranked: bool = True  # False: listed after the ranked rows, without a place (Standings.unranked)

    @property
    def marked_name(self) -> str:
        """The name as lists print it: ``张三（退赛）`` for a player who left the event."""
        mark = STATUS_MARKS.get(self.status)
        return f"{self.name}（{tr(*mark)}）" if mark else self.name


STATUS_MARKS: Mapping[str, tuple[str, str]] = {
    "withdrawn": ("退赛", "withdrawn"), "disqualified": ("取消资格", "disqualified")}


@dataclass(frozen=True, slots=True)
class StandingsInput:
    """Everything a standings command needs, whatever the source.

    ``rounds`` is the number of rounds of the event (the ledger may hold fewer); ``opengotha``
    holds the OpenGotha parameters when the source is an OpenGotha file (or anything that wants
    OpenGotha-compatible criteria), else None.
    """

    players: tuple[StandingsPlayer, ...]
    games: tuple[Game, ...]
    rounds: int
    scoring: Scoring = field(default_factory=Scoring)
    ranking: RankingRules = field(default_factory=RankingRules)
    title: str = ""
    opengotha: object | None = None  # yisai.standings.opengotha.OGParameters
    source: str = ""
    meta: Mapping[str, str] = field(default_factory=dict)  # event name, place, dates, komi ...
    warnings: tuple[str, ...] = ()  # what the reader skipped or repaired, to show the user
    # round number → a key that changes whenever that round's games do (the store's round
    # revisions): each round's ledger column is then kept and re-made only when it changes
    round_keys: Mapping[int, Hashable] | None = None

    @property
    def last_round_with_games(self) -> int:
        return max((g.round for g in self.games), default=0)

    def player(self, pid: str) -> StandingsPlayer:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def select(self, **tags: str) -> tuple[str, ...]:
        """Ids of players whose tags match all of ``tags`` (a ranking list's subset)."""
        return tuple(p.id for p in self.players if all(p.tags.get(k) == v for k, v in tags.items()))


def games_up_to(games: Iterable[Game], last_round: int) -> list[Game]:
    """The ledger of rounds 1..last_round (standings "after round r")."""
    return [g for g in games if g.round <= last_round]

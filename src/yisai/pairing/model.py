"""What goes into a pairing and what comes out of it.

Plain frozen dataclasses, so a round's input can be logged, compared and replayed: the same
input and seed always give the same ``RoundPairing``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from yisai.i18n import Text, TextError
from yisai.record import Game, Result
from yisai.vocabulary.rank import Rank


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as pairing sees him: identity, strength and the affiliations it may avoid."""

    id: str
    rank: Rank = field(default_factory=lambda: Rank(0))
    rating: int = 0
    team: str | None = None
    province: str | None = None
    city: str | None = None
    club: str | None = None

    def affiliation(self, key: str | None) -> str | None:
        """The value compared by same-team/province/city/club avoidance (None: no value)."""
        if key is None:
            return None
        value = getattr(self, key)
        return value or None


@dataclass(frozen=True, slots=True)
class Controls:
    """The director's hand on a round (裁判长指定): the engine pairs everyone else around these.

    ``fixed_pairs`` are (black, white) exactly as given; ``forbidden_pairs`` are avoided with
    the highest priority below "never a rematch"; ``requested_byes`` get a bye with the bye
    points; ``sit_outs`` are simply not paired (absent points, no game record).
    """

    fixed_pairs: tuple[tuple[str, str], ...] = ()
    forbidden_pairs: tuple[tuple[str, str], ...] = ()
    requested_byes: tuple[str, ...] = ()
    sit_outs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardPairing:
    """One board of a round, with the reasons a director can read out."""

    board: int
    black: str
    white: str
    black_score: int
    white_score: int
    reasons: tuple[str, ...]
    colour_reason: str
    fixed: bool = False

    def game(self, round_no: int) -> Game:
        return Game(round=round_no, black=self.black, white=self.white, board=self.board)


@dataclass(frozen=True, slots=True)
class ByeAssignment:
    """A bye (轮空): who, how many points, and why this player."""

    player: str
    points: int
    reason: str
    requested: bool = False

    def game(self, round_no: int) -> Game:
        return Game(round=round_no, black=self.player, white=None, played=False,
                    result=Result.UNKNOWN)


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """The engine's answer for one round (service layer stores it as ``Game`` records)."""

    round: int
    boards: tuple[BoardPairing, ...]
    byes: tuple[ByeAssignment, ...] = ()
    sit_outs: tuple[str, ...] = ()
    explanations: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    stats: dict[str, int] = field(default_factory=dict, compare=False)

    def games(self) -> list[Game]:
        """Unplayed ``Game`` records for this round: boards in order, then byes."""
        return [b.game(self.round) for b in self.boards] + [y.game(self.round) for y in self.byes]

    def explain(self, names: Mapping[str, str] | None = None) -> list[str]:
        """Every decision as lines of text in the caller's language, for ``yisai pair --explain``."""
        return [line.render() for line in self.explain_texts(names)]

    def explain_texts(self, names: Mapping[str, str] | None = None) -> list[Text]:
        """Every decision as lines in both languages, built in one pass (what a round stores).

        ``names`` maps player ids to what a reader should see (names, usually); ids without an
        entry stay as they are. The round-level lines carry no player ids and are left alone.
        """
        show = _namer(names)
        lines = [Text(e, e) for e in self.explanations]
        for b in self.boards:
            black, white = show(b.black), show(b.white)
            why = ": " + "; ".join(show(t) for t in (*b.reasons, b.colour_reason))
            lines.append(Text(
                f"第{b.board}台 {black}(黑, {b.black_score}分) — {white}(白, {b.white_score}分)" + why,
                f"Board {b.board} {black} (B, {b.black_score}) — {white} (W, {b.white_score})" + why))
        lines.extend(Text(f"轮空 {show(y.player)} (+{y.points}分): {show(y.reason)}",
                          f"Bye {show(y.player)} (+{y.points}): {show(y.reason)}") for y in self.byes)
        if self.sit_outs:  # one line, however many sit out (68 in seed 000's round 10)
            shown = [show(p) for p in self.sit_outs]
            n = len(self.sit_outs)
            lines.append(Text(f"本轮不参赛({n}人): {'、'.join(shown)}",
                              f"Not paired this round ({n}): {', '.join(shown)}"))
        lines.extend(Text(f"警告: {show(w)}", f"Warning: {show(w)}") for w in self.warnings)
        return lines


def _namer(names: Mapping[str, str] | None) -> Callable[[str], str]:
    """Replace player ids standing as whole words in a reason ("5 从4分组降至2分组").

    An id is replaced only where no letter, digit or CJK character touches it, so the numbers
    inside "4分组", "第2名" or "执黑1次" are never taken for players.
    """
    if not names:
        return lambda text: text
    ids = sorted((k for k in names if k), key=len, reverse=True)
    if not ids:
        return lambda text: text
    pattern = re.compile(r"(?<![\w#+.])(" + "|".join(map(re.escape, ids)) + r")(?![\w%.])")

    def show(text: str) -> str:
        if text in names:
            return names[text]
        return pattern.sub(lambda m: names[m.group(1)], text)

    return show


class PairingError(TextError):
    """A round that cannot be paired by the rules (``text``: both languages, worded where the
    pairing fails); ``blocking`` names the players at fault."""

    def __init__(self, message: Text, blocking: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.blocking = blocking

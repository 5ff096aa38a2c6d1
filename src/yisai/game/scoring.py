"""Chinese area counting (数子法) and the two ways a result is written.

中国围棋竞赛规则: each side's count is its live stones plus the empty points it alone surrounds;
points that touch both colours (单官/公气) are shared half and half. On 19x19 the total is 361, so
"half the board" is 180.5 stones; with komi 7.5 points (= 3¾ stones, 黑贴3又3/4子) Black needs
180.5 + 3.75 = 184.25, i.e. 185 stones to win by 3/4 stone (= 1.5 points: ``B+1.5``).

Everything is exact (``fractions.Fraction``): quarters of a stone must never round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from yisai.game.board import BLACK, EMPTY, WHITE, Board
from yisai.i18n import tr


@dataclass(frozen=True, slots=True)
class AreaCount:
    """The count of a finished position (dead stones already taken off)."""

    size: int
    komi: Fraction
    black_stones: int
    white_stones: int
    black_territory: int
    white_territory: int
    dame: int  # empty points touching both colours (or none): shared equally
    dead_black: int
    dead_white: int

    @property
    def black_area(self) -> int:
        return self.black_stones + self.black_territory

    @property
    def white_area(self) -> int:
        return self.white_stones + self.white_territory

    @property
    def black_count(self) -> Fraction:
        """黑方子数: area plus half the shared points."""
        return self.black_area + Fraction(self.dame, 2)

    @property
    def white_count(self) -> Fraction:
        return self.white_area + Fraction(self.dame, 2)

    @property
    def black_needs(self) -> Fraction:
        """Stones Black needs for a draw: half the board plus half the komi (184¼ on 19x19)."""
        return Fraction(self.size * self.size, 2) + self.komi / 2

    @property
    def margin_stones(self) -> Fraction:
        """Black's margin in stones (子); negative means White wins."""
        return self.black_count - self.black_needs

    @property
    def margin_points(self) -> Fraction:
        """Black's margin in points (目): twice the stone margin."""
        return self.black_count - self.white_count - self.komi

    @property
    def winner(self) -> int:
        """BLACK, WHITE, or EMPTY (0) for a draw (和棋, possible with an integer komi)."""
        m = self.margin_points
        return BLACK if m > 0 else WHITE if m < 0 else EMPTY

    @property
    def point_form(self) -> str:
        """SGF/point notation: ``B+1.5``, ``W+0.5``, ``0`` for a draw."""
        m = self.margin_points
        if m == 0:
            return "0"
        return f"{'B' if m > 0 else 'W'}+{format_number(abs(m))}"

    @property
    def count_form(self) -> str:
        """Chinese notation: ``黑方185子，黑胜3/4子``."""
        head = tr(
            f"黑方{format_number(self.black_count)}子",
            f"Black {format_number(self.black_count)} stones",
        )
        m = self.margin_stones
        if m == 0:
            return head + tr("，和棋", ", draw")
        who = tr("黑胜", "Black wins by ") if m > 0 else tr("白胜", "White wins by ")
        return f"{head}{tr('，', ', ')}{who}{format_stones(abs(m))}{tr('子', ' stones')}"


def format_number(value: Fraction) -> str:
    """1.5, 185, 184.5, 0.25 -- decimal, without trailing zeros (komi halves and quarters)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text


def format_stones(value: Fraction) -> str:
    """Stone margins the Chinese way: 3/4, 1又3/4, 2, 1/2."""
    whole, frac = divmod(value, 1)
    if frac == 0:
        return str(whole)
    part = f"{frac.numerator}/{frac.denominator}"
    return part if whole == 0 else tr(f"{whole}又{part}", f"{whole} {part}")


def area_count(board: Board, komi: float | Fraction = 7.5, dead: Iterable[int] = ()) -> AreaCount:
    """Count ``board`` with the ``dead`` stones removed (they become the other side's area)."""
    colors = list(board.color)
    dead_black = dead_white = 0
    for p in set(dead):
        if colors[p] == BLACK:
            dead_black += 1
        elif colors[p] == WHITE:
            dead_white += 1
        else:
            continue
        colors[p] = EMPTY
    counts = {BLACK: 0, WHITE: 0}
    territory = {BLACK: 0, WHITE: 0}
    dame = 0
    seen = [False] * len(colors)
    nbrs = board.nbrs
    for p in board.geo.points:
        v = colors[p]
        if v != EMPTY:
            counts[v] += 1
            continue
        if seen[p]:
            continue
        region = [p]
        seen[p] = True
        borders = 0  # bit 1 = touches black, bit 2 = touches white
        i = 0
        while i < len(region):
            for n in nbrs[region[i]]:
                w = colors[n]
                if w == EMPTY:
                    if not seen[n]:
                        seen[n] = True
                        region.append(n)
                else:
                    borders |= w
            i += 1
        if borders in (BLACK, WHITE):
            territory[borders] += len(region)
        else:
            dame += len(region)
    return AreaCount(
        size=board.size,
        komi=Fraction(komi).limit_denominator(1000),
        black_stones=counts[BLACK],
        white_stones=counts[WHITE],
        black_territory=territory[BLACK],
        white_territory=territory[WHITE],
        dame=dame,
        dead_black=dead_black,
        dead_white=dead_white,
    )


__all__ = ["AreaCount", "area_count", "format_number", "format_stones"]

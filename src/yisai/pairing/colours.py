"""Colour allocation (黑白分配): which of two paired players takes Black, and why.

The rules, strictly in this order: keep each player's black/white difference small, never give
a third game of the same colour in a row when the other orientation avoids it, alternate with
the last game; a lot decides what is left. The matching sees the cost of a pair's better
orientation (``colour_costs`` of each, combined in ``table.PairTable``) and ``choose_colours``
applies the same rules to the pair made.
"""

from __future__ import annotations

from yisai.i18n import tr
from yisai.pairing.history import PlayerHistory

# Sub-weights inside the colour level; strict: 2 alternations < 1 three-in-a-row unit and
# 2 * (three-in-a-row) + 2 alternations < 1 imbalance unit.
_ALT = 1
_THREE = 3
_IMBALANCE = 9
IMBALANCE_CAP = 12  # excess over |B-W| = 1 counted up to this many per player
MAX_COLOUR_COST = 2 * (_IMBALANCE * IMBALANCE_CAP + _THREE + _ALT)


def _player_cost(h: PlayerHistory, colour: str) -> tuple[int, int, int]:
    """(imbalance excess, third-in-a-row, repeat of last colour) if ``h`` plays ``colour``."""
    balance = h.colour_balance + (1 if colour == "B" else -1)
    imbalance = min(max(abs(balance) - 1, 0), IMBALANCE_CAP)
    last = h.colours[-2:]
    three = 1 if len(last) == 2 and last[0] == last[1] == colour else 0
    repeat = 1 if last and last[-1] == colour else 0
    return imbalance, three, repeat


def colour_costs(h: PlayerHistory) -> tuple[int, int]:
    """(cost if Black, cost if White) for one player; a pair's cost is the sum of its two.
    (``_player_cost`` of both colours, the history read once: called for every player and
    board of a round.)"""
    colours = h.colours
    balance = colours.count("B") - colours.count("W")
    last = colours[-2:]
    same = len(last) == 2 and last[0] == last[1]
    prev = last[-1] if last else ""
    out = []
    for colour, step in (("B", 1), ("W", -1)):
        imbalance = min(max(abs(balance + step) - 1, 0), IMBALANCE_CAP)
        three = 1 if same and last[0] == colour else 0
        repeat = 1 if prev == colour else 0
        out.append(_IMBALANCE * imbalance + _THREE * three + _ALT * repeat)
    return out[0], out[1]


def orientation_cost(black: PlayerHistory, white: PlayerHistory) -> int:
    """Colour cost of ``black`` taking Black against ``white``."""
    return colour_costs(black)[0] + colour_costs(white)[1]


def choose_colours(
    a: str, b: str, ha: PlayerHistory, hb: PlayerHistory, lot: int, balance: bool = True
) -> tuple[str, str, str]:
    """(black, white, reason) for the pair ``a``–``b``; ``lot`` (0/1) settles an exact tie."""
    if balance:
        ab = orientation_cost(ha, hb)
        ba = orientation_cost(hb, ha)
        if ab != ba:
            black, white = (a, b) if ab < ba else (b, a)
            hbk, hwt = (ha, hb) if ab < ba else (hb, ha)
            return black, white, _reason(black, white, hbk, hwt)
    black, white = (a, b) if lot == 0 else (b, a)
    return black, white, tr("黑白由抽签决定", "colours by lot")


def _reason(black: str, white: str, hb: PlayerHistory, hw: PlayerHistory) -> str:
    """Name the strongest rule that decided the orientation."""
    ib, tb, _ = _player_cost(hb, "B")
    iw, tw, _ = _player_cost(hw, "W")
    ib2, tb2, _ = _player_cost(hb, "W")
    iw2, tw2, _ = _player_cost(hw, "B")
    if ib + iw != ib2 + iw2:
        return tr(
            f"黑白平衡: {black} 执黑{hb.colours.count('B')}次/执白{hb.colours.count('W')}次, "
            f"{white} 执黑{hw.colours.count('B')}次/执白{hw.colours.count('W')}次",
            f"colour balance: {black} B{hb.colours.count('B')}/W{hb.colours.count('W')}, "
            f"{white} B{hw.colours.count('B')}/W{hw.colours.count('W')}",
        )
    if tb + tw != tb2 + tw2:
        who = white if tw2 else black
        return tr(f"避免 {who} 连续三局同色", f"avoids a third game in a row of one colour for {who}")
    return tr(
        f"黑白交替: {black} 上局{_cn(hb)}, {white} 上局{_cn(hw)}",
        f"alternation: {black} last {_en(hb)}, {white} last {_en(hw)}",
    )


def _cn(h: PlayerHistory) -> str:
    return {"B": "执黑", "W": "执白"}.get(h.colours[-1] if h.colours else "", "无")


def _en(h: PlayerHistory) -> str:
    return {"B": "Black", "W": "White"}.get(h.colours[-1] if h.colours else "", "none")

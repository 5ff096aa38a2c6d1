"""Money as the ledger, the prizes and the providers hold it: integers of 分 (1 元 = 100 分).

A regulation states fees and prizes in whole 元, a provider reports ``2160.00``, a director types
``287.50``; none of them ever passes through a float (``tests/registry/test_ledger.py`` reads
this module for ``float``). One reader of typed or reported yuan, one writer of 分 as yuan.
"""

from __future__ import annotations

import re

FEN_PER_YUAN = 100

_YUAN = re.compile(r"(0|[1-9][0-9]{0,9})(\.[0-9]{1,2})?")


def fen(yuan: int) -> int:
    """Whole 元 of the regulation → 分."""
    return yuan * FEN_PER_YUAN


def fen_of_yuan(text: str) -> int | None:
    """``2160.00`` / ``287.5`` / ``300`` 元 → 分 by the digits; None when the text is not an
    amount in yuan with at most two decimals (no sign, no exponent, no leading zeros)."""
    match = _YUAN.fullmatch(text.strip())
    if not match:
        return None
    cents = (match.group(2) or ".")[1:].ljust(2, "0")  # ".5" → "50", "" → "00"
    return int(match.group(1)) * FEN_PER_YUAN + int(cents)


def yuan_text(amount_fen: int, *, cents: bool = True) -> str:
    """分 → ``260.00`` (accounts: the fee ledger, orders, bills); ``cents=False`` writes whole
    yuan as people write prize money (``1200``, but ``1187.50``)."""
    sign = "-" if amount_fen < 0 else ""
    whole, part = divmod(abs(amount_fen), FEN_PER_YUAN)
    if part == 0 and not cents:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{part:02d}"


__all__ = ["FEN_PER_YUAN", "fen", "fen_of_yuan", "yuan_text"]

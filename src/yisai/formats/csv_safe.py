"""CSV cells that a spreadsheet will not run: a cell starting with ``=``, ``+``, ``-``, ``@`` (or a
tab or carriage return) is a formula to Excel and WPS, so a player named ``=HYPERLINK(...)``
would run when the organiser opens the export. Such a cell is written with a leading ``'``,
which the spreadsheet shows as text. A plain number (``-12.50``, a negative balance) is no
formula and is written as it is. Every CSV the program writes goes through ``writer``."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


class _Writer(Protocol):
    def writerow(self, row: Iterable[Any], /) -> Any: ...


def guard(cell: object) -> object:
    """The cell as a spreadsheet should show it: text that would start a formula gets a ``'``."""
    if not isinstance(cell, str) or not cell.startswith(TRIGGERS) or _NUMBER.fullmatch(cell):
        return cell
    return "'" + cell


def unguard(cell: str) -> str:
    """The text a guarded cell stood for (reading back a CSV this program wrote)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(TRIGGERS) else cell


class SafeWriter:
    """``csv.writer`` whose every cell passes through ``guard``."""

    def __init__(self, out: Any, **kwargs: Any) -> None:
        self._w: _Writer = csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> None:
        self._w.writerow([guard(c) for c in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: Any, **kwargs: Any) -> SafeWriter:
    return SafeWriter(out, **kwargs)

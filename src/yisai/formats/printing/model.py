"""Printed documents as plain data: what goes on the paper, already worded and formatted.

The services fill these from their own tables (round views, standings, prize and award
reports); the templates only lay them out. Every cell is text, so a document never computes a
number: it prints the one the standings or prize code gave.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Align = Literal["left", "center", "right"]


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its header, alignment, and width (None: fit the content; a number: a
    share of the remaining line width, so long names wrap inside their cell)."""

    title: str
    align: Align = "left"
    share: float | None = None


@dataclass(frozen=True, slots=True)
class Table:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for i, row in enumerate(self.rows, start=1):
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table {self.title!r} row {i}: {len(row)} cells for {len(self.columns)} columns"
                )


@dataclass(frozen=True, slots=True)
class Section:
    """A heading, paragraphs (a line starting with "- " is a list item) and tables."""

    heading: str = ""
    paragraphs: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    new_page: bool = False


@dataclass(frozen=True, slots=True)
class TableCard:
    """台签: the card standing on one board."""

    board: str
    caption: str  # division, group, round
    black: str
    black_unit: str
    white: str
    white_unit: str


@dataclass(frozen=True, slots=True)
class ScoreSlip:
    """记分单: both players sign the result of one board."""

    caption: str
    board: str
    black: str
    black_unit: str
    white: str
    white_unit: str
    choices: tuple[str, ...]  # result boxes to tick


@dataclass(frozen=True, slots=True)
class Certificate:
    """获奖证书: one per prize winner."""

    event: str
    division: str
    award: str  # the prize list's name
    place: str  # 第1名
    name: str
    unit: str
    issuer: str  # the organisers, as the regulation names them
    date: str


Template = Literal["report", "cards", "slips", "certificates"]


@dataclass(frozen=True, slots=True)
class Document:
    """One printable document. ``template`` picks the layout; only the matching part is used.

    ``event`` and ``printed_at`` go into every page's footer with the page number.
    """

    template: Template
    kind: str  # the document's Chinese name (对阵表 …)
    event: str
    title: str
    printed_at: str
    landscape: bool = False
    subtitle: str = ""
    sections: tuple[Section, ...] = ()
    signatures: tuple[str, ...] = ()  # signature lines at the end (裁判长 …)
    cards: tuple[TableCard, ...] = ()
    slips: tuple[ScoreSlip, ...] = ()
    certificates: tuple[Certificate, ...] = ()
    cover: tuple[str, ...] = ()  # lines of a title page (秩序册)
    labels: dict[str, str] = field(default_factory=dict)  # the templates' fixed words (labels.py)
    meta: dict[str, str] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        """The JSON the template reads (the Chinese labels when none were given)."""
        from yisai.formats.printing.labels import labels

        out = asdict(self)
        out["labels"] = {**labels(self.template), **self.labels}
        return out

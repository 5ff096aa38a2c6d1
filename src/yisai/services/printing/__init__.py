"""Printed sheets of an event (对阵表, 台签, 记分单, 成绩表, 团体成绩, 获奖名单, 段位申报名单,
获奖证书, 参赛名单, 秩序册) as PDF, for every front end: ``print_pdf(work, event, kind, options)``.

This module only gathers rows that other services and the core already computed — round views,
standings, the results service's final tables, prize and rank-award reports — and words them
for the paper; it never computes a score, a place or an amount of its own. Every call into
another service is in this package: ``context`` (what every sheet reads, the document kinds and
options), ``rounds`` (对阵表 台签 记分单), ``results`` (成绩表 团体成绩 获奖名单 段位 证书) and
``booklet`` (参赛名单 秩序册 交叉表).
"""

from __future__ import annotations

from collections.abc import Callable

from yisai.formats.printing import Document, PrintError, render_pdf, render_png
from yisai.regulation import Regulation
from yisai.services.context import InputError, Work
from yisai.services.events import regulation_of, resolve_event
from yisai.services.printing.booklet import booklet_document, brackets_document, entries_document
from yisai.services.printing.context import KINDS, KINDS_EN, PrintContext, PrintOptions, kind_of
from yisai.services.printing.results import (
    certificates_document,
    matches_document,
    prizes_document,
    rank_awards_document,
    standings_document,
    teams_document,
)
from yisai.services.printing.rounds import cards_document, pairings_document, slips_document

__all__ = ["KINDS", "KINDS_EN", "PrintOptions", "build_document", "file_name", "kind_of", "print_pdf",
           "print_png"]


def file_name(kind: str, options: PrintOptions | None = None, regulation: Regulation | None = None) -> str:
    """The PDF's default file name: 对阵表_甲组_第3轮.pdf (the CLI's default, the web download's);
    with the event's ``regulation`` the division is named, however it was given (jia, 甲)."""
    opts = options or PrintOptions()
    parts = [KINDS[kind_of(kind)]]
    if opts.division:
        found = regulation.find_division(opts.division) if regulation is not None else None
        parts.append(found.name if found is not None else opts.division)
    if opts.round:
        parts.append(f"第{opts.round}轮")
    return "_".join(parts) + ".pdf"


def build_document(work: Work, event_ref: str | int | None, kind: str,
                   options: PrintOptions | None = None) -> Document:
    """The document's content, worded and formatted (what the PDF shows)."""
    opts = options or PrintOptions()
    key = kind_of(kind)
    event = resolve_event(work, event_ref)
    ctx = PrintContext(work, event, regulation_of(event), opts)
    return _BUILDERS[key](ctx)


def print_pdf(work: Work, event_ref: str | int | None, kind: str,
              options: PrintOptions | None = None) -> bytes:
    """The document as PDF bytes (the web download and ``yisai print``)."""
    opts = options or PrintOptions()
    doc = build_document(work, event_ref, kind, opts)
    try:
        return render_pdf(doc, background=opts.background)
    except PrintError as exc:
        raise InputError(exc.text, code="print_failed") from None


def print_png(work: Work, event_ref: str | int | None, kind: str, options: PrintOptions | None = None,
              width_px: int = 600) -> list[bytes]:
    """Every page as a PNG thumbnail ``width_px`` wide (the examples in docs/)."""
    opts = options or PrintOptions()
    doc = build_document(work, event_ref, kind, opts)
    try:
        return render_png(doc, width_px=width_px, background=opts.background)
    except PrintError as exc:
        raise InputError(exc.text, code="print_failed") from None



_BUILDERS: dict[str, Callable[[PrintContext], Document]] = {
    "pairings": pairings_document,
    "cards": cards_document,
    "slips": slips_document,
    "standings": standings_document,
    "teams": teams_document,
    "matches": matches_document,
    "prizes": prizes_document,
    "rank-awards": rank_awards_document,
    "certificates": certificates_document,
    "entries": entries_document,
    "booklet": booklet_document,
    "brackets": brackets_document,
}

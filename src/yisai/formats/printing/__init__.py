"""Printed sheets (对阵表, 台签, 记分单, 成绩表 …) as PDF: document models and typst rendering."""

from yisai.formats.printing.model import (
    Certificate,
    Column,
    Document,
    ScoreSlip,
    Section,
    Table,
    TableCard,
)
from yisai.formats.printing.render import PrintError, render_pdf, render_png

__all__ = [
    "Certificate",
    "Column",
    "Document",
    "PrintError",
    "ScoreSlip",
    "Section",
    "Table",
    "TableCard",
    "render_pdf",
    "render_png",
]

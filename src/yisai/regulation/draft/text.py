"""A 规程 text as numbered sentences, each with the section it sits in (八、(三)) and the
titles of the headings above it. Everything the drafter reads goes through here.

The input is bounded first (MAX_TEXT_CHARS, MAX_LINE_CHARS, MAX_SENTENCES) so every later
pass is linear in a small text; nothing here can loop on hostile input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TEXT_CHARS = 200_000
"""A 规程 is 5–15 thousand characters; a text past this is refused before it is split."""
MAX_LINE_CHARS = 4_000
"""One line longer than this is cut into pieces (a PDF without line breaks)."""
MAX_SENTENCES = 5_000


class TextTooLong(ValueError):
    """The text is longer than MAX_TEXT_CHARS (the caller names the file)."""


_FULL_WIDTH = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}
_FULL_WIDTH.update({0x3000: 0x20, 0x2014: 0x2D, 0x2013: 0x2D, 0x2015: 0x2D, 0x2212: 0x2D,
                    0x301C: 0x2D, 0x3002: 0x3002})


def norm(text: str) -> str:
    """Full-width digits, letters and punctuation as ASCII, dashes as ``-``, no whitespace:
    the form every pattern of the drafter is written against (quotes keep the original)."""
    out = text.translate(_FULL_WIDTH)
    return re.sub(r"\s+", "", out)


_CN = "零〇一二两三四五六七八九十百"
_MARKERS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (1, re.compile(rf"^\s*([{_CN}]+\s*[、.．])")),
    (2, re.compile(rf"^\s*([（(]\s*[{_CN}]+\s*[）)])")),
    (3, re.compile(r"^\s*(\d{1,2}\s*[、.．](?!\d))")),
    (4, re.compile(r"^\s*([（(]\s*\d{1,2}\s*[）)])")),
)
_SPLIT = re.compile(r"(?<=[。！？!?])")


@dataclass(frozen=True)
class Sentence:
    index: int
    line: int
    section: str
    """The markers of the headings it sits under, e.g. ``八、(三)``."""
    headings: tuple[str, ...]
    """The titles of those headings (比赛用时, 竞赛办法 …), outermost first."""
    text: str
    """As written, without its heading marker."""
    norm: str

    @property
    def quote(self) -> str:
        """The source comment: section and sentence."""
        return f"{self.section} {self.text}".strip()

    def under(self, *words: str) -> bool:
        """Whether one of the heading titles above it mentions one of ``words``."""
        return any(w in h for h in self.headings for w in words)


def _title(body: str) -> str:
    head = re.split(r"[：:。]", body, maxsplit=1)[0]
    return head.strip()[:40]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _lines(text: str) -> list[str]:
    out: list[str] = []
    for raw in text.splitlines():
        line = _CONTROL.sub(" ", raw).strip()
        while len(line) > MAX_LINE_CHARS:
            out.append(line[:MAX_LINE_CHARS])
            line = line[MAX_LINE_CHARS:]
        if line:
            out.append(line)
    return out


def split(text: str) -> list[Sentence]:
    """The text's sentences in order; heading lines are sentences too (their title is kept
    for the sentences below)."""
    if len(text) > MAX_TEXT_CHARS:
        raise TextTooLong(len(text))
    stack: list[tuple[int, str, str]] = []  # (level, marker, title)
    out: list[Sentence] = []
    line_no = 0
    for line_no, line in enumerate(_lines(text), start=1):
        body = line
        for level, pattern in _MARKERS:
            m = pattern.match(body)
            if m:
                marker = re.sub(r"\s+", "", m.group(1)).translate(_FULL_WIDTH)
                body = body[m.end():].strip()
                stack = [s for s in stack if s[0] < level]
                stack.append((level, marker, _title(body)))
                break
        section = "".join(s[1] for s in stack)
        headings = tuple(s[2] for s in stack)
        for piece in _SPLIT.split(body):
            piece = piece.strip()
            if not piece:
                continue
            if len(out) >= MAX_SENTENCES:
                return out
            out.append(Sentence(len(out), line_no, section, headings, piece, norm(piece)))
    return out

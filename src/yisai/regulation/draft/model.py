"""The draft being built: the regulation document (plain dicts, as the TOML will hold them),
where each value came from, the defaults chosen for what the text leaves open, and which
sentences were used."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from yisai.i18n import Text
from yisai.regulation.draft.text import Sentence

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class OpenQuestion:
    """A value the text does not state: the default written and the director's question."""

    path: Path
    topic: str
    question: str
    default: str
    said: int | None = None
    """The sentence that speaks of this value but could not be read (its index): the point then
    says the text states something to check, never that it states nothing."""
    why: str | None = None
    """Why it is asked when the text does state the rule: two clauses disagree, or a detail the
    stated rule leaves open (对方弃权的胜局是否计入胜局数) — never "规程未写明"."""


def asked(question: str) -> Text:
    """A question as the drafter writes it into the file, "中文 / English", split for a page in one
    language; a question with no English part (it quotes the text's own clauses) reads the same
    in both."""
    zh, sep, en = question.rpartition(" / ")
    if sep and en.strip() and en.isascii() and not zh.isascii():
        return Text(zh.strip(), en.strip())
    return Text(question.strip(), question.strip())


MAX_UNREAD = 300
"""Open points quoting unread clauses: a real 规程 gives a few dozen; a hostile text past this
gets no more (the report still lists its unused sentences)."""


@dataclass(frozen=True)
class Missing:
    """A required value the text does not state and no default can stand for."""

    path: Path
    question: str


@dataclass
class Draft:
    sentences: list[Sentence]
    doc: dict[str, Any] = field(default_factory=dict)
    sources: dict[Path, list[int]] = field(default_factory=dict)
    open: list[OpenQuestion] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    year: int | None = None
    year_said: int | None = None
    """The sentence a year without a source in the title or the days of play was taken from."""
    stage_words: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Stages named in the organiser's words (stage_names.py): stage index → its words."""
    _lines: dict[int, list[Sentence]] | None = None
    _unread: set[tuple[int, str]] = field(default_factory=set)

    def line_of(self, s: Sentence) -> list[Sentence]:
        """All sentences on ``s``'s line (a clause often runs over several sentences)."""
        if self._lines is None:
            self._lines = {}
            for x in self.sentences:
                self._lines.setdefault(x.line, []).append(x)
        return self._lines.get(s.line, [s])

    def put(self, path: Path, value: Any, *source: Sentence) -> None:
        """Set ``path`` to ``value`` (creating tables and list items on the way), citing
        ``source``."""
        node: Any = self.doc
        for key, nxt in pairwise(path):
            if isinstance(key, int):
                while len(node) <= key:
                    node.append({})
                node = node[key]
            else:
                node = node.setdefault(key, [] if isinstance(nxt, int) else {})
        last = path[-1]
        if isinstance(last, int):
            while len(node) <= last:
                node.append(None)
        node[last] = value
        self.cite(path, *source)

    def cite(self, path: Path, *source: Sentence) -> None:
        if source:
            cited = self.sources.setdefault(path, [])
            for s in source:
                if s.index not in cited:
                    cited.append(s.index)
                self.used.add(s.index)

    def get(self, path: Path, default: Any = None) -> Any:
        node: Any = self.doc
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return default
        return node

    def assume(self, path: Path, value: Any, topic: str, question: str) -> None:
        """Write a default for a value the text leaves open, and ask the director."""
        self.put(path, value)
        self.open.append(OpenQuestion(path, topic, question, _shown(value)))

    def ask(self, path: Path, topic: str, question: str, default: str, why: str | None = None) -> None:
        """Record an open point about a value the schema already defaults (nothing written);
        ``why`` when the text states the rule and the point asks a detail or a disagreement."""
        self.open.append(OpenQuestion(path, topic, question, default, why=why))

    def unread(self, path: Path, topic: str, s: Sentence, what: str, default: str) -> None:
        """A sentence speaks of ``topic`` but the drafter could not read (all of) it: an open
        point quoting it, the value left at ``default``."""
        if (s.index, topic) in self._unread or len(self._unread) >= MAX_UNREAD:
            return
        self._unread.add((s.index, topic))
        where = clause_name(s.section)
        self.open.append(OpenQuestion(
            path, topic, f"{where}说了“{s.text.strip()[:120]}”，{what}未能读出，请核对。 / "
            f"The text says this ({s.section or 'preamble'}); the drafter could not read it: please check.",
            default, s.index))
        self.used.add(s.index)

    def lack(self, path: Path, question: str) -> None:
        self.missing.append(Missing(path, question))

    def use(self, *source: Sentence) -> None:
        for s in source:
            self.used.add(s.index)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "、".join(_shown(v) for v in value)
    return str(value)


def dotted(path: Path) -> str:
    return ".".join(str(p) for p in path)


def clause_name(section: str) -> str:
    """``七、(4)`` → ``第七条(4)``, ``五、4.`` → ``第五条4``; no section → ``规程开头``."""
    m = re.match(r"([零〇一二两三四五六七八九十百]+)[、.．]?(.*)", section)
    if not m:
        return f"第{section.rstrip('、.．')}条" if section else "规程开头"
    rest = re.sub(r"[、.．]", "", m.group(2))
    return f"第{m.group(1)}条{rest}"

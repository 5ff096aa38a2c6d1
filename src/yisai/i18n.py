"""Chinese first, English available: every user-facing string goes through ``tr``.

The language belongs to the caller, not the process: it lives in a context variable, so a web
request in English and a CLI call in Chinese can run in the same process (threads and asyncio
tasks each see their own). Entry points choose it with ``use_language`` (or ``set_language`` for
a whole CLI run); nothing below them reads the environment.

``Text`` is a message kept in both languages, for what is stored or handed between layers and
rendered later in the reader's language (errors, eligibility reasons, pairing explanations).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple, TypeVar

LANGUAGES = ("zh", "en")
_lang: ContextVar[str] = ContextVar("yisai_language", default="zh")

T = TypeVar("T")


def normalise(lang: str | None) -> str:
    """``en``, ``en-US``, ``EN`` → ``en``; anything else → ``zh`` (the default)."""
    return "en" if (lang or "").strip().lower().startswith("en") else "zh"


def set_language(lang: str) -> None:
    """Set the language for the rest of this context (a CLI run sets it once at start)."""
    _lang.set(normalise(lang))


def language() -> str:
    return _lang.get()


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Run a block in ``lang`` and restore the caller's language after it."""
    token = _lang.set(normalise(lang))
    try:
        yield
    finally:
        _lang.reset(token)


def tr(zh: str, en: str) -> str:
    """Pick the caller's language; both texts are written at the call site so neither drifts."""
    return en if _lang.get() == "en" else zh


class Text(NamedTuple):
    """One message in both languages; ``render`` picks the reader's."""

    zh: str
    en: str

    def render(self, lang: str | None = None) -> str:
        return self.en if normalise(lang or language()) == "en" else self.zh

    def __str__(self) -> str:
        return self.render()

    def as_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}

    @classmethod
    def from_data(cls, data: object) -> Text:
        """Stored form back to a Text: a ``{"zh", "en"}`` dict, or a plain (older, Chinese) string."""
        if isinstance(data, dict):
            zh = str(data.get("zh", ""))
            return cls(zh, str(data.get("en", zh)))
        return cls(str(data), str(data))


class TextError(ValueError):
    """Input the core refuses, worded once in both languages where it is refused: ``text`` is
    what a service hands on, ``str()`` the caller's language (as a plain ValueError reads)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.zh)
        self.text = text

    def __str__(self) -> str:
        return self.text.render()


def both(make: Callable[[], T]) -> tuple[T, T]:
    """Evaluate ``make`` once in Chinese and once in English (for texts built by core code)."""
    with use_language("zh"):
        zh = make()
    with use_language("en"):
        en = make()
    return zh, en


def bilingual(make: Callable[[], str]) -> Text:
    zh, en = both(make)
    return Text(zh, en)


def bilingual_list(make: Callable[[], list[str]]) -> list[Text]:
    """Sentences built by core code (one list per language), paired up as ``Text``s."""
    zh, en = both(make)
    if len(zh) != len(en):  # a sentence that exists in one language only: keep the Chinese
        return [Text(z, z) for z in zh]
    return [Text(z, e) for z, e in zip(zh, en, strict=True)]


E = TypeVar("E", bound=BaseException)


def failure_text(make: Callable[[], object], error: type[E], raised: E) -> Text:
    """The message of ``error`` raised by core code that words it with ``tr``, in both languages.

    ``raised`` (already caught) gives the caller's language; ``make`` is run once more in the
    other one to word it there. If it does not raise the same way, ``raised`` stands in.
    """
    here = language()
    other = "en" if here == "zh" else "zh"
    messages = {here: str(raised)}
    with use_language(other):
        try:
            make()
        except error as exc:
            messages[other] = str(exc)
    return Text(messages.get("zh", str(raised)), messages.get("en", str(raised)))

"""Chinese first, English available: every user-facing string goes through ``tr``.

The language belongs to the caller, not the process: it lives in a context variable, so a web
request in English and a CLI call in Chinese can run in the same process (threads and asyncio
tasks each see their own). Entry points choose it with ``use_language`` (or ``set_language`` for
a whole CLI run); nothing below them reads the environment.

``Text`` is a message kept in both languages, for what is stored or handed between layers and
rendered later in the reader's language (errors, eligibility reasons, pairing explanations).
Core code builds a message once, both languages side by side (``Text(zh, en)``, ``TextError``);
nothing runs a computation again in the other language only to word its outcome.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple

LANGUAGES = ("zh", "en")
_lang: ContextVar[str] = ContextVar("yisai_language", default="zh")


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


def os_error_text(exc: OSError) -> Text:
    """Why a file could not be read, in both languages: the system's own reason is English only
    ("No such file or directory"), and a director needs to be told what to check."""
    if isinstance(exc, FileNotFoundError):
        return Text("文件不存在, 请检查路径 (相对路径从当前目录算起)",
                    "no such file; check the path (a relative path starts at the current directory)")
    if isinstance(exc, IsADirectoryError):
        return Text("这是一个文件夹, 请给出其中的文件", "this is a folder; name a file in it")
    if isinstance(exc, PermissionError):
        return Text("没有读取权限, 请检查文件权限", "permission denied; check the file's permissions")
    why = exc.strerror or str(exc)
    return Text(f"系统错误 ({why})", why)

"""Chinese first, English available: every user-facing string goes through ``tr``.

The language is chosen once per process from ``YISAI_LANG`` (``zh`` default, ``en``) or the
CLI's ``--lang`` option, which calls ``set_language``.
"""

from __future__ import annotations

import os

_lang = "en" if os.environ.get("YISAI_LANG", "zh").lower().startswith("en") else "zh"


def set_language(lang: str) -> None:
    global _lang
    _lang = "en" if lang.lower().startswith("en") else "zh"


def language() -> str:
    return _lang


def tr(zh: str, en: str) -> str:
    """Pick the user's language; both texts are written at the call site so neither drifts."""
    return en if _lang == "en" else zh

"""Free text people type (names, notes): kept in any script, stored and shown without controls.

What is removed, and why:

- C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F): terminal escape sequences
  (``ESC[31m``), NUL, bell. Tabs and line breaks become one space, so words do not run together.
- Bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C):
  a right-to-left override makes ``张三`` display as something else on screen and on paper.
- The byte-order mark and the zero-width space (U+FEFF, U+200B), invisible in a name.
- Lone surrogates (U+D800–U+DFFF, left by undecodable bytes in command-line arguments; they
  cannot be stored) become U+FFFD.

What is kept: every letter of every script (CJK, Latin, Cyrillic, ...), punctuation, private-use
characters, emoji with their joiners (U+200D) and variation selectors, which print harmlessly.
Surrounding whitespace is trimmed and runs of inner whitespace (line and paragraph separators
included) become one space.
"""

from __future__ import annotations

import re

# Characters that must never reach the store or the screen (see the module docstring).
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_DROP = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}\ufeff\u200b]")
_SPACE = re.compile(r"\s+")  # Unicode whitespace: also tabs, line breaks, U+3000, U+2028
_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\ufeff\u200b\u2028\u2029\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` as it may be stored and shown: controls removed, whitespace tidied (see above)."""
    out = _SPACE.sub(" ", _SURROGATE.sub("\ufffd", text))
    return _DROP.sub("", out).strip()


def shown(text: str, limit: int | None = 40) -> str:
    """Echo what the user wrote inside a message without letting it act on the terminal: controls
    (line breaks included) are written out as ``\\x1b`` / ``\\u202e``, and text beyond ``limit``
    characters is cut with an ellipsis."""
    cut = text if limit is None or len(text) <= limit else text[:limit] + "…"
    return _UNSAFE.sub(lambda m: _escape(m.group()), cut)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

"""One finding of the cross-field checks: the field path, what is wrong and what is allowed.

Its own module so the checks (``checks``, ``bracket_checks``, ``team_checks``) share the type
and its wording without importing one another; the loader attaches a line number to the path.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.i18n import Text
from yisai.regulation.messages import NONE

Path = tuple[str | int, ...]
"""A field's place in the regulation file: keys and list indexes, outermost first."""


@dataclass(frozen=True)
class Finding:
    """A refusal of a setting: its field, the problem and (when there is one) what to write."""

    path: Path
    problem: Text
    allowed: Text = NONE


def allowed_values(values: str) -> Text:
    """'允许: …' — the values a field may take, in both languages."""
    return Text(f"允许: {values}", f"allowed: {values}")


def useless(path: Path, zh: str, en: str, fix_zh: str, fix_en: str) -> Finding:
    """A setting that would change nothing, refused with the reason and what to write instead."""
    return Finding(path, Text(f"{zh}: 这项设置不起作用", f"{en}: this setting has no effect"),
                   Text(fix_zh, fix_en))

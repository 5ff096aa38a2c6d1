"""Groups of a stage as stored and as people write them: "" for a plain Swiss, A / B for the
two groups of seed 000's final (and the groups of a round robin), ``final`` for its same-place
final (printed 同名次决赛), ``knockout`` for the rounds of a knockout bracket (printed 淘汰赛)."""

from __future__ import annotations

import re

PLACEMENT_GROUP = "final"
PLACEMENT_LABEL = "同名次决赛"
KNOCKOUT_GROUP = "knockout"
KNOCKOUT_LABEL = "淘汰赛"


def group_label(group: str) -> str:
    """How a group is printed on sheets: A, B, 同名次决赛, nothing for a plain Swiss."""
    if group == KNOCKOUT_GROUP:
        return KNOCKOUT_LABEL
    return PLACEMENT_LABEL if group == PLACEMENT_GROUP else group


def group_title(group: str) -> str:
    """How a group is named in a heading: A组, 同名次决赛, nothing for a plain Swiss."""
    if not group:
        return ""
    if group == KNOCKOUT_GROUP:
        return KNOCKOUT_LABEL
    return PLACEMENT_LABEL if group == PLACEMENT_GROUP else f"{group}组"


def group_title_en(group: str) -> str:
    """The English of ``group_title``, followed by a space: "group A ", "the placement final "."""
    if not group:
        return ""
    if group == KNOCKOUT_GROUP:
        return "the knockout "
    return "the placement final " if group == PLACEMENT_GROUP else f"group {group} "


def group_id(text: str) -> str:
    """Back from what people write (A组, a, 同名次决赛, 决赛, final) to the stored group id."""
    t = re.sub(r"\s+", "", text)
    if t in (PLACEMENT_LABEL, "决赛", PLACEMENT_GROUP, "同名次", "Final", "FINAL"):
        return PLACEMENT_GROUP
    if t in (KNOCKOUT_LABEL, KNOCKOUT_GROUP, "淘汰", "Knockout", "KNOCKOUT", "KO", "ko"):
        return KNOCKOUT_GROUP
    t = t.removesuffix("组")
    return t.upper() if t.isascii() else t

"""报名费 (fees): what each entry, and each team once, owes under the regulation's fee items.

A rule of the 规程 like eligibility, so it lives in the core beside it; services store the amount
on the entry when it is opened and front ends print it.
"""

from __future__ import annotations

from yisai.regulation.schema import Regulation


def fee_for(regulation: Regulation, division: str, stage: str = "") -> int:
    """Fees that apply to an entry: items for all, for the division, or for its stage(s).

    With no stage named, an item for any stage that includes the division applies (once).
    """
    stages_of_division = {s.id for s in regulation.stages if division in s.divisions}
    total = 0
    for item in regulation.fees.items:
        if item.per == "team":  # paid once by the team (``team_fee_for``), not by each entry
            continue
        scope = set(item.applies_to)
        if (
            not scope
            or division in scope
            or (stage and stage in scope)
            or (not stage and scope & stages_of_division)
        ):
            total += item.amount
    return total


def team_fee_for(regulation: Regulation) -> int:
    """Fees a team pays once (``per = "team"``), whatever its number of players."""
    return sum(item.amount for item in regulation.fees.items if item.per == "team")


__all__ = ["fee_for", "team_fee_for"]

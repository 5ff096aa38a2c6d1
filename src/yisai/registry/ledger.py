"""The fee ledger's arithmetic (issue 46): what each entry, team and appeal owes, in 分.

Money is an ``int`` of 分 (1元 = 100分) everywhere in the ledger: the regulation states fees in
whole 元, a provider reports 分, and a float never holds money (``tests/registry/test_ledger.py``
reads the money modules for ``float``). Pure: the services sum the stored payments and refunds
and ask this module what is due and whether a refund is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from yisai.i18n import Text
from yisai.registry.entry import Entry
from yisai.registry.fees import fee_for
from yisai.regulation.schema import Regulation
from yisai.vocabulary.money import fen

ENTRY, TEAM, APPEAL, PLACE = "entry", "team", "appeal", "place"
KINDS = (ENTRY, TEAM, APPEAL, PLACE)
KIND_LABELS = {ENTRY: Text("报名", "entry"), TEAM: Text("参赛队", "team"), APPEAL: Text("申诉", "appeal"),
               PLACE: Text("晋级名额", "qualifier place")}
APPEAL_REFUND_WORDS = "胜诉退还，败诉则不予退还"
ABSENT_REFUND_WORDS = "报名后无故不参加比赛者，赛事服务费不予退还"


@dataclass(frozen=True, slots=True)
class Line:
    """One subject of the ledger and its three sums, in 分."""

    kind: str  # entry | team | appeal | place
    id: int
    label: str  # the player (and division), the team's name, or the appeal's appellant
    due: int
    paid: int
    refunded: int

    @property
    def balance(self) -> int:
        """Still owed (negative: paid more than due). A refund is the chief referee's decision to
        give money back (an appeal upheld, a withdrawal the regulation refunds): it never makes
        the fee owed again."""
        return self.due - self.paid

    @property
    def kept(self) -> int:
        """What the organiser keeps: paid less refunded."""
        return self.paid - self.refunded

    @property
    def settled(self) -> bool:
        return self.due > 0 and self.balance <= 0


@dataclass(frozen=True, slots=True)
class Totals:
    due: int
    paid: int
    refunded: int

    @property
    def balance(self) -> int:
        return self.due - self.paid

    @property
    def kept(self) -> int:
        return self.paid - self.refunded


def totals(lines: Iterable[Line]) -> Totals:
    due = paid = refunded = 0
    for line in lines:
        due, paid, refunded = due + line.due, paid + line.paid, refunded + line.refunded
    return Totals(due, paid, refunded)


def entry_due(entry: Entry) -> int:
    """An entry owes the fee stored on it when it was opened (``registry.fees.fee_for``, 元)."""
    return fen(entry.fee_due)


def team_due(regulation: Regulation) -> int:
    """A team owes the ``per = "team"`` items once."""
    return fen(sum(item.amount for item in regulation.fees.items if item.per == "team"))


def appeal_due(fee_yuan: int) -> int:
    """An appeal owes the fee the regulation stated when it was filed (stored with it)."""
    return fen(fee_yuan)


def place_due(regulation: Regulation, division: str, final_stage: str) -> int:
    """A qualifier's place owes what the final will charge the entry it becomes: the fee items
    of the division the place's details put the player in, at the stage the ladder qualifies
    for (``registry.fees.fee_for``), in 分. Seed 000: 线下赛赛事服务费 260元 → 26000分."""
    return fen(fee_for(regulation, division, final_stage))


def absent_refund_refusal(regulation: Regulation, division: str) -> Text | None:
    """A no-show's fee: the regulation's sentence when an item that applies to the division is
    kept from players who do not come (``refundable_if_absent = false``), else None."""
    stages = {s.id for s in regulation.stages if division in s.divisions}
    for item in regulation.fees.items:
        scope = set(item.applies_to)
        applies = not scope or division in scope or bool(scope & stages)
        if applies and item.per == "entry" and not item.refundable_if_absent:
            words = item.note or ABSENT_REFUND_WORDS
            return Text(f"不予退还: 规程规定「{words}」", f"not refunded: the regulation says \u201c{words}\u201d")
    return None


def appeal_refund_refusal(regulation: Regulation, status: str) -> Text | None:
    """An appeal's fee comes back only when it was upheld and the regulation refunds it."""
    rules = regulation.appeals
    if rules is None or not rules.refunded_if_upheld:
        return Text("不予退还: 规程没有规定退还申诉费", "not refunded: the regulation does not refund the appeal fee")
    if status != "upheld":
        return Text(f"不予退还: 规程规定申诉费「{APPEAL_REFUND_WORDS}」, 本申诉未获支持",
                    f"not refunded: the regulation says the appeal fee is \u201c{APPEAL_REFUND_WORDS}\u201d "
                    "(refunded if upheld, kept if dismissed), and this appeal was not upheld")
    return None


def refund_limit(paid: int, refunded: int) -> int:
    """At most what was paid and not yet refunded."""
    return max(0, paid - refunded)


__all__ = [
    "APPEAL", "ENTRY", "KINDS", "KIND_LABELS", "PLACE", "TEAM", "Line", "Totals", "absent_refund_refusal",
    "appeal_due", "appeal_refund_refusal", "entry_due", "place_due", "refund_limit", "team_due", "totals",
]

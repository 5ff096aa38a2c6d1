"""The stage-format seam: what every stage format (赛制) answers about itself.

Each format of ``stages.Format`` (online ladder, Swiss, two groups with a same-place final, round
robin, knockout, team match, announced later) subclasses ``StageFormat`` and overrides the traits
and hooks below; callers ask the format instead of testing its class. Behaviour that needs the
pairing engine or the store (pairing a round, the final order, the rounds a demo plays) is the
format's *play* in ``services/stage_play.py``, one per ``kind``; the summary's wording is keyed
by ``kind`` in ``formats/regulation_summary.py``. A new format is one subclass here plus its play
and its wording; ``tests/regulation/test_stage_format_seam.py`` fails while one is missing.

``as_kind`` is the one class test, for code that only works with one family's own data (the
ladder's periods and qualifiers, a team match's boards and line-ups).
"""

from __future__ import annotations

from typing import ClassVar, Literal, TypeVar

from pydantic import Field

from yisai.i18n import Text
from yisai.regulation.findings import Finding, Path
from yisai.regulation.rules import Strict

DrawRule = Literal["replay", "black_wins", "white_wins", "higher_seed"]
BothLoseRule = Literal["replay", "higher_seed", "both_out"]


class KnockoutRules(Strict):
    """淘汰赛 settings shared by a stand-alone knockout and the knockout after groups.

    A game must send exactly one player on. With komi 7.5 there is no jigo, but a drawn result
    (integer komi, referee's decision) and 双方弃权/双方判负 can still be entered: what happens
    then is stated here, never guessed.
    """

    third_place: bool = Field(False, description="季军赛: 半决赛负者争第3、4名 (否则并列第3名)")
    on_draw: DrawRule = Field(
        "replay",
        description="和棋 (无胜负) 时: replay 重赛 (重赛结果作为本局成绩的更正录入); black_wins 和棋黑胜; "
        "white_wins 和棋白胜; higher_seed 种子序号靠前者晋级",
    )
    on_both_lose: BothLoseRule = Field(
        "both_out",
        description="双方弃权/双方判负时: both_out 两人都淘汰, 下一轮对手轮空晋级; "
        "higher_seed 种子序号靠前者晋级; replay 重赛",
    )


class StageFormat(Strict):
    """One stage format: its traits (class constants) and hooks (methods), with the defaults of
    a format played over the board in rounds that states none of them."""

    kind: str

    plays_rounds: ClassVar[bool] = True
    """Played over the board in rounds (not the online ladder, not a format announced later)."""
    online: ClassVar[bool] = False
    """Played online in periods: the stage lists its periods and may state disconnection rules."""
    swiss_rules: ClassVar[bool] = False
    """Paired by the regulation's Swiss rules ([pairing]); otherwise only its seeding order is used."""
    crosstables: ClassVar[bool] = False
    """Shown as group crosstables and a bracket (the stage's page)."""
    round_robin_groups: ClassVar[bool] = False
    """Played in round-robin groups, so a ranking's 小循环 (mini_league) can apply."""
    games_per_pair: ClassVar[int] = 1
    """How often each pair of a round robin meets (双循环: 2, a crosstable cell holds both games)."""

    def page_label(self) -> Text:
        """The name of the stage's crosstable / bracket page (an event tab, its title)."""
        return Text("循环赛·淘汰赛", "groups · bracket")

    def fixed_rounds(self) -> int | None:
        """The rounds every player plays, when the regulation fixes them (not provisionally)."""
        return None

    def last_round(self) -> int | None:
        """The stage's last round when the regulation states it (a timetable may go no further);
        None when the number follows the field or the entries."""
        return self.fixed_rounds()

    def rounds_by_entries(self) -> bool:
        """Whether the chief referee fixes the number of rounds from the entries (轮次视报名情况而定)."""
        return False

    def swiss_group_rounds(self) -> int | None:
        """Rounds played in Swiss groups before a same-place final (None: no such groups)."""
        return None

    def bracket_rules(self) -> KnockoutRules | None:
        """The knockout's rules when the stage ends in a bracket."""
        return None

    def findings(self, path: Path) -> list[Finding]:
        """Settings of this format that contradict each other or would have no effect."""
        return []


F = TypeVar("F", bound=StageFormat)


def as_kind(fmt: StageFormat, kind: type[F]) -> F | None:
    """``fmt`` as one family's own description when it is of that family, else None."""
    return fmt if isinstance(fmt, kind) else None


def expect_kind(fmt: StageFormat, kind: type[F]) -> F:
    """``fmt`` as the family a play was registered for (a wrong registration is a bug)."""
    found = as_kind(fmt, kind)
    if found is None:
        raise TypeError(f"{type(fmt).__name__} registered as {kind.__name__}")
    return found

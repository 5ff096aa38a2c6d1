"""迟到与弃权: 迟到15分钟判负 / 迟到15分钟以上者做弃权处理 / 遲到加倍扣時,遲到20分鐘裁定敗 / 迟到超过
10分钟者判负 / 开赛15分钟后未到赛场者,视为本轮弃权 ([lateness]), and 累计两轮弃权不再编排 / 弃权1次
取消竞赛资格 (withdrawal.exclude_after_forfeits)."""

from __future__ import annotations

import re

from yisai.regulation.draft.common import find
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, to_int

_LATE = re.compile(rf"迟到(超过)?({NUM})分钟(\(含\))?(以上|以后)?|开赛({NUM})分钟后(?:仍)?未到")
_EXCLUDE = re.compile(rf"(?:累计)?({NUM})轮(?:无故)?弃权|(?:无故)?弃权({NUM})(?:次|轮)")
_THEN_OUT = re.compile(r"^(?:后|者|的)?[,，]?(?:即|则)?(?:不再|不在|取消|不得再)")


def read(draft: Draft) -> None:
    _lateness(draft)
    _exclusion(draft)


def _lateness(draft: Draft) -> None:
    """The first clause giving the limit sets it; what follows the limit in the next two
    comma-clauses says whether the game is lost (判负, 作负, 裁定败) or the round forfeited
    (做弃权处理, 判弃权负, 视为本轮弃权); 超过N分钟 is past the limit, N分钟(以上) at it."""
    for s, m in find(draft, _LATE.pattern):
        minutes = to_int(m.group(2) or m.group(5) or "")
        if minutes is None or not 1 <= minutes <= 240:
            continue
        rest = re.split(r"[;；。]", s.norm[m.end():])[0]
        clauses = [c for c in re.split(r"[,，]", rest) if re.search(r"负|败|弃权", c)][:1]
        if not clauses and not re.search(r"负|败|弃权", s.norm[:m.start()][-6:]):
            continue
        outcome = "forfeit" if clauses and "弃权" in clauses[0] else "loss"
        rule: dict[str, object] = {"minutes": minutes, "inclusive": not m.group(1), "outcome": outcome}
        if re.search(r"加倍扣时", s.norm):
            rule["clock_factor"] = 2
        draft.put(("lateness",), rule, s)
        return


def _exclusion(draft: Draft) -> None:
    for s, m in find(draft, _EXCLUDE.pattern):
        n = to_int(m.group(1) or m.group(2) or "")
        if n is not None and 1 <= n <= 50 and _THEN_OUT.search(s.norm[m.end():]):
            draft.put(("withdrawal", "exclude_after_forfeits"), n, s)
            return

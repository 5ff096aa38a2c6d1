"""Each stage's 比赛用时: the first clause stating a stage's clock sets it (a clause naming no
stage, every stage's); another clock for the same stage and what the format cannot hold are
open points quoting the clause; a final or main stage with no clause at all is asked."""

from __future__ import annotations

from typing import Any

from yisai.regulation.draft import timecontrol as tcs
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.stage_names import pieces, stage_of, stages
from yisai.regulation.draft.text import Sentence, norm


def read(draft: Draft) -> None:
    _time_controls(draft)


def _time_controls(draft: Draft) -> None:
    """The first clause that states a stage's time control sets it; a later clause with another
    control (a final's longer clock, a make-up session's) and whatever the format cannot hold
    (双方共用, 每步加秒, 加钟) become open points quoting the clause."""
    first_at: dict[int, Sentence] = {}
    for s in draft.sentences:
        if s.under("报名", "报到"):
            continue
        if draft.stage_words:
            for idxs, part in pieces(draft, s):
                for k in idxs:
                    _clock(draft, k, tcs.read(norm(part)), part, s, first_at)
            continue
        head = s.norm.split(":")[0] if ":" in s.norm else ""
        i = stage_of(draft, head) if head else stage_of(draft, "")
        if i is not None:
            _clock(draft, i, tcs.read(s.norm), s.norm, s, first_at)
    for i, st in enumerate(stages(draft)):
        if "time_control" not in st and st["kind"] in ("final", "main") and not any(
                q.said is not None and q.path[-1] == "time_control" and (q.path[1] == i or draft.stage_words)
                for q in draft.open):  # a clause on every named stage's clock is quoted once
            draft.ask(("stages", i, "time_control"), f"{st['name']}用时",
                      f"{st['name']}每方用时多少、几次读秒？规程未写明 / Time control of this stage?",
                      "不填（见补充规定）")


def _clock(draft: Draft, i: int, reading: tcs.Reading, text: str, s: Sentence,
           first_at: dict[int, Sentence]) -> None:
    """What one clause (``text``, part of ``s``) says of stage ``i``'s time control."""
    if reading.control is None and not reading.cannot_state and not tcs.TOPIC_WORDS.search(norm(text)):
        return
    path = ("stages", i, "time_control")
    if reading.control is None and not reading.cannot_state:
        draft.unread(path, "用时", s, "用时", "不填")
        return
    for what in reading.cannot_state:
        draft.unread(path, "用时", s, what, "不填")
    if reading.control is None:
        return
    have = stages(draft)[i].get("time_control")
    if have is None:
        draft.put(path, reading.control, s)
        first_at[i] = s
    elif have != reading.control:
        draft.unread(path, "用时", s, f"另一种用时（已按{first_at[i].section or '前文'}条写入）", _shown_tc(have))
    else:
        draft.cite(path, s)


def _shown_tc(tc: dict[str, Any]) -> str:
    out = f"每方{tc['main_minutes']}分钟"
    if tc.get("byoyomi_periods"):
        out += f"，{tc['byoyomi_periods']}次{tc.get('byoyomi_seconds', 0)}秒读秒"
    return out

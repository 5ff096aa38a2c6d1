"""How the regulation words places and 段位 grants: shared by its summary (``formats``) and the
rank-award report (``awards``), so both print a grant exactly as the regulation states it."""

from __future__ import annotations

from yisai.i18n import tr
from yisai.regulation.rank_awards import Grant


def places(a: int, b: int) -> str:
    if a == b:
        return tr(f"第{a}名", f"place {a}")
    return tr(f"第{a}名至第{b}名", f"places {a} to {b}")


def grant_text(g: Grant) -> str:
    """One grant as the regulation words it."""
    rank = g.rank if g.professional else tr(f"业余{g.rank}", f"amateur {g.rank}")
    text = tr(f"个人{places(g.place_from, g.place_to)}可申报{rank}",
              f"individual {places(g.place_from, g.place_to)}: may apply for {rank}")
    if g.alternative_to:
        text += tr(f"(与业余{g.alternative_to}二选一)", f" (or amateur {g.alternative_to}, one of the two)")
    if g.extend_to:
        text += tr(f"(顺延到前{g.extend_to}名)", f" (passed down to the top {g.extend_to})")
    if g.note:
        text += f"; {g.note}"
    return text

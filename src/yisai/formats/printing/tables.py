"""Core results as printable tables (cells worded by the core's own formatting)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yisai.formats.printing.model import Column, Table
from yisai.formats.standings_export import place_text, text
from yisai.i18n import tr
from yisai.standings import Standings


def standings_table(title: str, st: Standings, order: Sequence[tuple[str, str]] | None = None,
                    group_of: Mapping[str, str] | None = None, gender: bool = False) -> Table:
    """名次 姓名 [性别] 单位 段位 [组] and every shown criterion of ``st``, values as the exports
    write them (halves as 12.5, 逐轮减去对手分 as 50/48/45). ``gender`` adds 性别 (from the
    players' gender tag) where the regulation ranks men and women apart.

    ``order`` — (player id, place text) pairs — prints those players in that order with those
    places instead (a same-place final decides the places; the values stay the standings').
    """
    by_id = {row.player.id: row for row in st.listed}
    keyed = [(place_text(row), row) for row in st.listed] if order is None else \
        [(place, by_id[pid]) for pid, place in order if pid in by_id]
    columns = [Column(tr("名次", "Place"), "right"), Column(tr("姓名", "Name"), share=1.3)]
    if gender:
        columns.append(Column(tr("性别", "Sex"), "center"))
    columns += [Column(tr("单位", "Unit"), share=1), Column(tr("段位", "Rank"), "center")]
    if group_of:
        columns.append(Column(tr("组", "Group"), "center"))
    columns += [Column(k.title, "right") for k in st.shown_keys]
    rows = []
    for place, row in keyed:
        p = row.player
        cells = [place, p.marked_name]
        if gender:
            cells.append({"M": tr("男", "M"), "F": tr("女", "F")}.get(p.tags.get("gender", ""), ""))
        cells += [p.club, str(p.rank) if p.rank is not None else ""]
        if group_of:
            cells.append(group_of.get(p.id, ""))
        cells += [text(row.values.get(k.key)) for k in st.shown_keys]
        rows.append(tuple(cells))
    return Table(title, tuple(columns), tuple(rows))

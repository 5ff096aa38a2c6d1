"""Plain view data for templates and the JSON API, built from services results.

Only public fields leave this module for public pages: names, gender, unit (team, club, city or
province), rank, status. Never ID numbers, phones, birth dates or certificate numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yisai.formats.standings_export import place_text, plain, text
from yisai.i18n import tr
from yisai.record import Game, Result
from yisai.record.groups import group_label, group_title
from yisai.record.parse import result_word
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.regulation import Regulation
from yisai.services.context import Work
from yisai.services.entries import EntryView
from yisai.services.events import regulation_of, resolve_event
from yisai.services.rounds import RoundView
from yisai.services.team_matches import board_result_word, team_match_stage, team_round_view
from yisai.services.teams import TeamView
from yisai.standings.ranking import Standings

STATUS_EN = {"pending": "pending", "approved": "approved", "rejected": "rejected", "withdrawn": "withdrawn",
             "disqualified": "disqualified"}


def gender_label(g: Gender | None) -> str:
    if g is None:
        return ""
    return tr(g.label, "M" if g is Gender.MALE else "F")


def status_label(s: EntryStatus) -> str:
    return tr(s.label, STATUS_EN[s.value])


def unit_of(p: Player, team: str | None = None) -> str:
    return team or p.club or p.city or p.province or ""


def public_player(p: Player, team: str | None = None) -> dict[str, Any]:
    """The public face of a player: no ID number, phone, birth date or certificate."""
    return {
        "id": p.id,
        "name": p.name,
        "gender": p.gender.value if p.gender else None,
        "unit": unit_of(p, team),
        "rank": str(p.rank) if p.rank is not None else "",
    }


def public_entries(entries: list[EntryView]) -> list[dict[str, Any]]:
    return [
        {**public_player(v.player, v.team), "division": v.entry.division, "division_name": v.division_name,
         "team": v.team or "", "status": v.entry.status.value}
        for v in entries
        if v.entry.status in (EntryStatus.APPROVED, EntryStatus.PENDING)
    ]


def public_teams(teams: list[TeamView]) -> list[dict[str, Any]]:
    return [
        {
            "name": t.team.name,
            "place": t.team.place,
            "leaders": list(t.team.leaders),
            "coaches": list(t.team.coaches),
            "members": [
                {"slot": m.slot or "", **public_player(p)}
                for m, p in zip(t.team.members, t.players, strict=False)
            ],
        }
        for t in teams
    ]


def result_text(g: Game) -> str:
    if g.is_bye:
        return tr("轮空", "bye")
    if g.result == Result.UNKNOWN:
        return ""
    return result_word(g.result, g.played, g.reason)


@dataclass(frozen=True)
class BoardLine:
    group: str
    board: int | None
    black: str
    black_id: str
    white: str
    white_id: str
    black_score: int
    white_score: int
    result: str
    version: int
    bye: bool
    matchup: str = ""  # same-place final: "A组第1名 — B组第1名 (争第1–2名)"
    black_seat: str = ""  # same-place final: where each comes from, "A1" / "B1"
    white_seat: str = ""


def board_lines(view: RoundView) -> list[tuple[str, list[BoardLine]]]:
    """Each group's boards in order (byes last), with scores before the round."""
    out = []
    for r in view.rounds:
        lines = []
        for g in sorted(r.games, key=lambda g: (g.is_bye, g.board)):
            lines.append(BoardLine(
                r.group, None if g.is_bye else g.board, view.names.get(g.black, g.black), g.black,
                view.names.get(g.white, g.white) if g.white else "", g.white or "",
                view.scores.get(g.black, 0), view.scores.get(g.white, 0) if g.white else 0,
                result_text(g), r.version_of(g.board), g.is_bye, view.matchup(g.black, g.white),
                view.seeds.get(g.black, ""), view.seeds.get(g.white or "", ""),
            ))
        out.append((group_label(r.group), lines))
    return out


def left_out(view: RoundView) -> list[tuple[str, str]]:
    """积分编排淘汰制: (name, why) of each player the round no longer pairs, by name."""
    return sorted(((view.names.get(pid, pid), why) for pid, why in view.left.items()), key=lambda x: x[0])


def round_json(view: RoundView) -> dict[str, Any]:
    return {
        "event": view.event.id,
        "division": view.division,
        "round": view.round,
        "groups": [
            {"group": label, "boards": [
                {"board": b.board, "black": {"id": b.black_id, "name": b.black, "score": b.black_score},
                 "white": {"id": b.white_id, "name": b.white, "score": b.white_score} if not b.bye else None,
                 "result": b.result, "version": b.version, "bye": b.bye,
                 **({"matchup": b.matchup} if b.matchup else {})}
                for b in lines]}
            for label, lines in board_lines(view)
        ],
        "left_out": [{"name": name, "why": why} for name, why in left_out(view)],
    }


def standings_columns(st: Standings, *, gender: bool = False, group: bool = False) -> list[str]:
    """名次 姓名 [性别] 单位 段位 [分组] and every shown criterion; gender where the regulation
    ranks men and women apart, the group where the division played in groups (seed 000's A/B)."""
    return ([tr("名次", "place"), tr("姓名", "name")] + ([tr("性别", "gender")] if gender else [])
            + [tr("单位", "club"), tr("段位", "rank")] + ([tr("分组", "group")] if group else [])
            + [k.title for k in st.shown_keys])


def has_groups(st: Standings) -> bool:
    return any("group" in r.player.tags for r in st.rows)


def standings_rows(st: Standings, *, gender: bool = False, group: bool = False) -> list[tuple[str, list[str]]]:
    """(player id, cells) per row, every tie-break column included (public data only)."""
    out = []
    champions = st.placed_by_undefeated()
    for row in st.listed:
        p = row.player
        name = p.marked_name
        if p.id in champions:
            name += tr("（全胜者冠军）", " (undefeated champion)")
        cells = [place_text(row), name]
        if gender:
            g = p.tags.get("gender")
            cells.append(gender_label(Gender(g)) if g else "")
        cells += [p.club, str(p.rank) if p.rank is not None else ""]
        if group:
            cells.append(group_title(p.tags.get("group", "")))
        cells += [text(row.values.get(k.key)) for k in st.shown_keys]
        out.append((p.id, cells))
    return out


def standings_json(st: Standings) -> dict[str, Any]:
    keys = st.shown_keys
    champions = st.placed_by_undefeated()
    return {
        "round": st.round,
        "criteria": [{"key": k.key, "title": k.title} for k in keys],
        "rows": [
            {"place": r.place, "shared": r.shared, "id": r.player.id, "name": r.player.name,
             "club": r.player.club, "rank": str(r.player.rank) if r.player.rank is not None else "",
             "gender": r.player.tags.get("gender"), **({"group": r.player.tags["group"]} if "group" in r.player.tags else {}),
             **({"status": r.player.status} if r.player.status else {}),
             **({"undefeated_champion": True} if r.player.id in champions else {}),
             "values": {k.key: plain(r.values.get(k.key)) for k in keys}}
            for r in st.listed
        ],
    }


def summary_sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The regulation summary's 【…】 sections as (title, lines)."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in lines:
        if line.startswith("【") and "】" in line:
            sections.append((line.strip("【】"), []))
        elif line.strip():
            sections[-1][1].append(line)
    return [s for s in sections if s[1]]


def divisions_of(reg: Regulation) -> list[tuple[str, str]]:
    return [(d.id, d.name) for d in reg.divisions]


# ------------------------------------------------------------------ team matches (团体赛)


def match_cards(work: Work, event_id: int, number: int) -> list[dict[str, Any]]:
    """A team round as plain rows for the templates: each match, its boards, names, results."""
    view = team_round_view(work, str(event_id), number)
    pn = view.player_names
    out = []
    for m in view.matches:
        boards = []
        for b in m.boards:
            table = view.tables.get((m.number, b.board))
            game = view.games.get(table) if table else None
            boards.append({
                "board": b.board, "table": table or "",
                "a": pn.get(b.player_a or "", "—"), "b": pn.get(b.player_b or "", "—"),
                "a_colour": tr("黑", "B") if view.a_black.get((m.number, b.board)) else tr("白", "W"),
                "result": board_result_word(b, game),
            })
        out.append({"number": m.number, "a": m.name_a, "b": m.name_b, "bye": m.team_b is None,
                    "points": f"{m.points_a:g} : {m.points_b:g}", "finished": m.finished,
                    "match": f"{m.match_a} : {m.match_b}" if m.finished and m.team_b else "",
                    "span": m.table_span, "boards": boards})
    return out


def is_team_division(work: Work, event_id: int, division: str) -> bool:
    """Whether the division plays team matches (its rounds are shown as matches with boards)."""
    reg = regulation_of(resolve_event(work, str(event_id)))
    return team_match_stage(reg, division) is not None

"""A round-robin / knockout stage as the public page, the API and print show it: every group's
crosstable, the bracket so far (rounds to come included) and, once decided, the final places
(``results.final_order``: the same order standings and prizes use).

Apart from ``brackets`` (which pairs the rounds) so that showing a stage may read the final order
while the final order reads the bracket.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from yisai.i18n import Text, tr
from yisai.record import Game
from yisai.record.groups import KNOCKOUT_GROUP
from yisai.regulation import Regulation
from yisai.regulation.stages import KnockoutRules, Stage
from yisai.services.brackets import (
    group_seats,
    knockout_origins,
    knockout_seeds,
    stored_cycle_seats,
)
from yisai.services.context import Refused, Work
from yisai.services.event_data import standings_input
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.publishing import is_published
from yisai.services.results import division_progress, final_order
from yisai.store import EventRecord, roster_rows, round_rows


@dataclass(frozen=True)
class CrossRow:
    """One player's line of a crosstable: place in the group, seat, name, result per seat."""

    place: int
    shared: bool
    seat: int
    player_id: str
    name: str
    cells: tuple[str, ...]  # by opponent seat: 胜 / 负 / 和 / 胜(弃) / 负(弃) / "" (not yet) / — (self);
    # a double round robin: both games, each with the colour played (黑胜 / 白负, 黑 not yet played)
    score: str


@dataclass(frozen=True)
class CrossTable:
    group: str
    rows: tuple[CrossRow, ...]  # in seat order


@dataclass(frozen=True)
class Match:
    """One bracket match as shown: the two sides (with where they came from), who went on."""

    number: int
    a: str
    b: str
    a_from: str = ""
    b_from: str = ""
    winner: str = ""  # "a", "b" or "" (not decided yet)
    winner_name: str = ""
    result: str = ""
    note: str = ""  # how a drawn or both-lost game was settled; a walkover


@dataclass(frozen=True)
class BracketColumn:
    round: int
    name: str
    matches: tuple[Match, ...]
    third: Match | None = None


@dataclass(frozen=True)
class StageView:
    """A round-robin / knockout stage for the public page and print: crosstables, bracket, places."""

    event: EventRecord
    division: str
    division_name: str
    stage: Stage
    groups: tuple[CrossTable, ...]
    bracket: tuple[BracketColumn, ...]
    places: tuple[tuple[int, bool, str], ...]  # (place, shared, name) once the bracket is decided
    double: bool = False
    """双循环: one table of both cycles, each cell the pair's two games with colours."""
    status: str = ""
    """最终 once the last round is complete, else 暂定 (第N轮后): the table's title says which."""


def has_brackets(reg: Regulation, division: str) -> bool:
    """Whether the division's playing stage is a round robin or a knockout (a page to show)."""
    return division in bracket_labels(reg)


def bracket_labels(reg: Regulation) -> dict[str, Text]:
    """division → the name of its crosstable / bracket page (循环赛, 双循环, 淘汰赛, 循环赛·淘汰赛),
    for the divisions that have one."""
    out: dict[str, Text] = {}
    for d in reg.divisions:
        try:
            fmt = playing_stage(reg, d.id).format_for(d.id)
        except Exception:  # no pairable stage: nothing to show
            continue
        if fmt.crosstables:
            out[d.id] = fmt.page_label()
    return out


def _cell(game: Game, player: str) -> str:
    from yisai.record import Result

    if game.result == Result.UNKNOWN:
        return ""
    out = game.outcome_for(player)
    word = {"W": tr("胜", "W"), "L": tr("负", "L"), "D": tr("和", "D")}.get(out, "")
    return word + (tr("(弃)", " (ff)") if not game.played else "")


def stage_view(work: Work, event_ref: str | int | None, division: str, *,
               published_only: bool = False) -> StageView:
    """The crosstable of every group (places from the regulation's ranking, 小循环 included)
    and the bracket so far; ``published_only`` hides rounds not yet published (public pages)."""
    from yisai.pairing.knockout import round_name
    from yisai.standings import compute_standings

    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    division = resolve_division(reg, division)
    stage = playing_stage(reg, division)
    fmt = stage.format_for(division)
    if not fmt.crosstables:
        raise Refused(Text(f"{stage.name}不是循环赛或淘汰赛", f"{stage.name} is neither a round robin nor a knockout"),
                      code="not_round_robin", params={"stage": stage.id})
    names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
    rounds = round_rows.list_rounds(work.session, event.id, division, stage=stage.id)
    hidden = {(r.group, r.number) for r in rounds if published_only and not is_published(r.status)}
    groups: list[CrossTable] = []
    double = fmt.games_per_pair == 2
    seats = group_seats(work, event, division, stage)
    if double:
        cycle = stored_cycle_seats(work, event, division, stage)
        seats = {"": cycle} if cycle else {}
    if seats:
        inp = standings_input(work, event, division, stage.id)
        for g, order in seats.items():
            st = compute_standings(inp, subset=order, lot_seed=event.seed)
            place = {r.player.id: (r.place, r.shared, r.values.get("score", 0)) for r in st.rows}
            games = [x for r in rounds if r.group == g and (g, r.number) not in hidden for x in r.games if x.white]
            rows = []
            for k, pid in enumerate(order, start=1):
                cells = []
                for opp in order:
                    if opp == pid:
                        cells.append("—")
                        continue
                    if double:
                        both = [x for x in games if {x.black, x.white} == {pid, opp}]
                        cells.append(" / ".join(_coloured(x, pid) for x in both))
                        continue
                    game = next((x for x in games if {x.black, x.white} == {pid, opp}), None)
                    cells.append(_cell(game, pid) if game else "")
                pl, shared, score = place.get(pid, (0, False, 0))
                rows.append(CrossRow(pl, shared, k, pid, names.get(pid, pid), tuple(cells), str(score)))
            groups.append(CrossTable(g, tuple(rows)))
    columns: list[BracketColumn] = []
    seed_of = knockout_seeds(work, event, division, stage)
    origins = knockout_origins(work, event, division, stage)
    rules = fmt.bracket_rules() or KnockoutRules()
    for r in rounds:
        if r.group != KNOCKOUT_GROUP or (r.group, r.number) in hidden:
            continue
        pairs = [(a, b) for a, b in r.info.get("bracket", [])]
        sides = _Sides(names, origins, seed_of, rules)
        ms = tuple(sides.match(k, a, b, r.games) for k, (a, b) in enumerate(pairs, start=1))
        third = r.info.get("third")
        zh, en = round_name(2 * len(pairs))
        columns.append(BracketColumn(r.number, tr(zh, en), ms,
                                     sides.match(0, third[0], third[1], r.games) if third else None))
    columns += _rounds_to_come(columns, rules)
    final = final_order(work, event, reg, division, None)
    count = Counter(p for p, _pid, _why in final or [])
    places = tuple((p, count[p] > 1, names.get(pid, pid)) for p, pid, _why in final) if final and not hidden else ()
    progress = division_progress(work, event, division)
    if progress.final:  # a public page with a round still unpublished is not final yet
        status = tr("暂定", "provisional") if hidden else tr("最终", "final")
    else:
        status = progress.note.render()
    return StageView(event, division, reg.division(division).name, stage, tuple(groups), tuple(columns), places,
                     double, status)


def _coloured(game: Game, player: str) -> str:
    """One game of a double round robin from ``player``'s side: 黑胜, 白负, 黑 (to play)."""
    colour = tr("黑", "B") if game.black == player else tr("白", "W")
    result = _cell(game, player)
    return colour + (tr("", " ") + result if result else "")


def _rounds_to_come(columns: list[BracketColumn], rules: KnockoutRules) -> list[BracketColumn]:
    """The bracket's rounds not paired yet, with "winner of match k" on each side, so the page
    shows the whole bracket from the first round on (round 0: not paired yet)."""
    from yisai.pairing.knockout import round_name

    out: list[BracketColumn] = []
    if not columns:
        return out
    matches_before = len(columns[-1].matches)
    while matches_before > 1:
        zh, en = round_name(2 * matches_before)  # the round whose winners meet next
        count = matches_before // 2
        matches = tuple(Match(k, tr(f"{zh}第{2 * k - 1}场胜者", f"winner of {en} match {2 * k - 1}"),
                              tr(f"{zh}第{2 * k}场胜者", f"winner of {en} match {2 * k}"), note=tr("待定", "to come"))
                        for k in range(1, count + 1))
        third = None
        if count == 1 and rules.third_place:
            third = Match(0, tr("半决赛第1场负者", "loser of semi-final 1"), tr("半决赛第2场负者", "loser of semi-final 2"),
                          note=tr("待定", "to come"))
        nzh, nen = round_name(2 * count)
        out.append(BracketColumn(0, tr(nzh, nen), matches, third))
        matches_before = count
    return out


@dataclass(frozen=True)
class _Sides:
    """Words for the two sides of a bracket match: names, origin (A1, seed 3), colour, winner."""

    names: dict[str, str]
    origins: dict[str, str]
    seed_of: dict[str, int]
    rules: KnockoutRules

    def origin(self, p: str | None) -> str:
        if p is None:
            return ""
        if p in self.origins:
            return self.origins[p]
        return tr(f"{self.seed_of[p]}号种子", f"seed {self.seed_of[p]}") if p in self.seed_of else ""

    def match(self, k: int, a: str | None, b: str | None, games: Sequence[Game]) -> Match:
        from yisai.pairing import PairingError
        from yisai.pairing.knockout import match_outcome
        from yisai.record.parse import result_word

        side_a = self.names.get(a, a) if a else tr("轮空", "bye")
        side_b = self.names.get(b, b) if b else tr("轮空", "bye")
        winner = note = text = ""
        try:
            out = match_outcome((a, b), games, self.rules, self.seed_of)
            winner = "a" if a and out.winner == a else ("b" if b and out.winner == b else "")
            note = out.note
        except PairingError:
            pass  # not decided yet: shown without a winner
        game = next((x for x in games if a and b and {x.black, x.white} == {a, b}), None)
        if game is not None:
            text = result_word(game.result, game.played, game.reason) if game.result.value != "?" else ""
            colour = tr(" (黑)", " (B)")
            side_a += colour if game.black == a else ""
            side_b += colour if game.black == b else ""
        elif a is None or b is None:
            note = tr("轮空晋级", "goes on with a bye")
        went_on = self.names.get(a or "", a or "") if winner == "a" else (
            self.names.get(b or "", b or "") if winner == "b" else "")
        return Match(k, side_a, side_b, self.origin(a), self.origin(b), winner, went_on, text, note)

"""The OpenGotha-compatible pairing mode against OpenGotha's own output.

Oracle: the pairgoth fixtures (``pairgoth/opengotha/``): tournament files whose games are the
pairings OpenGotha made, and OpenGotha's weights files giving its cost of every candidate pair
of every round, component by component. Nothing expected here comes from our own output:
costs come from OpenGotha's files, pairs and colours from OpenGotha's games.

Replay: drop the games, pair round r from the recorded games of rounds < r with the players
OpenGotha paired in round r (and its bye, a director's choice), compare, go on with the
recorded round. Where OpenGotha's own weights give two pairings the same total, the maximum is
not unique and either is OpenGotha-correct: those rounds are listed below pair by pair, and the
test checks that both totals are equal under OpenGotha's weights.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from yisai.formats.opengotha_pairing import read_og_tournament
from yisai.pairing.opengotha import COMPONENTS, RoundState, pair_og_round
from yisai.pairing.opengotha.engine import choose_bye, pairable_players
from yisai.pairing.opengotha.matrix import cost_totals
from yisai.record import Game

FIXTURES = ("simpleswiss", "notsosimpleswiss", "simplemm", "notsimplemm", "Toulouse2024",
            "20240921-KPMC-Splitbug")
ROUNDS = {"simpleswiss": 7, "notsosimpleswiss": 10, "simplemm": 5, "notsimplemm": 5,
          "Toulouse2024": 6, "20240921-KPMC-Splitbug": 2}

Pairs = frozenset[frozenset[str]]


def _pairs(*pairs: tuple[str, str]) -> Pairs:
    return frozenset(frozenset(p) for p in pairs)


# (fixture, round) → (pairs only we make, pairs only OpenGotha made, why): rounds that are not
# OpenGotha's automatic pairing. Any other round may differ only as a tie: the same total under
# OpenGotha's own weights (which maximum a matching returns is the matching's choice).
EXCEPTIONS: dict[tuple[str, int], tuple[Pairs, Pairs, str]] = {
    ("20240921-KPMC-Splitbug", 1): (
        _pairs(("Haidar Alimin #1", "Krushelnytskyi Valerii #44"),
               ("Andelic Mihajlo #37", "Kim Tae-heon #9"), ("Liu Tianyi #2", "Smolarik Peter #38")),
        _pairs(("Smolarik Peter #38", "Kim Tae-heon #9"),
               ("Andelic Mihajlo #37", "Krushelnytskyi Valerii #44"),
               ("Liu Tianyi #2", "Haidar Alimin #1")),
        "not OpenGotha's automatic pairing: its total is 33,332 below the maximum of "
        "OpenGotha's own weights file, and only 14 of its 30 colours follow OpenGotha's colour "
        "rule (a hand-made or imported round 1; pairgoth's test of this file also starts at 2)",
    ),
}
# OpenGotha's weights total of its own round minus the maximum, where it is not a maximum.
NOT_MAXIMAL = {("20240921-KPMC-Splitbug", 1): -33_332}
# Pairs both made whose colours agree, where not all do (the hand-made round 1 again).
COLOURS_AGREE = {("20240921-KPMC-Splitbug", 1): 12}
# Games on the same table as in the file, where not every game both made is. In these two files
# the tables do not follow OpenGotha's renumbering rule (notsosimpleswiss round 1 is its exact
# reverse: the weakest "best player" on table 1), so they were numbered by other means.
# Every round of notsosimpleswiss has a bye recorded before pairing, which OpenGotha's table
# order counts (OpenGotha 3.51.02's own tables in the shared reference agree on all such
# rounds); with it counted, rounds 4, 5, 8, 9 and 10 follow the rule on every table.
TABLES_AGREE = {
    **{("notsosimpleswiss", r): n for r, n in
       {1: 1, 2: 1, 3: 7, 6: 15, 7: 14}.items()},
    ("20240921-KPMC-Splitbug", 1): 5,
    ("20240921-KPMC-Splitbug", 2): 4,
}


def _load(testdata: Path, name: str):
    """A fixture read with the cost rules of the OpenGotha that wrote its weights files (3.52)."""
    return read_og_tournament(testdata / "pairgoth" / "opengotha" / "pairings" / f"{name}.xml",
                              rules="3.52")


def _weights(path: Path) -> dict[tuple[str, str], list[int]]:
    """OpenGotha's weights file: 12 lines per pair (two names, nine costs, the total)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("Round") and lines[1] == "Costs"
    out: dict[tuple[str, str], list[int]] = {}
    for k in range(2, len(lines), 12):
        values = [line.split("=", 1)[1] for line in lines[k : k + 12]]
        out[(values[0], values[1])] = [int(float(v)) for v in values[2:]]
    return out


def _weights_file(testdata: Path, name: str, round_: int) -> Path:
    return testdata / "pairgoth" / "opengotha" / name / f"{name}_weights_R{round_}.txt"


def _round(games: tuple[Game, ...], round_: int) -> tuple[list[Game], str | None]:
    played = [g for g in games if g.round == round_ and g.white is not None]
    bye = next((g.black for g in games if g.round == round_ and g.white is None), None)
    return played, bye


@pytest.mark.parametrize("name", FIXTURES)
def test_every_pair_costs_what_opengotha_says(testdata: Path, name: str) -> None:
    """Each of the nine components and the total of every candidate pair of every round."""
    f = _load(testdata, name)
    tour, games = f.tournament, f.source.games
    by_name = {p.name: i for i, p in enumerate(tour.players)}
    checked = 0
    for round_ in range(1, ROUNDS[name] + 1):
        oracle = _weights(_weights_file(testdata, name, round_))
        state = RoundState(tour, games, round_)
        for (n1, n2), expected in oracle.items():
            cost = state.cost(by_name[n1], by_name[n2])
            ours = [getattr(cost, c) for c in COMPONENTS] + [cost.total]
            assert ours == expected, (name, round_, n1, n2, list(zip([*COMPONENTS, "total"], ours, expected, strict=True)))
            checked += 1
        # the matrix the matching reads: the same totals, first player as in OpenGotha's list
        members = sorted({by_name[n] for pair in oracle for n in pair}, key=state.position.__getitem__)
        matrix = cost_totals(state, members)
        for a, i in enumerate(members):
            for b in range(a + 1, len(members)):
                assert matrix[a, b] == state.cost(i, members[b]).total, (name, round_)
    assert checked == sum(len(_weights(_weights_file(testdata, name, r)))
                          for r in range(1, ROUNDS[name] + 1))


def test_bosp2024_round3_costs_leave_preregistered_players_out_of_groups(testdata: Path) -> None:
    """bosp2024: 71 players of whom 29 only pre-registered (PRE); OpenGotha's round-3 weights
    equal ours only if score groups hold finally registered players alone."""
    folder = testdata / "pairgoth" / "opengotha" / "bosp2024"
    f = read_og_tournament(folder / "bosp2024.xml", rules="3.52")
    tour = f.tournament
    assert sum(p.tags.get("registering") == "PRE" for p in tour.players) == 29
    by_name = {p.name: i for i, p in enumerate(tour.players)}
    state = RoundState(tour, f.source.games, 3)
    oracle = _weights(folder / "bosp2024_weights_R3.txt")
    assert len(oracle) == 630
    for (n1, n2), expected in oracle.items():
        cost = state.cost(by_name[n1], by_name[n2])
        assert [getattr(cost, c) for c in COMPONENTS] + [cost.total] == expected, (n1, n2)


@pytest.mark.parametrize("name", FIXTURES)
def test_rounds_reproduce_opengotha(testdata: Path, name: str) -> None:
    f = _load(testdata, name)
    tour, games = f.tournament, f.source.games
    names = {p.id: p.name for p in tour.players}
    assert max(g.round for g in games) == ROUNDS[name]
    ties: list[tuple[int, int]] = []
    for round_ in range(1, ROUNDS[name] + 1):
        og_games, og_bye = _round(games, round_)
        selected = [pid for g in og_games for pid in (g.white, g.black) if pid]
        if og_bye:
            selected.append(og_bye)
        earlier = [g for g in games if g.round < round_]
        ours = pair_og_round(tour, earlier, round_, bye=og_bye, selected=selected)
        assert ours.bye == og_bye

        mine = {(b.white, b.black, b.handicap) for b in ours.boards}
        theirs = {(g.white, g.black, g.handicap) for g in og_games}
        assert len(mine) == len(theirs)
        mine_pairs = {frozenset((names[w], names[b])) for w, b, _ in mine}
        their_pairs = {frozenset((names[w], names[b])) for w, b, _ in theirs}
        # totals under OpenGotha's weights: equal, except where OpenGotha's round is no maximum
        oracle = {frozenset(k): v[-1] for k, v in _weights(_weights_file(testdata, name, round_)).items()}
        our_total = sum(oracle[p] for p in mine_pairs)
        their_total = sum(oracle[p] for p in their_pairs)
        assert our_total == ours.total
        assert their_total - our_total == NOT_MAXIMAL.get((name, round_), 0)
        if (name, round_) in EXCEPTIONS:
            only_ours, only_theirs, _why = EXCEPTIONS[(name, round_)]
            assert (mine_pairs - their_pairs, their_pairs - mine_pairs) == \
                (only_ours, only_theirs), (name, round_)
        elif mine_pairs != their_pairs:
            ties.append((round_, len(mine_pairs - their_pairs)))  # equal totals, checked above
        # every pair both made has OpenGotha's colours and handicap (but in the hand-made round)
        common = mine_pairs & their_pairs
        expected_colours = COLOURS_AGREE.get((name, round_), len(common))
        assert len(mine & theirs) == expected_colours, (name, round_)

        # tables: OpenGotha's "best score, then rating" numbering (of the same games: a tie
        # changes the games, and so their order)
        if mine_pairs == their_pairs:
            my_tables = {(b.white, b.black, b.table) for b in ours.boards}
            their_tables = {(g.white, g.black, g.board) for g in og_games}
            assert len(my_tables & their_tables) == \
                TABLES_AGREE.get((name, round_), expected_colours), (name, round_)
    print(f"\n{name}: tied rounds (round, pairs differing) {ties}")


@pytest.mark.parametrize("name", FIXTURES)
def test_colour_rule_gives_opengotha_colours_on_its_pairs(testdata: Path, name: str) -> None:
    """For OpenGotha's own pairs, our colour and handicap rule gives its colours and handicap
    (round 1 of the Splitbug file excepted: see EXCEPTIONS)."""
    f = _load(testdata, name)
    tour, games = f.tournament, f.source.games
    for round_ in range(1, ROUNDS[name] + 1):
        state = RoundState(tour, games, round_)
        og_games, _ = _round(games, round_)
        agree = 0
        for g in og_games:
            i, j = sorted((state.index[g.white], state.index[g.black]),
                          key=lambda k: (tour.players[k].last_name, tour.players[k].first_name))
            w, b, hd = state.colours(i, j)
            agree += (tour.players[w].id, tour.players[b].id, hd) == (g.white, g.black, g.handicap)
        expected = 14 if (name, round_) == ("20240921-KPMC-Splitbug", 1) else len(og_games)
        assert agree == expected, (name, round_)


# Rounds where the file's bye is what OpenGotha's own bye rule picks; in the others the
# director (or the tool that made the file) chose another player.
BYE_RULE_AGREES = {"notsimplemm": {1, 3, 5}, "notsosimpleswiss": {1, 6, 8, 10}}


@pytest.mark.parametrize("name", sorted(BYE_RULE_AGREES))
def test_bye_rule(testdata: Path, name: str) -> None:
    f = _load(testdata, name)
    tour, games = f.tournament, f.source.games
    agrees = set()
    for round_ in range(1, ROUNDS[name] + 1):
        og_games, og_bye = _round(games, round_)
        if og_bye is None:
            continue
        state = RoundState(tour, games, round_)
        candidates = [state.index[p] for g in og_games for p in (g.white, g.black)]
        candidates.append(state.index[og_bye])
        order = [i for i in pairable_players(tour, [], round_) if i in set(candidates)]
        if tour.players[choose_bye(state, order)].id == og_bye:
            agrees.add(round_)
    assert agrees == BYE_RULE_AGREES[name]


def test_large_fields_are_cut_from_the_top_score_down(testdata: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenGotha cuts a field above 600 players into groups (at least 200, even) taken from
    the top score down, and pairs each group alone. Shrunk to 4–12 on a 34-player round."""
    from yisai.pairing.opengotha import engine

    monkeypatch.setattr(engine, "GROUP_MIN_SIZE", 4)
    monkeypatch.setattr(engine, "GROUP_MAX_SIZE", 12)
    f = _load(testdata, "notsosimpleswiss")
    tour, games = f.tournament, f.source.games
    earlier = [g for g in games if g.round < 5]
    state = RoundState(tour, earlier, 5)
    players = [i for i in pairable_players(tour, earlier, 5)
               if tour.players[i].id != "BARATOUPAUL"]  # the file's bye of round 5
    players.sort(key=state.position.__getitem__)  # the standings order the engine pairs in
    groups = engine.split_field(state, players)
    assert sorted(i for g in groups for i in g) == sorted(players)
    assert all(len(g) % 2 == 0 for g in groups) and len(groups) >= 3
    assert all(len(g) <= 12 for g in groups[:-1])
    scores = [[state.crit("NBW", i) for i in g] for g in groups]
    for upper, lower in itertools.pairwise(scores):
        assert min(upper) >= max(lower)  # nobody in a lower group outscores the group above
    result = pair_og_round(tour, earlier, 5, bye="BARATOUPAUL")
    group_of = {tour.players[i].id: k for k, g in enumerate(groups) for i in g}
    assert all(group_of[b.white] == group_of[b.black] for b in result.boards)


@pytest.mark.parametrize(("name", "round_"), [("notsimplemm", 5), ("simplemm", 5),
                                              ("Toulouse2024", 6)])
def test_file_written_back_holds_opengothas_round(testdata: Path, tmp_path: Path, name: str,
                                                  round_: int) -> None:
    """End to end through the service: pair the last round again (``replace``) and write the
    file; read back, that round is OpenGotha's own — pairs, colours, handicaps, tables, bye —
    and every other game and player is unchanged."""
    from yisai.formats.opengotha import read_opengotha
    from yisai.services.opengotha_pairing import pair_opengotha_file

    path = testdata / "pairgoth" / "opengotha" / "pairings" / f"{name}.xml"
    report = pair_opengotha_file(path, round_, replace=True, rules="3.52")
    out = tmp_path / "out.xml"
    out.write_bytes(report.file_bytes)
    before, after = read_opengotha(path), read_opengotha(out)
    assert after.players == before.players

    def key(g: Game) -> tuple[int, str, str, int, int]:
        return (g.round, g.white or "", g.black, g.handicap, g.board if g.white else 0)

    def full(g: Game) -> tuple[object, ...]:
        return (*key(g), g.result.value, g.played)

    assert sorted(map(full, (g for g in after.games if g.round != round_))) == \
        sorted(map(full, (g for g in before.games if g.round != round_)))
    assert sorted(map(key, (g for g in after.games if g.round == round_))) == \
        sorted(map(key, (g for g in before.games if g.round == round_)))
    assert read_og_tournament(out).tournament == read_og_tournament(path).tournament

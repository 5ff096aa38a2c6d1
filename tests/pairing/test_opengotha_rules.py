"""OpenGotha 3.51's cost rules where they differ from 3.52's weights files, worked by hand.

The pairgoth weights files (test_opengotha_mode.py) were written by OpenGotha 3.52; the real
files of 2020–21 were paired by 3.49–3.51.02, whose ``costValue`` differs in three places. Each
expected value below is worked out from the 3.51.02 formulas (quoted in each test), and was
also what a local build of OpenGotha 3.51.02 gave on the 567 rounds of the real files
(docs/pairing.md; that build cannot be part of the project).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from yisai.formats.opengotha import OpenGothaError
from yisai.formats.opengotha_pairing import read_og_tournament
from yisai.pairing.opengotha import RoundState, pair_og_round
from yisai.pairing.opengotha.matrix import cost_totals
from yisai.services.opengotha_pairing import pair_opengotha_file

Player = tuple[str, str, str, int, str, str]  # name, first name, rank, rating, club, status


def _xml(players: list[Player], *, criteria: tuple[str, ...] = ("NBW",),
         general: str = 'genMMBar="9D" genMMFloor="30K"', pairing: str = "") -> str:
    rows = "\n".join(
        f'<Player name="{n}" firstName="{f}" rank="{r}" rating="{rt}" club="{club}" '
        f'country="FR" participating="11111111111111111111" registeringStatus="{status}"/>'
        for n, f, r, rt, club, status in players
    )
    crits = "\n".join(f'<PlacementCriterion name="{c}" number="{k + 1}"/>'
                      for k, c in enumerate(criteria))
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament dataVersion="201">
<Players>
{rows}
</Players>
<Games/>
<TournamentParameterSet>
<GeneralParameterSet name="T" shortName="t" numberOfRounds="3" {general}/>
<HandicapParameterSet hdBasedOnMMS="false" hdCeiling="0" hdCorrection="0" hdNoHdRankThreshold="9D"/>
<PlacementParameterSet><PlacementCriteria>
{crits}
</PlacementCriteria></PlacementParameterSet>
<PairingParameterSet paiMaSeedSystem1="SPLITANDFOLD" {pairing}/>
</TournamentParameterSet>
</Tournament>
"""


def _state(tmp_path: Path, xml: str, rules: str, round_: int = 1) -> RoundState:
    path = tmp_path / "t.xml"
    path.write_text(xml, encoding="utf-8")
    f = read_og_tournament(path, rules=rules)
    return RoundState(f.tournament, f.source.games, round_)


def test_351_score_groups_hold_every_registered_player(tmp_path: Path) -> None:
    """3.51's fillPairingInfo groups every player of the file, pre-registered ones too.

    Round 1, one score group ordered by rating: A 2000, B 1900, (P 1850, PRE), C 1800,
    (Q 1750, PRE), D 1700. Split-and-fold for A–B: x = c1 + c2 − (n − 1), seeding =
    5,000,000 − 5,000,000·x/(n−1)·x/(n−1) in Java integers. 3.51: n = 6, x = −4 →
    5,000,000 − 3,200,000 = 1,800,000. 3.52: n = 4 (FIN only), x = −2 → −3,333,333·(−2)/3 =
    2,222,222 → 2,777,778. A–D: x = 0 → the full 5,000,000 either way (3.51: D is 5th of 6).
    """
    players = [("A", "a", "1D", 2000, "X", "FIN"), ("B", "b", "1D", 1900, "X", "FIN"),
               ("P", "p", "1D", 1850, "X", "PRE"), ("C", "c", "1D", 1800, "X", "FIN"),
               ("Q", "q", "1D", 1750, "X", "PRE"), ("D", "d", "1D", 1700, "X", "FIN")]
    xml = _xml(players)
    for rules, a_b in (("3.51", 1_800_000), ("3.52", 2_777_778)):
        st = _state(tmp_path, xml, rules)
        i = {p.id: k for k, p in enumerate(st.tour.players)}
        assert st.cost(i["AA"], i["BB"]).seeding == a_b, rules
        assert st.cost(i["AA"], i["DD"]).seeding == 5_000_000, rules


def test_351_draw_up_down_only_between_groups_less_than_four_apart(tmp_path: Path) -> None:
    """3.51 applies the draw-up/draw-down cost only if |group1 − group2| < 4.

    McMahon (bar 9D, floor 30K): each rank is its own score group in round 1. DUDD weight
    100,000,000 / 5 = 20,000,000; no earlier draw-ups: scenario 2 → 2 × 20,000,000; each group
    has one player, so the MID position parts are 0. 1D–3K (3 groups apart): 40,000,000 in
    both rules; 1D–4K (4 apart): 0 under 3.51, 40,000,000 under 3.52.
    """
    players = [("A", "a", "1D", 2100, "X", "FIN"), ("B", "b", "3K", 1800, "Y", "FIN"),
               ("C", "c", "4K", 1700, "Z", "FIN"), ("D", "d", "10K", 1000, "W", "FIN")]
    xml = _xml(players, criteria=("MMS",))
    for rules, four_apart in (("3.51", 0), ("3.52", 40_000_000)):
        st = _state(tmp_path, xml, rules)
        assert st.cost(0, 1).dudd == 40_000_000, rules
        assert st.cost(0, 2).dudd == four_apart, rules


def test_351_geographic_cost_ignores_the_secondary_thresholds(tmp_path: Path) -> None:
    """3.51: geoCost = minimizeScoreDifference − (long)(avoidSameGeo·(1−r)·(1+k·r)), at most
    avoidSameGeo, whatever the thresholds. Two 5D players (above the 4D rank threshold) of
    one club and country: r = 0 → 10^11 − 10^11 = 0 (3.52: both above the thresholds → the
    full 10^11). Of two clubs, one score group: club ratio 3 × 1.2 / 1 capped at 1, r = 1 + 0.5
    → 10^11 − (−0.5 × 1.75 × 10^11) > 10^11 → 10^11 under both."""
    players = [("A", "a", "5D", 2500, "Same", "FIN"), ("B", "b", "5D", 2490, "Same", "FIN"),
               ("C", "c", "5D", 2480, "Other", "FIN"), ("D", "d", "5D", 2470, "Else", "FIN")]
    xml = _xml(players)
    for rules, same_club in (("3.51", 0), ("3.52", 100_000_000_000)):
        st = _state(tmp_path, xml, rules)
        assert st.cost(0, 1).geo == same_club, rules
        assert st.cost(0, 2).geo == 100_000_000_000, rules


def test_bye_goes_to_the_last_equal_player_in_standings_order(tmp_path: Path) -> None:
    """chooseAByePlayer takes the last player of least rank + 2·MMS + 1000·byes in the list
    OpenGotha's pairing window gives it: the standings before the round. Three 10K players,
    placement NBW then Rating: standings Brown (1500), Clark (1200), Adams (1000): the bye is
    Adams (in name order it would be Clark)."""
    players = [("Adams", "a", "10K", 1000, "X", "FIN"), ("Brown", "b", "10K", 1500, "Y", "FIN"),
               ("Clark", "c", "10K", 1200, "Z", "FIN")]
    path = tmp_path / "t.xml"
    path.write_text(_xml(players, criteria=("NBW", "RATING")), encoding="utf-8")
    f = read_og_tournament(path)
    assert pair_og_round(f.tournament, [], 1).bye == "ADAMSA"


def test_unknown_pairing_attribute_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_text(_xml([("A", "a", "1D", 1, "X", "FIN")], pairing='paiMaNewThing="3"'),
                    encoding="utf-8")
    with pytest.raises(OpenGothaError, match="paiMaNewThing"):
        read_og_tournament(path)


def test_non_deterministic_random_part_is_refused(tmp_path: Path) -> None:
    """OpenGotha draws Math.random() for paiBaRandom when paiBaDeterministic is false: not
    reproducible, so refused; with paiBaRandom 0 (every real file) it has no effect."""
    path = tmp_path / "t.xml"
    players = [("A", "a", "1D", 1, "X", "FIN"), ("B", "b", "1D", 1, "X", "FIN")]
    path.write_text(_xml(players, pairing='paiBaDeterministic="false" paiBaRandom="1000"'),
                    encoding="utf-8")
    with pytest.raises(OpenGothaError, match="paiBaDeterministic"):
        read_og_tournament(path)
    path.write_text(_xml(players, pairing='paiBaDeterministic="false" paiBaRandom="0"'),
                    encoding="utf-8")
    assert read_og_tournament(path).tournament.pairing.deterministic is False


def test_clubs_group_preference_is_reported_as_unused(tmp_path: Path) -> None:
    """OpenGotha 3.5x no longer reads paiSePreferMMSDiffRatherThanSameClubsGroup (49 of the
    real files still carry it): read, and reported as having no effect."""
    path = tmp_path / "t.xml"
    players = [("A", "a", "1D", 1, "X", "FIN"), ("B", "b", "1D", 1, "Y", "FIN")]
    path.write_text(_xml(players, pairing='paiSePreferMMSDiffRatherThanSameClubsGroup="2"'),
                    encoding="utf-8")
    report = pair_opengotha_file(path, 1)
    assert any("paiSePreferMMSDiffRatherThanSameClubsGroup=2" in w.render() for w in report.warnings)


# One real file per combination of the cost parameters found in the 2020–21 files (seed
# systems, DUDD modes and compensation, categories 1–4, handicap ceiling and handicap cost,
# geography weights, McMahon or Swiss, handicap from rank or MMS), at its last round:
# (file, round, candidate pairs, first 16 hex digits of the SHA-256 of the sorted lines
# "KEY1<TAB>KEY2<TAB>cost\n"). Expected values: OpenGotha 3.51.02's own costValue of every
# candidate pair (the players its pairing window lists, bye removed, KEY1 before KEY2 in that
# list), printed by a local build; the digest stands for the whole list of costs.
OPENGOTHA_351_COSTS = (
    ("20210108111429_TestMM500.xml", 5, 124750, "6afecfa94c8f4575"),
    ("20201010144608_congreso2020.xml", 5, 8646, "d1338b4cd225a161"),
    ("20201207093611_VAOther.xml", 4, 1770, "a63dc5980c18ca37"),
    ("20201108232703_Finalr5pairing19x19.xml", 5, 946, "36b1dd254ee17c5c"),
    ("20201122182801_CNJ-2020-U12.xml", 6, 630, "fc38bbcae9be1d1b"),
    ("20210107200305_vieuxdragons.xml", 5, 780, "9ac55df8a871cf96"),
    ("20201101144313_CdFO2020-v9.xml", 7, 231, "360c4a55cfe048e8"),
    ("20201021132756_MEOWMEOW.xml", 1, 11781, "4bc908ba62a4c7f7"),
    ("20201115194208_cdff2020.xml", 5, 435, "57b8763b8127ebf3"),
    ("20201214080001_ull.xml", 6, 276, "5b92dab5af26ef6f"),
    ("20201001183411_PPiK2009.xml", 6, 190, "aa002342f3c69ea1"),
    ("20201019212913_AVG11-14-10-20.xml", 4, 378, "3478a97fc9ab23fd"),
    ("20201213225041_GoenelPuertoFinalk.xml", 4, 231, "f73035af468dd45f"),
    ("20201114194116_jiromaeda2020final.xml", 4, 120, "f3d9b1f81721e9df"),
    ("20201025003604_2020.xml", 1, 2016, "8431b4d81f286430"),
    ("20201214160646_EcoleGreNov2020.xml", 4, 28, "2ea3a3961f6c538a"),
    ("20201011180311_semifinalacn2020.xml", 6, 15, "09c285b726ccba07"),
    ("20201007155701_tournoiecolegojeune.xml", 4, 66, "69f2b62e497e4383"),
    ("20201011171651_ACT2020-4443.xml", 3, 66, "10ea6982192ba5fe"),
    ("20201227224409_7thKarlovacChristmasTournament.xml", 3, 66, "edc0c3941db231e9"),
    ("20201219161431_live-asynchronous-13x13.xml", 3, 45, "b7d3043f051f89cb"),
    ("20201005204346_test--tourney.xml", 1, 276, "c63ffbd23fc8ebdd"),
    ("20201004194027_trnpermpau20r6.xml", 1, 66, "492b76e0fa991763"),
    ("20200918204322_lagoleague.xml", 2, 15, "f461787216c9d2e0"),
    ("20201226190942_LA19.xml", 1, 28, "2386a7d3a43510c6"),
)


@pytest.mark.parametrize(("name", "round_", "count", "digest"), OPENGOTHA_351_COSTS,
                         ids=[c[0] for c in OPENGOTHA_351_COSTS])
def test_every_pair_costs_what_opengotha_351_computes_on_real_files(
        testdata: Path, name: str, round_: int, count: int, digest: str) -> None:
    """costValue of every candidate pair on real files, all their parameter combinations."""
    from yisai.pairing.opengotha.engine import choose_bye, pairable_players

    path = testdata / "opengotha" / "lucvannier" / "remote_latest" / name
    f = read_og_tournament(path)
    tour = f.tournament
    earlier = [g for g in f.source.games if g.round < round_]
    state = RoundState(tour, earlier, round_)
    players = sorted(pairable_players(tour, earlier, round_), key=state.position.__getitem__)
    if len(players) % 2:
        players.remove(choose_bye(state, players))
    ids = [tour.players[i].id for i in players]
    lines = sorted(f"{ids[a]}\t{ids[b]}\t{state.cost(players[a], players[b]).total}\n"
                   for a in range(len(players)) for b in range(a + 1, len(players)))
    assert len(lines) == count
    assert hashlib.sha256("".join(lines).encode()).hexdigest()[:16] == digest
    # the matrix the matching reads holds the same numbers
    matrix = cost_totals(state, players)
    fast = sorted(f"{ids[a]}\t{ids[b]}\t{matrix[a, b]}\n"
                  for a in range(len(players)) for b in range(a + 1, len(players)))
    assert fast == lines


def test_351_reads_a_file_without_data_version_as_version_200(tmp_path: Path) -> None:
    """OpenGotha 3.51 reads a missing dataVersion as 200 and adds 2050 to such a file's
    ratings, capped at 2949. Ratings 800, 850, 900, 950 become 2850, 2900, 2949, 2949: inside
    the round-1 group (order: rating, then name) C and D tie and go by name, C first; read
    with the ratings as written (3.52's reading), D (950) is first."""
    players = [("A", "a", "1D", 800, "X", "FIN"), ("B", "b", "1D", 850, "X", "FIN"),
               ("C", "c", "1D", 900, "X", "FIN"), ("D", "d", "1D", 950, "X", "FIN")]
    xml = _xml(players).replace('<Tournament dataVersion="201">', "<Tournament>")
    st = _state(tmp_path, xml, "3.51")
    assert [p.rating for p in st.tour.players] == [2850, 2900, 2949, 2949]
    assert [st.placed[i].inner for i in range(4)] == [3, 2, 0, 1]
    st = _state(tmp_path, xml, "3.52")
    assert [st.placed[i].inner for i in range(4)] == [3, 2, 1, 0]


def test_clubs_are_compared_on_their_first_four_characters(tmp_path: Path) -> None:
    """OpenGotha cuts a player's club to 4 characters when it loads him (Player.MAX_CLUB_LENGTH),
    so "Paris Go" and "Paris Ouest" are one club ("pari"). Four 10K players of one country,
    one score group: same club → ratio 0 → geoCost = 10^11 − 10^11 = 0; other clubs → 10^11
    (as in the geographic test above)."""
    players = [("A", "a", "10K", 1000, "Paris Go", "FIN"), ("B", "b", "10K", 990, "Paris Ouest", "FIN"),
               ("C", "c", "10K", 980, "Lyon", "FIN"), ("D", "d", "10K", 970, "Nice", "FIN")]
    st = _state(tmp_path, _xml(players), "3.51")
    assert st.cost(0, 1).geo == 0
    assert st.cost(0, 2).geo == 100_000_000_000
    assert cost_totals(st, [0, 1, 2, 3])[0, 1] == st.cost(0, 1).total


def _best_total(state: RoundState, players: list[int]) -> int:
    """The maximum over every perfect pairing (brute force), OpenGotha's orientation."""
    best = -1

    def walk(rest: list[int], total: int) -> None:
        nonlocal best
        if not rest:
            best = max(best, total)
            return
        first = rest[0]
        for k in range(1, len(rest)):
            walk(rest[1:k] + rest[k + 1:], total + state.cost(first, rest[k]).total)

    walk(players, 0)
    return best


@pytest.mark.parametrize("scale", ["file", "beyond 2^53"])
def test_the_matching_is_the_maximum_of_every_pairing_at_any_magnitude(
        testdata: Path, scale: str) -> None:
    """The round's pairs are the maximum of every perfect pairing of the 10–12 players (brute
    force), on each round of a real file, with the file's weights and with a duplicate-game
    weight beyond 2^53, where a double could no longer tell two totals apart."""
    import dataclasses

    from yisai.pairing.opengotha.engine import choose_bye, pairable_players

    beyond = 2**53
    f = read_og_tournament(testdata / "opengotha" / "lucvannier" / "remote_latest"
                           / "20201011171651_ACT2020-4443.xml")
    tour = f.tournament
    if scale != "file":
        tour = dataclasses.replace(tour, pairing=dataclasses.replace(
            tour.pairing, avoid_duplicate_game=2 * beyond))
    for round_ in (1, 2, 3):
        earlier = [g for g in f.source.games if g.round < round_]
        state = RoundState(tour, earlier, round_)
        players = sorted(pairable_players(tour, earlier, round_), key=state.position.__getitem__)
        if len(players) % 2:
            players.remove(choose_bye(state, players))
        assert len(players) >= 10
        largest = max(state.cost(i, j).total for i in players for j in players if i < j)
        assert (largest < beyond) == (scale == "file")
        assert pair_og_round(tour, earlier, round_).total == _best_total(state, players)

"""OpenGotha 3.51's cost rules where they differ from 3.52's weights files, worked by hand.

The pairgoth weights files (test_opengotha_mode.py) were written by OpenGotha 3.52; the real
files of 2020–21 were paired by 3.49–3.51.02, whose ``costValue`` differs in three places. Each
expected value below is worked out from the 3.51.02 formulas (quoted in each test), and was
also what a local build of OpenGotha 3.51.02 gave on the 567 rounds of the real files
(docs/pairing.md; that build cannot be part of the project).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from yisai.formats.opengotha import OpenGothaError
from yisai.formats.opengotha_pairing import read_og_tournament
from yisai.pairing.opengotha import RoundState, pair_og_round
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
    f = read_og_tournament(path)
    tour = dataclasses.replace(f.tournament, rules=rules)
    return RoundState(tour, f.source.games, round_)


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

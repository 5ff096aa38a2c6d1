"""Same-team avoidance (同队回避, issue 22 item 5): small fields worked out by hand.

Players p01 … p04 are seeded in that order (field()); their teams are given per test. Round 1
is paired "slide" (1 v 3, 2 v 4 for four players) unless avoidance changes it.
"""

from __future__ import annotations

from tests.pairing.pairing_helpers import field, g
from yisai.pairing import Entrant, pair_round
from yisai.regulation.rules import PairingRules

ALWAYS = PairingRules(avoid_same="team", avoid_rounds="all")


def _teams(spec: list[str]) -> list[Entrant]:
    return [Entrant(p.id, p.rank, p.rating, team=t) for p, t in zip(field(len(spec)), spec, strict=True)]


def _pairs(rp) -> set[frozenset[str]]:
    return {frozenset((b.black, b.white)) for b in rp.boards}


def _board(rp, a: str, b: str):
    return next(x for x in rp.boards if {x.black, x.white} == {a, b})


def test_round1_avoids_teammates_and_says_whom() -> None:
    # p01, p03 江苏队; p02, p04 浙江队. Slide would be p01-p03 and p02-p04: both same team.
    # Without a same-team pair: {p01-p02, p03-p04} (both pairs inside one half: in-group cost 2)
    # or {p01-p04, p02-p03} (top v bottom: in-group cost 0) -> p01-p04, p02-p03.
    players = _teams(["江苏队", "浙江队", "江苏队", "浙江队"])
    rp = pair_round(players, [], 1, rules=ALWAYS)
    assert _pairs(rp) == {frozenset(("p01", "p04")), frozenset(("p02", "p03"))}
    text = "; ".join(_board(rp, "p01", "p04").reasons)
    assert "已回避同队" in text
    assert "不回避时 p01 将对同队的 p03(江苏队)" in text
    assert "不回避时 p04 将对同队的 p02(浙江队)" in text
    assert any("每轮尽量回避同队" in line for line in rp.explanations)
    # the same field without the setting keeps the slide pairing, and says nothing of teams
    plain = pair_round(players, [], 1)
    assert _pairs(plain) == {frozenset(("p01", "p03")), frozenset(("p02", "p04"))}
    assert not any("回避" in r for b in plain.boards for r in b.reasons)


def test_score_groups_come_before_avoidance() -> None:
    # Round 1: p01 beat p02, p03 beat p04. Round 2: 2-point group {p01, p03} (both 江苏队),
    # 0-point group {p02, p04} (both 浙江队). Avoiding means p01-p04 and p03-p02: two floats,
    # score cost 2² + 2² = 8 against none; the score level is higher, so teammates meet.
    players = _teams(["江苏队", "浙江队", "江苏队", "浙江队"])
    games = [g(1, "p01", "p02"), g(1, "p03", "p04")]
    rp = pair_round(players, games, 2, rules=ALWAYS)
    assert _pairs(rp) == {frozenset(("p01", "p03")), frozenset(("p02", "p04"))}
    assert "同队(江苏队)未能回避" in "; ".join(_board(rp, "p01", "p03").reasons)
    assert "同队(浙江队)未能回避" in "; ".join(_board(rp, "p02", "p04").reasons)


def test_no_rematch_comes_before_avoidance() -> None:
    # Rounds 1 and 2 all drawn: p01-p02, p03-p04, then p01-p04, p02-p03 (all 江苏 v 浙江).
    # Everyone has 2 points; the only pairing left without a rematch is p01-p03, p02-p04.
    players = _teams(["江苏队", "浙江队", "江苏队", "浙江队"])
    games = [g(1, "p01", "p02", "="), g(1, "p03", "p04", "="),
             g(2, "p01", "p04", "="), g(2, "p02", "p03", "=")]
    rp = pair_round(players, games, 3, rules=ALWAYS)
    assert _pairs(rp) == {frozenset(("p01", "p03")), frozenset(("p02", "p04"))}
    assert all(any("未能回避" in r for r in b.reasons) for b in rp.boards)


def test_first_k_rounds_then_no_more_avoidance() -> None:
    # Round 1 as in the first test: p01-p04 (p01 wins), p02-p03 (p02 wins). Round 2: the
    # 2-point group {p01 江苏, p02 浙江} and the 0-point group {p03 江苏, p04 浙江} — the
    # in-group pairing p01-p02, p03-p04 has no same-team pair anyway; with avoid_rounds = 1
    # the round says it no longer avoids, and no board talks of teams.
    players = _teams(["江苏队", "浙江队", "江苏队", "浙江队"])
    rules = PairingRules(avoid_same="team", avoid_rounds=1)
    assert rules.avoid_in(1) == "team" and rules.avoid_in(2) is None
    assert ALWAYS.avoid_in(99) == "team"
    games = [g(1, "p01", "p04"), g(1, "p02", "p03")]
    rp = pair_round(players, games, 2, rules=rules)
    assert _pairs(rp) == {frozenset(("p01", "p02")), frozenset(("p03", "p04"))}
    assert any("前1轮尽量回避同队" in line and "第2轮不再回避" in line for line in rp.explanations)
    assert not any("同队" in r for b in rp.boards for r in b.reasons)


def test_avoidance_within_a_larger_group_keeps_top_against_bottom() -> None:
    # Six players, round 1, slide: p01-p04, p02-p05, p03-p06. Teams A A B A B B, so p01-p04
    # is A-A. Keeping top (p01 p02 p03) v bottom (p04 p05 p06) without a same-team pair:
    # p03 (B) must take p04 (A), the only A below; p01 and p02 (A) share p05 and p06 (B).
    # Seat distances from the slide partners (p01→p04, p02→p05): p01-p05 + p02-p06 is 1 + 1,
    # p01-p06 + p02-p05 is 2 + 0 — equal sums, so the lot decides; both are right.
    players = _teams(["A", "A", "B", "A", "B", "B"])
    rp = pair_round(players, [], 1, rules=ALWAYS, seed=7)
    pairs = _pairs(rp)
    assert frozenset(("p03", "p04")) in pairs
    assert pairs - {frozenset(("p03", "p04"))} in (
        {frozenset(("p01", "p05")), frozenset(("p02", "p06"))},
        {frozenset(("p01", "p06")), frozenset(("p02", "p05"))},
    )
    assert not any(b.reasons and "未能回避" in "; ".join(b.reasons) for b in rp.boards)

"""Disconnections and escapes at the regulation's edges (60 s, 61 s, 3rd time, 120 s total)."""

from __future__ import annotations

import json

from yisai.game.board import BLACK, WHITE
from yisai.game.clock import Clock
from yisai.game.presence import Presence
from yisai.regulation.rules import DisconnectionRules, TimeControl

DEFAULT = DisconnectionRules()  # seed 000: >60 s one disconnection; >2 or >120 s escape
COUNT_ONLY = DisconnectionRules(max_total_absence_seconds=10_000)


def _away(p: Presence, color: int, start: float, seconds: float) -> None:
    p.disconnect(color, start)
    p.connect(color, start + seconds)


def test_60_seconds_is_not_a_disconnection_61_is() -> None:
    p = Presence(DEFAULT)
    _away(p, BLACK, 100.0, 60.0)
    assert p.status(BLACK, 200.0).disconnections == 0
    _away(p, BLACK, 300.0, 61.0)
    assert p.status(BLACK, 400.0).disconnections == 1
    assert p.status(BLACK, 400.0).total_absence == 121.0
    # 121 s in total is more than 120 s: the escape happened at 300 + 60 (total 120 reached).
    assert p.status(BLACK, 400.0).escaped_at == 360.0


def test_third_disconnection_is_an_escape_at_its_61st_second() -> None:
    p = Presence(COUNT_ONLY)
    _away(p, BLACK, 0.0, 61.0)
    _away(p, BLACK, 100.0, 61.0)
    assert p.check(200.0) == []
    p.disconnect(BLACK, 1000.0)
    assert p.escape_instant(BLACK) == 1060.0
    assert p.check(1060.0) == []  # exactly 60 s away: not yet "more than 60"
    assert p.check(1060.001) == [(BLACK, 1060.0)]


def test_two_long_absences_are_allowed() -> None:
    p = Presence(COUNT_ONLY)
    _away(p, WHITE, 0.0, 90.0)
    _away(p, WHITE, 100.0, 90.0)
    assert p.check(10_000.0) == []
    assert p.status(WHITE, 10_000.0).disconnections == 2


def test_120_seconds_split_over_short_absences() -> None:
    p = Presence(DEFAULT)
    for start in (0.0, 100.0, 200.0):
        _away(p, BLACK, start, 40.0)  # 3 x 40 s = exactly 120 s, none over 60 s
    status = p.status(BLACK, 300.0)
    assert status.total_absence == 120.0 and status.disconnections == 0
    assert status.escaped_at is None
    p.disconnect(BLACK, 500.0)
    assert p.escape_instant(BLACK) == 500.0  # any further absence passes 120 s
    assert p.check(500.0) == []
    assert p.check(500.5) == [(BLACK, 500.0)]


def test_total_crossed_inside_an_absence() -> None:
    p = Presence(DEFAULT)
    _away(p, WHITE, 0.0, 50.0)
    _away(p, WHITE, 100.0, 50.0)
    p.disconnect(WHITE, 200.0)
    assert p.deadline() == 220.0  # 50 + 50 + 20 = 120
    p.connect(WHITE, 220.0)  # back exactly at 120 s: not more than 120
    assert p.check(1000.0) == []
    assert p.status(WHITE, 1000.0).total_absence == 120.0


def test_short_absences_can_be_excluded_from_the_total() -> None:
    rules = DisconnectionRules(short_absences_count_in_total=False)
    p = Presence(rules)
    for start in (0.0, 100.0, 200.0, 300.0):
        _away(p, BLACK, start, 50.0)
    assert p.status(BLACK, 400.0).total_absence == 0.0
    p.disconnect(BLACK, 500.0)
    assert p.escape_instant(BLACK) == 620.0  # only the total can trip: 120 s of this one absence
    _away_rules = Presence(rules)
    _away(_away_rules, BLACK, 0.0, 70.0)
    _away_rules.disconnect(BLACK, 100.0)
    assert _away_rules.escape_instant(BLACK) == 160.0  # 70 + more than 50, but first >60 s


def test_both_players_away_at_once() -> None:
    p = Presence(COUNT_ONLY)
    for color in (BLACK, WHITE):
        _away(p, color, 0.0, 61.0)
        _away(p, color, 100.0, 61.0)
    p.disconnect(WHITE, 500.0)
    p.disconnect(BLACK, 510.0)
    assert p.deadline() == 560.0  # White's third absence passes 60 s first
    assert p.check(600.0) == [(WHITE, 560.0), (BLACK, 570.0)]

    same = Presence(COUNT_ONLY)
    for color in (BLACK, WHITE):
        _away(same, color, 0.0, 61.0)
        _away(same, color, 100.0, 61.0)
        same.disconnect(color, 500.0)
    assert same.check(600.0) == [(BLACK, 560.0), (WHITE, 560.0)]  # both escape at one instant


def test_player_who_never_arrives() -> None:
    p = Presence(DEFAULT, start=0.0, present=(WHITE,))
    assert p.escape_instant(BLACK) == 120.0


def test_closing_the_game_stops_the_count() -> None:
    p = Presence(DEFAULT)
    p.disconnect(BLACK, 0.0)
    p.close(30.0)
    assert p.check(1000.0) == []
    assert p.status(BLACK, 1000.0).total_absence == 30.0


def test_clock_keeps_running_while_away() -> None:
    clock = Clock(TimeControl(main_minutes=0, byoyomi_periods=3, byoyomi_seconds=20))
    presence = Presence(DEFAULT)
    clock.start(0.0, BLACK)
    presence.disconnect(BLACK, 0.0)
    # Black is away; the flag (60 s) comes before the disconnection rules would (more than 120 s).
    assert clock.deadline() == 60.0 and presence.deadline() == 120.0
    assert clock.check(60.0) == BLACK
    assert presence.check(60.0) == []


def test_snapshot_round_trip() -> None:
    p = Presence(DEFAULT)
    _away(p, BLACK, 0.0, 61.0)
    p.disconnect(WHITE, 70.0)
    again = Presence.restore(json.loads(json.dumps(p.snapshot())))
    assert again.snapshot() == p.snapshot()
    assert again.escape_instant(WHITE) == p.escape_instant(WHITE) == 190.0

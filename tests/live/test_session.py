"""The live session with injected time: every clock and presence edge of seed 000 driven through
versioned actions. Expected values come from the regulation text (30 min + 3×20 s, the third
overrun loses; >60 s one disconnection; >2 disconnections or >120 s total is an escape) and from
hand counts of the positions.
"""

from __future__ import annotations

import pytest

from tests.conftest import REGULATIONS
from yisai.formats.regulation_file import load
from yisai.game.board import BLACK, WHITE
from yisai.qualifier.session import Kind, LiveGame, LiveRefused, LiveRules
from yisai.regulation.rules import DisconnectionRules, PlayRules, TimeControl
from yisai.regulation.stages import LadderFormat

MAIN = 30 * 60.0  # seed 000: 每方30分钟


def seed000_rules(board_size: int = 19, lag_cap: float = 0.0) -> LiveRules:
    reg = load(REGULATIONS / "2025-shanhai-cup.toml")
    stage = next(s for s in reg.stages if isinstance(s.format, LadderFormat))
    assert stage.time_control is not None and stage.disconnection is not None
    play = reg.rules.model_copy(update={"board_size": board_size})
    return LiveRules(play, stage.time_control, stage.disconnection, lag_cap)


def game(rules: LiveRules | None = None) -> LiveGame:
    g = LiveGame(rules or seed000_rules(), 0.0)
    g.attach(BLACK, "b1", 0.0)
    g.attach(WHITE, "w1", 0.0)
    return g


def away(g: LiveGame, color: int, conn: str, start: float, seconds: float | None) -> None:
    """The connection's last frame is at ``start`` and it closes; back after ``seconds``."""
    g.frame(color, conn, start)
    g.detach(color, conn, start)
    if seconds is not None:
        g.attach(color, conn, start + seconds)


def pt(g: LiveGame, gtp: str) -> int:
    return g.flow.board.parse_gtp(gtp)


def move(g: LiveGame, color: int, gtp: str, now: float, conn: str | None = None):  # type: ignore[no-untyped-def]
    return g.act(color, Kind.MOVE, g.version, now, point=pt(g, gtp), conn=conn)


def test_the_regulation_gives_30_minutes_3x20s_and_komi_7_5() -> None:
    rules = seed000_rules()
    assert (rules.time.main_minutes, rules.time.byoyomi_periods, rules.time.byoyomi_seconds) == (30, 3, 20)
    assert rules.play.komi == 7.5
    assert (rules.disconnection.disconnection_after_seconds, rules.disconnection.max_disconnections,
            rules.disconnection.max_total_absence_seconds) == (60, 2, 120)


# ----- versions ---------------------------------------------------------------------------
def test_a_resent_move_is_acknowledged_once_and_a_stale_one_refused() -> None:
    g = game()
    first = g.act(BLACK, Kind.MOVE, 0, 1.0, point=pt(g, "D4"))
    assert (first.duplicate, first.version, first.action.seq) == (False, 1, 1)
    again = g.act(BLACK, Kind.MOVE, 0, 2.0, point=pt(g, "D4"))
    assert (again.duplicate, again.version, again.action.seq) == (True, 1, 1)
    assert len(g.actions) == 1 and g.flow.board.moves == 1
    with pytest.raises(LiveRefused) as stale:  # another move sent at the old version
        g.act(BLACK, Kind.MOVE, 0, 3.0, point=pt(g, "Q16"))
    assert stale.value.code == "stale" and stale.value.version == 1
    with pytest.raises(LiveRefused) as stale_white:  # White saw version 0 only
        g.act(WHITE, Kind.MOVE, 0, 3.0, point=pt(g, "Q16"))
    assert stale_white.value.code == "stale"
    w = g.act(WHITE, Kind.MOVE, 1, 4.0, point=pt(g, "Q16"))
    assert w.version == 2
    with pytest.raises(LiveRefused) as occupied:
        g.act(BLACK, Kind.MOVE, 2, 5.0, point=pt(g, "Q16"))
    assert occupied.value.code == "illegal" and g.version == 2
    with pytest.raises(LiveRefused) as turn:
        g.act(WHITE, Kind.MOVE, 2, 5.0, point=pt(g, "C3"))
    assert turn.value.code == "not_your_turn"


# ----- clock ------------------------------------------------------------------------------
def _into_byoyomi(g: LiveGame) -> float:
    """Black uses all 30 minutes on move 1 (19.999 s into byo-yomi); White answers at once."""
    t = MAIN + 19.999
    move(g, BLACK, "D4", t)
    move(g, WHITE, "Q16", t + 1.0)
    return t + 1.0


def test_19_999_seconds_keeps_every_period() -> None:
    g = game()
    t = _into_byoyomi(g)
    left = g.time_left(BLACK, t)
    assert (left.main, left.periods, left.in_byoyomi) == (0.0, 3, True)


def test_20_seconds_uses_one_period_and_20_001_too() -> None:
    g = game()
    t = _into_byoyomi(g)
    move(g, BLACK, "C3", t + 20.0)
    assert g.time_left(BLACK, t + 20.0).periods == 2
    move(g, WHITE, "R17", t + 21.0)
    move(g, BLACK, "D16", t + 21.0 + 20.001)
    assert g.time_left(BLACK, t + 42.0).periods == 1
    assert not g.over


def test_the_third_overrun_loses_on_time() -> None:
    g = game()
    t = _into_byoyomi(g)
    move(g, BLACK, "C3", t + 20.0)
    t += 20.0
    move(g, WHITE, "R17", t + 1.0)
    t += 1.0
    move(g, BLACK, "D16", t + 25.0)  # one full period used: one left
    t += 25.0
    move(g, WHITE, "Q3", t + 1.0)
    t += 1.0
    assert g.tick(t + 19.999) is None
    ending = g.tick(t + 20.0)  # the last 20 s period used up: 第3次超过20秒 → 判负
    assert ending is not None and ending.outcome.sgf == "W+T" and ending.at == t + 20.0
    with pytest.raises(LiveRefused) as late:
        move(g, BLACK, "C16", t + 20.5)
    assert late.value.code == "game_over"


def test_lag_credit_is_capped() -> None:
    g = game(seed000_rules(lag_cap=0.5))
    t = _into_byoyomi(g)
    # 20.4 s with 0.4 s measured lag: 20.0 s charged → one period used.
    g.act(BLACK, Kind.MOVE, g.version, t + 20.4, point=pt(g, "C3"), lag=0.4)
    assert g.time_left(BLACK, t + 20.4).periods == 2
    move(g, WHITE, "R17", t + 21.0)
    # 20.3 s with a claimed 5 s lag: only 0.5 s credited → 19.8 s → no period used.
    g.act(BLACK, Kind.MOVE, g.version, t + 41.3, point=pt(g, "D16"), lag=5.0)
    assert g.actions[-1].lag == 0.5
    assert g.time_left(BLACK, t + 41.3).periods == 2


# ----- presence ---------------------------------------------------------------------------
def test_61_seconds_away_is_one_disconnection_dated_from_the_last_frame() -> None:
    g = game()
    g.frame(BLACK, "b1", 5.0)  # the last frame Black's connection delivered
    g.detach(BLACK, "b1", 20.0)  # the server notices the connection is gone later
    assert g.presence.players[BLACK].away_since == 5.0
    assert g.state(64.0)["clocks"]["B"]["disconnections"] == 0  # 59 s away so far
    g.attach(BLACK, "b2", 66.0)  # 61 s: more than 60
    status = g.presence.status(BLACK, 66.0)
    assert (status.disconnections, status.total_absence, status.connected) == (1, 61.0, True)
    assert not g.over


def test_a_second_long_absence_escapes_when_the_total_passes_120_seconds() -> None:
    g = game()
    away(g, BLACK, "b1", 0.0, 61.0)  # 61 s: one disconnection
    away(g, BLACK, "b1", 100.0, None)
    state = g.state(130.0)["clocks"]["B"]
    assert state["escape_in"] == 29.0  # 59 s more make 120 s; both players see it
    assert g.tick(159.0) is None  # exactly 120 s in total: not yet "more than"
    ending = g.tick(159.001)
    assert ending is not None and ending.outcome.sgf == "W+F" and ending.escaped == (BLACK,)
    assert ending.at == 159.0


def test_the_third_disconnection_is_an_escape() -> None:
    rules = seed000_rules()
    counting = LiveRules(rules.play, rules.time,
                         DisconnectionRules(max_total_absence_seconds=10_000), 0.0)
    g = game(counting)
    for start in (0.0, 100.0):
        away(g, WHITE, "w1", start, 61.0)
    assert g.presence.status(WHITE, 200.0).disconnections == 2 and not g.over
    away(g, WHITE, "w1", 300.0, None)
    assert g.tick(360.0) is None
    ending = g.tick(360.001)
    assert ending is not None and ending.outcome.sgf == "B+F" and ending.at == 360.0


def test_120_seconds_in_total_over_several_short_absences() -> None:
    g = game()
    for start in (0.0, 100.0, 200.0):  # 3 × 40 s = exactly 120 s, none a disconnection
        away(g, BLACK, "b1", start, 40.0)
    status = g.presence.status(BLACK, 300.0)
    assert (status.total_absence, status.disconnections) == (120.0, 0) and not g.over
    away(g, BLACK, "b1", 500.0, None)  # any further absence makes it more than 120 s
    assert g.tick(500.0) is None
    ending = g.tick(500.5)
    assert ending is not None and ending.outcome.sgf == "W+F" and ending.at == 500.0


def test_a_move_arriving_during_a_disconnection_reconnects_and_is_played() -> None:
    g = game()
    move(g, BLACK, "D4", 10.0)
    g.detach(WHITE, "w1", 12.0)  # White's only connection drops (last frame at 0.0 → attach)
    assert g.presence.players[WHITE].away_since == 0.0
    ack = move(g, WHITE, "Q16", 75.0, conn="w2")  # the move itself is White's return
    assert ack.version == 2 and not ack.duplicate
    status = g.presence.status(WHITE, 75.0)
    assert (status.connected, status.disconnections, status.total_absence) == (True, 1, 75.0)
    # The clock kept running while White was away: 65 s charged to the move.
    assert g.time_left(WHITE, 75.0).main == MAIN - 65.0


def test_a_move_after_the_escape_instant_is_refused() -> None:
    g = game()
    move(g, BLACK, "D4", 1.0)
    away(g, WHITE, "w1", 1.0, 61.0)  # first disconnection (61 s)
    away(g, WHITE, "w1", 62.0, None)
    with pytest.raises(LiveRefused) as late:  # 61 + 59 = 120 s total at 121.0; arrives later
        move(g, WHITE, "Q16", 121.5, conn="w2")
    assert late.value.code == "game_over"
    assert g.ending is not None and g.ending.outcome.sgf == "B+F" and g.ending.at == 121.0


def test_two_tabs_of_one_player_are_one_presence() -> None:
    g = game()
    g.attach(BLACK, "b2", 5.0)  # a second tab
    g.detach(BLACK, "b1", 10.0)
    assert g.presence.players[BLACK].away_since is None  # still on the platform by tab 2
    dropped = g.sweep(40.0, silence=30.0)  # tab 2 silent since 5.0 (> 30 s); White since 0.0
    assert sorted(dropped) == [(BLACK, "b2"), (WHITE, "w1")]
    assert g.presence.players[BLACK].away_since == 5.0  # the last frame from either tab


# ----- the end of a game ------------------------------------------------------------------
def _walls(g: LiveGame) -> float:
    """9×9: Black fills column E, White column F; then both pass."""
    t = 1.0
    for row in range(1, 10):
        move(g, BLACK, f"E{row}", t)
        move(g, WHITE, f"F{row}", t + 0.5)
        t += 1.0
    g.act(BLACK, Kind.PASS, g.version, t)
    g.act(WHITE, Kind.PASS, g.version, t + 0.5)
    return t + 0.5


def test_area_count_with_komi_after_both_accept() -> None:
    g = game(seed000_rules(board_size=9))
    t = _walls(g)
    assert g.phase == "scoring"
    state = g.state(t)
    # Black: column E (9) + A–D (36) = 45; White: F (9) + G–J (27) = 36; 45 − 36 − 7.5 = 1.5.
    assert state["dead"] == [] and state["count"]["result"] == "B+1.5"
    g.act(BLACK, Kind.ACCEPT, g.version, t + 1)
    g.act(WHITE, Kind.TOGGLE, g.version, t + 2, point=pt(g, "E5"))  # withdraws acceptances
    # Black's wall marked dead: White has all 81 points; 0 − 81 − 7.5 → White by 88.5.
    assert g.state(t + 2)["count"]["result"] == "W+88.5"
    g.act(BLACK, Kind.TOGGLE, g.version, t + 3, point=pt(g, "E5"))
    g.act(WHITE, Kind.ACCEPT, g.version, t + 4)
    assert not g.over  # Black's first acceptance was withdrawn by the toggle
    ack = g.act(BLACK, Kind.ACCEPT, g.version, t + 5)
    assert ack.outcome is not None and ack.outcome.sgf == "B+1.5"
    assert b"RE[B+1.5]" in g.sgf(black="甲", white="乙")


def test_rejecting_the_marks_resumes_play_with_the_clock() -> None:
    g = game(seed000_rules(board_size=9))
    t = _walls(g)
    paused = g.time_left(BLACK, t).main
    assert g.time_left(BLACK, t + 500).main == paused  # no clock in the scoring phase
    g.act(WHITE, Kind.REJECT, g.version, t + 500)
    assert g.phase == "playing" and g.flow.to_move == BLACK
    move(g, BLACK, "A1", t + 510)
    assert g.time_left(BLACK, t + 510).main == pytest.approx(paused - 10.0)


def test_resignation_ends_the_game_even_when_sent_at_an_old_version() -> None:
    g = game()
    move(g, BLACK, "D4", 1.0)
    ack = g.act(BLACK, Kind.RESIGN, 0, 2.0)
    assert ack.outcome is not None and ack.outcome.sgf == "W+R"
    again = g.act(BLACK, Kind.RESIGN, 0, 3.0)
    assert again.duplicate and g.version == 2


# ----- restart ----------------------------------------------------------------------------
def test_restore_replays_the_moves_and_charges_nobody_for_the_outage() -> None:
    g = game()
    move(g, BLACK, "D4", 10.0)
    move(g, WHITE, "Q16", 20.0)
    g.detach(WHITE, "w1", 25.0)  # White away since their last frame, 20.0
    snap = g.snapshot()
    # The server was last alive at 30.0 (Black thinking 10 s, White away 10 s) and is back at 930.0.
    back = LiveGame.restore(g.rules, 0.0, list(g.actions), snap, down_from=30.0, up_at=930.0)
    assert back.version == 2 and back.flow.board.moves == 2
    assert back.time_left(BLACK, 930.0).main == MAIN - 10.0 - 10.0  # 10 s before the outage only
    assert back.presence.players[WHITE].away_since == 920.0  # 10 s of absence kept, not 910
    assert back.presence.players[BLACK].away_since == 930.0  # must reconnect after the restart
    back.attach(BLACK, "b9", 931.0)
    back.attach(WHITE, "w9", 931.0)
    assert back.presence.status(WHITE, 931.0).total_absence == 11.0
    assert back.act(BLACK, Kind.MOVE, 2, 932.0, point=pt(back, "C3")).version == 3


def test_rules_round_trip_as_json() -> None:
    rules = LiveRules(PlayRules(komi=6.5), TimeControl(main_minutes=40, byoyomi_periods=3,
                                                       byoyomi_seconds=20),
                      DisconnectionRules(), 0.25)
    assert LiveRules.from_dict(rules.to_dict()) == rules


def _deadline_now(g: LiveGame) -> float | None:
    """The deadline by its definition, from the clock and presence as they are now."""
    if g.over:
        return None
    times = [t for t in (g.clock.deadline(), g.presence.deadline()) if t is not None]
    return min(times) if times else None


@pytest.mark.parametrize("seed", range(6))
def test_the_cached_deadline_follows_every_change_of_clock_and_presence(seed: int) -> None:
    """``deadline()`` is cached between changes (the server asks for every game twice a
    second): after each call that can move the clock or presence, it equals the value
    computed afresh, through moves, passes, absences, sweeps, flags and escapes."""
    import random

    rnd = random.Random(seed)
    g = game(seed000_rules(board_size=9))
    now = 0.0
    conns = {BLACK: "b1", WHITE: "w1"}
    for _ in range(300):
        now += rnd.choice((0.5, 3.0, 20.0, 65.0, 200.0))
        color = rnd.choice((BLACK, WHITE))
        op = rnd.randrange(6)
        try:
            if op == 0:
                to_move = g.flow.board.to_move
                empty = [p for p in range(len(g.flow.board.color)) if g.flow.board.color[p] == 0]
                legal = [p for p in empty if g.flow.board.is_legal(to_move, p)]
                if legal:
                    g.act(to_move, Kind.MOVE, g.version, now, point=rnd.choice(legal), conn=conns[to_move])
            elif op == 1:
                g.detach(color, conns[color], now)
            elif op == 2:
                g.attach(color, conns[color], now)
            elif op == 3:
                g.frame(color, conns[color], now)
            elif op == 4:
                g.sweep(now, 15.0)
            else:
                g.tick(now)
        except LiveRefused:
            pass
        assert g.deadline() == _deadline_now(g)
        assert g.deadline() == _deadline_now(g)  # asked again: the cached value
        if g.over:
            break

"""赛风赛纪: signals from the record, the review queue, annulment re-scoring the ladder and
amending the published list, result changes, suspensions enforced by matching, focus reports."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.qualification.conftest import epoch, player
from yisai.game.board import BLACK, WHITE, Board
from yisai.game.fairplay import MIN_MOVES, game_signals, think_times
from yisai.qualifier.session import Kind
from yisai.services import fairplay, live
from yisai.services import qualification as q
from yisai.services.context import Context
from yisai.services.errors import Forbidden, InputError
from yisai.services.identity import Actor, Role
from yisai.services.simulation import SimClock
from yisai.store import live_rows

B = Board(19)


def test_obvious_moves_are_contact_replies() -> None:
    d4, e5, q16, e6 = (B.parse_gtp(p) for p in ("D4", "E5", "Q16", "E6"))
    acts = [(BLACK, "move", d4, 10.0), (WHITE, "move", e5, 12.0), (BLACK, "move", q16, 40.0),
            (WHITE, "pass", None, 41.0), (BLACK, "move", e6, 45.0)]
    t = think_times(acts, 0.0, 19)
    assert [(x.color, x.seconds, x.obvious) for x in t] == [
        (BLACK, 10.0, False), (WHITE, 2.0, True), (BLACK, 28.0, False), (BLACK, 4.0, False)]  # after a pass: hard


def _game(times_black: list[float], obvious_every: int) -> list[tuple[int, str, int | None, float]]:
    """Black plays away from White's move except every ``obvious_every``-th move (contact)."""
    acts, at = [], 0.0
    far = [B.point(x, y) for y in range(0, 19, 3) for x in range(0, 19, 3)]
    for i, secs in enumerate(times_black):
        w = far[i % len(far)]
        at += 3.0
        acts.append((WHITE, "move", w, at))
        at += secs
        near = w + 1 if (i % obvious_every == 0) else far[(i + 7) % len(far)]
        acts.append((BLACK, "move", near, at))
    return [(WHITE, "pass", None, 0.5), *acts]


def test_steady_rhythm_scores_higher_than_human_timing() -> None:
    n = MIN_MOVES + 10
    steady = game_signals(_game([8.0] * n, 3), 0.0, 19, {})[BLACK]
    human_times = [2.0 if i % 3 == 0 else 15.0 + (i * 7) % 40 for i in range(n)]  # quick contact replies
    human = game_signals(_game(human_times, 3), 0.0, 19, {})[BLACK]
    assert steady.regularity == 1.0 and steady.evenness == 1.0
    assert human.hard_median is not None and human.obvious_median == 2.0 and human.hard_median > 15
    assert human.score < 0.4 < steady.score
    focused = game_signals(_game(human_times, 3), 0.0, 19, {BLACK: 10})[BLACK]
    assert focused.score == pytest.approx(human.score + 0.2)
    short = game_signals(_game([8.0] * 5, 3), 0.0, 19, {})[BLACK]
    assert short.regularity == 0.0 and short.score == 0.0  # too few moves say nothing


def test_annul_rescored_and_list_amended(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, cfg = closed
    clock.now = datetime(2025, 5, 27, 9, 0)
    with ctx.work() as work:
        x1_game = next(g.info for g in live_rows.games_of(work.session, cfg.event_id, "X1"))
    referee = Actor("7", "裁判员甲", Role.REFEREE)
    with pytest.raises(Forbidden), ctx.work(referee) as work:
        fairplay.annul_game(work, None, x1_game.id, "疑似作弊")
    with pytest.raises(InputError), ctx.work() as work:
        fairplay.annul_game(work, None, x1_game.id, "  ")
    with ctx.work() as work:
        versions = fairplay.annul_game(work, None, x1_game.id, "经查使用软件")
        lines = {r.player: r for r in live_rows.ladder_lines(work.session, cfg.event_id, "online", 1, "open")}
        (open_list, _) = q.published_lists(work, None, 1)
        places = {p.player: p.status for p in q.all_places(work, None)}
    assert versions == [2]
    assert "X1" not in lines  # the annulled game was X1's only one
    loser = x1_game.white
    assert lines[loser].games == 1 and lines[loser].points == -2  # one loss left of two (L01…L40 lose twice / once)
    assert open_list.amended and [v for v, *_ in open_list.history] == [1, 2]
    assert "经查使用软件" in open_list.history[-1][3]
    assert places["X1"] == "revoked" and places["X2"] == "qualified"
    xs = [r for r in open_list.rows if r.player in ("X2", "X3")]
    assert all(r.qualified and r.place == 38 and r.note() == "并列第38名，一同晋级" for r in xs)
    # Restoring the game brings the first list back (a third version, X1 qualified again).
    with ctx.work() as work:
        assert fairplay.restore_game(work, None, x1_game.id, "复核后撤销") == [3]
        places = {p.player: p.status for p in q.all_places(work, None)}
    assert places["X1"] == "qualified"


def test_change_result_counts_the_new_result(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, _, cfg = closed
    with ctx.work() as work:
        t01 = next(g.info for g in live_rows.games_of(work.session, cfg.event_id, "T01"))
        with pytest.raises(InputError):
            fairplay.change_result(work, None, t01.id, "B+5", "x")
        fairplay.change_result(work, None, t01.id, "W+R", "记录员录反")
        lines = {r.player: r for r in live_rows.ladder_lines(work.session, cfg.event_id, "online", 1, "open")}
    assert (lines["T01"].points, lines["T01"].wins) == (0, 1)  # one win, one loss now
    assert lines[t01.white].wins == 1


def test_suspension_refuses_queueing_and_focus_counts(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, cfg = closed
    clock.now = datetime(2025, 5, 27, 9, 0)  # period 2 (5/26 10:00 – 6/14) is open
    with ctx.work() as work:
        s = fairplay.suspend_player(work, None, "T09", periods=2, reason="第1期第12局使用软件")
    assert (s.first_period, s.periods) == (2, 2)
    for when, code in ((datetime(2025, 5, 26, 9, 59), "closed"), (datetime(2025, 5, 26, 10, 0), "suspended"),
                       (datetime(2025, 6, 20, 12, 0), "suspended"), (datetime(2025, 7, 6, 12, 0), None)):
        with ctx.work() as work:
            got = fairplay.queue_check(work, cfg, "T09", when)
        assert (got[0] if got else None) == code, when
    with ctx.work() as work:
        got = fairplay.queue_check(work, cfg, "T09", datetime(2025, 6, 1, 12, 0))
        assert got is not None and "第1期第12局使用软件" in got[1].zh and "第2–3期" in got[1].zh
        assert fairplay.queue_check(work, cfg, "T10", datetime(2025, 6, 1, 12, 0)) is None
    # What the matching leader reads before each wave: the same rule for everyone at once.
    for when, barred in ((datetime(2025, 5, 26, 9, 59), set()), (datetime(2025, 6, 1, 12, 0), {"T09"}),
                         (datetime(2025, 7, 6, 12, 0), set())):
        with ctx.work() as work:
            assert set(fairplay.suspended_now(work, cfg, when)) == barred, when
    # Focus-loss reports: own games only, highest kept; the queue puts that game first.
    t = epoch(datetime(2025, 5, 27, 9, 0))
    with ctx.work() as work:
        info, game = live.start_game(work, cfg, period=2, pool="open", black=("F1", "F1"), white=("F2", "F2"),
                                     start=t)
    with ctx.work(player("F1")) as work:
        fairplay.report_focus(work, None, info.id, "F1", 30)
        fairplay.report_focus(work, None, info.id, "F1", 3)
        with pytest.raises(Forbidden):
            fairplay.report_focus(work, None, info.id, "T01", 3)
    game.act(WHITE, Kind.RESIGN, game.version, t + 30)
    with ctx.work() as work:
        live.finish_game(work, cfg, info.id, game)
        queue = fairplay.review_queue(work, None)
    assert queue[0].game_id == info.id and queue[0].signals["black"]["focus_losses"] == 30
    assert [x.score for x in queue] == sorted((x.score for x in queue), reverse=True)


def test_a_rescore_and_the_live_sums_are_one_accumulator(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    """The lines the live server stored game by game equal a rescore from the finished games
    (both fold ``LadderLine.add``); the figures follow from the fixture and 十(一)1 (胜+2, 负−2)."""
    ctx, _, cfg = closed
    with ctx.work() as work:
        stored = live_rows.ladder_lines(work.session, cfg.event_id, "online", 1, "open")
        fairplay.rescore(work, cfg, 1, "open")
        rescored = live_rows.ladder_lines(work.session, cfg.event_id, "online", 1, "open")
    assert rescored == stored
    by = {line.player: line for line in stored}
    assert (by["T01"].points, by["T01"].wins, by["T01"].losses, by["T01"].games) == (4, 2, 0, 2)
    assert (by["X1"].points, by["X1"].wins, by["X1"].games) == (2, 1, 1)
    # 77 games against L01…L40 in turn: L01…L37 lose twice (−4), L38…L40 once (−2)
    assert (by["L01"].points, by["L01"].losses, by["L01"].games) == (-4, 2, 2)
    assert (by["L40"].points, by["L40"].losses) == (-2, 1)

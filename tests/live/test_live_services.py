"""The live services on a real store (SQLite and PostgreSQL): actions stored before they are
acknowledged, results and ladder lines in one transaction, games resumed after a restart."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest
from sqlalchemy import text

from tests.conftest import REGULATIONS
from yisai.game.board import BLACK, WHITE
from yisai.qualifier.matching import Matchmaker
from yisai.qualifier.otp import OutboxSender
from yisai.qualifier.session import Kind, LiveGame
from yisai.services import live
from yisai.services.context import Context, open_context
from yisai.services.errors import Conflict, InputError, Refused
from yisai.services.events import create_event
from yisai.services.identity import Role

NOW = datetime(2025, 5, 6, 10, 30)  # period 1, first day, after 10:00
T0 = 1_746_498_600.0  # the same instant as epoch seconds (only differences matter)


@pytest.fixture
def ctx(db_url: str):  # type: ignore[no-untyped-def]
    context = open_context(db_url, actor="测试裁判", now=lambda: NOW)
    with context.work() as work:
        create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
    try:
        yield context
    finally:
        context.close()


def cfg_of(ctx: Context) -> live.LiveConfig:
    with ctx.work() as work:
        return live.live_config(work, None, lag_cap=0.0)


def start(ctx: Context, cfg: live.LiveConfig, black: str = "u1", white: str = "u2") -> tuple[int, LiveGame]:
    with ctx.work() as work:
        info, game = live.start_game(work, cfg, period=1, pool="open", black=(black, "甲"),
                                     white=(white, "乙"), start=T0, owner="p1")
    return info.id, game


def play(ctx: Context, gid: int, game: LiveGame, color: int, gtp: str, at: float) -> None:
    ack = game.act(color, Kind.MOVE, game.version, at, point=game.flow.board.parse_gtp(gtp))
    with ctx.work() as work:
        live.record_action(work, gid, game, ack.action)


def test_a_wave_of_games_is_stored_in_order_and_each_game_reads_back_as_started(ctx: Context) -> None:
    """``start_games`` writes a wave in one statement: the ids come back in the pairs' order
    (two started before and after it keep theirs), and every game reads back with its players,
    owner and a fresh clock."""
    cfg = cfg_of(ctx)
    before, _ = start(ctx, cfg, "x1", "x2")
    pairs = [((f"b{i}", f"黑{i}"), (f"w{i}", f"白{i}"), f"proc-{i % 3}") for i in range(60)]
    with ctx.work() as work:
        started = live.start_games(work, cfg, period=1, pool="open", pairs=pairs, start=T0 + 5,
                                   matching={"seed": 7, "wave": 3, "pool": "open"})  # fmt: skip
    after, _ = start(ctx, cfg, "y1", "y2")
    ids = [info.id for info, _ in started]
    assert before < ids[0] and ids == sorted(ids) and len(set(ids)) == 60 and ids[-1] < after
    with ctx.work() as work:
        for (info, game), ((b, bn), (w, wn), _) in zip(started, pairs, strict=True):
            stored = live.game_info(work, info.id)
            assert stored == info and (info.black, info.white, info.black_name, info.white_name) == (b, w, bn, wn)
            loaded, again = live.load_game(work, cfg, info.id, T0 + 5)
            assert loaded == info and again.version == 0 and game.start == T0 + 5
        owners = {r[0]: r[1] for r in work.session.execute(
            text("SELECT id, owner FROM live_games WHERE id >= :a AND id <= :b"), {"a": ids[0], "b": ids[-1]})}
    assert [owners[i] for i in ids] == [owner for _, _, owner in pairs]


def test_config_comes_from_the_event_regulation(ctx: Context) -> None:
    cfg = cfg_of(ctx)
    assert cfg.rules.time.main_minutes == 30 and cfg.rules.play.komi == 7.5
    assert cfg.pools == ["open", "youth"] and cfg.stage.id == "online"


def test_a_restart_resumes_the_game_and_charges_nobody_for_the_downtime(ctx: Context, db_url: str) -> None:
    cfg = cfg_of(ctx)
    gid, game = start(ctx, cfg)
    play(ctx, gid, game, BLACK, "D4", T0 + 10)
    play(ctx, gid, game, WHITE, "Q16", T0 + 25)
    with ctx.work() as work:
        live.touch(work, [gid], T0 + 40)  # Black has thought 15 s when the process dies
    ctx.close()
    again = open_context(db_url, actor="测试裁判", now=lambda: NOW)
    try:
        with again.work() as work:
            resumed = live.resume_games(work, cfg, T0 + 640, owner="p2")  # back 10 minutes later
        assert len(resumed) == 1
        info, back = resumed[0]
        assert (info.id, back.version, back.flow.board.moves) == (gid, 2, 2)
        assert back.time_left(BLACK, T0 + 640).main == 1800 - 10 - 15  # the 600 s gap not charged
        assert back.time_left(WHITE, T0 + 640).main == 1800 - 15
        ack = back.act(BLACK, Kind.MOVE, 2, T0 + 641, point=back.flow.board.parse_gtp("C3"))
        with again.work() as work:
            live.record_action(work, gid, back, ack.action)
            assert live.game_info(work, gid).version == 3
    finally:
        again.close()


def test_a_stale_write_is_refused(ctx: Context) -> None:
    cfg = cfg_of(ctx)
    gid, game = start(ctx, cfg)
    play(ctx, gid, game, BLACK, "D4", T0 + 1)
    with ctx.work() as work:
        _, other = live.load_game(work, cfg, gid, T0 + 2)  # a second owner with the same state
    ack = other.act(WHITE, Kind.MOVE, 1, T0 + 3, point=other.flow.board.parse_gtp("Q16"))
    with ctx.work() as work:
        live.record_action(work, gid, other, ack.action)
    ack2 = game.act(WHITE, Kind.MOVE, 1, T0 + 4, point=game.flow.board.parse_gtp("C16"))
    with pytest.raises(Conflict) as exc, ctx.work() as work:
        live.record_action(work, gid, game, ack2.action)
    assert exc.value.code == "live_conflict"


def test_a_batch_of_actions_is_stored_whole_or_not_at_all(ctx: Context) -> None:
    cfg = cfg_of(ctx)
    g1, game1 = start(ctx, cfg, "a1", "a2")
    g2, game2 = start(ctx, cfg, "b1", "b2")
    a1 = game1.act(BLACK, Kind.MOVE, 0, T0 + 1, point=game1.flow.board.parse_gtp("D4")).action
    a2 = game2.act(BLACK, Kind.MOVE, 0, T0 + 2, point=game2.flow.board.parse_gtp("Q4")).action
    with ctx.work() as work:
        live.record_actions(work, [(g1, game1, a1), (g2, game2, a2)])
    with ctx.work() as work:
        assert (live.game_info(work, g1).version, live.game_info(work, g2).version) == (1, 1)
        _, replay = live.load_game(work, cfg, g2, T0 + 3)
    assert replay.state(T0 + 3)["moves"][0]["point"] == "Q4"
    # a second batch where one game's version already moved on: nothing of it is stored
    b1 = game1.act(WHITE, Kind.MOVE, 1, T0 + 4, point=game1.flow.board.parse_gtp("Q16")).action
    stale = game2.act(WHITE, Kind.MOVE, 1, T0 + 5, point=game2.flow.board.parse_gtp("C16")).action
    with ctx.work() as work:  # another owner wrote game 2's second action first
        _, other = live.load_game(work, cfg, g2, T0 + 4)
    other_ack = other.act(WHITE, Kind.MOVE, 1, T0 + 4, point=other.flow.board.parse_gtp("R16"))
    with ctx.work() as work:
        live.record_action(work, g2, other, other_ack.action)
    with pytest.raises(Conflict), ctx.work() as work:
        live.record_actions(work, [(g1, game1, b1), (g2, game2, stale)])
    with ctx.work() as work:
        assert (live.game_info(work, g1).version, live.game_info(work, g2).version) == (1, 2)


def test_result_sgf_and_ladder_in_one_transaction(ctx: Context) -> None:
    cfg = cfg_of(ctx)
    gid, game = start(ctx, cfg)
    play(ctx, gid, game, BLACK, "D4", T0 + 1)
    ack = game.act(WHITE, Kind.RESIGN, game.version, T0 + 2)
    with ctx.work() as work:
        info = live.finish_game(work, cfg, gid, game, ack.action)
    assert (info.status, info.result, info.reason) == ("finished", "B+R", "resign")
    # a second game: u2 escapes against u3 (−2 for the escaper, +2 for the opponent)
    gid2, g2 = start(ctx, cfg, black="u3", white="u2")
    g2.attach(BLACK, "b", T0)  # Black is there; White never connects: away since the start
    assert g2.tick(T0 + 120.5) is not None  # more than 120 s in total
    with ctx.work() as work:
        live.finish_game(work, cfg, gid2, g2)
        table = live.ladder_table(work, cfg, 1, "open")
        sgf = live.game_sgf(work, gid)
    got = {r.line.player: (r.line.points, r.line.wins, r.line.games, r.line.escapes) for r in table}
    # u3 won by u2's escape: +2 but no 胜局 (escape_win_counts = false, seed 000's text)
    assert got == {"u1": (2, 1, 1, 0), "u3": (2, 0, 1, 0), "u2": (-4, 0, 2, 1)}
    assert [r.line.player for r in table][-1] == "u2" and all(r.qualified for r in table)
    assert "RE[B+R]" in sgf and "PB[甲]" in sgf and "B[dp]" in sgf  # D4 = column d, 16th row from the top
    with pytest.raises(Conflict), ctx.work() as work:
        live.finish_game(work, cfg, gid, game)  # already finished: the ladder is not counted twice
    with ctx.work() as work:
        assert {r.line.player: r.line.points for r in live.ladder_table(work, cfg, 1, "open")}["u1"] == 2


def test_waves_are_stored_with_their_seed_for_replay(ctx: Context) -> None:
    cfg = cfg_of(ctx)
    mm = Matchmaker(seed=424242)
    for p in ("a", "b", "c"):
        mm.enqueue("open", p, T0)
    wave = mm.run_wave("open", T0 + 3)
    day = date(2025, 5, 6)
    with ctx.work() as work:
        assert live.day_matching(work, cfg, day) == (None, {})
        live.store_wave(work, cfg, day, wave)
    with ctx.work() as work:
        assert live.day_matching(work, cfg, day) == (424242, {"open": 1})
        stored = live.day_waves(work, cfg, day)[0]
    assert stored["pairs"] == [[m.black, m.white] for m in wave.pairs]
    assert [w[0] for w in stored["waiting"]] == ["a", "b", "c"]


def test_last_opponents_survive_a_restart(ctx: Context) -> None:
    cfg = cfg_of(ctx)
    start(ctx, cfg, black="a", white="b")
    start(ctx, cfg, black="c", white="a")
    with ctx.work() as work:
        assert live.last_opponents(work, cfg) == {"a": "c", "b": "a", "c": "a"}


# ----- sign-in by mobile number and one-time code --------------------------------------------
def _code_from(outbox: OutboxSender, phone: str) -> str:
    msg = outbox.latest(phone)
    assert msg is not None
    return re.findall(r"\d{6}", msg.text)[0]


def test_sign_up_and_in_by_mobile_and_one_time_code(db_url: str) -> None:
    moments = [datetime(2025, 5, 6, 10, 0)]
    ctx = open_context(db_url, actor="x", now=lambda: moments[0])
    outbox = OutboxSender()
    try:
        with ctx.work() as work:
            out = live.request_code(work, "+86 138-0013-8000")
        outbox.send(out.phone, out.text.render("zh"))  # after the commit, as a front end does
        code = _code_from(outbox, "13800138000")
        assert "5分钟内有效" in outbox.messages[-1].text
        with pytest.raises(Refused) as soon, ctx.work() as work:
            live.request_code(work, "13800138000")  # again within a minute
        assert soon.value.code == "code_too_soon"
        with ctx.work() as work:
            wrong = "000000" if code != "000000" else "111111"
            assert live.sign_in_with_code(work, "13800138000", wrong) is None
        with ctx.work() as work:
            actor = live.sign_in_with_code(work, "13800138000", code, name="张三")
        assert actor is not None and actor.role == Role.PLAYER and actor.name == "张三"
        with ctx.work() as work:  # a used code does not work twice
            assert live.sign_in_with_code(work, "13800138000", code) is None
        moments[0] = datetime(2025, 5, 6, 10, 2)
        with ctx.work() as work:
            out = live.request_code(work, "13800138000")
        outbox.send(out.phone, out.text.render("en"))
        code2 = _code_from(outbox, "13800138000")
        with ctx.work() as work:
            again = live.sign_in_with_code(work, "13800138000", code2)
        assert again is not None and again.id == actor.id  # the same account
    finally:
        ctx.close()


def test_a_code_expires_and_dies_after_five_wrong_guesses(db_url: str) -> None:
    moments = [datetime(2025, 5, 6, 10, 0)]
    ctx = open_context(db_url, actor="x", now=lambda: moments[0])
    outbox = OutboxSender()
    try:
        with ctx.work() as work:
            out = live.request_code(work, "13900000000")
        outbox.send(out.phone, out.text.zh)
        code = _code_from(outbox, "13900000000")
        moments[0] = datetime(2025, 5, 6, 10, 5, 1)  # 5 minutes and a second later
        with ctx.work() as work:
            assert live.sign_in_with_code(work, "13900000000", code) is None
        with ctx.work() as work:
            out = live.request_code(work, "13900000000")
        outbox.send(out.phone, out.text.zh)
        code = _code_from(outbox, "13900000000")
        wrong = "000000" if code != "000000" else "111111"
        for _ in range(5):
            with ctx.work() as work:
                assert live.sign_in_with_code(work, "13900000000", wrong) is None
        with ctx.work() as work:  # the right code is refused now: the code is dead
            assert live.sign_in_with_code(work, "13900000000", code) is None
        with pytest.raises(InputError) as bad, ctx.work() as work:
            live.request_code(work, "12345")
        assert bad.value.code == "bad_phone"
    finally:
        ctx.close()


def test_codes_are_limited_per_client_address_and_for_the_site(db_url: str) -> None:
    """#30 item 6: 20 numbers from one client no longer get 20 codes. The per-address limit
    (5 an hour) refuses the 6th with when to try again; another address still gets one; the
    site-wide hourly limit holds for everyone; an unknown number is answered like a known one."""
    moments = [datetime(2025, 5, 6, 10, 0)]
    ctx = open_context(db_url, actor="x", now=lambda: moments[0])
    try:
        sent = []
        for i in range(8):
            try:
                with ctx.work() as work:
                    sent.append(live.request_code(work, f"1390000{i:04d}", client="198.51.100.7").phone)
            except Refused as exc:
                assert exc.code == "code_client_limit" and "60分钟后再试" in exc.render("zh")
        assert len(sent) == live.CODES_PER_CLIENT_HOUR == 5
        with ctx.work() as work:  # another address is not affected
            assert live.request_code(work, "13900009999", client="198.51.100.8").phone == "13900009999"
        moments[0] = datetime(2025, 5, 6, 10, 30)
        with pytest.raises(Refused) as site, ctx.work() as work:  # 6 codes this hour: a site limit of 6
            live.request_code(work, "13700000001", client="198.51.100.9", site_hour=6)
        assert site.value.code == "code_site_limit" and "30分钟后再试" in site.value.render("zh")
        moments[0] = datetime(2025, 5, 6, 11, 1)  # an hour after the first ones: the address may ask again
        with ctx.work() as work:
            assert live.request_code(work, "13900000008", client="198.51.100.7").phone == "13900000008"
    finally:
        ctx.close()

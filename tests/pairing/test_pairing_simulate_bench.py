"""Simulation helper and the benchmark command (small sizes; the figures live in BENCHMARKS.md)."""

from __future__ import annotations

from typer.testing import CliRunner

from yisai.bench.simulate import black_win_probability, simulate_swiss, synthetic_field
from yisai.cli.app import app
from yisai.pairing import round_quality


def test_stronger_player_wins_more_often():
    weak, strong = synthetic_field(2, 0)
    strong = type(strong)(strong.id, strong.rank, 2400)
    weak = type(weak)(weak.id, weak.rank, 2000)
    assert black_win_probability(strong, weak) > 0.85
    assert abs(black_win_probability(strong, strong) - 0.5) < 1e-9


def test_simulated_swiss_is_reproducible_and_rematch_free():
    players = synthetic_field(31, 7, teams=4)
    a = simulate_swiss(players, 7, seed=7)
    b = simulate_swiss(players, 7, seed=7)
    assert a.games == b.games
    earlier = []
    byes = []
    for rp in a.pairings:
        assert round_quality(rp, earlier).rematches == 0
        assert len(rp.byes) == 1
        byes.append(rp.byes[0].player)
        earlier += [gm for gm in a.games if gm.round == rp.round]
    assert len(set(byes)) == 7  # never the same player twice


def test_bench_pairing_command_prints_per_round_figures():
    result = CliRunner().invoke(app, ["bench", "pairing", "--players", "40", "--rounds", "4",
                                      "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("积分编排基准: 40 人, 4 轮")
    rows = [ln.split() for ln in lines[2:6]]
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    assert all(r[2] == "0" for r in rows)  # rematches
    bad = CliRunner().invoke(app, ["bench", "pairing", "--players", "4", "--rounds", "4"])
    assert bad.exit_code == 2


def test_bench_pairing_check_compares_every_round_with_the_complete_graph():
    result = CliRunner().invoke(app, ["bench", "pairing", "--players", "60", "--rounds", "5",
                                      "--seed", "2", "--check"])
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert "与全图最优对照(4轮): 各级全同 4 轮, 全图字典序更优 0 轮, 对局全同 4 轮" in out
    table = {ln.split()[0]: ln.split()[1:] for ln in out if ln.split()
             and ln.split()[0] in ("forbidden", "bye_twice", "score", "team", "in_group",
                                   "colour", "seat", "lot")}
    assert len(table) == 8 and all(v == ["4", "0", "0"] for v in table.values())

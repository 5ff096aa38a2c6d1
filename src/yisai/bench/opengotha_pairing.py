"""`yisai bench opengotha-pair`: one round of the OpenGotha-compatible pairing on a large field.

OpenGotha costs every pair of the field (n²/2 costs) and runs one matching per group of at most
600 players, so the work grows with the square of the field. The field and its history are the
standings benchmark's synthetic event (fixed seed), scored as a McMahon tournament with
OpenGotha's default pairing parameters.
"""

from __future__ import annotations

import statistics
import time

import typer

from yisai.bench.standings import synthetic_event, tr_line
from yisai.pairing.opengotha import (
    OGHandicapParameters,
    OGPairingParameters,
    OGTournament,
    pair_og_round,
)
from yisai.standings.opengotha import OGParameters


def run(players: int, rounds: int, seed: int, repeat: int) -> None:
    field, games = synthetic_event(players, rounds, seed)
    tour = OGTournament(
        players=tuple(field),
        params=OGParameters(number_of_rounds=rounds + 1, mm_bar=3, mm_floor=-20, nbw2_bye=2,
                            mms2_bye=2, criteria=("MMS", "SOSM", "SOSOSM")),
        pairing=OGPairingParameters(),
        handicap=OGHandicapParameters(ceiling=0),
    )
    cpu: list[float] = []
    wall: list[float] = []
    result = None
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        result = pair_og_round(tour, games, rounds + 1)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    assert result is not None
    typer.echo(tr_line(
        f"OpenGotha 兼容编排: {players} 人, 第{rounds + 1}轮 (已赛{rounds}轮), 种子 {seed}",
        f"OpenGotha-compatible pairing: {players} players, round {rounds + 1} "
        f"({rounds} played), seed {seed}",
    ))
    typer.echo(tr_line(
        f"  CPU 时间: 中位数 {statistics.median(cpu):.3f} s; 墙钟: 中位数 {statistics.median(wall):.3f} s "
        f"({repeat} 次)",
        f"  CPU time: median {statistics.median(cpu):.3f} s; wall: median "
        f"{statistics.median(wall):.3f} s ({repeat} runs)",
    ))
    typer.echo(tr_line(
        f"  {len(result.boards)} 台, 轮空 {result.bye or '无'}, 代价合计 {result.total}",
        f"  {len(result.boards)} tables, bye {result.bye or 'none'}, total weight {result.total}",
    ))


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("opengotha-pair")
    def opengotha_pair_bench(
        players: int = typer.Option(600, "--players", min=2, help="选手人数"),
        rounds: int = typer.Option(4, "--rounds", min=0, max=19, help="已赛轮数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
        repeat: int = typer.Option(3, "--repeat", min=1, help="重复次数 (取中位数)"),
    ) -> None:
        """OpenGotha 兼容编排基准: 一轮的全部配对代价与最大权匹配."""
        run(players, rounds, seed, repeat)

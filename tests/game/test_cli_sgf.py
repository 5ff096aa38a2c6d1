"""`yisai sgf check|score` and `yisai bench board` through typer's CliRunner."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from yisai.cli.app import app

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--lang", "zh", *args], catch_exceptions=False)
    return result.exit_code, result.stdout + (result.stderr or "")


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# A ko on 9x9 with moves: Black takes at c8 (the white stone on b8), White retakes at once.
KO_GAME = (
    b"(;FF[4]SZ[9]RU[Chinese]AB[ba][ab][bc]AW[ca][bb][db][cc]"
    b";B[cb];W[bb])"  # B c8 takes b8; W b8 retakes immediately
)


def test_check_ok_illegal_and_malformed(tmp_path: Path) -> None:
    ok = _write(tmp_path, "ok.sgf", b"(;FF[4]SZ[9];B[ee];W[cc])")
    code, out = _run("sgf", "check", ok)
    assert code == 0 and out.strip() == f"{ok}: 合规"

    bad = _write(tmp_path, "ko.sgf", KO_GAME)
    code, out = _run("sgf", "check", ok, bad)
    assert code == 1
    assert f"{bad}: 第2手 (W b8): 不合法: 打劫须先找劫材 (不得立即提回)" in out

    broken = _write(tmp_path, "broken.sgf", b"(;FF[4]SZ[9];B[ee]")
    code, out = _run("sgf", "check", ok, bad, broken)
    assert code == 2
    assert f"{broken}: 格式错误: 字节 18: " in out


def test_check_superko_in_a_record(tmp_path: Path) -> None:
    # Ko capture, two passes, retake: superko under Chinese rules, legal under Japanese.
    body = b"AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[];B[];W[bb])"
    chinese = _write(tmp_path, "cn.sgf", b"(;FF[4]SZ[9]RU[Chinese]" + body)
    japanese = _write(tmp_path, "jp.sgf", b"(;FF[4]SZ[9]RU[Japanese]" + body)
    code, out = _run("sgf", "check", chinese)
    assert code == 1 and "第4手 (W b8): 不合法: 全局同形 (禁止)" in out
    code, out = _run("sgf", "check", japanese)
    assert code == 0
    code, out = _run("--lang", "en", "sgf", "check", chinese)
    assert code == 1 and "move 4 (W b8): illegal: superko" in out
    code, out = _run("sgf", "check", "--superko", "positional", japanese)
    assert code == 1


def test_check_missing_file(tmp_path: Path) -> None:
    code, out = _run("sgf", "check", str(tmp_path / "nope.sgf"))
    assert code == 2 and "无法读取文件" in out


def test_score_with_dead_stones(tmp_path: Path) -> None:
    # 9x9: black wall on column e, white wall on column f, a white stone on b8.
    ab = b"".join(b"[e" + bytes([97 + y]) + b"]" for y in range(9))
    aw = b"".join(b"[f" + bytes([97 + y]) + b"]" for y in range(9)) + b"[bb]"
    path = _write(tmp_path, "end.sgf", b"(;FF[4]SZ[9]KM[7.5]AB" + ab + b"AW" + aw + b")")
    code, out = _run("sgf", "score", path, "--dead", "b8")
    assert code == 0
    assert "黑方45子，黑胜3/4子" in out and "B+1.5" in out
    code, out = _run("sgf", "score", path)
    assert "W+35.5" in out  # 9 against 37 with 35 shared points: 9 - 37 - 7.5


def test_score_bad_dead_coordinate(tmp_path: Path) -> None:
    path = _write(tmp_path, "g.sgf", b"(;FF[4]SZ[9];B[ee])")
    code, out = _run("sgf", "score", path, "--dead", "z99")
    assert code == 2 and "z99" in out
    code, out = _run("sgf", "score", path, "--dead", "a1")
    assert code == 2 and "a1" in out


def test_bench_board_small_run() -> None:
    code, out = _run("bench", "board", "--games", "2", "--runs", "1", "--size", "9")
    assert code == 0 and "中位数" in out

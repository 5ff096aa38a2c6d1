"""`yisai bench web --generator wrk`: wrk's report read right, and a real closed-loop run
against the real server whose polls get 304s (the Lua script keeps each table's ETag)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.cli_runner import run_cli
from yisai.bench.wrk import WrkOutputError, parse_wrk

# wrk 4.1's report, as its C code prints it (format_time/format_bytes: 1024-based units)
SAMPLE = """\
Running 10s test @ http://127.0.0.1:8765
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    19.93ms   13.85ms   1.50s    98.65%
    Req/Sec     1.31k   199.60     1.84k    73.00%
  Latency Distribution
     50%  812.00us
     75%   20.83ms
     90%   23.57ms
     99%    1.50s
  26178 requests in 10.02s, 16.84MB read
  Socket errors: connect 1, read 2, write 0, timeout 27
  Non-2xx or 3xx responses: 5
Requests/sec:   2612.95
Transfer/sec:      1.68MB
"""


def test_the_report_is_read_in_seconds_and_bytes() -> None:
    r = parse_wrk(SAMPLE)
    assert r.requests == 26178
    assert r.seconds == pytest.approx(10.02)
    assert r.per_second == pytest.approx(2612.95)
    assert r.median == pytest.approx(812e-6)
    assert r.p99 == pytest.approx(1.5)
    assert r.errors == 1 + 2 + 27 + 5
    assert r.bytes_read == round(16.84 * 1024 * 1024)


def test_a_clean_run_has_no_errors_and_an_unknown_report_is_refused() -> None:
    clean = re.sub(r"^\s*(Socket errors|Non-2xx).*\n", "", SAMPLE, flags=re.MULTILINE)
    assert parse_wrk(clean).errors == 0
    with pytest.raises(WrkOutputError, match="Requests/sec"):
        parse_wrk(SAMPLE.replace("Requests/sec", "Reqs/s"))


@pytest.mark.skipif(shutil.which("wrk") is None and not os.environ.get("CI"),
                    reason="wrk not installed (scripts/setup.sh installs it)")
def test_wrk_polls_a_real_server_with_etags_while_results_are_entered(tmp_path: Path) -> None:
    out = run_cli("bench", "web", "--players", "12", "--rounds", "1", "--seconds", "2", "--writes", "2",
                  "--generator", "wrk", "--connections", "4", "--db", str(tmp_path / "bench.sqlite"))
    poll = re.search(r"poll: n=\s*(\d+) .*\(wrk: \d+ req/s, (\d+) B a request, (\d+) errors\)", out)
    assert poll, out
    assert int(poll.group(1)) > 100
    assert int(poll.group(3)) == 0
    # a 304 is headers only; a table of 12 players answered with 200 every time would be kilobytes
    assert int(poll.group(2)) < 600, out
    write = re.search(r"write: n=\s*(\d+)", out)
    assert write and int(write.group(1)) >= 2, out
    assert "server errors" not in out

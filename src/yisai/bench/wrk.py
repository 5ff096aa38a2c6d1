"""The closed-loop load of `yisai bench web --generator wrk`: wrk (C, epoll) keeps N
connections polling the two tables as fast as the server answers, so the figure is the server's
throughput, not the generator's. The Python generator costs about as much CPU per request as a
304 costs the server; on a 2-core machine it cannot show what a second worker adds.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# One wrk thread per table: each keeps its table's ETag and takes gzip, as a browser tab does.
_SCRIPT = """\
local paths = {%s}
local counter = 0
setup = function(thread)
  counter = counter + 1
  thread:set("path", paths[(counter - 1) %% #paths + 1])
end
local etag = nil
request = function()
  local headers = {["Accept-Encoding"] = "gzip"}
  if etag then headers["If-None-Match"] = etag end
  return wrk.format("GET", path, headers)
end
response = function(status, headers, body)
  if status == 200 then
    for k, v in pairs(headers) do
      if string.lower(k) == "etag" then etag = v end
    end
  end
end
"""

_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_BYTES = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}  # wrk counts in 1024s


@dataclass(frozen=True)
class WrkReport:
    requests: int
    seconds: float
    per_second: float
    median: float  # seconds
    p99: float  # seconds
    errors: int  # socket errors and answers other than 2xx/3xx
    bytes_read: int  # headers and bodies: a few hundred bytes a request when polls get 304

    @property
    def bytes_per_request(self) -> float:
        return self.bytes_read / self.requests if self.requests else 0.0


class WrkOutputError(ValueError):
    """wrk printed something this reader does not know (another wrk, or it failed)."""


def _duration(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text.strip())
    if not m:
        raise WrkOutputError(f"not a wrk duration: {text!r}")
    return float(m.group(1)) * _UNITS[m.group(2)]


def parse_wrk(text: str) -> WrkReport:
    """The figures of `wrk --latency` output."""
    def find(pattern: str) -> re.Match[str]:
        m = re.search(pattern, text, re.MULTILINE)
        if m is None:
            raise WrkOutputError(f"wrk output has no line matching {pattern!r}:\n{text[-600:]}")
        return m

    total = find(r"^\s*(\d+) requests in ([\d.]+\w+), ([\d.]+)(B|KB|MB|GB|TB) read")
    errors = sum(int(x) for x in re.findall(
        r"(?:connect|read|write|timeout) (\d+)", m.group(0))) if (m := re.search(
            r"^\s*Socket errors:.*$", text, re.MULTILINE)) else 0
    if (bad := re.search(r"^\s*Non-2xx or 3xx responses: (\d+)", text, re.MULTILINE)) is not None:
        errors += int(bad.group(1))
    return WrkReport(
        requests=int(total.group(1)),
        seconds=_duration(total.group(2)),
        per_second=float(find(r"^Requests/sec:\s+([\d.]+)").group(1)),
        median=_duration(find(r"^\s*50%\s+(\S+)").group(1)),
        p99=_duration(find(r"^\s*99%\s+(\S+)").group(1)),
        errors=errors,
        bytes_read=round(float(total.group(3)) * _BYTES[total.group(4)]),
    )


def run_wrk(base: str, paths: tuple[str, ...], connections: int, seconds: float, folder: Path) -> WrkReport:
    """Poll ``paths`` (one wrk thread each) over ``connections`` for ``seconds``."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise FileNotFoundError("wrk")
    script = folder / "poll.lua"
    script.write_text(_SCRIPT % ", ".join(f'"{p}"' for p in paths), encoding="utf-8")
    done = subprocess.run(
        [wrk, f"-t{len(paths)}", f"-c{max(connections, len(paths))}", f"-d{max(1, round(seconds))}s",
         "--timeout", "10s", "--latency", "-s", str(script), base],
        capture_output=True, text=True, check=False, timeout=seconds + 60)
    if done.returncode != 0:
        raise WrkOutputError(done.stderr.strip() or done.stdout.strip())
    return parse_wrk(done.stdout)

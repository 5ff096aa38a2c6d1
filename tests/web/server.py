"""Start the real `yisai serve` on a free loopback port for browser tests; stop it by its pid."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path | str, now: str | None = None, workers: int = 1, args: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "YISAI_WEB_SECRET": "browser-test"}
        env.pop("YISAI_DB", None)
        if now:
            env["YISAI_NOW"] = now
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yisai.cli.app", "serve", "--db", str(db), "--port", str(self.port),
             "--workers", str(workers), *args],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        # generous: two workers on a loaded two-core machine (parallel test workers) start slowly;
        # the loop returns as soon as the server answers
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stdout.read() if self.proc.stdout else ''}")
            try:
                with urllib.request.urlopen(self.url + "/api/events", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start in {START_TIMEOUT} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

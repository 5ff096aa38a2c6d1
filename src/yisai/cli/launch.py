"""The `yisai` executable: hands the command to this user's resident process when one is up.

Importing SQLAlchemy, pydantic and the regulation models costs more than half a second on a
slow laptop, and a referee entering results one by one pays it per result. The resident
process (``yisai.cli.resident``) has imported all of that once and forks a fresh child per
command, handing it this process's stdin, stdout and stderr, working directory and
environment; the command then runs exactly as it would here, in a process of its own. This
module imports only the standard library, so handing over costs a few milliseconds.

When no resident process answers, the command runs here as before, and afterwards one is
started in the background for the next command (it leaves by itself after 30 idle minutes).
``YISAI_RESIDENT=0`` turns all of this off; ``yisai resident status|stop`` shows and stops it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

PROTOCOL = 1
IDLE_SECONDS = 1800.0  # a round's results come in over hours, with gaps between games' ends
# long-running or self-measuring commands run in their own process, never in a forked child
BYPASS = frozenset({"serve", "bench", "resident"})


def enabled(env: Mapping[str, str]) -> bool:
    return os.name == "posix" and env.get("YISAI_RESIDENT", "1").lower() not in ("0", "off", "no", "false")


def socket_dir(env: Mapping[str, str]) -> str | None:
    """A folder only this user can enter (made if missing), or None when it is not safe."""
    base = env.get("YISAI_RESIDENT_DIR") or os.path.join(
        env.get("XDG_RUNTIME_DIR") or "/tmp", f"yisai-{os.getuid()}")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
        st = os.stat(base)
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None  # someone else's folder, or one others can enter: do not trust its sockets
    return base


def fingerprint() -> str:
    """Changes whenever the code the resident process imported could differ from ours: this
    interpreter, the yisai source files (mtimes) and the installed packages (folder mtimes)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [sys.executable, sys.version, package]
    stack = [package]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith((".py", ".toml", ".json")):
                    parts.append(f"{entry.name}:{entry.stat().st_mtime_ns}")
    for folder in sys.path:
        if folder.endswith("site-packages"):
            with contextlib.suppress(OSError):
                parts.append(f"{folder}:{os.stat(folder).st_mtime_ns}")
    text = "\n".join(sorted(parts)).encode()
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def socket_path(env: Mapping[str, str]) -> str | None:
    folder = socket_dir(env)
    return os.path.join(folder, f"r-{fingerprint()}.sock") if folder else None


def _io_spec() -> dict[str, object]:
    """How our standard streams encode text, so the child's wrappers match them exactly."""
    spec: dict[str, object] = {}
    for name in ("stdin", "stdout", "stderr"):
        stream = getattr(sys, name)
        spec[name] = [getattr(stream, "encoding", None) or "utf-8", getattr(stream, "errors", None) or "strict"]
    return spec


def _read_line(conn: socket.socket, pending: bytearray) -> bytes | None:
    while b"\n" not in pending:
        try:
            chunk = conn.recv(4096)
        except InterruptedError:
            continue
        if not chunk:
            return None
        pending += chunk
    line, _, rest = bytes(pending).partition(b"\n")
    pending[:] = rest
    return line


def program_name() -> str:
    """What usage lines call the command: how it was started (the same rule as click's)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name:
        return "python -m " + spec.name.removesuffix(".__main__")
    return os.path.basename(sys.argv[0]) or "yisai"


def hand_over(path: str, argv: list[str]) -> int | None:
    """Run the command in a child of the resident process; its exit code, or None when no
    resident process took it (nothing has run then)."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    child = 0
    caught: list[int] = []  # a signal before the child's pid is known is passed on once it is

    def forward(signum: int, _frame: object) -> None:
        if not child:
            caught.append(signum)
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signum)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, forward)
    header = {"v": PROTOCOL, "op": "run", "argv": argv, "prog": program_name(), "cwd": os.getcwd(),
              "env": dict(os.environ), "io": _io_spec()}  # fmt: skip
    try:
        socket.send_fds(conn, [json.dumps(header).encode() + b"\n"], [0, 1, 2])
    except OSError:  # e.g. a standard stream is closed: run here instead
        conn.close()
        _default_signals()
        return None
    pending = bytearray()
    first = _read_line(conn, pending)
    if first is None or not first.startswith(b"pid "):
        conn.close()
        _default_signals()
        if caught:  # interrupted before anything ran: stop, as an interrupted command would
            return 128 + caught[0]
        return None  # refused before forking (another version, or shutting down): nothing ran
    child = int(first.split()[1])
    for signum in caught:
        forward(signum, None)
    last = _read_line(conn, pending)
    conn.close()
    if last is None or not last.startswith(b"exit "):
        sys.stderr.write("yisai: 常驻进程意外退出, 命令可能未完成, 请检查后重试 "
                         "(the resident process ended unexpectedly; check and run again)\n")
        return 1
    return int(last.split()[1])


def _default_signals() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


def start_resident(path: str) -> None:
    """Start the resident process in the background, detached from this terminal."""
    import subprocess

    log = os.path.join(os.path.dirname(path), "resident.log")
    with open(log, "ab") as err:
        subprocess.Popen([sys.executable, "-m", "yisai.cli.resident", path], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=err, close_fds=True, start_new_session=True)  # fmt: skip


def main() -> None:
    argv = sys.argv[1:]
    env = os.environ
    path = socket_path(env) if enabled(env) and not (argv and argv[0] in BYPASS) else None
    if path is not None:
        code = hand_over(path, [sys.argv[0], *argv])
        if code is not None:
            sys.exit(code)
    from yisai.cli.app import main as run_here

    try:
        run_here(prog_name=program_name())
    finally:
        if path is not None:
            with contextlib.suppress(OSError):  # the command ran; a faster next start is a convenience
                start_resident(path)


if __name__ == "__main__":
    main()

"""The resident process (常驻进程): imports the command line's modules once, then forks a fresh
child for every command handed over by ``yisai.cli.launch``.

A child is an ordinary run of the command: it gets the caller's stdin/stdout/stderr (passed
over the Unix socket), working directory, environment and arguments, and nothing of an earlier
command (each command is a new fork of a process that has only imported modules: no database
engine, no open file, no cache filled). The parent never runs a command itself; it waits for
children through pidfds, tells each caller its child's exit code, and stops a child whose
caller went away. It leaves after ``IDLE_SECONDS`` without commands, or when asked
(``yisai resident stop``). Only this user can reach the socket (a 0700 folder, and the peer's
uid is checked on every connection).
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import selectors
import signal
import socket
import struct
import sys
import time
from dataclasses import dataclass, field

import typer

from yisai.cli.launch import IDLE_SECONDS, PROTOCOL

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this installation's yisai

# What commands need besides their own module: imported here once, shared by every child (the
# command modules themselves come from the root's table, `yisai.cli.app.COMMANDS`).
PRELOAD = (
    "yisai.services.context", "yisai.services.round_results", "yisai.services.rounds",
    "yisai.services.events", "yisai.services.roster_import", "yisai.services.approvals",
    "yisai.services.standings_source",
    "yisai.services.maintenance", "yisai.regulation",
    "yisai.services.opengotha_pairing", "yisai.formats.opengotha_pairing",  # numpy, the C matching
)  # fmt: skip


@dataclass
class Child:
    pid: int
    conn: socket.socket
    started: float = field(default_factory=time.monotonic)


def _preload() -> None:
    import importlib

    from yisai.cli.app import COMMANDS
    from yisai.cli.launch import BYPASS

    commands = {f"yisai.cli.{module}" for name, (module, _zh, _en) in COMMANDS.items() if name not in BYPASS}
    for name in (*sorted(commands), *PRELOAD):
        with contextlib.suppress(ImportError):  # an optional extra that is not installed
            importlib.import_module(name)
    from yisai.services.maintenance import preload

    preload()
    gc.collect()
    gc.freeze()  # the children's collections then skip everything imported here


def _peer_uid(conn: socket.socket) -> int:
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])


def _receive(conn: socket.socket) -> tuple[dict[str, object], list[int]]:
    conn.settimeout(5.0)
    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    buf = bytearray(data)
    while b"\n" not in buf:
        more = conn.recv(1 << 16)
        if not more:
            break
        buf += more
    conn.settimeout(None)
    return json.loads(bytes(buf).partition(b"\n")[0]), list(fds)


def _stream(fd: int, mode: str, spec: object) -> io.TextIOWrapper:
    encoding, errors = spec if isinstance(spec, list) and len(spec) == 2 else ("utf-8", "strict")
    raw = io.FileIO(fd, mode, closefd=False)
    interactive = raw.isatty()
    if mode == "r":
        return io.TextIOWrapper(io.BufferedReader(raw), encoding=encoding, errors=errors)
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding=encoding, errors=errors,
                            line_buffering=interactive or fd == 2, write_through=fd == 2)  # fmt: skip


# The signals a caller forwards to its command (yisai.cli.launch.hand_over).
FORWARDED = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT}


def _run_child(request: dict[str, object], fds: list[int], mask: set[int | signal.Signals] | None = None) -> int:
    """In the forked child: become the caller's command, run it, return its exit code.

    The signals arrive blocked (the resident blocks them around the fork); they are unblocked
    once the command's own handlers are set, so a Ctrl-C forwarded in between is delivered
    then instead of meeting whatever disposition the resident inherited (an ignored SIGINT)."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    spec = request.get("io") if isinstance(request.get("io"), dict) else {}
    assert isinstance(spec, dict)
    sys.stdin = _stream(0, "r", spec.get("stdin"))
    sys.stdout = _stream(1, "w", spec.get("stdout"))
    sys.stderr = _stream(2, "w", spec.get("stderr"))
    env = request.get("env")
    if isinstance(env, dict):
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in env.items()})
    os.chdir(str(request.get("cwd") or "/"))
    argv = request.get("argv")
    sys.argv = [str(a) for a in argv] if isinstance(argv, list) and argv else ["yisai"]
    code = 0
    try:
        from yisai.cli.app import main

        main(prog_name=str(request.get("prog") or "yisai"))
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except KeyboardInterrupt:
        code = 130
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    _finish_like_the_interpreter()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    return code


def _finish_like_the_interpreter() -> None:
    """What a normal exit does before the process ends (the child leaves with ``os._exit``, so
    that nothing of the resident's own loop runs in it): wait for the command's non-daemon
    threads, then run the exit handlers (logging's flush among them)."""
    import atexit
    import threading

    shutdown = getattr(threading, "_shutdown", None)
    with contextlib.suppress(Exception):
        if callable(shutdown):
            shutdown()
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()


class Resident:
    def __init__(self, path: str, idle: float) -> None:
        self.path, self.idle = path, idle
        self.selector = selectors.DefaultSelector()
        self.children: dict[int, Child] = {}  # pidfd → child
        self.served = 0
        self.child_cpu = 0.0  # CPU seconds of all children so far (what `yisai bench startup` reads)
        self.started = time.time()
        self.last = time.monotonic()
        self.stopping = False
        self.inode = 0

    def bind(self) -> socket.socket | None:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(self.path)
            return None  # another resident process of the same version answers already
        except OSError:
            pass
        finally:
            probe.close()
        with contextlib.suppress(FileNotFoundError):  # a socket file left by a process that died
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            listener.bind(self.path)
        finally:
            os.umask(old)
        listener.listen(64)
        self.inode = os.stat(self.path).st_ino
        return listener

    def serve(self, listener: socket.socket) -> None:
        self.selector.register(listener, selectors.EVENT_READ, "listen")
        while True:
            if not self.children and (self.stopping or time.monotonic() - self.last > self.idle):
                break
            for key, _mask in self.selector.select(timeout=1.0):
                if key.data == "listen":
                    if not self.stopping:
                        self._accept(listener)
                elif key.data == "child":
                    self._reap(key.fd)
                else:  # a caller's connection became readable: it hung up (its child is stopped)
                    self._caller_gone(key.fileobj, int(key.data))
        self.selector.close()
        listener.close()
        try:
            if os.stat(self.path).st_ino == self.inode:  # still ours, not a successor's
                os.unlink(self.path)
        except OSError:
            pass

    def _accept(self, listener: socket.socket) -> None:
        conn, _ = listener.accept()
        try:
            if _peer_uid(conn) != os.getuid():
                conn.close()
                return
            request, fds = _receive(conn)
        except (OSError, ValueError):
            conn.close()
            return
        op = request.get("op")
        if request.get("v") != PROTOCOL or op not in ("run", "status", "stop"):
            for fd in fds:
                os.close(fd)
            conn.close()
            return
        if op != "run":
            for fd in fds:
                os.close(fd)
            if op == "stop":
                self.stopping = True
            status = {"pid": os.getpid(), "started": self.started, "served": self.served,
                      "running": len(self.children), "socket": self.path,
                      "child_cpu": self.child_cpu, "package": PACKAGE}  # fmt: skip
            conn.sendall(json.dumps(status).encode() + b"\n")
            conn.close()
            return
        self.last = time.monotonic()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
        pid = os.fork()
        if pid != 0:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if pid == 0:  # the child: never returns into this loop
            code = 1
            try:
                self.selector.close()
                listener.close()
                for other_fd, other in self.children.items():
                    os.close(other_fd)
                    other.conn.close()
                conn.close()
                code = _run_child(request, fds, mask)
            except KeyboardInterrupt:  # Ctrl-C forwarded before the command's own handler was set
                code = 130
            finally:
                os._exit(code)
        for fd in fds:
            os.close(fd)
        self.served += 1
        pidfd = os.pidfd_open(pid)
        self.children[pidfd] = Child(pid, conn)
        self.selector.register(pidfd, selectors.EVENT_READ, "child")
        self.selector.register(conn, selectors.EVENT_READ, str(pidfd))
        try:
            conn.sendall(f"pid {pid}\n".encode())
        except OSError:
            self._caller_gone(conn, pidfd)

    def _reap(self, pidfd: int) -> None:
        child = self.children.pop(pidfd)
        self.selector.unregister(pidfd)
        _pid, status, usage = os.wait4(child.pid, 0)
        self.child_cpu += usage.ru_utime + usage.ru_stime
        os.close(pidfd)
        code = os.waitstatus_to_exitcode(status)
        if code < 0:
            code = 128 - code  # killed by a signal: the shell's convention
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(child.conn)
        with contextlib.suppress(OSError):
            child.conn.sendall(f"exit {code}\n".encode())
        child.conn.close()
        self.last = time.monotonic()

    def _caller_gone(self, conn: object, pidfd: int) -> None:
        child = self.children.get(pidfd)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(conn)  # type: ignore[arg-type]
        if child is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGTERM)


def ask(path: str, op: str) -> dict[str, object] | None:
    """``status`` or ``stop`` to the resident process at ``path``; None when none answers."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.settimeout(5.0)
        conn.connect(path)
        conn.sendall(json.dumps({"v": PROTOCOL, "op": op}).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            more = conn.recv(4096)
            if not more:
                return None
            data += more
        answer = json.loads(data)
        return answer if isinstance(answer, dict) else None
    except (OSError, ValueError):
        return None
    finally:
        conn.close()


def _retire_predecessors(path: str) -> None:
    """Ask residents of this same installation holding older code to leave now (their running
    commands finish); another installation's (another venv or checkout) are left alone."""
    folder = os.path.dirname(path)
    for name in os.listdir(folder):
        other = os.path.join(folder, name)
        if other != path and name.startswith("r-") and name.endswith(".sock"):
            status = ask(other, "status")
            if status is not None and status.get("package") == PACKAGE:
                ask(other, "stop")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m yisai.cli.resident SOCKET", file=sys.stderr)
        return 2
    idle = float(os.environ.get("YISAI_RESIDENT_IDLE", IDLE_SECONDS))
    resident = Resident(argv[0], idle)
    _preload()
    listener = resident.bind()
    if listener is None:
        return 0
    signal.signal(signal.SIGTERM, lambda *_: setattr(resident, "stopping", True))
    _retire_predecessors(argv[0])
    resident.serve(listener)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def _sockets() -> list[str]:
    from yisai.cli.launch import socket_dir

    folder = socket_dir(os.environ)
    if folder is None:
        return []
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("r-") and n.endswith(".sock"))


def register(app: typer.Typer) -> None:
    from yisai.cli.launch import enabled, socket_path
    from yisai.i18n import tr

    group = typer.Typer(help=tr("常驻进程: 让命令秒开", "the resident process: commands start at once"),
                        no_args_is_help=True)  # fmt: skip

    @group.command("status")
    def status_cmd() -> None:
        """显示本用户的常驻进程 (show this user's resident processes)."""
        current = socket_path(os.environ)
        found = [(p, ask(p, "status")) for p in _sockets()]
        alive = [(p, s) for p, s in found if s is not None]
        if not enabled(os.environ):
            typer.echo(tr("常驻进程已关闭 (YISAI_RESIDENT=0)", "the resident process is off (YISAI_RESIDENT=0)"))
        if not alive:
            typer.echo(tr("没有运行中的常驻进程; 下一条命令结束后自动启动",
                          "no resident process is running; the next command starts one"))
        for path, s in alive:
            since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(str(s.get("started", 0)))))
            which = (tr("当前版本", "current") if path == current
                     else tr("另一版本或另一安装, 空闲后退出", "other code or installation, leaves when idle"))
            typer.echo(tr(f"进程 {s.get('pid')}: 自 {since} 起已执行 {s.get('served')} 条命令, "
                          f"运行中 {s.get('running')} 条 ({which})",
                          f"process {s.get('pid')}: since {since}, {s.get('served')} command(s) run, "
                          f"{s.get('running')} running ({which})"))

    @group.command("stop")
    def stop_cmd() -> None:
        """停止本用户的常驻进程 (运行中的命令会执行完) / stop them (running commands finish)."""
        stopped = [s for p in _sockets() if (s := ask(p, "stop")) is not None]
        typer.echo(tr(f"已通知 {len(stopped)} 个常驻进程退出", f"asked {len(stopped)} resident process(es) to stop"))

    app.add_typer(group, name="resident")

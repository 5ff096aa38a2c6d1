"""A small stand-in for systemd, for the deploy tests (systemd is not PID 1 in the test container).

It reads each unit file of deploy/systemd and starts the process as the unit says: ``ExecStart``
(with ``${VAR}`` / ``$VAR`` taken from the environment), ``EnvironmentFile`` and ``Environment``
(the process gets these and a bare PATH, not the test's environment), ``WorkingDirectory``,
``RuntimeDirectory`` (made empty at start), ``Type=oneshot`` (run to the end) and the restart
policy ``Restart=`` / ``RestartSec=``. When a unit's main process ends, what is left of its process
group is stopped (systemd's ``KillMode=control-group``: SIGTERM, then SIGKILL), and the unit is
started again if its policy says so.

The install paths of the guide (``/opt/yisai``, ``/var/lib/yisai``, ``/etc/yisai``, ``/run``) and
the loopback ports are mapped to the test's folders and free ports: the only rewriting done, and
``paths`` / ``ports`` name all of it. What only systemd does (``User=``, ``ProtectSystem=``,
``NoNewPrivileges=``, the journal, ordering by ``After=``, start-rate limits) is not imitated;
docs/deploy.md says so.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

BARE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# systemd's "clean" end for Restart=on-failure: exit code 0, or one of these signals
CLEAN_SIGNALS = {signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE}


def parse_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """Sections → key → every value given (a key such as ``Environment=`` may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, sep, value = line.partition("=")
        if current is None or not sep or line.endswith("\\"):
            raise ValueError(f"{path.name}:{number}: not a key=value line in a section: {raw!r}")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def parse_environment_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines, ``#`` comments, optional quotes: the EnvironmentFile= format."""
    env: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        env[key.strip()] = value
    return env


def expand_command(line: str, env: dict[str, str]) -> list[str]:
    """ExecStart's words: ``${VAR}`` inside a word, ``$VAR`` alone splits into words (systemd.service)."""
    if line[:1] in "-@:+!":
        raise ValueError(f"ExecStart prefix not handled by the test runner: {line!r}")
    if "%" in line:
        raise ValueError(f"unit specifiers are not handled by the test runner: {line!r}")
    words: list[str] = []
    for word in shlex.split(line):
        alone = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", word)
        if alone:
            words.extend(env.get(alone.group(1), "").split())
            continue
        words.append(re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: env.get(m.group(1), ""), word))
    return words


def restarts(policy: str, returncode: int) -> bool:
    """Whether systemd restarts a unit whose main process ended so (systemd.service, Restart=)."""
    clean = returncode == 0 or (returncode < 0 and signal.Signals(-returncode) in CLEAN_SIGNALS)
    if policy == "no":
        return False
    if policy == "always":
        return True
    if policy == "on-failure":
        return not clean
    raise ValueError(f"Restart={policy} is not handled by the test runner")


def seconds(value: str) -> float:
    found = re.fullmatch(r"(\d+(?:\.\d+)?)(s|ms)?", value)
    if not found:
        raise ValueError(f"a time span the test runner does not read: {value!r}")
    return float(found.group(1)) / (1000 if found.group(2) == "ms" else 1)


@dataclass
class Unit:
    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    kind: str
    restart: str
    restart_sec: float
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    pids: list[int] = field(default_factory=list)  # every main pid, in order of start
    ends: list[int] = field(default_factory=list)  # every main process's return code
    stopping: bool = False


class Runner:
    """Starts units and applies their restart policy until :meth:`stop_all`."""

    def __init__(self, root: Path, paths: dict[str, str], ports: dict[str, str]) -> None:
        self.root, self.paths, self.ports = root, paths, ports
        self.units: dict[str, Unit] = {}
        self.lock = threading.Lock()

    def _map(self, value: str) -> str:
        for old, new in sorted(self.paths.items(), key=lambda kv: -len(kv[0])):
            value = value.replace(old, new)
        return value

    def load(self, path: Path) -> Unit:
        service = parse_unit(path)["Service"]
        env: dict[str, str] = {"PATH": BARE_PATH, "LANG": "C.UTF-8"}
        cwd = Path(self._map(service.get("WorkingDirectory", ["/"])[-1]))
        env["HOME"] = str(cwd)  # the yisai user's home is /var/lib/yisai (useradd in docs/deploy.md)
        for name in service.get("EnvironmentFile", []):
            optional = name.startswith("-")
            file = Path(self._map(name.lstrip("-")))
            if file.exists() or not optional:
                env.update({k: self._map(v) for k, v in parse_environment_file(file).items()})
        for line in service.get("Environment", []):
            for item in shlex.split(line):
                key, _, value = item.partition("=")
                env[key] = self._map(value)
        for name in service.get("RuntimeDirectory", []):
            folder = Path(self._map(f"/run/{name}"))
            if folder.exists():
                for old in folder.iterdir():
                    old.unlink()
            folder.mkdir(parents=True, exist_ok=True)
        [line] = service["ExecStart"]
        argv = expand_command(self._map(line), env)
        for k, word in enumerate(argv[:-1]):  # the loopback ports of the guide → the test's free ports
            if word == "--port":
                argv[k + 1] = self.ports[argv[k + 1]]
        unit = Unit(path.stem, argv, env, cwd, service.get("Type", ["simple"])[-1],
                    service.get("Restart", ["no"])[-1], seconds(service.get("RestartSec", ["0.1"])[-1]),
                    self.root / f"{path.stem}.log")
        self.units[unit.name] = unit
        return unit

    def _spawn(self, unit: Unit) -> None:
        with unit.log.open("ab") as log:
            unit.proc = subprocess.Popen(unit.argv, env=unit.env, cwd=unit.cwd, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        unit.pids.append(unit.proc.pid)

    def run_oneshot(self, path: Path, timeout: float) -> int:
        unit = self.load(path)
        assert unit.kind == "oneshot", unit.kind
        self._spawn(unit)
        assert unit.proc is not None
        code = unit.proc.wait(timeout)
        unit.ends.append(code)
        return code

    def start(self, path: Path) -> Unit:
        unit = self.load(path)
        self._spawn(unit)
        threading.Thread(target=self._watch, args=(unit,), daemon=True).start()
        return unit

    def _watch(self, unit: Unit) -> None:
        while True:
            proc = unit.proc
            assert proc is not None
            code = proc.wait()
            _stop_group(proc.pid)  # KillMode=control-group: nothing of the old unit stays behind
            with self.lock:
                unit.ends.append(code)
                if unit.stopping or not restarts(unit.restart, code):
                    return
            time.sleep(unit.restart_sec)
            with self.lock:
                if unit.stopping:
                    return
                self._spawn(unit)

    def stop_all(self) -> None:
        for unit in self.units.values():
            with self.lock:
                unit.stopping = True
            if unit.proc is not None and unit.proc.poll() is None:
                _stop_group(unit.proc.pid)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    unit.proc.wait(15)


def _stop_group(pgid: int, grace: float = 10.0) -> None:
    """SIGTERM to the process group, SIGKILL to what is still there after ``grace`` seconds."""
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)

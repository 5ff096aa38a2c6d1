"""The systemd units of deploy/systemd, run on this machine as the units say (systemd is not PID 1
here: tests/web/units.py reads each unit and supervises it), behind the repository's Caddyfile
with Caddy's internal CA, the environment file made from deploy/yisai.env.example with loopback
values. A director signs in through HTTPS in chromium; a web worker killed with SIGKILL is
replaced; the unit's main process killed with SIGKILL is restarted as ``Restart=on-failure`` says;
a clean stop is not restarted; the backup unit runs once. Where ``systemd-analyze`` is installed,
the unit files pass ``systemd-analyze verify`` and the timer's ``OnCalendar`` parses."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hangs import no_hang
from tests.web.server import ROOT, free_port
from tests.web.test_deploy_https import ARGS, CADDY, CHROMIUM, _caddyfile
from tests.web.units import Runner, expand_command, parse_environment_file, parse_unit, restarts

UNITS = ROOT / "deploy" / "systemd"
YISAI = Path(sys.executable).parent / "yisai"  # what /opt/yisai/.venv/bin/yisai is on a server
PASSWORD = "admin-password-1"
WAIT = 120.0  # only catches a hang

pytestmark = pytest.mark.skipif(
    not (Path(CADDY).exists() and Path(CHROMIUM).exists()) and not os.environ.get("CI"),
    reason="caddy and chromium are installed by scripts/setup.sh")


def test_the_runner_reads_units_as_systemd_does() -> None:
    """The runner's own rules, from systemd.service(5): a clean end is exit 0 or SIGHUP, SIGINT,
    SIGTERM, SIGPIPE; Restart=on-failure restarts on anything else (SIGKILL, exit 1)."""
    assert restarts("on-failure", -signal.SIGKILL) and restarts("on-failure", 1)
    assert not restarts("on-failure", 0) and not restarts("on-failure", -signal.SIGTERM)
    assert restarts("always", 0) and not restarts("no", -signal.SIGKILL)
    # ${VAR} inside a word, $VAR alone splits into words
    assert expand_command("a --q ${E} $W", {"E": "1 2", "W": "x y"}) == ["a", "--q", "1 2", "x", "y"]
    web = parse_unit(UNITS / "yisai-web.service")["Service"]
    assert web["Restart"] == ["on-failure"] and web["EnvironmentFile"] == ["/etc/yisai/yisai.env"]
    for name in ("yisai-web", "yisai-live", "yisai-notices"):
        service = parse_unit(UNITS / f"{name}.service")["Service"]
        assert service["Restart"] == ["on-failure"], name
        assert service["ExecStart"][0].startswith("/opt/yisai/.venv/bin/yisai "), name
        assert service["StandardOutput"] == ["journal"], name
    for name in ("yisai-web", "yisai-live", "yisai-notices", "yisai-backup"):
        # the unit's process is the command itself: a resident process would take the command
        # out of the unit (its exit code 128+N on a stop counted as a failure, its sandbox lost)
        assert "YISAI_RESIDENT=0" in parse_unit(UNITS / f"{name}.service")["Service"]["Environment"], name


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    """verify reads each unit as systemd would; it checks that ExecStart's program exists, so
    the copies name this machine's yisai instead of /opt/yisai's: the only change."""
    for unit in sorted(UNITS.iterdir()):
        text = unit.read_text(encoding="utf-8").replace("/opt/yisai/.venv/bin/yisai", str(YISAI))
        (tmp_path / unit.name).write_text(text, encoding="utf-8")
    for unit in sorted(tmp_path.iterdir()):
        done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True,
                              text=True, timeout=WAIT)
        assert done.returncode == 0 and not done.stderr.strip(), (unit.name, done.stderr)
    [calendar] = parse_unit(UNITS / "yisai-backup.timer")["Timer"]["OnCalendar"]
    done = subprocess.run(["systemd-analyze", "calendar", calendar], capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stderr
    assert "Next elapse" in done.stdout
    # every six hours at a quarter past: 00:15, 06:15, 12:15, 18:15
    done = subprocess.run(["systemd-analyze", "calendar", "--iterations=4", calendar], capture_output=True,
                          text=True, timeout=WAIT)
    hours = sorted({line.split()[-2][:5] for line in done.stdout.splitlines()
                    if "Next elapse:" in line or "Iter. #" in line})
    assert hours == ["00:15", "06:15", "12:15", "18:15"], done.stdout


@dataclass
class Site:
    base: str
    tls: ssl.SSLContext
    runner: Runner
    backups: Path
    files: Path


def _environment(tmp_path: Path, https_port: int) -> str:
    """deploy/yisai.env.example with loopback values: SQLite for one machine, as its comment says."""
    lines = []
    for line in (ROOT / "deploy" / "yisai.env.example").read_text(encoding="utf-8").splitlines():
        key = line.partition("=")[0]
        line = {
            "YISAI_DATABASE_URL": "YISAI_DB=/var/lib/yisai/yisai.sqlite",
            "YISAI_WEB_SECRET": f"YISAI_WEB_SECRET={secrets.token_urlsafe(32)}",
            "YISAI_PUBLIC_URL": f"YISAI_PUBLIC_URL=https://localhost:{https_port}",
            # this machine's Redis, a database of the test's own: the live units' keys
            # ("yisai:live:…") stay apart from any other deployment or test on the same server
            "YISAI_REDIS_URL": "YISAI_REDIS_URL=redis://127.0.0.1:6379/11",
        }.get(key, line)
        lines.append(line)
    return "\n".join(lines) + "\n"


def _as_the_guide(env: dict[str, str], *args: str, stdin: str = "") -> None:
    """`set -a; . /etc/yisai/yisai.env; set +a; yisai …` (docs/deploy.md, step 2)."""
    # no resident process left behind by the test (a shell on a server may keep one: harmless)
    done = subprocess.run([str(YISAI), *args], env={"PATH": os.environ["PATH"], **env, "YISAI_RESIDENT": "0"},
                          input=stdin,
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stdout + done.stderr


def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def _get(url: str, tls: ssl.SSLContext) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5, context=tls) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (OSError, ssl.SSLError):
        return 0


def _workers(pid: int) -> set[int]:
    """uvicorn's worker processes under ``pid`` (not multiprocessing's resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and "spawn_main" in cmd:
            found.add(int(entry.name))
    return found


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"  # ended, not yet reaped by its new parent


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    web_port, live_port, http_port, https_port = free_port(), free_port(), free_port(), free_port()
    paths = {"/opt/yisai/.venv/bin/yisai": str(YISAI), "/var/lib/yisai": str(tmp_path / "var-lib-yisai"),
             "/var/backups/yisai": str(tmp_path / "backups"), "/etc/yisai": str(tmp_path / "etc-yisai"),
             "/run/": str(tmp_path / "run") + "/"}
    for folder in ("var-lib-yisai/files", "backups", "etc-yisai", "run"):
        (tmp_path / folder).mkdir(parents=True)
    env_file = tmp_path / "etc-yisai" / "yisai.env"
    env_file.write_text(_environment(tmp_path, https_port), encoding="utf-8")
    env_file.chmod(0o600)
    runner = Runner(tmp_path, paths, {"8000": str(web_port), "8001": str(live_port)})
    env = {k: runner._map(v) for k, v in parse_environment_file(env_file).items()}
    _as_the_guide(env, "db", "upgrade")
    _as_the_guide(env, "account", "add", "admin", "--role", "operator", "--password-stdin", stdin=PASSWORD + "\n")
    # YISAI_LIVE_EVENT=1: the event whose online qualifier the live unit serves
    _as_the_guide(env, "event", "create", "--regulation", str(ROOT / "regulations" / "2025-shanhai-cup.toml"),
                  "--seed", "1")
    config = _caddyfile(tmp_path, web_port, http_port, https_port, live=live_port)
    caddy_env = {**os.environ, "YISAI_SITE": "localhost", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "xdg"),
                 "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    caddy = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"], env=caddy_env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for name in ("yisai-web", "yisai-live", "yisai-notices"):
            runner.start(UNITS / f"{name}.service")
        base = f"https://localhost:{https_port}"
        root = tmp_path / "caddy-data" / "pki" / "authorities" / "local" / "root.crt"
        _until(root.exists, "caddy made no CA")
        tls = ssl.create_default_context(cafile=str(root))
        _until(lambda: _get(base + "/healthz", tls) == 200, "the web unit did not answer through caddy")
        yield Site(base, tls, runner, tmp_path / "backups", tmp_path / "var-lib-yisai" / "files")
    finally:
        runner.stop_all()
        caddy.terminate()
        try:
            caddy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            caddy.kill()
            caddy.wait()


def test_units_behind_caddy_sign_in_restart_and_backup(site: Site) -> None:
    from playwright.sync_api import sync_playwright

    web, live, notices = (site.runner.units[n] for n in ("yisai-web", "yisai-live", "yisai-notices"))
    with urllib.request.urlopen(site.base + "/healthz", timeout=10, context=site.tls) as r:
        health = json.loads(r.read())
    assert health["status"] == "ok" and health["redis"] == "ok"  # the env file's Redis is reached
    assert _get(site.base + "/metrics", site.tls) == 404  # not through the proxy
    _until(lambda: _get(site.base + "/play", site.tls) == 200, "the live unit did not answer through caddy")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(ignore_https_errors=True)  # the test CA is not in chromium's store
            page = context.new_page()
            page.goto(site.base + "/console/login")
            page.fill("input[name=login]", "admin")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(site.base + "/console")
            assert all(c["secure"] for c in context.cookies(site.base))
        finally:
            browser.close()

    with no_hang():
        # 4 uvicorn workers (--workers 4); one killed with SIGKILL is replaced by uvicorn itself,
        # the unit's main process stays: no restart of the unit
        main = web.pids[0]
        _until(lambda: len(_workers(main)) == 4, "the web unit did not start 4 workers")
        first = _workers(main)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        _until(lambda: len(_workers(main)) == 4 and victim not in _workers(main), "the worker was not replaced")
        assert web.pids == [main] and web.ends == []
        assert _get(site.base + "/healthz", site.tls) == 200

        # the unit's main process killed with SIGKILL: Restart=on-failure starts it again
        # (after RestartSec=3), its old workers stopped with it
        os.kill(main, signal.SIGKILL)
        _until(lambda: len(web.pids) == 2, "the web unit was not restarted")
        assert web.ends == [-signal.SIGKILL]
        assert all(_gone(pid) for pid in first - {victim})  # KillMode=control-group
        _until(lambda: _get(site.base + "/healthz", site.tls) == 200, "the restarted web unit did not answer")

        # a clean stop (SIGTERM, as `systemctl stop` sends) is not a failure: not restarted
        os.kill(notices.pids[0], signal.SIGTERM)
        _until(lambda: len(notices.ends) == 1, "the notice worker did not stop")
        time.sleep(notices.restart_sec + 1)  # longer than RestartSec: a restart would have happened
        assert len(notices.pids) == 1 and notices.ends[0] in (0, -signal.SIGTERM)
        assert live.ends == []  # the live unit ran throughout

        # the backup unit (what the timer starts): one archive with the papers
        (site.files / "1").mkdir(exist_ok=True)
        (site.files / "1" / "paper.pdf").write_bytes(b"%PDF-1.4 paper")
        assert site.runner.run_oneshot(UNITS / "yisai-backup.service", WAIT) == 0
        [archive] = list(site.backups.glob("yisai-backup-*.tar.gz"))
        from yisai.store.backup import read_manifest
        assert read_manifest(archive).files == 1

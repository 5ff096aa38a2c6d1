"""docs/deploy.md on this machine: the repository's Caddyfile (deploy/Caddyfile) in front of a
real `yisai serve` started as the unit starts it (loopback, the proxy trusted, secure cookies),
Caddy's internal CA for the certificate, and a director signing in through HTTPS in chromium."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import PASSWORDS
from tests.web.server import ROOT, Server, free_port
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
pytestmark = pytest.mark.skipif(
    not (Path(CADDY).exists() and Path(CHROMIUM).exists()) and not os.environ.get("CI"),
    reason="caddy and chromium are installed by scripts/setup.sh")  # in CI a missing one fails


def _caddyfile(folder: Path, upstream: int, http_port: int, https_port: int, live: int | None = None) -> Path:
    """deploy/Caddyfile as shipped, its upstreams pointed at the test's servers (the live unit's
    too when ``live`` is given), with global options for a test: the internal CA, ports of our
    own, storage in the test's folder, no admin API."""
    shipped = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    assert "127.0.0.1:8000" in shipped and "127.0.0.1:8001" in shipped
    site = shipped.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}").replace(
        "127.0.0.1:8001", f"127.0.0.1:{live or upstream}")
    options = (f"{{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port {http_port}\n"
               f"\thttps_port {https_port}\n\tstorage file_system {folder / 'caddy-data'}\n}}\n\n")
    path = folder / "Caddyfile"
    path.write_text(options + site, encoding="utf-8")
    return path


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    db = tmp_path / "site.sqlite"
    with open_context(Settings(database=str(db))) as ctx, ctx.work(actor=Actor.system()) as work:
        create_user(work, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORDS["director"])
    monkeypatch.setenv("YISAI_SECURE_COOKIES", "1")  # as in deploy/yisai.env.example
    server = Server(db, args=("--forwarded-allow-ips", "127.0.0.1", "--public-url", "https://localhost"))
    http_port, https_port = free_port(), free_port()
    config = _caddyfile(tmp_path, server.port, http_port, https_port)
    env = {**os.environ, "YISAI_SITE": "localhost", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "xdg"),
           "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    caddy = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"https://localhost:{https_port}"
    root = tmp_path / "caddy-data" / "pki" / "authorities" / "local" / "root.crt"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert caddy.poll() is None, caddy.stdout.read() if caddy.stdout else ""
            try:
                if root.exists():
                    tls = ssl.create_default_context(cafile=str(root))
                    with urllib.request.urlopen(base + "/healthz", timeout=5, context=tls) as r:
                        assert r.status == 200
                        break
            except (OSError, ssl.SSLError):
                pass
            assert time.monotonic() < deadline, "caddy did not answer on HTTPS"
            time.sleep(0.2)
        yield base, root
    finally:
        caddy.terminate()
        try:
            caddy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            caddy.kill()
            caddy.wait()
        server.stop()


def test_sign_in_through_caddy_on_https(site: tuple[str, Path]) -> None:
    from playwright.sync_api import sync_playwright

    base, root = site
    tls = ssl.create_default_context(cafile=str(root))  # the certificate chains to Caddy's own CA
    with urllib.request.urlopen(base + "/healthz", timeout=10, context=tls) as r:
        assert json.loads(r.read())["status"] == "ok"
    with pytest.raises(urllib.error.HTTPError) as refused:  # metrics stay inside the machine
        urllib.request.urlopen(base + "/metrics", timeout=10, context=tls)
    assert refused.value.code == 404
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(ignore_https_errors=True)  # the test CA is not in chromium's store
            page = context.new_page()
            page.goto(base + "/console/login")
            page.fill("input[name=login]", "director")
            page.fill("input[name=password]", PASSWORDS["director"])
            page.click("button[type=submit]")
            page.wait_for_url(base + "/console")
            assert page.url.startswith("https://")
            cookies = context.cookies(base)
            assert cookies and all(c["secure"] for c in cookies)  # sent over HTTPS only
            assert "director" in page.content() or "裁判长" in page.content()
        finally:
            browser.close()

#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: Debian packages, the venv, Python packages, services.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
# wrk: the closed-loop load of `yisai bench web --generator wrk` (and its test); postgresql-client:
# pg_dump/pg_restore for `yisai db backup`/`restore` of a PostgreSQL store (and its test); caddy: the
# HTTPS proxy of docs/deploy.md, brought up by tests/web/test_deploy_https.py
for pkg in fonts-noto-cjk fonts-noto-cjk-extra fonts-hanazono chromium poppler-utils wrk postgresql-client caddy; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
# the pairing's matching is a C extension: a compiler and Python's headers
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
python3 -c 'import os, sysconfig; raise SystemExit(not os.path.exists(
    os.path.join(sysconfig.get_paths()["include"], "Python.h")))' || need_apt+=(python3-dev)
if [ ${#need_apt[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "[setup] apt-get install ${need_apt[*]}"
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv"
  python3 -m venv .venv
fi
stamp=.venv/.yisai-installed
# reinstalled when the project's metadata or its C extension (the pairing's matching) changed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ] \
    || [ src/yisai/pairing/_perfect_matching.c -nt "$stamp" ]; then
  echo "[setup] installing Python packages"
  .venv/bin/pip install -q -U pip >/dev/null
  .venv/bin/pip install -q -e '.[test,postgres,redis,pay]'
  touch "$stamp"
fi

# The board client of the online qualifier (/play): npm packages pinned in package.json,
# bundled by esbuild into src/yisai/web/static/build/ (git-ignored). Rebuilt on every run (< 1 s).
if command -v npm >/dev/null 2>&1; then
  npm_stamp=node_modules/.yisai-installed
  if [ ! -f "$npm_stamp" ] || [ package.json -nt "$npm_stamp" ]; then
    echo "[setup] installing the board client's npm packages"
    npm install --no-audit --no-fund --loglevel=error
    touch "$npm_stamp"
  fi
  npm run --silent build
else
  echo "[setup] npm not found: the /play board client is not built (install Node.js 20 and npm)" >&2
fi

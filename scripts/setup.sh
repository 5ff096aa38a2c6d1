#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: Debian packages, the venv, Python packages, services.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in fonts-noto-cjk fonts-noto-cjk-extra fonts-hanazono chromium poppler-utils; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
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
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "[setup] installing Python packages"
  .venv/bin/pip install -q -U pip >/dev/null
  .venv/bin/pip install -q -e '.[test,postgres,redis]'
  touch "$stamp"
fi

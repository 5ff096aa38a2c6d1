#!/usr/bin/env bash
# Set up everything, load both seed events half-way through (some rounds played, the next round
# paired and open), create one demo account per role, and run the web server in the foreground
# on http://127.0.0.1:8000 (Ctrl-C stops it). `yisai demo` still runs the batch demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p var
rm -f var/web-demo.sqlite var/web-demo.sqlite-wal var/web-demo.sqlite-shm
exec .venv/bin/yisai serve --db var/web-demo.sqlite --load-demo --host 127.0.0.1 --port 8000 "$@"

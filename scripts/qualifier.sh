#!/usr/bin/env bash
# The online qualifier on this machine, in one command: set up (Python and the board client),
# create seed 000's event in var/qualifier.sqlite (once), and serve it on http://127.0.0.1:8000
# with the players' pages at /play and the developer outbox (sign-in codes shown, no SMS).
# The clock starts inside period 1 (2025-05-10 12:00 Beijing time) and runs, so queueing works
# today; set YISAI_NOW yourself to start elsewhere. Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p var
db=var/qualifier.sqlite
if [ ! -f "$db" ]; then
  .venv/bin/yisai event create --regulation regulations/2025-shanhai-cup.toml --seed 1 --db "$db"
fi
export YISAI_NOW="${YISAI_NOW:-2025-05-10T12:00}" YISAI_NOW_RUNS=1
exec .venv/bin/yisai serve --db "$db" --qualifier 1 --dev-outbox --host 127.0.0.1 --port "${PORT:-8000}" "$@"

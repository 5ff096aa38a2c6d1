#!/usr/bin/env bash
# Set up everything and run every test: ruff, mypy, then pytest on SQLite and PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/services.sh
export YISAI_TEST_POSTGRES_URL="${YISAI_TEST_POSTGRES_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test}"
echo "[test] ruff"
.venv/bin/ruff check src tests
echo "[test] mypy"
.venv/bin/mypy
echo "[test] pytest"
# two workers, one per core (YISAI_TEST_WORKERS=0 runs serially); worksteal evens out the slow files
workers="${YISAI_TEST_WORKERS:-2}"
if [ "$workers" = "0" ]; then
  exec .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest -n "$workers" --dist worksteal "$@"

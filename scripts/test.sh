#!/usr/bin/env bash
# Set up everything and run every test (ruff, then pytest on SQLite and PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/services.sh
export YISAI_TEST_POSTGRES_URL="${YISAI_TEST_POSTGRES_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test}"
.venv/bin/ruff check src tests
exec .venv/bin/python -m pytest "$@"

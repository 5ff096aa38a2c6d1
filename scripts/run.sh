#!/usr/bin/env bash
# Set up everything and run the main job: `yisai demo` over both seed regulations.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/yisai demo "$@"

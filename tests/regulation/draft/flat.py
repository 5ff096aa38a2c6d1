"""Flat ``path → value`` maps of regulation files for the drafter's tests; ``flat`` and
``covered`` live in ``yisai.regulation.flat`` (``yisai bench draft`` uses the same ones)."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from yisai.cli.app import app
from yisai.regulation.flat import KEYS, covered, flat

__all__ = ["KEYS", "covered", "flat", "shown"]


def shown(path: str) -> dict[str, Any]:
    """``yisai regulation show FILE --format json``, flattened."""
    result = CliRunner().invoke(app, ["regulation", "show", path, "--format", "json"])
    assert result.exit_code == 0, result.output
    return flat(json.loads(result.stdout))

"""Solve the proof of work a sign-in code request needs, as the page's script does."""

from __future__ import annotations

from typing import Any

from yisai.qualifier.proof import solve


def proved(client: Any, data: dict[str, str]) -> dict[str, str]:
    """``data`` with a fresh challenge from the site and its solution added."""
    got = client.get("/play/proof").json()
    return {**data, "proof_challenge": got["challenge"], "proof_solution": solve(got["challenge"], int(got["bits"]))}


TEST_PROOF_BITS = 8  # the difficulty the test apps ask (256 tries on average), by setting

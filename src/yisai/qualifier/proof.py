"""Proof of work before a sign-in code is sent: the server issues a signed, short-lived
challenge; the browser finds a number whose SHA-256 with it starts with ``bits`` zero bits
(2^bits tries on average: about a second of a desktop browser at 16 bits, the same for every
one of an attacker's requests). Pure: the caller supplies the secret and the clock, and keeps
the used challenges (single use across workers)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

DEFAULT_BITS = 16  # 65,536 tries on average: about 1 s of Web Crypto in a desktop chromium (measured ~70,000/s)
MAX_BITS = 28
PROOF_SECONDS = 300  # a challenge is good this long after it was issued
MAX_SOLUTION_CHARS = 20


def _mac(secret: str, body: str) -> str:
    return hmac.new(secret.encode(), f"proof:{body}".encode(), hashlib.sha256).hexdigest()[:32]


def issue(secret: str, bits: int, now: float, nonce: str | None = None) -> str:
    """A challenge: difficulty, issue time, a random nonce and their HMAC with the site secret."""
    body = f"{bits}.{int(now)}.{nonce or secrets.token_hex(12)}"
    return f"{body}.{_mac(secret, body)}"


def leading_zero_bits(data: bytes) -> int:
    n = 0
    for byte in data:
        if byte:
            return n + 8 - byte.bit_length()
        n += 8
    return n


def solves(challenge: str, solution: str, bits: int) -> bool:
    """Whether SHA-256 of ``challenge:solution`` starts with ``bits`` zero bits."""
    return leading_zero_bits(hashlib.sha256(f"{challenge}:{solution}".encode()).digest()) >= bits


def solve(challenge: str, bits: int) -> str:
    """The first solution (what the page's script does, for tests and API clients)."""
    n = 0
    while not solves(challenge, str(n), bits):
        n += 1
    return str(n)


# why a proof is refused (the web layer words them)
MISSING, FORGED, STALE, WRONG = "missing", "forged", "stale", "wrong"


def verify(secret: str, challenge: str, solution: str, bits: int, now: float) -> tuple[str | None, str]:
    """``(None, nonce)`` for a genuine, fresh, solved challenge of at least ``bits``; else the
    reason and "". Whether it was used before is the caller's to check (by the nonce)."""
    if not challenge or not solution:
        return MISSING, ""
    parts = challenge.split(".")
    if len(parts) != 4 or len(challenge) > 120 or len(solution) > MAX_SOLUTION_CHARS or not solution.isascii():
        return FORGED, ""
    got_bits, issued, nonce, mac = parts
    if not hmac.compare_digest(_mac(secret, ".".join(parts[:3])), mac):
        return FORGED, ""
    if not got_bits.isdigit() or int(got_bits) < bits or not issued.isdigit():
        return FORGED, ""
    if not 0 <= now - int(issued) <= PROOF_SECONDS:
        return STALE, ""
    if not solves(challenge, solution, int(got_bits)):
        return WRONG, ""
    return None, nonce


__all__ = ["DEFAULT_BITS", "MAX_BITS", "PROOF_SECONDS", "issue", "leading_zero_bits", "solve", "solves", "verify"]

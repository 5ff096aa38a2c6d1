"""The proof of work before a sign-in code (``qualifier.proof``): leading zero bits counted by
hand, and every way a proof is refused."""

from __future__ import annotations

import hashlib

import pytest

from yisai.qualifier import proof
from yisai.web.app import proof_bits_from_environment

SECRET = "site-secret"
NOW = 1_750_000_000.0


def test_leading_zero_bits_by_hand() -> None:
    assert proof.leading_zero_bits(b"\x80") == 0  # 1000 0000
    assert proof.leading_zero_bits(b"\x00\x0f") == 8 + 4  # a zero byte, then 0000 1111
    assert proof.leading_zero_bits(b"\x00\x00\x01") == 16 + 7  # two zero bytes, then 0000 0001
    assert proof.leading_zero_bits(b"\x00\x00") == 16


def test_a_solution_has_the_bits_asked() -> None:
    challenge = proof.issue(SECRET, 10, NOW, nonce="n1")
    n = proof.solve(challenge, 10)
    digest = hashlib.sha256(f"{challenge}:{n}".encode()).digest()
    assert digest[0] == 0 and digest[1] < 0x40  # 10 zero bits: the first byte, then 2 of the next
    assert proof.verify(SECRET, challenge, n, 10, NOW + 1) == (None, "n1")


def test_every_bad_proof_is_refused_with_its_reason() -> None:
    good = proof.issue(SECRET, 8, NOW, nonce="n2")
    solved = proof.solve(good, 8)
    wrong = next(str(i) for i in range(1000) if not proof.solves(good, str(i), 8))
    weak = proof.issue(SECRET, 4, NOW)
    forged = proof.issue("other-secret", 8, NOW)
    tampered = good.replace(".n2.", ".n3.")
    assert proof.verify(SECRET, "", "", 8, NOW)[0] == proof.MISSING
    assert proof.verify(SECRET, good, "", 8, NOW)[0] == proof.MISSING
    assert proof.verify(SECRET, forged, proof.solve(forged, 8), 8, NOW)[0] == proof.FORGED
    assert proof.verify(SECRET, tampered, solved, 8, NOW)[0] == proof.FORGED
    assert proof.verify(SECRET, weak, proof.solve(weak, 4), 8, NOW)[0] == proof.FORGED  # fewer bits than asked
    assert proof.verify(SECRET, good, "1" * 21, 8, NOW)[0] == proof.FORGED  # a solution past 20 characters
    assert proof.verify(SECRET, good, wrong, 8, NOW)[0] == proof.WRONG
    # good for 300 s after it was issued: at 300 s still, at 301 s stale; never from the future
    assert proof.verify(SECRET, good, solved, 8, NOW + 300)[0] is None
    assert proof.verify(SECRET, good, solved, 8, NOW + 301)[0] == proof.STALE
    assert proof.verify(SECRET, good, solved, 8, NOW - 5)[0] == proof.STALE


@pytest.mark.parametrize("raw", ["0", "29", "abc", "-3", "１２"])
def test_a_bad_difficulty_setting_is_refused_in_words(raw: str) -> None:
    with pytest.raises(ValueError, match="YISAI_CODE_PROOF_BITS"):
        proof_bits_from_environment({"YISAI_CODE_PROOF_BITS": raw})
    assert proof_bits_from_environment({"YISAI_CODE_PROOF_BITS": "12"}) == 12
    assert proof_bits_from_environment({}) is None

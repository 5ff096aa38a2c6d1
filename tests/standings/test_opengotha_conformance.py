"""Must show: OpenGotha's own numbers, recomputed from the games, on every real tournament.

For every tournament of ../shared/testdata/opengotha-reference with games and no GAMES_DROPPED
flag, for every round and every player: all 18 criteria of OpenGotha's allcrit export equal
ours, and our placement equals OpenGotha's ``order``. Criteria are computed from the games
only; the CSV is read for the expected values alone.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from tests.conftest import TESTDATA
from tests.standings.opengotha_reference import (
    ALLCRIT,
    Reference,
    collected_references,
    reference_ids,
)
from yisai.formats.opengotha import key_string, read_opengotha
from yisai.standings.opengotha import compute_og_scores, og_order

REFERENCES = collected_references(TESTDATA)


def test_the_reference_set_is_whole(testdata: Path) -> None:
    """At least 170 tournaments and 40,000 player-rounds are compared (the tests below)."""
    assert len(REFERENCES) >= 170
    rows = 0
    for ref in REFERENCES:
        with ref.allcrit.open(encoding="utf-8") as fh:
            rows += sum(1 for _ in csv.DictReader(fh, delimiter=";"))
    assert rows >= 40000


@pytest.mark.parametrize("ref", REFERENCES or [None], ids=reference_ids(REFERENCES))
def test_every_criterion_and_every_placement_matches_opengotha(ref: Reference | None, testdata: Path) -> None:
    assert ref is not None  # without the data the testdata fixture has skipped (or failed under CI)
    mismatches: list[str] = []
    inp = read_opengotha(ref.xml)
    scores = compute_og_scores(inp.players, inp.games, inp.opengotha)
    index = {p.id: i for i, p in enumerate(inp.players)}
    by_round: dict[int, list[dict[str, str]]] = defaultdict(list)
    with ref.allcrit.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter=";"):
            by_round[int(row["round"])].append(row)
    assert by_round, f"{ref.allcrit} has no rows"
    for rnd, rows in sorted(by_round.items()):
        placement = og_order(scores, rnd)
        position = {i: k + 1 for k, i in enumerate(placement.order)}
        for row in rows:
            i = index[key_string(row["name"], row["firstname"])]
            for crit in ALLCRIT:
                column = next(c for c in row if c.split("_x")[0] == crit)
                expected = int(row[column])
                got = placement.criterion_value(scores, crit, i)
                if got != expected:
                    mismatches.append(f"{ref.name} R{rnd} {row['name']} {crit}: {got} != {expected}")
            if position[i] != int(row["order"]):
                mismatches.append(f"{ref.name} R{rnd} {row['name']} order {position[i]} != {row['order']}")
    assert not mismatches, "\n".join(mismatches[:50])

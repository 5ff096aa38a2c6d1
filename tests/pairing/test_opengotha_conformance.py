"""Every round of every real OpenGotha file, paired by yisai and by OpenGotha 3.51.02 itself.

Oracle: ``data/opengotha351_rounds.tsv``, what OpenGotha 3.51.02 (built from its public
source on a developer's machine; the build and its driver may not be part of the project, see
docs/pairing.md "Conformance with OpenGotha 3.51.02 itself") made of each round: the file truncated before the round,
the players its pairing window lists, its bye rule, ``makeAutomaticPairing`` and its table
renumbering. The file holds digests of OpenGotha's games (so no name from the test data is
copied into the repository), the bye, and the total of OpenGotha's own ``costValue``.

Each round must be **identical** (same bye, pairs, colours, handicaps, tables and every game's
cost) or a **tie**: other pairs with the same total under OpenGotha's own cost, i.e. another
maximum of the same weights (which maximum a matching algorithm returns is its own choice).
Where OpenGotha's own output is in the shared test data (``opengotha-reference/pairings/``:
every board, bye, colour, handicap, table and ``costValue`` that OpenGotha 3.51.02 made of each
round, with the same truncation rule), each round is compared with those rows directly; the
digests are used only for the rounds that folder lacks (the rounds it skips as the GUI would).
Nothing expected comes from yisai's output.
"""

from __future__ import annotations

import collections
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from yisai.formats.opengotha import OpenGothaError
from yisai.formats.opengotha_pairing import read_og_tournament
from yisai.pairing.opengotha import OGRoundPairing, pair_og_round

EXPECTED = Path(__file__).parent / "data" / "opengotha351_rounds.tsv"

# Rounds where OpenGotha's tables differ although its games are ours: its table comparator
# ranks games whose "best" players tie on every criterion and rating as never equal, which is
# no order, so the result depends on Java's TimSort merges (docs/pairing.md, step 7).
# (With rustworkx's matching, congreso2020 round 2 and egc2011 round 6 were such rounds too;
# their pairs are now other maxima, so their tables are not comparable.)
OTHER_TABLES = {
    ("lucvannier/remote_latest/20201010144608_congreso2020.xml", 4),
}
# OpenGotha 3.51 reads this file (no dataVersion) as version 200 and then finds game players by
# an old ASCII key, dropping the 19 games whose names hold "-", "Ç" or "Â"; OpenGotha's
# reference ran on the file with dataVersion="201" added, and so does yisai here.
DATA_VERSION_201 = {"lucvannier/tournamentfiles/tournoi_equipe_LGO_2020LV.xml"}
# The four files saved under a Turkish locale ("İ" in the game keys) were run by OpenGotha
# under a Turkish locale, where it loads all their games, as yisai does from the file itself.


# Files where the shared reference's OpenGotha 3.51.02 run and the local build's run disagree
# on rounds without a recorded bye (their totals differ both ways from ours, so the state their
# cost was taken in differs; the local run, whose pairing we reproduce, is used for them). Not
# yet explained: docs/pairing.md, "Conformance".
REFERENCE_DISAGREES = {
    "lucvannier/remote_latest/20200920162602_AGT2020.xml",
    "lucvannier/remote_latest/20200926165633_2020women.xml",
    "lucvannier/remote_latest/20201018141232_TU16.xml",
    "lucvannier/remote_latest/20201018143949_TU12.xml",
}


def _expected() -> dict[str, list[list[str]]]:
    by_file: dict[str, list[list[str]]] = collections.defaultdict(list)
    for line in EXPECTED.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            fields = line.split("\t")
            by_file[fields[0]].append(fields)
    return dict(by_file)


ROUNDS = _expected()


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()[:16]


def _ours(p: OGRoundPairing) -> dict[str, str]:
    return {
        "bye": _digest([p.bye + "\n"]) if p.bye else "-",
        "tables": _digest([f"{b.table}\t{b.white}\t{b.black}\t{b.handicap}\n" for b in p.boards]),
        "games": _digest([f"\t{b.white}\t{b.black}\t{b.handicap}\n" for b in p.boards]),
        "costs": _digest([f"{b.white}\t{b.black}\t{b.cost.total}\n" for b in p.boards]),
    }


def test_the_reference_covers_every_file_with_games() -> None:
    assert len(ROUNDS) == 194
    assert sum(len(r) for r in ROUNDS.values()) == 733
    assert sum(int(f[2]) for r in ROUNDS.values() for f in r) == 17_845  # games


def _key(name: str) -> str:
    """OpenGotha's player key from the reference's "name firstName" (spaces out, upper case)."""
    return name.replace(" ", "").upper()


@dataclass
class _Reference:
    """OpenGotha's own rows for one round: (table, black, white, handicap, cost) keys, bye, total."""

    boards: list[tuple[int, str, str, int, int]] = field(default_factory=list)
    bye: str | None = None
    total: int = 0


def _reference(testdata: Path, name: str) -> dict[int, _Reference]:
    """The rounds OpenGotha 3.51.02 paired for this file, from the shared reference (if any)."""
    tsv = testdata / "opengotha-reference" / "pairings" / name.replace(".xml", ".opengotha_pairings.tsv")
    if not tsv.is_file():
        return {}
    out: dict[int, _Reference] = collections.defaultdict(_Reference)
    for line in tsv.read_text(encoding="utf-8").splitlines()[1:]:
        rnd, table, black, white, handicap, cost = line.split("\t")
        ref = out[int(rnd)]
        if table == "bye":
            ref.bye = _key(black)
        elif table == "total":
            ref.total = int(cost)
        else:
            ref.boards.append((int(table), _key(black), _key(white), int(handicap), int(cost)))
    return dict(out)


def _against_reference(name: str, r: int, p: OGRoundPairing, ref: _Reference) -> list[str]:
    theirs = {frozenset((b, w)): (t, b, w, h, c) for t, b, w, h, c in ref.boards}
    ours = {frozenset((b.black, b.white)): b for b in p.boards}
    if (p.bye, len(ours)) != (ref.bye, len(theirs)):
        return [f"round {r}: {len(ours)} games, bye {p.bye}; OpenGotha {len(theirs)} games, bye {ref.bye}"]
    if set(ours) != set(theirs):
        if p.total != ref.total:
            return [f"round {r}: other pairs with total {p.total}, OpenGotha's {ref.total} "
                    f"({'ours' if p.total > ref.total else 'OpenGotha'} better)"]
        return []  # a tie: another maximum of OpenGotha's own weights
    problems = []
    for pair, (_table, black, white, handicap, cost) in theirs.items():
        b = ours[pair]
        if (b.black, b.white, b.handicap) != (black, white, handicap):
            problems.append(f"round {r}: {black}—{white} h{handicap}, ours {b.black}—{b.white} h{b.handicap}")
        if b.cost.total != cost:
            problems.append(f"round {r}: {black}—{white} costs {b.cost.total}, OpenGotha {cost}")
    same_tables = all(ours[pair].table == row[0] for pair, row in theirs.items())
    if same_tables == ((name, r) in OTHER_TABLES):
        problems.append(f"round {r}: tables {'equal' if same_tables else 'differ'}")
    return problems


def _against_digests(name: str, r: int, p: OGRoundPairing, fields: list[str]) -> list[str]:
    _, _, games, bye, tables, plain, total, costs = fields
    ours = _ours(p)
    if (len(p.boards), ours["bye"]) != (int(games), bye):
        return [f"round {r}: {len(p.boards)} games, bye {p.bye}; OpenGotha {games} games"]
    problems = []
    if ours["games"] == plain:
        if ours["costs"] != costs:
            problems.append(f"round {r}: the same games, but a game's cost is not OpenGotha's")
        if (ours["tables"] == tables) == ((name, r) in OTHER_TABLES):
            problems.append(f"round {r}: tables {'equal' if ours['tables'] == tables else 'differ'}")
    elif p.total != int(total):
        problems.append(f"round {r}: other pairs with total {p.total}, OpenGotha's {total} "
                        f"({'ours' if p.total > int(total) else 'OpenGotha'} better)")
    return problems


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_every_round_is_opengothas_or_a_tie_by_its_own_cost(
        testdata: Path, tmp_path: Path, name: str) -> None:
    path = testdata / "opengotha" / name
    if name in DATA_VERSION_201:
        copy = tmp_path / path.name
        copy.write_bytes(path.read_bytes().replace(b"<Tournament ", b'<Tournament dataVersion="201" ', 1))
        path = copy
    f = read_og_tournament(path)
    reference = {} if name in REFERENCE_DISAGREES else _reference(testdata, name)
    digests = {int(fields[1]): fields for fields in ROUNDS[name]}
    problems = []
    for r in sorted(set(digests) | set(reference)):
        earlier = [g for g in f.source.games if g.round < r]
        recorded = next((g.black for g in f.source.games if g.round == r and g.white is None), None)
        if r in reference:
            # The round as OpenGotha's GUI pairs it: the file's bye of round r (if any) is the
            # director's, set before pairing, so it counts in the table order's scores.
            p = pair_og_round(f.tournament, earlier, r, bye=recorded)
            problems += _against_reference(name, r, p, reference[r])
        if r in digests and (r not in reference or recorded is not None):
            p = pair_og_round(f.tournament, earlier, r)
            problems += _against_digests(name, r, p, digests[r])
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_the_shared_reference_is_read_where_present(testdata: Path) -> None:
    """Most rounds are checked against OpenGotha's own rows, not digests: the shared reference
    holds 631 paired rounds of 171 files (its README); all of them are rounds we check."""
    index = testdata / "opengotha-reference" / "pairings" / "INDEX.tsv"
    done = {}
    for line in index.read_text(encoding="utf-8").splitlines()[1:]:
        cols = line.split("\t")
        if cols[3]:
            done[cols[0]] = {int(x) for x in cols[3].split(",")}
    assert len(done) == 171 and sum(len(v) for v in done.values()) == 631
    assert set(done) <= set(ROUNDS)  # every file of the reference is a parameter above
    assert set(done) >= REFERENCE_DISAGREES
    for n in list(done)[:5]:
        assert set(_reference(testdata, n)) == done[n]


def test_every_file_with_games_is_in_the_reference_or_refused(testdata: Path) -> None:
    """The reference holds every file with a game but one, which OpenGotha pairs with
    ``Math.random()`` (``paiBaDeterministic="false"`` with a random weight): no two runs agree,
    so yisai refuses it by name instead of pretending to reproduce it."""
    base = testdata / "opengotha"
    assert not [n for n in ROUNDS if not (base / n).is_file()]
    with_games = {str(p.relative_to(base)) for p in base.rglob("*.xml")
                  if b"<Game " in p.read_bytes()}
    assert with_games - set(ROUNDS) == {"lucvannier/tournamentfiles/work/cdff2020LV11ARND.xml"}
    with pytest.raises(OpenGothaError, match="paiBaDeterministic"):
        read_og_tournament(base / "lucvannier/tournamentfiles/work/cdff2020LV11ARND.xml")

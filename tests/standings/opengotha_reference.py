"""Locating OpenGotha's reference output and the tournament file it was computed from."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: allcrit columns: criterion name → unit suffix in the CSV header
ALLCRIT = [
    "NBW",
    "MMS",
    "SOSW",
    "SOSWM1",
    "SOSWM2",
    "SODOSW",
    "SOSOSW",
    "CUSSW",
    "SOSM",
    "SOSMM1",
    "SOSMM2",
    "SODOSM",
    "SOSOSM",
    "CUSSM",
    "EXT",
    "EXR",
    "DC",
    "SDC",
]


@dataclass(frozen=True)
class Reference:
    name: str
    allcrit: Path
    h9: Path
    xml: Path


def _index(ref_root: Path) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for idx in (ref_root / "INDEX_main.csv", ref_root / "remote_latest" / "INDEX.csv"):
        with idx.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter=";"):
                out[row["file"]] = row
    return out


def _input_for(testdata: Path, folder: str, name: str) -> Path | None:
    og = testdata / "opengotha"
    if folder == "remote_latest":
        candidates = [og / "lucvannier" / "remote_latest" / f"{name}.xml"]
    elif folder == "lucvannier":
        base = og / "lucvannier" / "tournamentfiles"
        candidates = [base / f"{name}.xml", base / "work" / f"{name}.xml"]
    elif folder == "rgf":
        candidates = [og / "rgf" / f"{name}.xml"]
    else:
        candidates = sorted((testdata / "pairgoth").rglob(f"{name}.xml"))
    return next((c for c in candidates if c.is_file()), None)


def references(testdata: Path) -> Iterator[Reference]:
    """Every tournament with games and without the GAMES_DROPPED flag (testdata README)."""
    root = testdata / "opengotha-reference"
    index = _index(root)
    for allcrit in sorted(root.rglob("*.opengotha_allcrit.csv")):
        name = allcrit.name.removesuffix(".opengotha_allcrit.csv")
        row = index[name]
        if row["flag"] == "GAMES_DROPPED" or int(row["games_imported"] or 0) == 0:
            continue
        xml = _input_for(testdata, allcrit.parent.name, name)
        assert xml is not None, f"no input file for {name}"
        yield Reference(name, allcrit, allcrit.with_name(f"{name}.opengotha.h9"), xml)


def collected_references(testdata: Path) -> list[Reference]:
    """``references`` as a list for ``pytest.mark.parametrize`` (one test per tournament, so the
    parallel workers share them out); empty without the shared data."""
    return list(references(testdata)) if testdata.is_dir() else []


def reference_ids(refs: list[Reference]) -> list[str]:
    """The test ids: the tournament names, or one placeholder that the ``testdata`` fixture skips
    (or fails under CI) when the data is absent."""
    return [r.name for r in refs] or ["no-testdata"]

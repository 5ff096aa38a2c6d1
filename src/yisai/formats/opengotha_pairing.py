"""Read OpenGotha's pairing parameters from a tournament file, and write a round back.

``read_og_tournament`` reads the file with ``read_opengotha`` (players, games, scoring) and
adds the ``<PairingParameterSet>``, ``<HandicapParameterSet>`` and clubs groups, with
OpenGotha's defaults for missing attributes. Unlike OpenGotha, which silently falls back to a
default on an unreadable value, a bad value is an error naming the file, line, element and
attribute, so a director never pairs with a parameter he did not set.

``write_round`` returns the file with one round's games (and bye) replaced, as OpenGotha
writes them, so OpenGotha opens the result.
"""

from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from yisai.formats.limits import MAX_OPENGOTHA_BYTES, read_at_most
from yisai.formats.opengotha import (
    OpenGothaError,
    _Element,
    _read_elements,
    _Reader,
    read_opengotha,
)
from yisai.i18n import tr
from yisai.pairing.opengotha import (
    OGHandicapParameters,
    OGPairingParameters,
    OGRoundPairing,
    OGTournament,
)
from yisai.pairing.opengotha.params import DUDD_MODES, SEED_SYSTEMS
from yisai.standings.model import StandingsInput
from yisai.standings.opengotha import OGParameters, og_name
from yisai.vocabulary.rank import Rank

MAX_WEIGHT = 10**17  # OpenGotha's weights are Java longs; far below, the sums stay exact

# XML attribute → (field, kind) for the PairingParameterSet
_PAIRING_ATTRS: dict[str, tuple[str, str]] = {
    "paiStandardNX1Factor": ("nx1_factor", "factor"),
    "paiBaAvoidDuplGame": ("avoid_duplicate_game", "weight"),
    "paiBaRandom": ("random", "weight"),
    "paiBaDeterministic": ("deterministic", "bool"),
    "paiBaBalanceWB": ("balance_wb", "weight"),
    "paiMaAvoidMixingCategories": ("avoid_mixing_categories", "weight"),
    "paiMaMinimizeScoreDifference": ("minimize_score_difference", "weight"),
    "paiMaDUDDWeight": ("dudd_weight", "weight"),
    "paiMaCompensateDUDD": ("compensate_dudd", "bool"),
    "paiMaDUDDUpperMode": ("dudd_upper_mode", "dudd"),
    "paiMaDUDDLowerMode": ("dudd_lower_mode", "dudd"),
    "paiMaMaximizeSeeding": ("maximize_seeding", "weight"),
    "paiMaLastRoundForSeedSystem1": ("last_round_seed_system1", "round"),
    "paiMaSeedSystem1": ("seed_system1", "seed"),
    "paiMaSeedSystem2": ("seed_system2", "seed"),
    "paiMaAdditionalPlacementCritSystem1": ("additional_criterion1", "criterion"),
    "paiMaAdditionalPlacementCritSystem2": ("additional_criterion2", "criterion"),
    "paiSeRankThreshold": ("rank_threshold", "rank"),
    "paiSeNbWinsThresholdActive": ("nb_wins_threshold_active", "bool"),
    "paiSeBarThresholdActive": ("bar_threshold_active", "bool"),
    "paiSeDefSecCrit": ("default_secondary", "weight"),
    "paiSeMinimizeHandicap": ("minimize_handicap", "weight"),
    "paiSeAvoidSameGeo": ("avoid_same_geo", "weight"),
    "paiSePreferMMSDiffRatherThanSameCountry": ("mms_diff_rather_than_same_country", "small"),
    "paiSePreferMMSDiffRatherThanSameClub": ("mms_diff_rather_than_same_club", "small"),
    # written by OpenGotha up to 3.49, no longer read by 3.5x (a clubs group counts half a club)
    "paiSePreferMMSDiffRatherThanSameClubsGroup": ("mms_diff_rather_than_same_clubs_group", "small"),
}
_HANDICAP_ATTRS: dict[str, tuple[str, str]] = {
    "hdBasedOnMMS": ("based_on_mms", "bool"),
    "hdNoHdRankThreshold": ("no_handicap_rank_threshold", "rank"),
    "hdCorrection": ("correction", "small"),
    "hdCeiling": ("ceiling", "small"),
}


@dataclass(frozen=True, slots=True)
class OGTournamentFile:
    """An OpenGotha file read for pairing: the tournament as the pairing sees it, and the
    file's games and byes (``source.games``)."""

    source: StandingsInput
    tournament: OGTournament


class _ParamReader(_Reader):
    def value(self, el: _Element, attr: str, kind: str, default: object) -> object:
        raw = el.attrs.get(attr)
        if raw is None:
            return default
        text = raw.strip()
        if kind == "bool":
            if text.lower() not in ("true", "false"):
                raise self.fail(el, f"属性 {attr}={raw!r} 应为 true 或 false",
                                f"attribute {attr}={raw!r} must be true or false")
            return text.lower() == "true"
        if kind == "factor":
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if not 0.0 <= number <= 1.0:
                raise self.fail(el, f"属性 {attr}={raw!r} 应为0到1之间的小数 (如 0.5)",
                                f"attribute {attr}={raw!r} must be a number from 0 to 1 (e.g. 0.5)")
            return number
        if kind in ("weight", "small", "round"):
            number = self.int_attr(el, attr, 0)
            top = {"weight": MAX_WEIGHT, "small": 100, "round": 32}[kind]
            low = 1 if kind == "round" else 0
            if not low <= number <= top:
                raise self.fail(el, f"属性 {attr}={number} 应在{low}至{top}之间",
                                f"attribute {attr}={number} must be between {low} and {top}")
            return number
        if kind == "rank":
            return self.rank_attr(el, attr, "30K")
        allowed = {"dudd": DUDD_MODES, "seed": SEED_SYSTEMS}.get(kind)
        if allowed is not None:
            if text not in allowed:
                raise self.fail(el, f"属性 {attr}={raw!r} 应为 {' / '.join(allowed)} 之一",
                                f"attribute {attr}={raw!r} must be one of {', '.join(allowed)}")
            return text
        # placement criterion
        # pairgoth writes "None" for no criterion; OpenGotha's name is NULL
        name = "NULL" if text.upper() in ("NULL", "NONE", "") else og_name(text)
        if name is None:
            raise self.fail(el, f"属性 {attr}={raw!r} 不是 OpenGotha 的名次指标 (如 Rating、NULL)",
                            f"attribute {attr}={raw!r} is not an OpenGotha criterion (e.g. Rating, NULL)")
        return name


def _read_set(rd: _ParamReader, el: _Element | None, attrs: dict[str, tuple[str, str]],
              defaults: object) -> dict[str, object]:
    out: dict[str, object] = {}
    if el is None:
        return out
    unknown = sorted(set(el.attrs) - set(attrs))
    if unknown:  # a setting we would not apply: refused, never ignored
        raise rd.fail(el, f"未知的属性 {', '.join(unknown)} (yisai 按 OpenGotha 3.51 的参数读取, 不认识该项)",
                      f"unknown attribute {', '.join(unknown)} (yisai reads OpenGotha 3.51's "
                      "parameters and does not know it)")
    for attr, (name, kind) in attrs.items():
        out[name] = rd.value(el, attr, kind, getattr(defaults, name))
    if out.get("random") and out.get("deterministic") is False:
        raise rd.fail(el, f"paiBaDeterministic='false' 且 paiBaRandom={out['random']}: OpenGotha 此时每次"
                      "抽取不同的随机数, 无法复现; 请改为 paiBaDeterministic='true' 或 paiBaRandom='0'",
                      f"paiBaDeterministic='false' with paiBaRandom={out['random']}: OpenGotha then "
                      "draws a new random number each time, which cannot be reproduced; set "
                      "paiBaDeterministic='true' or paiBaRandom='0'")
    return out


OLD_DATA_RATING_SHIFT = 2050  # OpenGotha 3.51 adds it to ratings of files with dataVersion < 201
MAX_RATING = 2949  # OpenGotha's Player.MAX_RATING


def read_og_tournament(path: str | Path, data: bytes | None = None,
                       rules: str = "3.51") -> OGTournamentFile:
    """Read an OpenGotha file for pairing under OpenGotha's cost ``rules`` (``RULES``). Raises
    ``OpenGothaError`` naming file, line, element and attribute.

    OpenGotha 3.51 reads a file without ``dataVersion`` as version 200, whose ratings it
    shifts by +2050 (capped at 2949) when loading: with the 3.51 rules the pairing sees those
    ratings (they order the players inside a score group and number the tables)."""
    path = Path(path)
    source = read_opengotha(path, data)
    if data is None:
        data = read_at_most(path, MAX_OPENGOTHA_BYTES)
    elements = _read_elements(path, data)
    rd = _ParamReader(path)
    pairing_el = next((e for e in elements if e.tag == "PairingParameterSet"), None)
    handicap_el = next((e for e in elements if e.tag == "HandicapParameterSet"), None)
    pairing = OGPairingParameters(**_read_set(rd, pairing_el, _PAIRING_ATTRS,  # type: ignore[arg-type]
                                              OGPairingParameters()))
    handicap = OGHandicapParameters(**_read_set(rd, handicap_el, _HANDICAP_ATTRS,  # type: ignore[arg-type]
                                                OGHandicapParameters()))
    groups: list[frozenset[str]] = []
    current: list[str] | None = None
    for el in elements:
        if el.tag == "ClubsGroup":
            current = []
            groups.append(frozenset())
        elif el.tag == "Club" and current is not None:
            current.append(el.attrs.get("name", "Unnamed club").lower())
            groups[-1] = frozenset(current)
    params = source.opengotha
    assert isinstance(params, OGParameters)  # read_opengotha always sets it
    players = source.players
    if rules == "3.51" and "dataVersion" not in elements[0].attrs:
        players = tuple(
            dataclasses.replace(p, rating=min(MAX_RATING, p.rating + OLD_DATA_RATING_SHIFT))
            if p.rating is not None else p
            for p in players
        )
    tournament = OGTournament(
        players=players,
        params=params,
        pairing=pairing,
        handicap=handicap,
        clubs_groups=tuple(groups),
        rules=rules,
    )
    return OGTournamentFile(source=source, tournament=tournament)


def write_round(data: bytes, pairing: OGRoundPairing) -> bytes:
    """The file ``data`` with round ``pairing.round``'s games and bye replaced by the pairing's.

    Everything else is kept as it was; the attributes are those OpenGotha writes.
    """
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise OpenGothaError(tr(f"XML 格式错误: {exc}", f"malformed XML: {exc}")) from exc
    rnd = str(pairing.round)
    games = root.find("Games")
    if games is None:
        games = ET.Element("Games")
        players = root.find("Players")
        at = list(root).index(players) + 1 if players is not None else 0
        root.insert(at, games)
    for g in list(games):
        if g.tag == "Game" and g.get("roundNumber") == rnd:
            games.remove(g)
    for b in pairing.boards:
        ET.SubElement(games, "Game", {
            "blackPlayer": b.black, "handicap": str(b.handicap), "knownColor": "true",
            "result": "RESULT_UNKNOWN", "roundNumber": rnd, "tableNumber": str(b.table),
            "whitePlayer": b.white,
        })
    byes = root.find("ByePlayers")
    if byes is not None:
        for e in list(byes):
            if e.get("roundNumber") == rnd:
                byes.remove(e)
    if pairing.bye is not None:
        if byes is None:
            byes = ET.Element("ByePlayers")
            root.insert(list(root).index(games) + 1, byes)
        ET.SubElement(byes, "ByePlayer", {"player": pairing.bye, "roundNumber": rnd})
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n").encode()


def parameter_rows(tournament: OGTournament) -> list[tuple[str, str]]:
    """(XML attribute, value as OpenGotha writes it) of every pairing and handicap parameter."""
    rows = []
    for attrs, obj in ((_PAIRING_ATTRS, tournament.pairing), (_HANDICAP_ATTRS, tournament.handicap)):
        for attr, (name, kind) in attrs.items():
            value = getattr(obj, name)
            if kind == "bool":
                text = "true" if value else "false"
            elif kind == "rank":
                text = Rank(value).short.upper()
            else:
                text = str(value)
            rows.append((attr, text))
    return rows

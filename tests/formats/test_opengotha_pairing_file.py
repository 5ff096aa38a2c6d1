"""Reading OpenGotha's pairing parameters, writing a round back, and the command around them.

Hand-made files: four players, round 1 played (Alpha beat Bravo with White, Charlie beat Delta
with White). Round 2 by hand: winners meet (no rematch), losers meet; each pair has one player
who had White and one who had Black, and OpenGotha gives Black to the one with more Whites.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from yisai.cli.app import app
from yisai.formats.opengotha import OpenGothaError, read_opengotha
from yisai.formats.opengotha_pairing import parameter_rows, read_og_tournament, write_round
from yisai.i18n import use_language
from yisai.pairing.opengotha import (
    OGHandicapParameters,
    OGPairingError,
    OGPairingParameters,
    pair_og_round,
)
from yisai.services.errors import InputError, Refused
from yisai.services.opengotha_pairing import pair_opengotha_file

PLAYERS = [("Alpha", "Ann", "5K", 1500), ("Bravo", "Bob", "5K", 1490),
           ("Charlie", "Cy", "5K", 1480), ("Delta", "Di", "5K", 1470)]


def tournament_xml(pairing_attrs: str | None = 'paiBaDeterministic="true"',
                   handicap_attrs: str = 'hdCeiling="0" hdCorrection="0"',
                   round2: bool = False) -> str:
    players = "\n".join(
        f'<Player name="{n}" firstName="{f}" rank="{r}" rating="{rt}" club="C{k}" country="FR" '
        f'participating="11111111111111111111" registeringStatus="FIN"/>'
        for k, (n, f, r, rt) in enumerate(PLAYERS)
    )
    games = (
        '<Game roundNumber="1" tableNumber="1" whitePlayer="ALPHAANN" blackPlayer="BRAVOBOB" '
        'result="RESULT_WHITEWINS" handicap="0" knownColor="true"/>\n'
        '<Game roundNumber="1" tableNumber="2" whitePlayer="CHARLIECY" blackPlayer="DELTADI" '
        'result="RESULT_WHITEWINS" handicap="0" knownColor="true"/>'
    )
    if round2:
        games += ('\n<Game roundNumber="2" tableNumber="1" whitePlayer="ALPHAANN" '
                  'blackPlayer="CHARLIECY" result="RESULT_UNKNOWN" handicap="0" knownColor="true"/>')
    pairing = "" if pairing_attrs is None else f"<PairingParameterSet {pairing_attrs}/>"
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament dataVersion="201" fullVersionNumber="3.52.03">
<Players>
{players}
</Players>
<Games>
{games}
</Games>
<TournamentParameterSet>
<GeneralParameterSet name="Test" shortName="t" numberOfRounds="3" genMMBar="9D" genMMFloor="30K"/>
<HandicapParameterSet {handicap_attrs}/>
<PlacementParameterSet>
<PlacementCriterion name="NBW" number="1"/>
<PlacementCriterion name="SOSW" number="2"/>
</PlacementParameterSet>
{pairing}
</TournamentParameterSet>
</Tournament>
"""


def write(tmp_path: Path, text: str, name: str = "t.xml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_parameters_take_opengothas_defaults(tmp_path: Path) -> None:
    f = read_og_tournament(write(tmp_path, tournament_xml(pairing_attrs=None, handicap_attrs="")))
    assert f.tournament.pairing == OGPairingParameters()
    assert f.tournament.handicap == OGHandicapParameters()
    # OpenGotha's own defaults (ExternalDocument): balance 1000, seeding split-and-random then
    # split-and-fold, last round of system 1 = 2, rank threshold 4D, handicap ceiling 9
    p = f.tournament.pairing
    assert (p.balance_wb, p.seed_system1, p.seed_system2, p.last_round_seed_system1) == \
        (1000, "SPLITANDRANDOM", "SPLITANDFOLD", 2)
    assert p.rank_threshold == 3 and f.tournament.handicap.ceiling == 9


def test_every_parameter_has_its_attribute(tmp_path: Path) -> None:
    from dataclasses import fields

    t = read_og_tournament(write(tmp_path, tournament_xml())).tournament
    rows = dict(parameter_rows(t))
    assert len(rows) == len(fields(OGPairingParameters)) + len(fields(OGHandicapParameters))
    assert rows["paiBaDeterministic"] == "true" and rows["hdCeiling"] == "0"
    assert rows["paiSeRankThreshold"] == "4D"  # OpenGotha's default, written as OpenGotha does


def test_attributes_are_read(tmp_path: Path) -> None:
    attrs = ('paiBaBalanceWB="1000000" paiMaSeedSystem1="SPLITANDSLIP" paiMaDUDDUpperMode="BOT" '
             'paiMaAdditionalPlacementCritSystem1="Rating" paiMaAdditionalPlacementCritSystem2="NULL" '
             'paiSeRankThreshold="1D" paiStandardNX1Factor="0.25" paiMaLastRoundForSeedSystem1="3"')
    p = read_og_tournament(write(tmp_path, tournament_xml(attrs))).tournament.pairing
    assert (p.balance_wb, p.seed_system1, p.dudd_upper_mode) == (1_000_000, "SPLITANDSLIP", "BOT")
    assert (p.additional_criterion1, p.additional_criterion2) == ("RATING", "NULL")
    assert (p.rank_threshold, p.nx1_factor, p.last_round_seed_system1) == (0, 0.25, 3)


@pytest.mark.parametrize(
    ("attrs", "attribute", "zh", "en"),
    [
        ('paiBaDeterministic="yes"', "paiBaDeterministic", "应为 true 或 false", "must be true or false"),
        ('paiMaSeedSystem1="SPLIT"', "paiMaSeedSystem1", "应为 SPLITANDRANDOM", "must be one of"),
        ('paiMaDUDDLowerMode="MIDDLE"', "paiMaDUDDLowerMode", "应为 TOP", "must be one of"),
        ('paiStandardNX1Factor="2"', "paiStandardNX1Factor", "0到1之间", "from 0 to 1"),
        ('paiBaBalanceWB="lots"', "paiBaBalanceWB", "应为整数", "must be an integer"),
        ('paiBaAvoidDuplGame="-5"', "paiBaAvoidDuplGame", "应在0至", "must be between"),
        ('paiMaAdditionalPlacementCritSystem1="Height"', "paiMaAdditionalPlacementCritSystem1",
         "不是 OpenGotha 的名次指标", "is not an OpenGotha criterion"),
        ('paiSeRankThreshold="strong"', "paiSeRankThreshold", "不是段级位", "is not a rank"),
    ],
)
def test_bad_parameter_is_located(tmp_path: Path, attrs: str, attribute: str, zh: str,
                                  en: str) -> None:
    path = write(tmp_path, tournament_xml(attrs))
    line = next(k for k, text in enumerate(path.read_text().splitlines(), 1)
                if "<PairingParameterSet" in text)
    with pytest.raises(OpenGothaError) as exc:
        read_og_tournament(path)
    message = str(exc.value)
    assert f"{path}: 第{line}行 <PairingParameterSet>" in message and attribute in message
    assert zh in message
    with use_language("en"), pytest.raises(OpenGothaError) as exc:
        read_og_tournament(path)
    assert f"line {line} <PairingParameterSet>" in str(exc.value) and en in str(exc.value)


def test_bad_handicap_parameter_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, tournament_xml(handicap_attrs='hdBasedOnMMS="maybe"'))
    with pytest.raises(OpenGothaError, match="<HandicapParameterSet>: 属性 hdBasedOnMMS"):
        read_og_tournament(path)


def test_round_two_pairs_winners_with_winners(tmp_path: Path) -> None:
    f = read_og_tournament(write(tmp_path, tournament_xml()))
    result = pair_og_round(f.tournament, f.source.games, 2)
    assert result.bye is None
    assert [frozenset((b.white, b.black)) for b in result.boards] == \
        [frozenset(("ALPHAANN", "CHARLIECY")), frozenset(("BRAVOBOB", "DELTADI"))]
    assert [b.table for b in result.boards] == [1, 2]  # the winners' game on table 1


def test_colour_goes_to_balance(tmp_path: Path) -> None:
    """Alpha had White in round 1, Charlie Black: paired together, Charlie gets White."""
    text = tournament_xml().replace('whitePlayer="CHARLIECY" blackPlayer="DELTADI"',
                                    'whitePlayer="DELTADI" blackPlayer="CHARLIECY"')
    f = read_og_tournament(write(tmp_path, text))
    result = pair_og_round(f.tournament, f.source.games, 2, selected=["ALPHAANN", "CHARLIECY"])
    (board,) = result.boards
    assert (board.white, board.black, board.handicap) == ("CHARLIECY", "ALPHAANN", 0)


def test_write_round_round_trips(tmp_path: Path) -> None:
    source = write(tmp_path, tournament_xml())
    f = read_og_tournament(source)
    result = pair_og_round(f.tournament, f.source.games, 2)
    out = write(tmp_path, write_round(source.read_bytes(), result).decode("utf-8"), "out.xml")
    again = read_opengotha(out)
    assert [p.id for p in again.players] == [p.id for p in f.source.players]
    old = [g for g in f.source.games if g.round == 1]
    assert [g for g in again.games if g.round == 1] == old
    assert {(g.white, g.black, g.board, g.handicap) for g in again.games if g.round == 2} == \
        {(b.white, b.black, b.table, b.handicap) for b in result.boards}
    # the parameters survive: the written file pairs the same way
    assert read_og_tournament(out).tournament == f.tournament


def test_service_refuses_paired_round_and_later_rounds(tmp_path: Path) -> None:
    path = write(tmp_path, tournament_xml(round2=True))
    with pytest.raises(Refused, match="第2轮已有 1 局对局"):
        pair_opengotha_file(path, 2)
    with pytest.raises(Refused, match="第2轮已有对局, 不能再编排更早的第1轮"):
        pair_opengotha_file(path, 1)
    with pytest.raises(InputError, match="轮次 7 不在 1 至 3 之间"):
        pair_opengotha_file(path, 7)
    replaced = pair_opengotha_file(path, 2, replace=True)
    assert len(replaced.pairing.boards) == 2
    with pytest.raises(InputError, match="轮空选手 'NOBODY' 不在名单中"):
        pair_opengotha_file(path, 3, bye="NOBODY")


def test_cli_prints_and_writes(tmp_path: Path) -> None:
    path = write(tmp_path, tournament_xml())
    out_file = tmp_path / "r2.xml"
    result = CliRunner().invoke(app, ["--lang", "zh", "opengotha", "pair", str(path), "--round", "2",
                                      "-o", str(out_file), "--explain"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "台次" in result.output and "黑方" in result.output and "白方" in result.output
    assert "分差" in result.output and out_file.is_file()
    assert len([g for g in read_opengotha(out_file).games if g.round == 2]) == 2
    english = CliRunner().invoke(app, ["--lang", "en", "opengotha", "pair", str(path), "-r", "2"])
    assert english.exit_code == 0 and "Black" in english.output and "White" in english.output


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("<Tournament><Players>", "XML 格式错误"),
        (tournament_xml('paiMaSeedSystem2="FOLD"'), "paiMaSeedSystem2"),
    ],
)
def test_cli_bad_file_exits_2_with_location(tmp_path: Path, text: str, needle: str) -> None:
    path = write(tmp_path, text)
    result = CliRunner().invoke(app, ["--lang", "zh", "opengotha", "pair", str(path), "-r", "2"])
    output = result.output + (result.stderr or "")
    assert result.exit_code == 2, output
    assert str(path) in output and needle in output and "Traceback" not in output


def test_cli_rules_choose_opengothas_version(tmp_path: Path) -> None:
    """--rules 3.52 pairs as well; an unknown version is refused by name (exit 2)."""
    path = write(tmp_path, tournament_xml())
    ok = CliRunner().invoke(app, ["--lang", "zh", "opengotha", "pair", str(path), "-r", "2",
                                  "--rules", "3.52"])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(app, ["--lang", "zh", "opengotha", "pair", str(path), "-r", "2",
                                   "--rules", "3.6"])
    output = bad.output + (bad.stderr or "")
    assert bad.exit_code == 2 and "3.6" in output and "3.51 / 3.52" in output, output


def test_mcmahon_correction_beyond_opengothas_range_still_pairs(tmp_path: Path) -> None:
    """OpenGotha's GUI allows corrections −1..+2; a file may hold more. Such a player gets a
    score group of his own instead of OpenGotha's undefined (stale) group data."""
    text = tournament_xml().replace('name="NBW" number="1"', 'name="MMS" number="1"')
    text = text.replace('name="Alpha" firstName="Ann"', 'name="Alpha" firstName="Ann" smmsCorrection="5"')
    f = read_og_tournament(write(tmp_path, text))
    result = pair_og_round(f.tournament, f.source.games, 2)
    assert len(result.boards) == 2
    with pytest.raises(OGPairingError, match="没有可编排的选手"):
        pair_og_round(f.tournament, f.source.games, 2, selected=[])


def test_file_without_players_is_refused_not_crashed(tmp_path: Path) -> None:
    text = tournament_xml().split("<Players>")[0] + "<Players/><Games/>" + \
        tournament_xml().split("</Games>")[1]
    path = write(tmp_path, text)
    with pytest.raises(Refused, match="第1轮没有可编排的选手"):
        pair_opengotha_file(path, 1)

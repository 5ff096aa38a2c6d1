"""OpenGotha XML import: what it keeps, and errors that name file, line and element."""

from __future__ import annotations

import pytest

from yisai.formats.opengotha import OpenGothaError, og_rank, read_opengotha

HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201">\n<Players>\n'
GPS = (
    b'<TournamentParameterSet><GeneralParameterSet numberOfRounds="3" genMMBar="2D" genMMFloor="15K"'
    b' genNBW2ValueBye="2" genMMS2ValueAbsent="1" genRoundDownNBWMMS="false"/>'
    b'<PlacementParameterSet><PlacementCriteria><PlacementCriterion name="MMS" number="1"/>'
    b'<PlacementCriterion name="SOSM-1" number="2"/><PlacementCriterion name="DC" number="3"/>'
    b"</PlacementCriteria></PlacementParameterSet></TournamentParameterSet>"
)


def doc(players: bytes, games: bytes = b"", byes: bytes = b"") -> bytes:
    return (
        HEAD
        + players
        + b"</Players><Games>"
        + games
        + b"</Games><ByePlayers>"
        + byes
        + b"</ByePlayers>"
        + GPS
        + b"</Tournament>"
    )


P = (
    b'<Player name="Li" firstName="Lei" rank="3D" rating="2250" club="Beijing" participating="101"/>\n'
    b'<Player name="Wang" firstName="Fang" rank="12K" rating="1100" smmsCorrection="1"/>\n'
    b'<Player name="Zhao" firstName="Yun" rank="1k"/>\n'
)


def test_reads_players_games_byes_and_parameters(tmp_path):
    f = tmp_path / "t.xml"
    f.write_bytes(
        doc(
            P,
            b'<Game roundNumber="1" tableNumber="1" whitePlayer="LILEI" blackPlayer="WANGFANG" handicap="3" result="RESULT_WHITEWINS_BYDEF"/>',
            b'<ByePlayer roundNumber="1" player="ZHAOYUN"/>',
        )
    )
    inp = read_opengotha(f)
    li = inp.player("LILEI")
    assert li.rank is not None and str(li.rank) == "3段"
    assert li.absent_rounds >= {2}
    assert li.club == "Beijing"
    g = next(g for g in inp.games if g.white)
    assert (g.white, g.black, g.handicap, g.played) == ("LILEI", "WANGFANG", 3, False)
    assert any(g.white is None and g.black == "ZHAOYUN" for g in inp.games)
    params = inp.opengotha
    assert (params.mm_bar, params.mm_floor, params.nbw2_bye, params.mms2_absent) == (1, -15, 2, 1)
    assert params.round_down is False
    assert params.criteria[:3] == ("MMS", "SOSMM1", "DC")
    assert params.smms_correction == {"WANGFANG": 1}


def test_malformed_xml_names_line(tmp_path):
    f = tmp_path / "broken.xml"
    f.write_bytes(HEAD + b'<Player name="Li" firstName="Lei"\n rank="3D"<oops/>')
    with pytest.raises(OpenGothaError, match=r"broken.xml: 第\d+行.*XML"):
        read_opengotha(f)


def test_bad_attribute_names_element_and_line(tmp_path):
    f = tmp_path / "t.xml"
    f.write_bytes(
        doc(
            P,
            b'\n<Game roundNumber="one" tableNumber="1" whitePlayer="LILEI" blackPlayer="WANGFANG"/>',
        )
    )
    with pytest.raises(
        OpenGothaError, match=r"t.xml: 第\d+行 <Game>: 属性 roundNumber='one' 应为整数"
    ):
        read_opengotha(f)
    f.write_bytes(
        doc(
            P,
            b'<Game roundNumber="1" tableNumber="1" whitePlayer="LILEI" blackPlayer="WANGFANG" result="WHITE"/>',
        )
    )
    with pytest.raises(OpenGothaError, match=r"<Game>: 未知的结果 result='WHITE'"):
        read_opengotha(f)
    f.write_bytes(doc(b'<Player name="Li" firstName="Lei" rank="strong"/>'))
    with pytest.raises(OpenGothaError, match=r"<Player>: 选手 Li Lei 的段级位"):
        read_opengotha(f)


def test_duplicates_and_unknown_players_are_skipped_like_opengotha(tmp_path):
    f = tmp_path / "t.xml"
    f.write_bytes(
        doc(
            P + b'<Player name="LI" firstName="lei" rank="5D"/>',
            b'<Game roundNumber="1" tableNumber="1" whitePlayer="LILEI" blackPlayer="NOBODY"/>',
        )
    )
    inp = read_opengotha(f)
    assert len(inp.players) == 3
    assert inp.games == ()
    assert any("同名" in w for w in inp.warnings) and any("NOBODY" in w for w in inp.warnings)


def test_not_an_opengotha_file(tmp_path):
    f = tmp_path / "x.xml"
    f.write_bytes(b"<html/>")
    with pytest.raises(OpenGothaError, match="不是 OpenGotha 文件"):
        read_opengotha(f)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7D", 6),
        ("1d", 0),
        ("1K", -1),
        ("30k", -30),
        ("35k", -30),
        ("3P", 6),
        ("9p", 8),
        ("12", -12),
        ("x", -99),
    ],
)
def test_opengotha_rank_codes(text, value):
    assert og_rank(text) == value

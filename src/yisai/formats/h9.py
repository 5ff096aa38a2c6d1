"""EGD results files (h9): read them as a ``StandingsInput`` and write them from standings.

Reading follows the EGD's description, whatever program wrote the file: ``place surname name
grade [country] club criterion-values… one cell per round [|PIN]`` with any column widths, a
column header or none, game cells with or without colour (``37+``), a bare kyu grade (``10``).
OpenGotha's fixed columns are used only where a row is exactly in OpenGotha's layout. A file
that cannot be read with certainty (rows with different numbers of rounds or values, a header
that does not match the rows, an unreadable cell) is refused with the line and the reason.

Writing uses OpenGotha's layout (``ExternalDocument.generateH9File``), which the European Go Database
accepts: ISO-8859-15 text, ``;`` header lines (CL EV PC DT HA KM TM CM), a column header naming
the placement criteria, then one line per player in final order:

    place name(30) rank country club criteria… then one half-game per round

A half-game is ``<opponent line><result>[/|!][w|b|?][handicap]``: ``/`` a game played, ``!`` by
default (forfeit), ``0+`` a round without opponent (bye or absence). Ex-aequo places are blank.
Characters ISO-8859-15 lacks (Chinese names, ½) are written as ``?`` exactly as OpenGotha does;
export a romanised name if the EGD should show it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from yisai.formats.limits import MAX_H9_BYTES, MAX_H9_LINE_CHARS, MAX_H9_LINES, MB, read_at_most
from yisai.i18n import tr
from yisai.record import Game, Result
from yisai.standings.model import StandingsInput, StandingsPlayer
from yisai.standings.opengotha import OGParameters, og_name
from yisai.standings.ranking import Standings
from yisai.vocabulary.rank import Rank

ENCODING = "iso-8859-15"

_RANK = re.compile(r"^(\d{1,2})([kKdDpP])$")

#: Short names OpenGotha prints in the h9 column header, and ours for Chinese criteria.
H9_SHORT_NAMES: dict[str, str] = {
    "NBW": "NBW",
    "MMS": "MMS",
    "CPS": "CPS",
    "STS": "STS",
    "SOSW": "SOS",
    "SOSM": "SOS",
    "SOSWM1": "SOS-1",
    "SOSMM1": "SOS-1",
    "SOSWM2": "SOS-2",
    "SOSMM2": "SOS-2",
    "SODOSW": "SODOS",
    "SODOSM": "SODOS",
    "SOSOSW": "SOSOS",
    "SOSOSM": "SOSOS",
    "CUSSW": "CUSS",
    "CUSSM": "CUSS",
    "SOSTS": "SOSTS",
    "EXT": "EXT",
    "EXR": "EXR",
    "DC": "DC",
    "SDC": "SDC",
    "RANK": "Rank",
    "RATING": "Ratin",
    "CAT": "CAT",
    # Chinese criteria (yisai names) in EGD-friendly form
    "score": "Pts",
    "total_score": "Total",
    "sos": "SOS",
    "cumulative": "CUSS",
    "sodos": "SODOS",
    "wins": "NBW",
    "white_wins": "WNBW",
    "opp_cumulative": "OCUSS",
    "sosos": "SOSOS",
    "sos_minus1": "SOS-1",
    "sos_minus2": "SOS-2",
    "sos_cut": "SOSC",
    "sos_cut_from_last": "SOSCL",
    "previous_scores": "PREV",
    "rank": "Rank",
    "rating": "Ratin",
    "lot": "Lot",
}


class H9Error(ValueError):
    """An h9 file that cannot be read; the message names file and line."""


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    place: int
    name: str
    first: str
    rank: int
    country: str
    club: str
    games: list[tuple[int, str, str, str, int]]  # opponent, result, type, colour, handicap
    n_values: int = 0  # criterion values between the club and the first game


# A game cell: opponent, result, then optionally "/" (played) or "!" (by default), colour and
# handicap: 12+/w0, 3-/b2, 37+ (no colour), 30? (result unknown), 0+ (bye), 0- (absent).
_GAME = re.compile(r"^(\d+)([+\-=?])([/!]?)([wbWB?]?)(\d*)$")
# Where the games start is plain unless a cell reads "30?": OpenGotha also writes ½ as "?" in
# criterion columns ("408?"), so only a cell that cannot be a value starts the games.
_FIRST_GAME = re.compile(r"^\d+(?:[+\-=]|\?[/!wbWB])")
_VALUE = re.compile(r"^-?\d+(?:[.,]\d+)?(?:½|¼|¾|\?)?$")  # a criterion value: 12, 12.5, 12½, 12?
_BARE_KYU = re.compile(r"^\d{1,2}$")
_PIN = re.compile(r"^\d*$")
_HEADER_WORDS = {"PL", "PLACE", "NAME", "NAMES", "SURNAME", "FIRSTNAME", "RK", "RANK", "GRADE",
                 "GR", "STR", "STRENGTH", "LEVEL", "CO", "COUNTRY", "CLUB", "CL", "CITY"}
#: Criterion names other programs print, mapped to the names OpenGotha's reader knows.
_HEADER_ALIASES = {"MM": "MMS", "MMSCORE": "MMS", "SDOS": "SODOS", "SOSOSO": "SOSOS",
                   "SOSO": "SOSOS", "WINS": "NBW", "W": "NBW", "PTS": "NBW", "PT": "NBW"}


def _og_rank(text: str) -> int | None:
    """OpenGotha's rank number (1d = 0, 1k = -1) of 5d, 3K, 1p; a bare number is a kyu grade."""
    if _BARE_KYU.match(text):
        num = int(text)
        return -num if 1 <= num <= 30 else None
    m = _RANK.match(text)
    if not m:
        return None
    num, unit = int(m.group(1)), m.group(2).lower()
    if num == 0:
        return None
    if unit == "k":
        return max(-30, -num)
    if unit == "d":
        return min(8, num - 1)
    return 6 if num <= 3 else 7 if num <= 6 else 8


def _criteria_from_header(line: str) -> list[str]:
    """Criterion names of the column header.

    OpenGotha writes 5 characters per name with no separator ('; Pl Name … Club  MMS  SOSSOSOS'
    → MMS, SOS, SOSOS); other programs separate names by spaces and may go on with round
    numbers ('; Pl Name Grade Co Club MMS SOS SDOS 1 2 3' → MMS, SOS, SDOS).
    """
    if _is_opengotha_header(line):
        tail = line[line.find("Club") + 4 :]
        return [tail[k : k + 5].strip() for k in range(0, len(tail), 5) if tail[k : k + 5].strip()]
    words = line.lstrip(";").split()
    # The criteria follow the last identity column (Club, else Co, else the grade column).
    last = max((k for k, w in enumerate(words) if w.upper().rstrip(".") in _HEADER_WORDS), default=-1)
    out = []
    for w in words[last + 1 :]:
        if w.isdigit():  # round numbers: the games start here
            break
        out.append(w)
    return out


def _header_rounds(line: str) -> int | None:
    """How many round columns a space-separated header numbers (1 2 3 …), if it numbers them."""
    if _is_opengotha_header(line):
        return None
    numbers = [w for w in line.lstrip(";").split() if w.isdigit()]
    return len(numbers) if numbers and numbers == [str(k) for k in range(1, len(numbers) + 1)] else None


def _is_opengotha_header(line: str) -> bool:
    return line.startswith("; Pl Name") and line.find(" Rk Co Club") == 36


def _is_column_header(line: str) -> bool:
    words = line.lstrip(";").split()
    return len(words) >= 2 and words[0].upper().rstrip(".") in ("PL", "PLACE", "NR", "NO") and any(
        w.upper() in ("NAME", "NAMES", "SURNAME") for w in words[1:3]
    )


def _decode(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8 (newer programs), else ISO-8859-15 (OpenGotha)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode(ENCODING)


def read_h9(path: str | Path, data: bytes | None = None) -> StandingsInput:
    """Parse an EGD results file (h9). Raises H9Error naming file, line and reason.

    Read as the EGD describes the format: ``place surname name grade [country] club
    criteria… games… [|PIN]``, with any column widths, game cells with or without colour, and
    with or without a column header. Anything that cannot be read with certainty is refused:
    standings are never computed from a misread file.
    """
    path = Path(path)
    if data is None:
        try:
            data = read_at_most(path, MAX_H9_BYTES)
        except OSError as exc:
            raise H9Error(
                tr(
                    f"{path}: 无法读取文件 ({exc.strerror})",
                    f"{path}: cannot read ({exc.strerror})",
                )
            ) from exc
    _check_size(path, data)
    text = _decode(data)
    meta: dict[str, str] = {}
    crit_names: list[str] = []
    header_line: str | None = None
    header_no = 0
    rows: list[_Row] = []
    place = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if len(line) > MAX_H9_LINE_CHARS:
            raise _fail(path, lineno, f"一行超过 {MAX_H9_LINE_CHARS} 个字符 (一名选手的行不到 500 个字符), 未读取",
                        f"a line longer than {MAX_H9_LINE_CHARS} characters (a player's line is under 500);"
                        " nothing was read")
        if line.lstrip().startswith(";"):
            m = re.match(r"^;\s*([A-Z]{2})\[(.*)\]\s*$", line)
            if m:
                meta[m.group(1)] = m.group(2)
            elif _is_column_header(line):
                header_line, header_no = line, lineno
                crit_names = _criteria_from_header(line)
            continue
        row = _read_row(path, lineno, line, place, _values_expected(header_line, crit_names))
        place = row.place
        rows.append(row)
    if not rows:
        raise H9Error(tr(f"{path}: 没有选手行", f"{path}: no player lines"))
    _check_columns(path, rows, header_line, header_no, crit_names)
    return _build(path, rows, meta, crit_names)


def _check_size(path: Path, data: bytes) -> None:
    """Size and line count within the stated limits, before any line is read."""
    if len(data) > MAX_H9_BYTES:
        raise H9Error(tr(
            f"{path}: 文件超过 h9 文件的上限 {MAX_H9_BYTES // MB} MB ({MAX_H9_BYTES} 字节), 未读取",
            f"{path}: the file is over the limit of {MAX_H9_BYTES // MB} MB ({MAX_H9_BYTES} bytes) for an"
            " h9 file; nothing was read",
        ))
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")  # LF, CRLF or CR alone
    lines = ends + (0 if data.endswith((b"\n", b"\r")) or not data else 1)
    if lines > MAX_H9_LINES:
        raise H9Error(tr(
            f"{path}: 文件有 {lines} 行, 超过 h9 文件的上限 {MAX_H9_LINES} 行, 未读取",
            f"{path}: the file has {lines} lines, over the limit of {MAX_H9_LINES} for an h9 file;"
            " nothing was read",
        ))


def _fail(path: Path, lineno: int, zh: str, en: str) -> H9Error:
    return H9Error(tr(f"{path}: 第{lineno}行: {zh}", f"{path}: line {lineno}: {en}"))


def _read_row(
    path: Path, lineno: int, line: str, previous_place: int, n_expected: int | None = None
) -> _Row:
    """One player row. ``n_expected`` is the number of criterion values when the header says
    it; otherwise the values run up to the first cell that can only be a game."""
    body, bar, pin = line.partition("|")
    if bar and not _PIN.match(pin.strip()):
        raise _fail(path, lineno, f"“|”后应为 EGD PIN (数字), 实为 {pin.strip()!r}",
                    f"after '|' an EGD PIN (digits) is expected, not {pin.strip()!r}")
    body = body.rstrip()
    fixed = _fixed_columns(body)
    if fixed is not None:  # OpenGotha's layout: columns are positional (clubs may hold spaces)
        place_text, names, rank, country, club, rest = fixed
        place = int(place_text) if place_text else previous_place
    else:
        tokens = body.split()
        place = previous_place
        if tokens and tokens[0].isdigit():
            place = int(tokens.pop(0))
        elif tokens and re.match(r"^\d+[.)]$", tokens[0]):  # "1." or "1)"
            place = int(tokens.pop(0)[:-1])
        k_rank = next((k for k, t in enumerate(tokens) if k > 0 and _og_rank(t) is not None), None)
        if k_rank is None:
            raise _fail(path, lineno, "找不到段级位 (如 3k、2d、10) 或姓名栏",
                        "no rank (e.g. 3k, 2d, 10) or no name column")
        names = [t.replace("_", " ") for t in tokens[:k_rank]]
        token_rank = _og_rank(tokens[k_rank])
        assert token_rank is not None
        rank = token_rank
        after = tokens[k_rank + 1 :]
        k_value = next((k for k, t in enumerate(after) if _VALUE.match(t) or _GAME.match(t)), len(after))
        words, rest = after[:k_value], after[k_value:]
        if not words:
            raise _fail(path, lineno, f"段级位 {tokens[k_rank]} 之后缺少国家/俱乐部栏",
                        f"no country/club column after the rank {tokens[k_rank]}")
        country, club = (words[0], " ".join(words[1:])) if len(words) > 1 else ("", words[0])
    if place <= 0:
        raise _fail(path, lineno, "缺少名次 (第一行须有名次)", "no place (the first row must have one)")
    n_values = 0
    while n_values < len(rest) and (
        n_values < n_expected if n_expected is not None else not _FIRST_GAME.match(rest[n_values])
    ):
        if not _VALUE.match(rest[n_values]):
            raise _fail(path, lineno, f"{rest[n_values]!r} 既不是名次指标数值, 也不是对局 (应如 12+/w0、37+、0+)",
                        f"{rest[n_values]!r} is neither a criterion value nor a game (e.g. 12+/w0, 37+, 0+)")
        n_values += 1
    if n_expected is not None and n_values < n_expected:
        raise _fail(path, lineno, f"只有{n_values}个名次指标数值, 表头列出{n_expected}项",
                    f"only {n_values} criterion values; the header names {n_expected}")
    games = []
    for t in rest[n_values:]:
        m = _GAME.match(t)
        if not m:
            raise _fail(path, lineno, f"对局 {t!r} 格式不对 (应如 12+/w0、3-/b2、37+、0+)",
                        f"half-game {t!r} malformed (e.g. 12+/w0, 3-/b2, 37+, 0+)")
        opp, res, typ, col, hd = m.groups()
        games.append((int(opp), res, typ, col.lower(), int(hd or 0)))
    if not names:
        raise _fail(path, lineno, "缺少姓名", "no name")
    return _Row(lineno, place, names[0], " ".join(names[1:]), rank, country, club, games, n_values)


def _values_expected(header: str | None, crit_names: list[str]) -> int | None:
    """Criterion values per row as the header says: OpenGotha pads them to at least 4."""
    if header is None:
        return None
    if _is_opengotha_header(header):
        return max(len(crit_names), 4)
    return len(crit_names)


def _check_columns(
    path: Path, rows: list[_Row], header: str | None, header_no: int, crit_names: list[str]
) -> None:
    """Every row has the same number of values and of rounds, and agrees with the header."""
    first = rows[0]
    for r in rows[1:]:
        if len(r.games) != len(first.games):
            raise _fail(path, r.line, f"有{len(r.games)}个对局栏, 而第{first.line}行有{len(first.games)}个 (各行轮数须相同)",
                        f"{len(r.games)} game columns, line {first.line} has {len(first.games)} (every row needs every round)")
        if r.n_values != first.n_values:
            raise _fail(path, r.line, f"有{r.n_values}个名次指标数值, 而第{first.line}行有{first.n_values}个",
                        f"{r.n_values} criterion values, line {first.line} has {first.n_values}")
    if not first.games:
        raise _fail(path, first.line, "没有对局栏 (应如 12+/w0、37+、0+)", "no game columns (e.g. 12+/w0, 37+, 0+)")
    if header is None:
        return
    rounds = _header_rounds(header)
    if rounds is not None and rounds != len(first.games):
        raise _fail(path, first.line, f"有{len(first.games)}个对局栏, 但第{header_no}行表头列出{rounds}轮",
                    f"{len(first.games)} game columns, the header on line {header_no} numbers {rounds} rounds")


def _fixed_columns(line: str) -> tuple[str, list[str], int, str, str, list[str]] | None:
    """Split an OpenGotha-layout line: place(4) name(30) rank(3) country(2) club(4) rest.

    Only when every fixed column is where OpenGotha puts it (the name starting right after the
    place column, the rank at columns 37–39), so no other layout ever has letters cut off.
    """
    if len(line) < 48 or line[4] != " " or line[35] != " " or line[39] != " " or line[42] != " ":
        return None
    place = line[:4].strip()
    if not _RANK.match(line[36:39].strip()):  # OpenGotha always writes the unit (7K, 2D, 1P)
        return None
    rank = _og_rank(line[36:39].strip())
    name = line[5:35].strip()
    if rank is None or not name or line[5] == " " or (place and not place.isdigit()):
        return None
    if line[47:48].strip():  # the club column is 4 wide; something glued to it is not this layout
        return None
    names = [t.replace("_", " ") for t in name.split()]
    return place, names, rank, line[40:42].strip(), line[43:47].strip(), line[47:].split()


def _build(
    path: Path, rows: list[_Row], meta: dict[str, str], crit_names: list[str]
) -> StandingsInput:
    from yisai.formats.opengotha import key_string

    ids = _unique_ids([key_string(r.name, r.first) for r in rows])
    rounds = max(len(r.games) for r in rows)
    games: list[Game] = []
    absent: dict[int, set[int]] = {}
    done: set[tuple[int, int, int]] = set()
    busy: set[tuple[int, int]] = set()
    warnings: list[str] = []
    for i, row in enumerate(rows):
        for rnd, (opp, res, typ, col, hd) in enumerate(row.games, start=1):
            if opp == 0:
                if res == "+":
                    games.append(Game(rnd, ids[i], None, Result.BLACK_WINS, played=False))
                else:
                    absent.setdefault(i, set()).add(rnd)
                continue
            j = opp - 1
            if not 0 <= j < len(rows):
                raise H9Error(
                    tr(
                        f"{path}: 第{row.line}行: 第{rnd}轮对手编号 {opp} 超出选手行数 {len(rows)}",
                        f"{path}: line {row.line}: round {rnd} opponent {opp} beyond {len(rows)} players",
                    )
                )
            pair = (rnd, min(i, j), max(i, j))
            if pair in done:
                continue  # already built from the opponent's line
            done.add(pair)
            other = rows[j].games[rnd - 1] if rnd - 1 < len(rows[j].games) else None
            if other is None or other[0] != i + 1:
                warnings.append(
                    tr(
                        f"第{row.line}行: 第{rnd}轮对手 {opp} 的行没有写回本选手 {i + 1}",
                        f"line {row.line}: round {rnd}: opponent {opp} does not list player {i + 1}",
                    )
                )
                other = (i + 1, {"+": "-", "-": "+"}.get(res, res), typ, "", hd)
            if (i, rnd) in busy or (j, rnd) in busy:
                warnings.append(
                    tr(
                        f"第{row.line}行: 第{rnd}轮选手已有对局, 这盘 (对手 {opp}) 不计",
                        f"line {row.line}: round {rnd}: player already paired; game with {opp} ignored",
                    )
                )
                continue
            busy.update({(i, rnd), (j, rnd)})
            i_white = col != "b"
            white, black = (ids[i], ids[j]) if i_white else (ids[j], ids[i])
            mine, theirs = res, other[1]
            if mine == "=":
                result = Result.DRAW
            elif mine == "+" and theirs == "+":
                result = Result.BOTH_WIN
            elif mine == "-" and theirs == "-":
                result = Result.BOTH_LOSE
            elif mine == "+":
                result = Result.WHITE_WINS if i_white else Result.BLACK_WINS
            elif mine == "-":
                result = Result.BLACK_WINS if i_white else Result.WHITE_WINS
            else:
                result = Result.UNKNOWN
            games.append(Game(rnd, black, white, result, played=typ != "!", handicap=hd, board=0))
    players = tuple(
        StandingsPlayer(
            id=ids[i],
            name=f"{r.name} {r.first}".strip(),
            club=r.club,
            rank=Rank(r.rank),
            country=r.country,
            first_name=r.first,
            last_name=r.name,
            absent_rounds=frozenset(absent.get(i, set())),
        )
        for i, r in enumerate(rows)
    )
    crit_names = [_HEADER_ALIASES.get(n.upper(), n) for n in crit_names]
    use_mms = "MMS" in crit_names
    crits = []
    unknown = []
    for name in crit_names:
        if name == "SOS-1":
            name = "SOSMM1" if use_mms else "SOSWM1"
        elif name == "SOS-2":
            name = "SOSMM2" if use_mms else "SOSWM2"
        elif name in ("SOS", "SOSOS", "SODOS", "CUSS"):
            name = {"SOS": "SOS", "SOSOS": "SOSOS", "SODOS": "SODOS", "CUSS": "CUSS"}[name] + (
                "M" if use_mms else "W"
            )
        canon = og_name(name)
        if canon:
            crits.append(canon)
        else:
            unknown.append(name)
    if unknown:
        warnings.append(
            tr(
                f"表头中的 {'、'.join(unknown)} 不是已知的名次指标, 排名时不用",
                f"header column(s) {', '.join(unknown)} are not known criteria; not used for ranking",
            )
        )
    if use_mms:
        warnings.append(
            tr(
                "h9 文件不含麦克马洪参数: MMS 按 OpenGotha 默认 (上限 4段, 下限 20级) 由段位计算",
                "h9 files carry no McMahon settings: MMS uses OpenGotha's defaults (bar 4d, floor 20k)",
            )
        )
    params = OGParameters(
        number_of_rounds=rounds,
        nbw2_bye=2,
        mms2_bye=2,
        criteria=tuple(crits) or ("NBW", "SOSW", "SOSOSW"),
    )
    return StandingsInput(
        players=players,
        games=tuple(games),
        rounds=rounds,
        title=meta.get("EV", path.stem),
        opengotha=params,
        source=str(path),
        meta={
            "name": meta.get("EV", ""),
            "location": meta.get("PC", "").lstrip(","),
            "komi": meta.get("KM", ""),
            "dates": meta.get("DT", ""),
            "class": meta.get("CL", ""),
        },
        warnings=tuple(warnings),
    )


def _unique_ids(keys: list[str]) -> list[str]:
    """Player keys, with a suffix where two rows carry the same name (each row is a player)."""
    seen: dict[str, int] = {}
    out = []
    for k in keys:
        n = seen.get(k, 0) + 1
        seen[k] = n
        out.append(k if n == 1 else f"{k}#{n}")
    return out


def egf_header(meta: dict[str, str]) -> dict[str, str]:
    """CL, TM, CM and HA as OpenGotha derives them from the time and handicap settings."""
    out: dict[str, str] = {}

    def num(key: str, default: int) -> int:
        try:
            return int(meta.get(key, "") or default)
        except ValueError:
            return default

    system = meta.get("time_system", "")
    if not system:
        return out
    bt = num("basic_time", 60) * 60
    at = bt
    if system == "STDBYOYOMI":
        at = bt + 45 * num("std_byoyomi_time", 30)
    elif system == "CANBYOYOMI":
        at = bt + (60 * num("can_byoyomi_time", 300)) // max(1, num("nb_moves_can_time", 15))
    elif system == "FISCHER":
        at = bt + 120 * num("fischer_time", 5)
    cls = "X"
    if meta.get("internet", "false") == "true":
        if system in ("SUDDENDEATH", "STDBYOYOMI", "CANBYOYOMI") and bt >= 2400 and at >= 3000:
            cls = "D"
        if system == "FISCHER" and bt >= 1800 and at >= 3000:
            cls = "D"
    elif system == "FISCHER":
        for b_min, a_min, c in ((1200, 1800, "C"), (1800, 3000, "B"), (2700, 4500, "A")):
            if bt >= b_min and at >= a_min:
                cls = c
    else:
        for b_min, a_min, c in ((1500, 1800, "C"), (2400, 3000, "B"), (3600, 4500, "A")):
            if bt >= b_min and at >= a_min:
                cls = c
    out["CL"] = cls
    out["TM"] = str(at // 60)
    out["CM"] = {
        "SUDDENDEATH": "Sudden death",
        "STDBYOYOMI": "Standard byo-yomi",
        "CANBYOYOMI": "Canadian byo-yomi",
        "FISCHER": "Fischer",
    }.get(system, "")
    hc = num("hd_correction", 1)
    if hc > 0:
        out["HA"] = f"h{hc}"
    return out


def _og_score_text(value: object) -> str:
    """OpenGotha's formatScore: integer part then ½ ¼ ¾ (truncating like Java)."""
    first = (value[0] if value else 0) if isinstance(value, tuple) else value
    frac = Fraction(first) if isinstance(first, int | float | Fraction | str) else Fraction(0)
    whole = int(frac)  # truncates toward zero, as Java's integer division
    rest = frac - whole
    suffix = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}.get(rest, "")
    return f"{whole}{suffix}"


def _fixed(text: str, width: int) -> str:
    text = text.strip()[:width]
    return text.rjust(width)


def write_h9(
    inp: StandingsInput,
    standings: Standings,
    keep_by_default: bool = False,
    header: dict[str, str] | None = None,
) -> bytes:
    """The h9 text (ISO-8859-15 bytes) of ``standings`` over the games of ``inp``.

    Players with no game and no bye are left out, as OpenGotha does. Forfeit games are written
    as ``0=`` (OpenGotha's export, what the EGD wants for ratings) unless ``keep_by_default``.
    """
    r_last = standings.round
    implied = {g.black for g in inp.games} | {g.white for g in inp.games if g.white}
    rows = [row for row in standings.rows if row.player.id in implied]
    pos = {row.player.id: k + 1 for k, row in enumerate(rows)}
    keys = standings.shown_keys
    meta = dict(inp.meta)
    head = {**egf_header(meta), **(header or {})}
    komi = head.get("KM", meta.get("komi", ""))
    begin = meta.get("begin_date", "")
    end = meta.get("end_date", begin)
    lines = [
        f"; CL[{head.get('CL', meta.get('class', '') or 'X')}]",
        f"; EV[{head.get('EV', meta.get('name', '') or inp.title)}]",
        f"; PC[{head.get('PC', ',' + meta.get('location', ''))}]",
        f"; DT[{head.get('DT', meta.get('dates', '') or f'{begin},{end}')}]",
    ]
    if "HA" in head:
        lines.append(f"; HA[{head['HA']}]")
    lines += [f"; KM[{komi}]"]
    if "TM" in head:
        lines.append(f"; TM[{head['TM']}]")
    if "CM" in head:
        lines.append(f"; CM[{head['CM']}]")
    lines += ["; Generated by yisai (弈赛)", ";"]
    names = "".join(_fixed(H9_SHORT_NAMES.get(k.key, k.key), 5) for k in keys) or " NULL"
    lines.append("; Pl Name                            Rk Co Club" + names)

    by_round: dict[str, dict[int, Game]] = {}
    for g in inp.games:
        if g.round > r_last:
            continue
        by_round.setdefault(g.black, {})[g.round] = g
        if g.white is not None:
            by_round.setdefault(g.white, {})[g.round] = g

    full_format = meta.get("game_format", "full") != "short"
    prev_place = None
    for k, row in enumerate(rows):
        p = row.player
        # places are positions in the printed list (non-players left out), blank when ex aequo
        shown_place = "" if row.place == prev_place else str(k + 1)
        prev_place = row.place
        last, first = (p.last_name or p.name), p.first_name
        full = f"{last.replace(' ', '_')} {first.replace(' ', '_')}".strip()
        rank = p.rank.short.upper() if p.rank is not None else "30K"
        country = p.country.strip() if len(p.country.strip()) >= 2 else "XX"
        club = p.club[:4].strip() or "xxxx"  # OpenGotha keeps 4 characters of a club
        line = shown_place.rjust(4)[-4:] + " " + (full + " " * 30)[:30] + " "
        line += rank.rjust(3)[-3:] + " " + country.rjust(2)[-2:] + " " + club.rjust(4)[-4:]
        for v in [row.values.get(k.key, 0) for k in keys] or [0]:
            line += " " + _fixed(_og_score_text(v), 4)
        for _ in range(max(len(keys), 1), 4):
            line += " 0"
        for rnd in range(1, r_last + 1):
            game = by_round.get(p.id, {}).get(rnd)
            line += " " + _half_game(inp, p, game, rnd, pos, keep_by_default, full_format)
        lines.append(line)
    return ("\n".join(lines) + "\n").encode(ENCODING, errors="replace")


def _half_game(
    inp: StandingsInput,
    p: StandingsPlayer,
    g: Game | None,
    rnd: int,
    pos: dict[str, int],
    keep_by_default: bool,
    full_format: bool = True,
) -> str:
    if g is None or g.white is None:
        if g is not None:  # bye
            points = _unpaired_points(inp, bye=True)
        elif rnd in p.absent_rounds:
            points = _unpaired_points(inp, bye=False)
        else:
            points = 0
        res = "+" if points == 2 else "=" if points == 1 else "-"
        text = "   0" + res + "   "
        return text[-8:]
    opp = g.white if g.black == p.id else g.black
    assert opp is not None
    out = g.outcome_for(p.id)
    res = {"W": "+", "L": "-", "D": "=", "?": "?"}[out]
    typ = "/" if g.played or g.result == Result.UNKNOWN else "!"
    col = "w" if g.white == p.id else "b"
    text = f"{pos.get(opp, 0):>4}{res}{typ}{col}{g.handicap}"
    if not full_format:  # short format has no "!" marker, so forfeits stay (as in OpenGotha)
        return ("        " + f"{pos.get(opp, 0):>4}{res}")[-8:]
    text = ("        " + text)[-8:]
    if typ == "!" and not keep_by_default:
        return "      0="
    return text


def _unpaired_points(inp: StandingsInput, bye: bool) -> int:
    """Points shown for a round without opponent (McMahon files show the MMS value)."""
    params = inp.opengotha
    if isinstance(params, OGParameters):
        mcmahon = "MMS" in params.criteria
        if bye:
            return params.mms2_bye if mcmahon else params.nbw2_bye
        return params.mms2_absent if mcmahon else params.nbw2_absent
    return inp.scoring.points("bye" if bye else "absent", "W")

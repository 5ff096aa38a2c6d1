"""EGD results files (h9): read them as a ``StandingsInput`` and write them from standings.

The layout is OpenGotha's (``ExternalDocument.generateH9File``), which the European Go Database
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

from yisai.i18n import tr
from yisai.record import Game, Result
from yisai.registry.rank import Rank
from yisai.standings.model import StandingsInput, StandingsPlayer
from yisai.standings.opengotha import OGParameters, og_name
from yisai.standings.ranking import Standings

ENCODING = "iso-8859-15"

_RANK = re.compile(r"^(\d{1,2})([kKdDpP])$")
_HALF_GAME = re.compile(r"^(\d+)([+\-=?])([/!]?)([wb?]?)(\d*)$")

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


def _og_rank(text: str) -> int | None:
    m = _RANK.match(text)
    if not m:
        return None
    num, unit = int(m.group(1)), m.group(2).lower()
    if unit == "k":
        return max(-30, -num)
    if unit == "d":
        return min(8, num - 1)
    return 6 if num <= 3 else 7 if num <= 6 else 8


def _criteria_from_header(line: str) -> list[str]:
    """The column header '; Pl Name … Club  MMS  SOSSOSOS' → ['MMS', 'SOS', 'SOSOS']."""
    pos = line.find("Club")
    if pos < 0:
        return []
    tail = line[pos + 4 :]
    return [tail[k : k + 5].strip() for k in range(0, len(tail), 5) if tail[k : k + 5].strip()]


def read_h9(path: str | Path, data: bytes | None = None) -> StandingsInput:
    """Parse an EGD h9 file. Raises H9Error naming file and line."""
    path = Path(path)
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise H9Error(
                tr(
                    f"{path}: 无法读取文件 ({exc.strerror})",
                    f"{path}: cannot read ({exc.strerror})",
                )
            ) from exc
    text = data.decode(ENCODING)
    meta: dict[str, str] = {}
    crit_names: list[str] = []
    rows: list[_Row] = []
    place = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            m = re.match(r"^;\s*([A-Z]{2})\[(.*)\]\s*$", line)
            if m:
                meta[m.group(1)] = m.group(2)
            elif line.lstrip(";").strip().startswith("Pl "):
                crit_names = _criteria_from_header(line)
            continue
        fixed = _fixed_columns(line)
        if fixed is not None:  # OpenGotha's layout: columns are positional (clubs may hold spaces)
            if line[:4].strip():
                place = int(line[:4])
            names, rank, country, club, rest = fixed
            games = _half_games(path, lineno, rest, crit_names)
            rows.append(
                _Row(lineno, place, names[0], " ".join(names[1:]), rank, country, club, games)
            )
            continue
        tokens = line.split()
        if line[:4].strip():
            try:
                place = int(tokens[0])
            except ValueError:
                raise H9Error(
                    tr(
                        f"{path}: 第{lineno}行: 名次 {tokens[0]!r} 应为整数",
                        f"{path}: line {lineno}: place {tokens[0]!r} must be an integer",
                    )
                ) from None
            tokens = tokens[1:]
        k_rank = next((k for k, t in enumerate(tokens) if k > 0 and _og_rank(t) is not None), None)
        if k_rank is None or len(tokens) < k_rank + 3:
            raise H9Error(
                tr(
                    f"{path}: 第{lineno}行: 找不到段级位 (如 3k、2d) 或国家/俱乐部栏",
                    f"{path}: line {lineno}: no rank (e.g. 3k, 2d) or country/club column",
                )
            )
        names = [t.replace("_", " ") for t in tokens[:k_rank]]
        rank = _og_rank(tokens[k_rank])
        assert rank is not None
        country, club = tokens[k_rank + 1], tokens[k_rank + 2]
        rest = tokens[k_rank + 3 :]
        games = _half_games(path, lineno, rest, crit_names)
        rows.append(_Row(lineno, place, names[0], " ".join(names[1:]), rank, country, club, games))
    if not rows:
        raise H9Error(tr(f"{path}: 没有选手行", f"{path}: no player lines"))
    return _build(path, rows, meta, crit_names)


def _fixed_columns(line: str) -> tuple[list[str], int, str, str, list[str]] | None:
    """Split an OpenGotha-layout line: place(4) name(30) rank(3) country(2) club(4) rest."""
    if len(line) < 48 or line[35] != " " or line[39] != " " or line[42] != " ":
        return None
    rank = _og_rank(line[36:39].strip())
    name = line[5:35].strip()
    if rank is None or not name or (line[:4].strip() and not line[:4].strip().isdigit()):
        return None
    names = [t.replace("_", " ") for t in name.split()]
    return names, rank, line[40:42].strip(), line[43:47].strip(), line[47:].split()


def _half_games(
    path: Path, lineno: int, rest: list[str], crit_names: list[str]
) -> list[tuple[int, str, str, str, int]]:
    """The per-round tokens after the criteria columns, parsed."""
    n_crit = max(len(crit_names), 4) if crit_names else None
    if n_crit is not None and len(rest) >= n_crit:
        game_tokens = rest[n_crit:]
    else:  # no header: half-games are the trailing tokens that look like games
        k = len(rest)
        while (
            k > 0
            and _HALF_GAME.match(rest[k - 1])
            and ("/" in rest[k - 1] or "!" in rest[k - 1] or rest[k - 1][0] == "0")
        ):
            k -= 1
        game_tokens = rest[k:]
    games = []
    for t in game_tokens:
        m = _HALF_GAME.match(t)
        if not m:
            raise H9Error(
                tr(
                    f"{path}: 第{lineno}行: 对局 {t!r} 格式不对 (应如 12+/w0、3-/b2、0+)",
                    f"{path}: line {lineno}: half-game {t!r} malformed (e.g. 12+/w0, 3-/b2, 0+)",
                )
            )
        opp, res, typ, col, hd = m.groups()
        games.append((int(opp), res, typ, col, int(hd or 0)))
    return games


def _build(
    path: Path, rows: list[_Row], meta: dict[str, str], crit_names: list[str]
) -> StandingsInput:
    from yisai.formats.opengotha import key_string

    ids = [key_string(r.name, r.first) for r in rows]
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
    use_mms = "MMS" in crit_names
    crits = []
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
    frac = Fraction(value) if not isinstance(value, tuple) else Fraction(value[0] if value else 0)
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
    return inp.scoring.bye if bye else inp.scoring.absent

"""Read OpenGotha tournament files (XML) into a ``StandingsInput``.

Follows OpenGotha's own importer (``ExternalDocument``), so the same file gives the same
tournament: players keyed by NAME+FIRSTNAME upper-cased without spaces (a second player with
the same key is dropped), the ``participating`` mask per round, games keyed by round and table
(a later game at the same table replaces the earlier one), byes, handicaps, results including
"by default" (forfeit) ones, and the scoring parameters (McMahon bar/floor/zero, points for
absent rounds and byes, rounding, half points for unplayed games, placement criteria).
Errors name the file, the line and the element, and say what to fix.
"""

from __future__ import annotations

import unicodedata
import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path

from yisai.formats.limits import (
    MAX_OPENGOTHA_BYTES,
    MAX_OPENGOTHA_DEPTH,
    MAX_OPENGOTHA_ELEMENTS,
    MB,
    read_at_most,
)
from yisai.i18n import tr
from yisai.record import Game, Result
from yisai.regulation.rules import Scoring
from yisai.standings.model import StandingsInput, StandingsPlayer
from yisai.standings.opengotha import OGParameters, og_name
from yisai.vocabulary.rank import Rank

MIN_RANK, MAX_RANK = -30, 8
MAX_ROUNDS = 32
MIN_RATING, MAX_RATING = -900, 2949

_RESULTS: dict[str, tuple[Result, bool]] = {
    "RESULT_UNKNOWN": (Result.UNKNOWN, True),
    "RESULT_WHITEWINS": (Result.WHITE_WINS, True),
    "RESULT_BLACKWINS": (Result.BLACK_WINS, True),
    "RESULT_EQUAL": (Result.DRAW, True),
    "RESULT_BOTHLOSE": (Result.BOTH_LOSE, True),
    "RESULT_BOTHWIN": (Result.BOTH_WIN, True),
    "RESULT_WHITEWINS_BYDEF": (Result.WHITE_WINS, False),
    "RESULT_BLACKWINS_BYDEF": (Result.BLACK_WINS, False),
    "RESULT_EQUAL_BYDEF": (Result.DRAW, False),
    "RESULT_BOTHLOSE_BYDEF": (Result.BOTH_LOSE, False),
    "RESULT_BOTHWIN_BYDEF": (Result.BOTH_WIN, False),
}


class OpenGothaError(ValueError):
    """A file that cannot be read; the message names file, line and element."""


@dataclass(frozen=True, slots=True)
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int


def og_rank(text: str) -> int:
    """OpenGotha's convertKDPToInt: '5D' → 4, '3K' → -3, '2P' → 6, bare digits are kyu.

    Returns -99 for unreadable text (OpenGotha's marker), clamped to [-30, 8] otherwise.
    """
    s = text.strip() or " "
    last = s[-1]
    try:
        if last.isdigit():
            num, last = int(s), "k"
        else:
            num = int(s[:-1])
    except ValueError:
        return -99
    if last in "kK":
        rank = -num
    elif last in "dD":
        rank = num - 1
    elif last in "pP":
        rank = 6 if num <= 3 else 7 if num <= 6 else 8
    else:
        rank = -num
    return max(MIN_RANK, min(MAX_RANK, rank))


def key_string(name: str, first_name: str) -> str:
    """OpenGotha's player key: NAME+FIRSTNAME without spaces, upper case."""
    return (name + first_name).replace(" ", "").upper()


def _ascii_key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if not unicodedata.combining(c)).replace(" ", "").upper()


class _Refused(Exception):
    """Raised from inside expat's handlers; turned into OpenGothaError with the file's name."""


def _read_elements(path: Path, data: bytes) -> list[_Element]:
    """Every element in document order, within the stated limits: the file's size, the number of
    elements and their nesting. OpenGotha writes ``<!DOCTYPE Tournament SYSTEM "tournament.dtd">``,
    which expat never fetches; a DOCTYPE with an internal subset or any entity declaration
    (entity expansion, "billion laughs") is refused outright, as OpenGotha never writes one."""
    if len(data) > MAX_OPENGOTHA_BYTES:
        raise OpenGothaError(tr(
            f"{path}: 文件超过 OpenGotha 文件的上限 {MAX_OPENGOTHA_BYTES // MB} MB ({MAX_OPENGOTHA_BYTES} 字节), 未读取",
            f"{path}: the file is over the limit of {MAX_OPENGOTHA_BYTES // MB} MB ({MAX_OPENGOTHA_BYTES} bytes)"
            " for an OpenGotha file; nothing was read",
        ))
    parser = xml.parsers.expat.ParserCreate()
    out: list[_Element] = []
    depth = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        line = parser.CurrentLineNumber
        if depth > MAX_OPENGOTHA_DEPTH:
            raise _Refused(tr(f"第{line}行 <{tag[:40]}>: 元素嵌套超过 {MAX_OPENGOTHA_DEPTH} 层 (OpenGotha 只嵌套 3 层), 未读取",
                              f"line {line} <{tag[:40]}>: elements nest deeper than {MAX_OPENGOTHA_DEPTH} levels"
                              " (OpenGotha nests 3); nothing was read"))
        if len(out) >= MAX_OPENGOTHA_ELEMENTS:
            raise _Refused(tr(f"第{line}行: 元素超过 {MAX_OPENGOTHA_ELEMENTS} 个, 未读取",
                              f"line {line}: more than {MAX_OPENGOTHA_ELEMENTS} elements; nothing was read"))
        out.append(_Element(tag, attrs, line))

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1

    def doctype(name: str, system: str | None, public: str | None, internal_subset: int) -> None:
        if internal_subset:
            declaration()

    def declaration(*_: object) -> None:
        line = parser.CurrentLineNumber
        raise _Refused(tr(f"第{line}行: 含有 DOCTYPE 内部声明或实体声明, OpenGotha 不会写出这样的文件, 未读取",
                          f"line {line}: a DOCTYPE with declarations or an entity declaration, which OpenGotha never writes;"
                          " nothing was read"))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = declaration
    try:
        parser.Parse(data, True)
    except _Refused as exc:
        raise OpenGothaError(f"{path}: {exc}") from None
    except xml.parsers.expat.ExpatError as exc:
        raise OpenGothaError(
            tr(
                f"{path}: 第{exc.lineno}行第{exc.offset + 1}列: XML 格式错误 ({xml.parsers.expat.ErrorString(exc.code)}); "
                "请用 OpenGotha 重新保存该文件",
                f"{path}: line {exc.lineno} column {exc.offset + 1}: malformed XML "
                f"({xml.parsers.expat.ErrorString(exc.code)}); re-save the file from OpenGotha",
            )
        ) from exc
    if not out or out[0].tag != "Tournament":
        raise OpenGothaError(
            tr(
                f"{path}: 不是 OpenGotha 文件 (根元素应为 <Tournament>)",
                f"{path}: not an OpenGotha file (the root element must be <Tournament>)",
            )
        )
    return out


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, el: _Element, zh: str, en: str) -> OpenGothaError:
        return OpenGothaError(
            tr(
                f"{self.path}: 第{el.line}行 <{el.tag}>: {zh}",
                f"{self.path}: line {el.line} <{el.tag}>: {en}",
            )
        )

    def int_attr(self, el: _Element, name: str, default: int) -> int:
        raw = el.attrs.get(name)
        if raw is None or raw.strip() == "":
            return default
        try:
            return int(raw.strip())
        except ValueError:
            raise self.fail(
                el, f"属性 {name}={raw!r} 应为整数", f"attribute {name}={raw!r} must be an integer"
            ) from None

    def bool_attr(self, el: _Element, name: str, default: bool) -> bool:
        raw = el.attrs.get(name)
        if raw is None:
            return default
        return raw.strip().lower() == "true"

    def rank_attr(self, el: _Element, name: str, default: str) -> int:
        raw = el.attrs.get(name, default)
        value = og_rank(raw)
        if value == -99:
            raise self.fail(
                el,
                f"属性 {name}={raw!r} 不是段级位 (应如 4D、20K)",
                f"attribute {name}={raw!r} is not a rank (e.g. 4D, 20K)",
            )
        return value


def read_opengotha(path: str | Path, data: bytes | None = None) -> StandingsInput:
    """Parse an OpenGotha XML file. Raises OpenGothaError naming file, line and element.

    The steps read the file's parts in OpenGotha's order: the parameters (the round count
    matters for the participation mask), the players, the games and byes, then the scoring and
    the tournament's description; each warning says what OpenGotha would do too."""
    path = Path(path)
    elements = _read_elements(path, data if data is not None else _file_bytes(path))
    rd = _Reader(path)
    warnings: list[str] = []
    gps_el = next((e for e in elements if e.tag == "GeneralParameterSet"), _Element("GeneralParameterSet", {}, 0))
    rounds = _round_count(rd, gps_el)
    n_cat = max(1, rd.int_attr(gps_el, "numberOfCategories", 1))
    limits = _category_limits(rd, elements, n_cat)
    criteria = _placement_criteria(rd, elements, warnings)
    roster = _players(rd, elements, rounds, limits, warnings)
    all_games = [*_games(rd, elements, roster, warnings), *_byes(rd, elements, roster, warnings)]
    rounds = max([rounds, *(g.round for g in all_games)])
    params = _parameters(rd, gps_el, rounds, criteria, limits, roster.corrections, warnings)
    # The same tournament under the Chinese scoring: OpenGotha's NBW×2 values are points 2/1/0.
    scoring = Scoring(
        bye=max(0, min(100, params.nbw2_bye)),
        absent=max(0, min(100, params.nbw2_absent)),
        forfeit_counts_in_sos=True,
    )
    meta = _meta(elements, gps_el)
    return StandingsInput(
        players=tuple(roster.players),
        games=tuple(sorted(all_games, key=lambda g: (g.round, g.white is None, g.board))),
        rounds=rounds,
        scoring=scoring,
        title=meta["name"] or path.stem,
        opengotha=params,
        source=str(path),
        meta=meta,
        warnings=tuple(warnings),
    )


def _file_bytes(path: Path) -> bytes:
    try:
        return read_at_most(path, MAX_OPENGOTHA_BYTES)
    except OSError as exc:
        raise OpenGothaError(
            tr(
                f"{path}: 无法读取文件 ({exc.strerror})",
                f"{path}: cannot read ({exc.strerror})",
            )
        ) from exc


def _round_count(rd: _Reader, gps_el: _Element) -> int:
    rounds = rd.int_attr(gps_el, "numberOfRounds", 5)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise rd.fail(
            gps_el,
            f"轮数 numberOfRounds={rounds} 应在1至{MAX_ROUNDS}之间",
            f"numberOfRounds={rounds} must be between 1 and {MAX_ROUNDS}",
        )
    return rounds


def _category_limits(rd: _Reader, elements: list[_Element], n_cat: int) -> list[int]:
    """The lower rank limit of each category but the last (OpenGotha's categories by rank)."""
    limits = [MIN_RANK] * (n_cat - 1)
    for el in elements:
        if el.tag == "Category":
            num = rd.int_attr(el, "number", 1) - 1
            if 0 <= num < n_cat - 1:
                limits[num] = rd.rank_attr(el, "lowerLimit", "30K")
    return limits


def _placement_criteria(rd: _Reader, elements: list[_Element], warnings: list[str]) -> list[str]:
    """The six placement criteria of the PlacementParameterSet (NULL where none)."""
    criteria = ["NULL"] * 6
    in_placement = False
    for el in elements:
        if el.tag == "PlacementParameterSet":
            in_placement = True
        elif el.tag in ("PairingParameterSet", "DPParameterSet", "TeamTournamentParameterSet"):
            in_placement = False
        elif el.tag == "PlacementCriterion" and in_placement:
            num = rd.int_attr(el, "number", 1)
            raw = el.attrs.get("name", "NULL")
            name = og_name(raw) if raw != "NULL" else None
            if raw not in ("NULL", "") and name is None:
                warnings.append(
                    tr(
                        f"第{el.line}行: 未知的名次指标 {raw!r}, 按 NULL 处理 (与 OpenGotha 相同)",
                        f"line {el.line}: unknown placement criterion {raw!r} treated as NULL (as OpenGotha does)",
                    )
                )
            if 1 <= num <= len(criteria) and name is not None:
                criteria[num - 1] = name
    return criteria


@dataclass
class _Roster:
    """The players as read, and how a game names them (OpenGotha's key, else its ASCII form)."""

    players: list[StandingsPlayer] = field(default_factory=list)
    by_key: dict[str, str] = field(default_factory=dict)
    by_ascii: dict[str, str] = field(default_factory=dict)
    corrections: dict[str, int] = field(default_factory=dict)

    def find(self, el: _Element, attr: str, warnings: list[str]) -> str | None:
        raw = el.attrs.get(attr, "")
        key = self.by_key.get(raw) or self.by_key.get(raw.replace(" ", "").upper())
        if key is None:
            key = self.by_ascii.get(_ascii_key(raw))
        if key is None:
            warnings.append(
                tr(
                    f"第{el.line}行 <{el.tag}>: 选手 {raw!r} 不在选手名单中, 该记录已忽略 (与 OpenGotha 相同)",
                    f"line {el.line} <{el.tag}>: player {raw!r} is not registered; record skipped (as OpenGotha does)",
                )
            )
        return key


def _players(rd: _Reader, elements: list[_Element], rounds: int, limits: list[int],
             warnings: list[str]) -> _Roster:
    roster = _Roster()
    for el in elements:
        if el.tag != "Player":
            continue
        name = el.attrs.get("name", "")
        first = el.attrs.get("firstName", "")
        if not name.strip():
            raise rd.fail(el, "缺少选手姓 (name)", "missing player name (name)")
        key = key_string(name, first)
        if key in roster.by_key:
            warnings.append(
                tr(
                    f"第{el.line}行: 选手 {name} {first} 与前面的选手同名, 已忽略 (与 OpenGotha 相同)",
                    f"line {el.line}: player {name} {first} duplicates an earlier one; skipped (as OpenGotha does)",
                )
            )
            continue
        roster.players.append(_player(rd, el, key, rounds, limits, roster.corrections))
        roster.by_key[key] = key
        roster.by_ascii.setdefault(_ascii_key(name + first), key)
    return roster


def _player(rd: _Reader, el: _Element, key: str, rounds: int, limits: list[int],
            corrections: dict[str, int]) -> StandingsPlayer:
    name = el.attrs.get("name", "")
    first = el.attrs.get("firstName", "")
    rank = og_rank(el.attrs.get("rank", "30K"))
    if rank == -99:
        rank = og_rank(el.attrs.get("grade", ""))
    if rank == -99:
        raise rd.fail(
            el,
            f"选手 {name} {first} 的段级位 rank={el.attrs.get('rank')!r} 无法识别 (应如 4D、20K)",
            f"player {name} {first}: rank={el.attrs.get('rank')!r} is not a rank (e.g. 4D, 20K)",
        )
    rating = max(MIN_RATING, min(MAX_RATING, rd.int_attr(el, "rating", -900)))
    mask = el.attrs.get("participating", "1" * 20)
    absent = frozenset(
        r + 1 for r in range(max(rounds, MAX_ROUNDS)) if r < len(mask) and mask[r] == "0"
    )
    corr = rd.int_attr(el, "smmsCorrection", 0)
    if corr:
        corrections[key] = corr
    tags = {"registering": el.attrs.get("registeringStatus", "FIN")}
    if limits:  # OpenGotha's categories by rank: usable as --division 1, 2, …
        cat = next((c for c, lim in enumerate(limits) if rank >= lim), len(limits))
        tags["division"] = tags["category"] = str(cat + 1)
    return StandingsPlayer(
        id=key,
        name=f"{name} {first}".strip(),
        club=el.attrs.get("club", ""),
        rank=Rank(rank),
        rating=rating,
        tags=tags,
        absent_rounds=absent,
        country=el.attrs.get("country", ""),
        first_name=first,
        last_name=name,
    )


def _games(rd: _Reader, elements: list[_Element], roster: _Roster, warnings: list[str]) -> list[Game]:
    """Games keyed by (round, table); a later one replaces an earlier one, as in OpenGotha."""
    games: dict[tuple[int, int], Game] = {}
    for el in elements:
        if el.tag != "Game":
            continue
        rnd = rd.int_attr(el, "roundNumber", 1)
        table = rd.int_attr(el, "tableNumber", 1)
        if not 1 <= rnd <= MAX_ROUNDS:
            raise rd.fail(
                el,
                f"轮次 roundNumber={rnd} 应在1至{MAX_ROUNDS}之间",
                f"roundNumber={rnd} must be 1..{MAX_ROUNDS}",
            )
        white = roster.find(el, "whitePlayer", warnings)
        black = roster.find(el, "blackPlayer", warnings)
        if white is None or black is None:
            continue
        raw_result = el.attrs.get("result", "RESULT_UNKNOWN")
        if raw_result not in _RESULTS:
            raise rd.fail(
                el,
                f"未知的结果 result={raw_result!r} (应如 RESULT_WHITEWINS)",
                f"unknown result={raw_result!r} (e.g. RESULT_WHITEWINS)",
            )
        result, played = _RESULTS[raw_result]
        handicap = rd.int_attr(el, "handicap", 0)
        if (rnd, table) in games:
            warnings.append(
                tr(
                    f"第{el.line}行: 第{rnd}轮第{table}台已有对局, 被本局替换 (与 OpenGotha 相同)",
                    f"line {el.line}: round {rnd} table {table} already had a game; replaced (as OpenGotha does)",
                )
            )
        games[(rnd, table)] = Game(
            round=rnd,
            black=black,
            white=white,
            result=result,
            played=played,
            board=table,
            handicap=handicap,
        )
    return list(games.values())


def _byes(rd: _Reader, elements: list[_Element], roster: _Roster, warnings: list[str]) -> list[Game]:
    """One bye per round (a later one replaces an earlier one); a bye of an unknown player or
    round is skipped, as OpenGotha does."""
    byes: dict[int, Game] = {}
    for el in elements:
        if el.tag != "ByePlayer":
            continue
        rnd = rd.int_attr(el, "roundNumber", 1)
        who = roster.find(el, "player", warnings)
        if who is None or not 1 <= rnd <= MAX_ROUNDS:
            continue
        byes[rnd] = Game(round=rnd, black=who, white=None, result=Result.BLACK_WINS, played=False)
    return list(byes.values())


def _parameters(rd: _Reader, gps_el: _Element, rounds: int, criteria: list[str], limits: list[int],
                corrections: dict[str, int], warnings: list[str]) -> OGParameters:
    params = OGParameters(
        number_of_rounds=rounds,
        mm_floor=rd.rank_attr(gps_el, "genMMFloor", "20K"),
        mm_bar=rd.rank_attr(gps_el, "genMMBar", "4D"),
        mm_zero=MIN_RANK,  # OpenGotha's setGenMMZero ignores the file and always uses 30K
        nbw2_absent=rd.int_attr(gps_el, "genNBW2ValueAbsent", 0),
        nbw2_bye=rd.int_attr(gps_el, "genNBW2ValueBye", 0),
        mms2_absent=rd.int_attr(gps_el, "genMMS2ValueAbsent", 0),
        mms2_bye=rd.int_attr(gps_el, "genMMS2ValueBye", 0),
        round_down=rd.bool_attr(gps_el, "genRoundDownNBWMMS", True),
        count_not_played_as_half=rd.bool_attr(gps_el, "genCountNotPlayedGamesAsHalfPoint", False),
        criteria=tuple(criteria),
        number_of_categories=len(limits) + 1,
        lower_category_limits=tuple(limits),
        smms_correction=corrections,
    )
    if og_rank(gps_el.attrs.get("genMMZero", "30K")) not in (MIN_RANK, -99):
        warnings.append(
            tr(
                "genMMZero 不是 30K: OpenGotha 忽略此项并始终按 30K 计算, 这里相同",
                "genMMZero is not 30K: OpenGotha ignores it and always uses 30K; so do we",
            )
        )
    return params


def _meta(elements: list[_Element], gps_el: _Element) -> dict[str, str]:
    """The tournament's description as the file gives it (kept for writing the file back)."""
    hps_el = next((e for e in elements if e.tag == "HandicapParameterSet"), _Element("", {}, 0))
    dpps_el = next((e for e in elements if e.tag == "DPParameterSet"), _Element("", {}, 0))
    return {
        "name": gps_el.attrs.get("name", ""),
        "short_name": gps_el.attrs.get("shortName", ""),
        "location": gps_el.attrs.get("location", ""),
        "begin_date": gps_el.attrs.get("beginDate", ""),
        "end_date": gps_el.attrs.get("endDate", ""),
        "komi": gps_el.attrs.get("komi", ""),
        "size": gps_el.attrs.get("size", ""),
        "basic_time": gps_el.attrs.get("basicTime", ""),
        "time_system": gps_el.attrs.get("complementaryTimeSystem", "CANBYOYOMI"),
        "std_byoyomi_time": gps_el.attrs.get("stdByoYomiTime", "30"),
        "can_byoyomi_time": gps_el.attrs.get("canByoYomiTime", "300"),
        "nb_moves_can_time": gps_el.attrs.get("nbMovesCanTime", "15"),
        "fischer_time": gps_el.attrs.get("fischerTime", "5"),
        "internet": gps_el.attrs.get("bInternet", "false"),
        "hd_correction": hps_el.attrs.get("hdCorrection", "1"),
        "game_format": dpps_el.attrs.get("gameFormat", "full"),
        "version": elements[0].attrs.get("fullVersionNumber", ""),
    }

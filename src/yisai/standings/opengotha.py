"""OpenGotha-compatible criteria: NBW, MMS, SOSW/M, SOS−1/−2, SODOS, SOSOS, CUSS, EXT/EXR, DC, SDC.

Computed exactly as OpenGotha 3.5x does (``Tournament.fillBaseScoringInfoIfNecessary``), so a
European tournament file gives OpenGotha's numbers. Everything is in OpenGotha's internal units:
NBW, MMS, SOS, SOSOS, CUSS, EXT and EXR are twice the value (half points exist), SODOS is four
times; DC and SDC are plain. Rules worth knowing, because they differ from the Chinese defaults:

- A round without a real game (absence, bye, not paired) adds the file's "points for absent
  rounds / byes" to NBW and MMS, accumulated over rounds and rounded down to a whole point when
  ``round_down`` is set.
- In SOSW such a round counts as an opponent with 0; in SOSM the "virtual opponent" is the
  player himself at his starting McMahon score (2 × smms); SOSOSM likewise adds 2 × smms × r.
- SOSM adds twice the handicap for White and subtracts it for Black.
- With ``count_not_played_as_half`` opponents' scores count unplayed rounds as half a point.
- SOS−1/−2 drop the lowest one/two per-round contributions; OpenGotha leaves SOSM−1/−2 at 0
  before round 3 (and SOSW−2 before round 3), which we reproduce.
- DC (direct confrontation) and SDC only act within groups tied on every criterion before them.
Round numbers here are 0-based internally (OpenGotha's), 1-based in the public API.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from yisai.record import Game, Result
from yisai.standings.confrontation import Confrontation
from yisai.standings.model import StandingsPlayer

if TYPE_CHECKING:  # numpy is imported where it is used: the standings load without it
    import numpy as np
    import numpy.typing as npt

    I64 = npt.NDArray[np.int64]

# Participation states (OpenGotha's ScoredPlayer constants)
ABSENT, NOT_ASSIGNED, BYE, PAIRED = -3, -2, -1, 1

# Result codes as in OpenGotha's XML
WHITEWINS, BLACKWINS, EQUAL, BOTHLOSE, BOTHWIN, UNKNOWN = (
    "RESULT_WHITEWINS",
    "RESULT_BLACKWINS",
    "RESULT_EQUAL",
    "RESULT_BOTHLOSE",
    "RESULT_BOTHWIN",
    "RESULT_UNKNOWN",
)
BYDEF = "_BYDEF"

#: Criteria OpenGotha computes, in the order of its allcrit export, with their unit factor.
OG_CRITERIA: dict[str, int] = {
    "NBW": 2,
    "MMS": 2,
    "SOSW": 2,
    "SOSWM1": 2,
    "SOSWM2": 2,
    "SODOSW": 4,
    "SOSOSW": 2,
    "CUSSW": 2,
    "SOSM": 2,
    "SOSMM1": 2,
    "SOSMM2": 2,
    "SODOSM": 4,
    "SOSOSM": 2,
    "CUSSM": 2,
    "EXT": 2,
    "EXR": 2,
    "DC": 1,
    "SDC": 1,
    "CPS": 2,
    "STS": 2,
    "SOSTS": 2,
    "RANK": 1,
    "RATING": 1,
    "CAT": 1,
}

#: OpenGotha's long names in files (SOSW-1) and the export's names (SOSWM1) → one canonical name.
OG_ALIASES: dict[str, str] = {
    "SOSW-1": "SOSWM1",
    "SOSW-2": "SOSWM2",
    "SOSM-1": "SOSMM1",
    "SOSM-2": "SOSMM2",
    "SOS-1": "SOSWM1",
    "SOS-2": "SOSWM2",
    "SOS": "SOSW",
    "SOSOS": "SOSOSW",
    "SODOS": "SODOSW",
    "CUSS": "CUSSW",
    "RATING": "RATING",
    "RANK": "RANK",
}

OG_LABELS: dict[str, str] = {
    "NBW": "胜局数(NBW)",
    "MMS": "麦克马洪分(MMS)",
    "SOSW": "对手分(SOSW)",
    "SOSWM1": "对手分-1(SOSW-1)",
    "SOSWM2": "对手分-2(SOSW-2)",
    "SODOSW": "胜对手分(SODOSW)",
    "SOSOSW": "对手的对手分(SOSOSW)",
    "CUSSW": "累进分(CUSSW)",
    "SOSM": "对手分(SOSM)",
    "SOSMM1": "对手分-1(SOSM-1)",
    "SOSMM2": "对手分-2(SOSM-2)",
    "SODOSM": "胜对手分(SODOSM)",
    "SOSOSM": "对手的对手分(SOSOSM)",
    "CUSSM": "累进分(CUSSM)",
    "EXT": "挑战次数(EXT)",
    "EXR": "挑战成功(EXR)",
    "DC": "直胜(DC)",
    "SDC": "简化直胜(SDC)",
    "CPS": "杯赛分(CPS)",
    "STS": "斯特拉斯堡分(STS)",
    "SOSTS": "对手斯特拉斯堡分(SOSTS)",
    "RANK": "段位(Rank)",
    "RATING": "等级分(Rating)",
    "CAT": "组别(CAT)",
}


def og_name(name: str) -> str | None:
    """The canonical OpenGotha criterion name for ``name`` (any case), or None."""
    up = name.strip().upper()
    up = OG_ALIASES.get(up, up)
    return up if up in OG_CRITERIA else None


@dataclass(frozen=True, slots=True)
class OGParameters:
    """The parts of OpenGotha's GeneralParameterSet and PlacementParameterSet that score.

    Ranks use OpenGotha's integers (= ``Rank.value``: 1d = 0, 30k = -30). Defaults are what
    OpenGotha assumes when a file omits the attribute.
    """

    number_of_rounds: int
    mm_floor: int = -20
    mm_bar: int = 3
    mm_zero: int = -30
    nbw2_absent: int = 0
    nbw2_bye: int = 0
    mms2_absent: int = 0
    mms2_bye: int = 0
    round_down: bool = True
    count_not_played_as_half: bool = False
    criteria: tuple[str, ...] = ("NBW", "SOSW", "SOSOSW")
    number_of_categories: int = 1
    lower_category_limits: tuple[int, ...] = ()
    smms_correction: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OGGame:
    """A game in OpenGotha's terms (0-based round), built from a ``yisai.record.Game``."""

    round: int
    white: int
    black: int
    result: str
    handicap: int


_RESULT_CODES = {
    Result.WHITE_WINS: WHITEWINS,
    Result.BLACK_WINS: BLACKWINS,
    Result.DRAW: EQUAL,
    Result.BOTH_LOSE: BOTHLOSE,
    Result.BOTH_WIN: BOTHWIN,
    Result.UNKNOWN: UNKNOWN,
}


def og_result(g: Game) -> str:
    """Our ledger result → OpenGotha's result code (unplayed games are "_BYDEF")."""
    base = _RESULT_CODES[g.result]
    if base != UNKNOWN and not g.played:
        return base + BYDEF
    return base


def _wx2(result: str, is_white: bool) -> int:
    """OpenGotha's getWX2: twice the points a player earned in the game."""
    base = result.removesuffix(BYDEF)
    if base == WHITEWINS:
        return 2 if is_white else 0
    if base == BLACKWINS:
        return 0 if is_white else 2
    if base == EQUAL:
        return 1
    if base == BOTHWIN:
        return 2
    return 0


def _played(result: str) -> bool:
    return result != UNKNOWN and not result.endswith(BYDEF)


@dataclass(slots=True)
class OGScores:
    """Every criterion for every player (by index) and round (0-based), in OpenGotha units."""

    players: tuple[StandingsPlayer, ...]
    params: OGParameters
    rounds: int
    values: dict[str, list[list[int]]]  # criterion -> [player][round]
    games: list[OGGame]

    def value(self, crit: str, player: int, round_: int) -> int:
        """Criterion value after ``round_`` (1-based) for player index ``player``."""
        r0 = round_ - 1
        if crit == "RANK":
            rank = self.players[player].rank
            return rank.value if rank is not None else -30
        if crit == "RATING":
            rating = self.players[player].rating
            return rating if rating is not None else -900
        if crit == "CAT":
            return -category(self.players[player], self.params)
        if r0 < 0:
            if crit in ("MMS", "STS"):
                return 2 * smms(self.players[player], self.params)
            return 0
        return self.values[crit][player][r0]


def smms(p: StandingsPlayer, params: OGParameters) -> int:
    """Starting McMahon score: rank clamped to [floor, bar], counted from "zero", + correction."""
    rank = p.rank.value if p.rank is not None else -30
    zero = params.mm_zero
    s = rank - zero
    s = max(s, params.mm_floor - zero)
    s = min(s, params.mm_bar - zero)
    return s + params.smms_correction.get(p.id, 0)


def category(p: StandingsPlayer, params: OGParameters) -> int:
    if params.number_of_categories <= 1:
        return 0
    rank = p.rank.value if p.rank is not None else -30
    for c, limit in enumerate(params.lower_category_limits):
        if rank >= limit:
            return c
    return len(params.lower_category_limits)


def compute_og_scores(
    players: Sequence[StandingsPlayer], games: Sequence[Game], params: OGParameters
) -> OGScores:
    """All OpenGotha criteria for rounds 1..params.number_of_rounds, from the games."""
    players = tuple(players)
    n = len(players)
    index = {p.id: i for i, p in enumerate(players)}
    R = params.number_of_rounds
    for game in games:  # OpenGotha extends the round count to cover every game and bye
        R = max(R, game.round)

    og_games: list[OGGame] = []
    byes: dict[int, int] = {}
    for game in games:
        if game.white is None:
            byes[game.round - 1] = index[game.black]  # one bye player per round, the last one wins
            continue
        og_games.append(
            OGGame(game.round - 1, index[game.white], index[game.black], og_result(game),
                   game.handicap)
        )

    # 1) participation and each player's game per round
    part = [
        [ABSENT if (r + 1) in p.absent_rounds else NOT_ASSIGNED for r in range(R)] for p in players
    ]
    game_of: list[list[OGGame | None]] = [[None] * R for _ in range(n)]
    for g in og_games:
        part[g.white][g.round] = PAIRED
        part[g.black][g.round] = PAIRED
    for r, i in byes.items():
        if r < R:
            part[i][r] = BYE
    for g in og_games:
        game_of[g.white][g.round] = g
        game_of[g.black][g.round] = g

    smms_of = [smms(p, params) for p in players]
    games_by_round: list[list[OGGame]] = [[] for _ in range(R)]
    for g in og_games:
        games_by_round[g.round].append(g)

    # 2) NBW, CPS, MMS (and their "virtual" variants counting unplayed rounds as half points)
    nbw = [[0] * R for _ in range(n)]
    cps = [[0] * R for _ in range(n)]
    mms = [[0] * R for _ in range(n)]
    nbwv = [[0] * R for _ in range(n)]
    mmsv = [[0] * R for _ in range(n)]
    for r in range(R):
        for i in range(n):
            if r == 0:
                nbw[i][0], cps[i][0], mms[i][0] = 0, 0, 2 * smms_of[i]
                nbwv[i][0], mmsv[i][0] = 0, 2 * smms_of[i]
            else:
                nbw[i][r], cps[i][r], mms[i][r] = nbw[i][r - 1], 2 * cps[i][r - 1], mms[i][r - 1]
                nbwv[i][r], mmsv[i][r] = nbwv[i][r - 1], mmsv[i][r - 1]
        for g in games_by_round[r]:
            for i, is_white in ((g.white, True), (g.black, False)):
                w = _wx2(g.result, is_white)
                nbw[i][r] += w
                cps[i][r] += w
                mms[i][r] += w
                if not g.result.endswith(BYDEF):  # virtual scores ignore unplayed games
                    nbwv[i][r] += w
                    mmsv[i][r] += w
    for i in range(n):
        acc_nbw = acc_mms = 0
        for r in range(R):
            if part[i][r] == ABSENT:
                acc_nbw += params.nbw2_absent
                acc_mms += params.mms2_absent
            elif part[i][r] == BYE:
                acc_nbw += params.nbw2_bye
                acc_mms += params.mms2_bye
            add_nbw, add_mms = acc_nbw, acc_mms
            if params.round_down:
                add_nbw = (acc_nbw // 2) * 2
                add_mms = (acc_mms // 2) * 2
            nbw[i][r] += add_nbw
            cps[i][r] += add_nbw
            mms[i][r] += add_mms
        unplayed = 0
        for r in range(R):
            played = game_of[i][r]
            if played is None or not _played(played.result):
                unplayed += 1
            nbwv[i][r] += unplayed
            mmsv[i][r] += unplayed

    # 2b) STS: MMS plus 2 points for top-group players winning through the final bracket
    sts = [row[:] for row in mms]
    for i in range(n):
        for back, extra_rounds in ((3, (R - 3, R - 2, R - 1)), (2, (R - 2, R - 1))):
            r_check = R - back
            target = 2 * (30 + params.mm_bar + R - back + 1)
            if 0 <= r_check < R and mms[i][r_check] == target:
                for rr in extra_rounds:
                    if 0 <= rr < R:
                        sts[i][rr] += 4

    # 3) CUSSW, CUSSM
    cussw = [[0] * R for _ in range(n)]
    cussm = [[0] * R for _ in range(n)]
    for i in range(n):
        tw = tm = 0
        for r in range(R):
            tw += nbw[i][r]
            tm += mms[i][r]
            cussw[i][r], cussm[i][r] = tw, tm

    opp = [[-1] * R for _ in range(n)]
    wx2 = [[0] * R for _ in range(n)]
    hd_sign = [[0] * R for _ in range(n)]  # +handicap when White, -handicap when Black
    for i in range(n):
        for r in range(R):
            met = game_of[i][r]
            if part[i][r] == PAIRED and met is not None:
                is_white = met.white == i
                opp[i][r] = met.black if is_white else met.white
                wx2[i][r] = _wx2(met.result, is_white)
                hd_sign[i][r] = met.handicap if is_white else -met.handicap

    import numpy as np

    def table(rows: list[list[int]]) -> I64:
        return np.array(rows, np.int64).reshape(n, R)

    virtual = params.count_not_played_as_half
    values = {
        "NBW": nbw, "MMS": mms, "CPS": cps, "STS": sts, "CUSSW": cussw, "CUSSM": cussm,
        **_opponent_sums(
            table(opp), table(wx2), table(hd_sign), table(nbwv if virtual else nbw),
            table(mmsv if virtual else mms), table(nbw), table(sts), np.array(smms_of, np.int64),
            np.array([p.rank.value if p.rank is not None else -30 for p in players], np.int64),
            virtual),
    }
    return OGScores(players=players, params=params, rounds=R, values=values, games=og_games)


def _opponent_sums(opp: I64, wx2: I64, hd_sign: I64, w_base: I64, m_base: I64, nbw: I64,
                   sts: I64, smms: I64, ranks: I64, virtual: bool) -> dict[str, list[list[int]]]:
    """The criteria summed over a player's opponents (SOS, SOS−1/−2, SODOS, SOSOS, EXT/EXR)
    for every player and round at once: arrays ``[player, round]``, ``opp`` −1 where unpaired.

    An unpaired round adds the player's own starting McMahon score to the McMahon sums (and
    nothing to the wins sums), as OpenGotha's virtual opponent does."""
    import numpy as np

    n, R = opp.shape
    paired = opp >= 0
    o = np.where(paired, opp, 0)
    out = {name: np.zeros((n, R), np.int64) for name in (
        "SOSW", "SOSWM1", "SOSWM2", "SODOSW", "SOSM", "SOSMM1", "SOSMM2", "SODOSM", "SOSTS",
        "SOSOSW", "SOSOSM", "EXT", "EXR")}
    own = 2 * smms[:, None]  # the virtual opponent's McMahon score (x2)
    natural = ranks[:, None] - ranks[o]
    diff = hd_sign - natural
    coef = np.select([diff < 0, diff == 0, diff == 1], [0, 1, 2], 3)
    for r in range(R):
        k = r + 1
        on, wx, hd, op = paired[:, :k], wx2[:, :k], hd_sign[:, :k], o[:, :k]
        osw = np.where(on, w_base[op, r], 0)
        osm = np.where(on, m_base[op, r] + 2 * hd, own)
        out["SOSW"][:, r] = osw.sum(axis=1)
        out["SODOSW"][:, r] = (osw * wx).sum(axis=1)
        out["SOSM"][:, r] = osm.sum(axis=1)
        out["SODOSM"][:, r] = np.where(on, osm * wx, 0).sum(axis=1)
        out["SOSTS"][:, r] = np.where(on, (0 if virtual else sts[op, r]) + 2 * hd, own).sum(axis=1)
        out["SOSWM1"][:, r], out["SOSWM2"][:, r] = _minus_one_two_all(osw, r)
        if r >= 2:
            out["SOSMM1"][:, r], out["SOSMM2"][:, r] = _minus_one_two_all(osm, r)
        out["SOSOSW"][:, r] = np.where(on, out["SOSW"][op, r], 0).sum(axis=1)
        out["SOSOSM"][:, r] = np.where(on, out["SOSM"][op, r], own * k).sum(axis=1)
        exploit = np.where(on, nbw[op, r] * coef[:, :k], 0)
        out["EXT"][:, r] = exploit.sum(axis=1)
        out["EXR"][:, r] = np.where(wx == 2, exploit, 0).sum(axis=1)
    return {name: values.tolist() for name, values in out.items()}


def _minus_one_two_all(contrib: I64, r: int) -> tuple[I64, I64]:
    """OpenGotha's SOS−1 and SOS−2 for every player, its exact tie handling included: drop the
    first lowest round, then the first lowest of the others (its scan with strict ``<``); after
    two rounds SOS−1 is the larger contribution and SOS−2 is 0."""
    import numpy as np

    n = len(contrib)
    total = contrib.sum(axis=1)
    if r == 0:
        return np.zeros(n, np.int64), np.zeros(n, np.int64)
    if r == 1:
        return contrib.max(axis=1), np.zeros(n, np.int64)
    rows = np.arange(n)
    first = contrib.argmin(axis=1)
    m1 = total - contrib[rows, first]
    rest = contrib.copy()
    rest[rows, first] = np.iinfo(np.int64).max
    return m1, m1 - rest[rows, rest.argmin(axis=1)]


@dataclass(slots=True)
class OGOrder:
    """OpenGotha's placement after one round: order of player indices, DC/SDC, shared places."""

    order: list[int]
    dc: list[int]
    sdc: list[int]
    criteria: tuple[str, ...]
    round: int
    places: list[int]  # place of order[k], equal when all criteria are equal (ex aequo)

    def criterion_value(self, scores: OGScores, crit: str, i: int) -> int:
        if crit == "DC":
            return self.dc[i]
        if crit == "SDC":
            return self.sdc[i]
        return scores.value(crit, i, self.round)


def _crit_key(scores: OGScores, crits: Sequence[str], round_: int, dc: list[int], sdc: list[int]):
    def key(i: int) -> tuple[int, ...]:
        out = []
        for c in crits:
            if c == "DC":
                out.append(-dc[i])
            elif c == "SDC":
                out.append(-sdc[i])
            elif c == "NULL":
                out.append(0)
            else:
                out.append(-scores.value(c, i, round_))
        return tuple(out)

    return key


def og_order(scores: OGScores, round_: int, criteria: Sequence[str] | None = None) -> OGOrder:
    """OpenGotha's ``orderedScoredPlayersList`` after ``round_`` (1-based).

    Sort by the criteria before DC/SDC (ties by name, then first name), compute DC/SDC inside
    each group tied on those criteria, then sort by the whole list (ties again by name).
    """
    crits = tuple(criteria if criteria is not None else scores.params.criteria)
    n = len(scores.players)
    dc = [0] * n
    sdc = [0] * n
    names = [(p.last_name or p.name, p.first_name) for p in scores.players]
    i_dir = next((k for k, c in enumerate(crits) if c in ("DC", "SDC")), len(crits))
    primary = crits[:i_dir]
    key_primary = _crit_key(scores, primary, round_, dc, sdc)
    order = sorted(range(n), key=lambda i: (key_primary(i), names[i]))
    if i_dir < len(crits):
        k = 0
        while k < len(order):
            group = [order[k]]
            v = key_primary(order[k])
            k += 1
            while k < len(order) and key_primary(order[k]) == v:
                group.append(order[k])
                k += 1
            _dir_for_group(scores, group, round_, crits, dc, sdc)
    key_all = _crit_key(scores, crits, round_, dc, sdc)
    order = sorted(range(n), key=lambda i: (key_all(i), names[i]))
    places: list[int] = []
    for k, i in enumerate(order):
        if k > 0 and key_all(i) == key_all(order[k - 1]):
            places.append(places[-1])
        else:
            places.append(k + 1)
    return OGOrder(order=order, dc=dc, sdc=sdc, criteria=crits, round=round_, places=places)


def _pair_matrix(scores: OGScores, group: Sequence[int], round_: int) -> list[list[int]]:
    pos = {p: k for k, p in enumerate(group)}
    m = [[0] * len(group) for _ in group]
    for g in scores.games:
        if g.round > round_ - 1:
            continue
        w, b = pos.get(g.white), pos.get(g.black)
        if w is None or b is None:
            continue
        if g.result == WHITEWINS:
            m[w][b] += 1
            m[b][w] -= 1
        elif g.result == BLACKWINS:
            m[w][b] -= 1
            m[b][w] += 1
    return m


def _dir_for_group(
    scores: OGScores,
    group: list[int],
    round_: int,
    crits: Sequence[str],
    dc: list[int],
    sdc: list[int],
) -> None:
    """OpenGotha's defineDirForExAequoGroup: SDC and DC among players tied before DC."""
    n = len(group)
    if n <= 1:
        return
    pair = _pair_matrix(scores, group, round_)
    clamped = [[0 if i == j else max(-1, min(1, pair[i][j])) for j in range(n)] for i in range(n)]
    if all(clamped[i][j] != 0 for i in range(n) for j in range(n) if i != j):
        for i in range(n):
            sdc[group[i]] += sum(1 for j in range(n) if clamped[i][j] == 1)

    # DC: secondary criteria are the ones after DC; players sorted by them (ex aequo kept)
    try:
        i_dc = list(crits).index("DC")
        secondary = [c for c in crits[i_dc + 1 :]]
    except ValueError:
        secondary = []
    key = _crit_key(scores, secondary, round_, dc, sdc)
    ordered = sorted(group, key=key)
    place = [0] * n
    for k in range(1, n):
        place[k] = place[k - 1] if key(ordered[k]) == key(ordered[k - 1]) else k
    pair = _pair_matrix(scores, ordered, round_)
    conf = Confrontation()
    for k in range(n):
        conf.new_player(k, n - place[k])
    for a in range(n):
        for b in range(n):
            if pair[a][b] == 1:
                conf.new_game(a, b)
    conf.topological_sort(up_winners=True, preserve_transitivity=True)
    top = max(conf.rank(k) for k in range(n))
    for k in range(n):
        dc[ordered[k]] = top - conf.rank(k)

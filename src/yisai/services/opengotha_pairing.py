"""Pair a round of an OpenGotha tournament file with OpenGotha's own rules and parameters.

For events run under EGF/AGA practice: the director keeps his OpenGotha file, yisai pairs the
next round exactly as OpenGotha would (same costs, bye rule, colours, tables; see
docs/pairing.md) and hands back the file with the new round, which OpenGotha opens. Nothing
is stored; front ends print the pairing and write the bytes where the user asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from yisai.formats.limits import MAX_OPENGOTHA_BYTES, read_at_most
from yisai.formats.opengotha import OpenGothaError
from yisai.formats.opengotha_pairing import read_og_tournament, write_round
from yisai.i18n import Text
from yisai.pairing.opengotha import OGPairingError, OGRoundPairing, OGTournament, pair_og_round
from yisai.pairing.opengotha.costs import RULES
from yisai.record import Game, Result
from yisai.services.errors import Hint, InputError, Refused

MAX_FILE_BYTES = MAX_OPENGOTHA_BYTES  # yisai.formats.limits


@dataclass(frozen=True, slots=True)
class OGPairingReport:
    """The new round, the players' display names, and the file with the round written in."""

    source: str
    tournament: OGTournament
    pairing: OGRoundPairing
    names: dict[str, str]  # player key → "Name First (rank)"
    warnings: tuple[Text, ...]
    file_bytes: bytes


def _read(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(Text(f"{path}: 文件有 {size} 字节, 超过上限 20 MB",
                                  f"{path}: the file has {size} bytes, over the 20 MB limit"),
                             code="file_too_large", params={"path": str(path)})
        return read_at_most(path, MAX_FILE_BYTES)  # a file grown meanwhile is refused by the reader
    except OSError as exc:
        raise InputError(Text(f"{path}: 无法读取文件 ({exc.strerror})",
                              f"{path}: cannot read the file ({exc.strerror})"),
                         code="unreadable_file", params={"path": str(path)}) from None


def pair_opengotha_file(
    path: str | Path,
    round_: int,
    *,
    bye: str | None = None,
    replace: bool = False,
    rules: str = "3.51",
) -> OGPairingReport:
    """Pair round ``round_`` of the OpenGotha file at ``path`` with the file's parameters.

    Games of earlier rounds are the history; a round that already has games is refused unless
    ``replace`` (then its games are dropped and paired again). ``bye`` (a player key such as
    ``NAMEFIRSTNAME``) forces the bye; otherwise the bye recorded in the file for that round,
    else OpenGotha's bye rule. ``rules`` chooses OpenGotha's cost rules (``RULES``: "3.51", the
    default, or "3.52", the rules of OpenGotha 3.52's weights files).
    """
    path = Path(path)
    data = _read(path)
    if rules not in RULES:
        raise InputError(Text(f"OpenGotha 代价规则 {rules!r} 应为 {' / '.join(RULES)} 之一",
                              f"OpenGotha cost rules {rules!r} must be one of {', '.join(RULES)}"),
                         code="bad_rules", params={"rules": rules})
    try:
        f = read_og_tournament(path, data, rules)
    except OpenGothaError as exc:
        raise InputError(Text(str(exc), str(exc)), code="bad_opengotha_file",
                         params={"path": str(path)}) from None
    tour, games = f.tournament, f.source.games
    rounds = tour.params.number_of_rounds
    if not 1 <= round_ <= rounds:
        raise InputError(Text(f"{path}: 轮次 {round_} 不在 1 至 {rounds} 之间",
                              f"{path}: round {round_} is not between 1 and {rounds}"),
                         code="bad_round", params={"round": round_, "rounds": rounds})
    later = sorted({g.round for g in games if g.round > round_})
    if later:
        raise Refused(Text(f"{path}: 第{later[0]}轮已有对局, 不能再编排更早的第{round_}轮",
                           f"{path}: round {later[0]} already has games; round {round_} "
                           "cannot be paired before it"),
                      code="later_round_paired", params={"round": round_, "later": later[0]})
    existing = [g for g in games if g.round == round_ and g.white is not None]
    if existing and not replace:
        raise Refused(Text(f"{path}: 第{round_}轮已有 {len(existing)} 局对局",
                           f"{path}: round {round_} already has {len(existing)} games"),
                      code="round_already_paired", params={"round": round_}, hint=Hint.REPLACE)
    recorded_bye = next((g.black for g in games if g.round == round_ and g.white is None), None)
    keys = {p.id for p in tour.players}
    if bye is not None:
        wanted = bye.replace(" ", "").upper()
        if wanted not in keys:
            raise InputError(Text(f"轮空选手 {bye!r} 不在名单中 (应为选手键, 如 NAMEFIRSTNAME)",
                                  f"bye player {bye!r} is not registered (give the player key, "
                                  "e.g. NAMEFIRSTNAME)"),
                             code="unknown_bye", params={"bye": bye})
        bye = wanted
    else:
        bye = recorded_bye
    history = [g for g in games if g.round < round_]
    warnings = list(_unknown_results(history))
    unused = tour.pairing.mms_diff_rather_than_same_clubs_group
    if unused:
        warnings.append(Text(
            f"paiSePreferMMSDiffRatherThanSameClubsGroup={unused}: OpenGotha 3.5x 已不读取此项 "
            "(同一俱乐部组按半个俱乐部计), 此处同样不起作用",
            f"paiSePreferMMSDiffRatherThanSameClubsGroup={unused}: OpenGotha 3.5x no longer reads "
            "it (a clubs group counts as half a club); it has no effect here either"))
    try:
        pairing = pair_og_round(tour, history, round_, bye=bye)
    except OGPairingError as exc:
        raise Refused(exc.text,
                      code="cannot_pair", params={"round": round_}) from None
    names = {p.id: f"{p.name} ({p.rank.short if p.rank else '?'})" for p in tour.players}
    return OGPairingReport(
        source=str(path),
        tournament=tour,
        pairing=pairing,
        names=names,
        warnings=tuple(warnings),
        file_bytes=write_round(data, pairing),
    )


def _unknown_results(history: Sequence[Game]) -> list[Text]:
    by_round: dict[int, int] = {}
    for g in history:
        if g.white is not None and g.result is Result.UNKNOWN:
            by_round[g.round] = by_round.get(g.round, 0) + 1
    return [
        Text(f"第{r}轮有 {n} 局尚无结果, 按 OpenGotha 的做法计为双方未得分",
             f"round {r} has {n} games without a result; counted as no points, as OpenGotha does")
        for r, n in sorted(by_round.items())
    ]

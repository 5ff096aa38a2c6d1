"""A whole result sheet (成绩登记表) entered in one go, all or nothing.

Results come in one board at a time (``services.round_results.record_result``) or as a whole
sheet here; both save through ``round_results.write_result``, so every result has its history
and audit entry and none is entered twice without ``change``. Every row is checked against the
stored pairing first, and each problem is named by file, sheet, row and column.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from yisai.formats.result_sheet import ResultSheet, SheetIssue, SheetRow, same_name
from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.record.groups import group_id, group_label, group_title, group_title_en
from yisai.record.parse import ACCEPTED, BOTH_WIN_WORD, ParsedResult, result_word
from yisai.regulation import Regulation
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Hint
from yisai.services.lateness import decide_lateness
from yisai.services.round_results import (
    already_entered,
    entry_problem,
    rounds_of,
    same_result,
    write_result,
)
from yisai.store import RoundRecord, roster_rows


@dataclass(frozen=True)
class ImportReport:
    saved: list[Game]
    unchanged: int  # rows giving the result already stored (a pre-filled sheet printed back)
    blank: int  # rows without a result yet
    byes: int  # bye rows, checked and left as they are
    warnings: tuple[Text, ...] = ()  # e.g. later rounds were paired on the old results


def import_results(
    work: Work,
    event_ref: str | int | None,
    division: str,
    round_no: int,
    sheet: ResultSheet,
    *,
    group: str | None = None,
    stage_ref: str | None = None,
    change: bool = False,
    note: str = "",
) -> ImportReport:
    """Enter a whole result sheet, all or nothing.

    Every row is checked against the stored pairing first (board exists, names match, no board
    twice, no result entered twice without ``change``); any problem means nothing is saved and
    every problem is listed with its file, sheet, row and column. Then each result goes through
    the same path as ``record_result`` (history and audit).
    """
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no, stage_ref)
    groups = [r.group for r in rounds]
    if group is not None:
        group = group_id(group) if group else ""
        if group not in groups:
            raise InputError(
                Text(f"第{round_no}轮没有分组 {group} (本轮分组: {_choices(groups)})",
                     f"round {round_no} has no group {group} (this round's groups: "
                     f"{_choices(groups, en=True)})"),
                code="unknown_group", params={"round": round_no, "group": group},
            )
        rounds = [r for r in rounds if r.group == group]
    t = _Tally(names={p.id: p.name for p in roster_rows.list_players(work.session, _event.id)},
               by_board={(r.group, g.board): (r, g) for r in rounds for g in r.games},
               # each problem: where it is (for ordering) and its text in both languages
               issues=[(i, Text(str(i), str(i))) for i in sheet.issues])  # worded by the reader
    for row in sheet.rows:
        found = _locate(t, row, group, [r.group for r in rounds], round_no)
        if found is None:
            continue
        rnd, game = found
        if game.is_bye and (row.result is None or row.result.bye):
            t.byes += 1
            _check_bye(row, [game], t.names, t.issues)
            continue
        _check_names(row, game, t.names, t.issues)
        _check_result(t, row, rnd, game, _reg, change=change, note=note)
    sheets = list(dict.fromkeys(r.sheet for r in sheet.rows))
    problems = sorted(t.issues + t.refusals, key=lambda p: (
        p[0].row > 0, sheets.index(p[0].sheet) if p[0].sheet in sheets else -1, p[0].row))
    if problems:
        message = Text(f"{sheet.file}: 共{len(problems)}处问题, 未保存任何成绩 (改正后重新导入)",
                       f"{sheet.file}: {len(problems)} problem(s); no result saved (correct them "
                       "and import again)")
        details = [text for _, text in problems]
        params = {"file": sheet.file, "round": round_no, "problems": len(problems)}
        if t.issues:
            raise InputError(message, details, code="bad_result_sheet", params=params,
                             hint=Hint.GROUP if t.grouped else None)
        raise Refused(message, details, code="results_already_entered", params=params, hint=Hint.CHANGE)
    entries = [write_result(work, rnd, game, parsed, change=change, note=row_note)
               for rnd, game, parsed, row_note in t.todo]
    warnings = tuple(dict.fromkeys(w for e in entries for w in e.warnings))
    return ImportReport([e.game for e in entries], t.unchanged, t.blank, t.byes, warnings)


_Problem = tuple[SheetIssue, Text]


@dataclass
class _Tally:
    """What checking a sheet's rows has found so far: problems (the file's own, then each row's),
    refusals (results entered already), the results to write and the rows left as they are."""

    names: Mapping[str, str]
    by_board: dict[tuple[str, int], tuple[RoundRecord, Game]]
    issues: list[_Problem]
    refusals: list[_Problem] = field(default_factory=list)
    todo: list[tuple[RoundRecord, Game, ParsedResult, str]] = field(default_factory=list)
    seen: dict[tuple[str, int], SheetRow] = field(default_factory=dict)
    unchanged: int = 0
    blank: int = 0
    byes: int = 0
    grouped: bool = False  # a row whose group is missing or wrong: the hint says how to name it


def _locate(t: _Tally, row: SheetRow, chosen: str | None, groups: list[str],
            round_no: int) -> tuple[RoundRecord, Game] | None:
    """The stored board a row writes to; None for a bye line (checked here) or a row whose group
    or board is wrong, missing or written twice (the problem is recorded)."""
    where = _row_group(row, chosen, groups, t.issues)
    if where is None:
        t.grouped = True
        return None
    by_board = t.by_board
    if row.is_bye:
        t.byes += 1
        _check_bye(row, [g for (gr, _b), (_r, g) in by_board.items() if gr == where and g.is_bye],
                   t.names, t.issues)
        return None
    if row.board is None:
        if not row.board_text:  # an unreadable number is already reported by the reader
            t.issues.append(_problem(
                row, "board",
                f"台次不能为空 (允许: {_board_range(by_board, where)}; 轮空行的结果填“轮空”)",
                f"the board cannot be blank (allowed: {_board_range(by_board, where, en=True)}; "
                "a bye line has 轮空 as its result)"))
        return None
    found = by_board.get((where, row.board))
    if found is None:
        t.issues.append(_problem(
            row, "board",
            f"{group_title(where)}第{round_no}轮没有第{row.board}台 "
            f"(允许: {_board_range(by_board, where)})",
            f"{group_title_en(where)}round {round_no} has no board {row.board} "
            f"(allowed: {_board_range(by_board, where, en=True)})"))
        return None
    first = t.seen.get((where, row.board))
    if first is not None:
        place = f"第{first.row}行" if first.sheet == row.sheet else f"{first.sheet}第{first.row}行"
        place_en = f"row {first.row}" if first.sheet == row.sheet else f"{first.sheet} row {first.row}"
        t.issues.append(_problem(row, "board", f"第{row.board}台重复, 已在{place}出现 (每台只能填一行)",
                                 f"board {row.board} is written twice, first in {place_en} "
                                 "(one line per board)"))
        return None
    t.seen[(where, row.board)] = row
    return found


def _check_result(t: _Tally, row: SheetRow, rnd: RoundRecord, game: Game, reg: Regulation, *,
                  change: bool, note: str) -> None:
    """A row's result: blank, kept (the same as stored), refused (entered already without
    ``change``), a problem, or to write (with the lateness rule's note)."""
    if row.result is None:  # blank: not played yet; unreadable: already reported
        t.blank += row.result_text == ""
        if row.result_text == BOTH_WIN_WORD:
            if game.result != Result.BOTH_WIN:
                t.issues.append(_problem(
                    row, "result", f"{BOTH_WIN_WORD}只能保留导入的成绩, 不能录入 (允许: {ACCEPTED})",
                    f"{BOTH_WIN_WORD} can only keep an imported result, it cannot be entered "
                    f"(allowed: {ACCEPTED})"))
            else:
                t.unchanged += 1  # the imported 双方胜 printed back: no change
        return
    parsed, late_note = row.result, ""
    if parsed.late_minutes is not None:  # 黑迟到17分钟: the regulation decides, row by row
        try:
            parsed, decided = decide_lateness(reg, parsed, game.board)
        except InputError as exc:
            t.issues.append(_problem(row, "result", exc.text.zh, exc.text.en))
            return
        late_note = decided.zh if decided else ""
    problem = entry_problem(game, parsed)
    if problem:
        t.issues.append(_problem(row, "result", problem.zh, problem.en))
        return
    if game.result != Result.UNKNOWN:
        if same_result(game, parsed) or _same_result(row, game):
            t.unchanged += 1  # a pre-filled sheet printed back: identical rows are no change
            return
        if not change:
            entered = already_entered(game)
            t.refusals.append(_problem(row, "result", entered.zh, entered.en))
            return
    elif parsed.result == Result.UNKNOWN:
        t.blank += 1  # "?" on a board without a result: nothing to clear
        return
    t.todo.append((rnd, game, parsed, "; ".join(n for n in (note, late_note) if n)))


def _problem(row: SheetRow, key: str, zh: str, en: str) -> _Problem:
    """A problem in ``row``'s ``key`` column, worded in both languages (the place is the same)."""
    issue = row.issue(key, zh)
    return issue, Text(str(issue), str(row.issue(key, en)))


def _choices(groups: list[str], *, en: bool = False) -> str:
    if en:
        return ", ".join(group_label(g) or "(no groups)" for g in groups)
    return "、".join(group_label(g) or "(不分组)" for g in groups)


def _row_group(row: SheetRow, chosen: str | None, groups: list[str], issues: list[_Problem]) -> str | None:
    """The group a row belongs to: its 分组 cell, else ``--group``, else the round's only group."""
    if row.group:
        g = group_id(row.group)
        if g not in groups:
            issues.append(_problem(
                row, "group", f"本轮没有分组\u201c{row.group}\u201d (允许: {_choices(groups)})",
                f"this round has no group \u201c{row.group}\u201d (allowed: {_choices(groups, en=True)})"))
            return None
        if chosen is not None and g != chosen:
            issues.append(_problem(row, "group", f"分组{row.group}与所选分组{group_label(chosen)}不一致",
                                   f"group {row.group} differs from the chosen group {group_label(chosen)}"))
            return None
        return g
    if chosen is not None:
        return chosen
    if len(groups) == 1:
        return groups[0]
    issues.append(_problem(
        row, "group", f"本轮有多个分组, 请填写分组 (允许: {_choices(groups)})",
        f"this round has several groups: fill in the group (allowed: {_choices(groups, en=True)})"))
    return None


def _board_range(by_board: dict[tuple[str, int], tuple[RoundRecord, Game]], group: str, *,
                 en: bool = False) -> str:
    boards = sorted(b for (g, b), (_r, game) in by_board.items() if g == group and not game.is_bye)
    if not boards:
        return "no games this round" if en else "本轮没有对局"
    if boards == list(range(boards[0], boards[-1] + 1)):
        return f"boards {boards[0]}–{boards[-1]}" if en else f"第{boards[0]}–{boards[-1]}台"
    return (", " if en else "、").join(map(str, boards))


def _same_result(row: SheetRow, game: Game) -> bool:
    assert row.result is not None
    if same_result(game, row.result):
        return True
    return row.result_text == result_word(game.result, game.played, game.reason)


def _check_bye(row: SheetRow, byes: list[Game], names: Mapping[str, str], issues: list[_Problem]) -> None:
    """A bye line is only checked: its points were settled when the round was paired."""
    who = [names.get(g.black, g.black) for g in byes]
    if row.black and not any(same_name(row.black, n) for n in who):
        issues.append(_problem(row, "black", f"{row.black}本轮没有轮空 (本轮轮空: {'、'.join(who) or '无'})",
                               f"{row.black} has no bye this round (byes this round: "
                               f"{', '.join(who) or 'none'})"))


def _check_names(row: SheetRow, game: Game, names: Mapping[str, str], issues: list[_Problem]) -> None:
    black = names.get(game.black, game.black)
    white = names.get(game.white or "", game.white or "")
    pairing = f"第{game.board}台为 黑方 {black} — 白方 {white}"
    pairing_en = f"board {game.board} is Black {black} — White {white}"
    swapped = bool(row.black and row.white) and same_name(row.black, white) and same_name(row.white, black)
    for key, written, stored in (("black", row.black, black), ("white", row.white, white)):
        if written and not same_name(written, stored):
            side = "黑方" if key == "black" else "白方"
            hint = "; 黑白方写反了" if swapped else ""
            hint_en = "; Black and White are swapped" if swapped else ""
            issues.append(_problem(
                row, key, f"{side}\u201c{written}\u201d与编排不符 ({pairing}{hint})",
                f"{key.capitalize()} \u201c{written}\u201d does not match the pairing ({pairing_en}{hint_en})"))

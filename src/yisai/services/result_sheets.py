"""A whole result sheet (成绩登记表) entered in one go, all or nothing.

Results come in one board at a time (``services.round_results.record_result``) or as a whole
sheet here; both save through ``round_results.write_result``, so every result has its history
and audit entry and none is entered twice without ``change``. Every row is checked against the
stored pairing first, and each problem is named by file, sheet, row and column.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from yisai.formats.result_sheet import ResultSheet, SheetIssue, SheetRow, same_name
from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.record.groups import group_id, group_label, group_title, group_title_en
from yisai.record.parse import ACCEPTED, BOTH_WIN_WORD, ParsedResult, result_word
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
from yisai.store import RoundRecord


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
    names = {p.id: p.name for p in work.repo.list_players(_event.id)}
    by_board = {(r.group, g.board): (r, g) for r in rounds for g in r.games}
    # Each problem: where it is (for ordering) and its text in both languages.
    issues: list[_Problem] = [(i, Text(str(i), str(i))) for i in sheet.issues]  # worded by the reader
    refusals: list[_Problem] = []
    seen: dict[tuple[str, int], SheetRow] = {}
    todo: list[tuple[RoundRecord, Game, ParsedResult, str]] = []
    unchanged = blank = bye_rows = 0
    grouped = False  # a row whose group is missing or wrong: the hint says how to name it
    for row in sheet.rows:
        where = _row_group(row, group, [r.group for r in rounds], issues)
        if where is None:
            grouped = True
            continue
        if row.is_bye:
            bye_rows += 1
            _check_bye(row, [g for (gr, _b), (_r, g) in by_board.items() if gr == where and g.is_bye],
                       names, issues)
            continue
        if row.board is None:
            if not row.board_text:  # an unreadable number is already reported by the reader
                issues.append(_problem(
                    row, "board",
                    f"台次不能为空 (允许: {_board_range(by_board, where)}; 轮空行的结果填“轮空”)",
                    f"the board cannot be blank (allowed: {_board_range(by_board, where, en=True)}; "
                    "a bye line has 轮空 as its result)"))
            continue
        found = by_board.get((where, row.board))
        if found is None:
            issues.append(_problem(
                row, "board",
                f"{group_title(where)}第{round_no}轮没有第{row.board}台 "
                f"(允许: {_board_range(by_board, where)})",
                f"{group_title_en(where)}round {round_no} has no board {row.board} "
                f"(allowed: {_board_range(by_board, where, en=True)})"))
            continue
        first = seen.get((where, row.board))
        if first is not None:
            place = f"第{first.row}行" if first.sheet == row.sheet else f"{first.sheet}第{first.row}行"
            place_en = f"row {first.row}" if first.sheet == row.sheet else f"{first.sheet} row {first.row}"
            issues.append(_problem(row, "board", f"第{row.board}台重复, 已在{place}出现 (每台只能填一行)",
                                   f"board {row.board} is written twice, first in {place_en} "
                                   "(one line per board)"))
            continue
        seen[(where, row.board)] = row
        rnd, game = found
        if game.is_bye and (row.result is None or row.result.bye):
            bye_rows += 1
            _check_bye(row, [game], names, issues)
            continue
        _check_names(row, game, names, issues)
        if row.result is None:  # blank: not played yet; unreadable: already reported
            blank += row.result_text == ""
            if row.result_text == BOTH_WIN_WORD:
                if game.result != Result.BOTH_WIN:
                    issues.append(_problem(
                        row, "result", f"{BOTH_WIN_WORD}只能保留导入的成绩, 不能录入 (允许: {ACCEPTED})",
                        f"{BOTH_WIN_WORD} can only keep an imported result, it cannot be entered "
                        f"(allowed: {ACCEPTED})"))
                else:
                    unchanged += 1  # the imported 双方胜 printed back: no change
            continue
        parsed, late_note = row.result, ""
        if parsed.late_minutes is not None:  # 黑迟到17分钟: the regulation decides, row by row
            try:
                parsed, decided = decide_lateness(_reg, parsed, row.board)
            except InputError as exc:
                issues.append(_problem(row, "result", exc.text.zh, exc.text.en))
                continue
            late_note = decided.zh if decided else ""
        problem = entry_problem(game, parsed)
        if problem:
            issues.append(_problem(row, "result", problem.zh, problem.en))
            continue
        if game.result != Result.UNKNOWN:
            if same_result(game, parsed) or _same_result(row, game):
                unchanged += 1  # a pre-filled sheet printed back: identical rows are no change
                continue
            if not change:
                entered = already_entered(game)
                refusals.append(_problem(row, "result", entered.zh, entered.en))
                continue
        elif parsed.result == Result.UNKNOWN:
            blank += 1  # "?" on a board without a result: nothing to clear
            continue
        todo.append((rnd, game, parsed, "; ".join(n for n in (note, late_note) if n)))
    sheets = list(dict.fromkeys(r.sheet for r in sheet.rows))
    problems = sorted(issues + refusals, key=lambda p: (
        p[0].row > 0, sheets.index(p[0].sheet) if p[0].sheet in sheets else -1, p[0].row))
    if problems:
        message = Text(f"{sheet.file}: 共{len(problems)}处问题, 未保存任何成绩 (改正后重新导入)",
                       f"{sheet.file}: {len(problems)} problem(s); no result saved (correct them "
                       "and import again)")
        details = [text for _, text in problems]
        params = {"file": sheet.file, "round": round_no, "problems": len(problems)}
        if issues:
            raise InputError(message, details, code="bad_result_sheet", params=params,
                             hint=Hint.GROUP if grouped else None)
        raise Refused(message, details, code="results_already_entered", params=params, hint=Hint.CHANGE)
    entries = [write_result(work, rnd, game, parsed, change=change, note=row_note)
               for rnd, game, parsed, row_note in todo]
    warnings = tuple(dict.fromkeys(w for e in entries for w in e.warnings))
    return ImportReport([e.game for e in entries], unchanged, blank, bye_rows, warnings)


_Problem = tuple[SheetIssue, Text]


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

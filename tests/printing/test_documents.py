"""Every printed document of both seeds' demo events: rendered, text extracted with pdftotext,
and checked against the services' own output (names, places, amounts, tie-break values) and,
where it can be, against values worked out here from the stored games or the regulation text."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from tests.printing.conftest import RARE, DemoDb, page_images, pdffonts, pdftotext
from yisai.awards.prizes import compute_prizes
from yisai.awards.rank_awards import compute_rank_awards
from yisai.formats.standings_export import place_text, text
from yisai.record import Result
from yisai.services.context import InputError, unit_of_work
from yisai.services.event_data import approved_players, standings_input
from yisai.services.events import playing_stage, regulation_of, resolve_event
from yisai.services.printing import KINDS, PrintOptions, build_document, kind_of, print_pdf
from yisai.services.results import load_event_results
from yisai.standings import compute_standings
from yisai.store import roster_rows, round_rows, team_rows

EVENTS = ("1", "2")


def _pdf(demo: DemoDb, event: str, kind: str, **opts: object) -> tuple[bytes, str]:
    with unit_of_work(str(demo.path)) as work:
        pdf = print_pdf(work, event, kind, PrintOptions(**opts))  # type: ignore[arg-type]
    assert pdf.startswith(b"%PDF-")
    return pdf, pdftotext(pdf)


def _line_with(text_: str, *words: str) -> str:
    """The first layout line holding every word (a table header)."""
    lines = [ln for ln in text_.splitlines() if all(w in ln for w in words)]
    assert lines, f"no line with {words}"
    return lines[0]


def _row(text_: str, *cells: str) -> list[str]:
    """The cells (whitespace-separated) of the first layout line having every one of ``cells``."""
    for ln in text_.splitlines():
        tokens = ln.split()
        if all(c in tokens for c in cells):
            return tokens
    raise AssertionError(f"no row with {cells}")


def _flat(text_: str) -> str:
    return re.sub(r"\s+", "", text_)


def _section(text_: str, heading: str) -> str:
    """The layout text from the first line holding ``heading`` (spaces ignored) to the end."""
    lines = text_.splitlines()
    start = next((i for i, ln in enumerate(lines) if _flat(heading) in _flat(ln)), None)
    assert start is not None, f"no heading {heading}"
    return "\n".join(lines[start:])


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("kind", [k for k in KINDS if k not in ("brackets", "matches")])  # test_brackets_print, test_team_match_print
def test_every_kind_renders_with_footer_and_page_images(demo_db: DemoDb, event: str, kind: str) -> None:
    pdf, txt = _pdf(demo_db, event, kind)
    with unit_of_work(str(demo_db.path)) as work:
        name = resolve_event(work, event).name
    pages = txt.split("\f")[:-1]
    assert pages
    assert KINDS[kind] in _flat(txt) or kind in ("certificates", "cards")
    if kind != "certificates":  # a certificate is handed out: no footer
        for i, page in enumerate(pages, start=1):
            if kind == "booklet" and i == 1:
                continue  # the cover
            flat = _flat(page)
            assert f"第{i}页/共{len(pages)}页" in flat, (kind, i)
            assert "打印时间" in flat and name.replace(" ", "") in flat
    images = page_images(pdf, f"{event}-{kind}")
    assert images and all(p.stat().st_size > 1000 for p in images)


@pytest.mark.parametrize("event", EVENTS)
def test_standings_show_every_tie_break_value_of_the_division(demo_db: DemoDb, event: str) -> None:
    _, txt = _pdf(demo_db, event, "standings")
    with unit_of_work(str(demo_db.path)) as work:
        ev = resolve_event(work, event)
        reg = regulation_of(ev)
        checked = 0
        for d in reg.divisions:
            if not approved_players(work, ev, d.id):
                continue
            stage = playing_stage(reg, d.id)
            inp = standings_input(work, ev, d.id, stage.id)
            st = compute_standings(inp, subset=inp.select(division=d.id), lot_seed=ev.seed)
            titles = [k.title for k in st.shown_keys]
            assert len(titles) >= 3  # 积分 and at least two tie-breaks
            header = _line_with(txt, "名次", "姓名", *titles)
            assert header
            # the division's whole list (混合) is one section among the regulation's lists
            whole = _section(txt, next(r.name for r in d.rankings if r.gender is None and r.min_age is None))
            for row in st.rows:
                tokens = _row(whole, row.player.name)
                values = [text(row.values.get(k.key)) for k in st.shown_keys]
                assert tokens[-len(values):] == values, (row.player.name, tokens, values)
                if not row.player.tags.get("group"):  # plain Swiss: the place is the standings'
                    assert tokens[0] == place_text(row)
                checked += 1
        assert checked == len([p for d in reg.divisions for p in approved_players(work, ev, d.id)])


def test_two_group_final_prints_final_places_then_each_group(demo_db: DemoDb) -> None:
    """Seed 000's open division: places 1–2 are decided by the same-place final A1–B1, so the
    champion is the winner of that game (worked out here from the stored round 10)."""
    _, txt = _pdf(demo_db, "1", "standings", division="open")
    with unit_of_work(str(demo_db.path)) as work:
        rounds = [r for r in round_rows.list_rounds(work.session, 1, "open") if r.group == "final"]
        board1 = next(g for g in rounds[0].games if g.board == 1)
        names = {p.id: p.name for p in roster_rows.list_players(work.session, 1)}
    winner = board1.black if board1.result is Result.BLACK_WINS else board1.white
    loser = board1.white if winner == board1.black else board1.black
    assert winner and loser
    assert _row(txt, names[winner])[0] == "1"
    assert _row(txt, names[loser])[0] == "2"
    for heading in ("公开组男子个人（男女混合排名）最终名次", "公开组女子个人最终名次", "公开组A组第9轮后成绩",
                    "公开组B组第9轮后成绩"):
        assert heading in _flat(txt)


@pytest.mark.parametrize("event", EVENTS)
def test_pairing_list_scores_match_the_stored_games(demo_db: DemoDb, event: str) -> None:
    """Each player's score before the round, counted here from the stored results (win 2,
    loss 0, bye 2 by the regulations; a forfeit or loss on time is still a win for the other)."""
    with unit_of_work(str(demo_db.path)) as work:
        ev = resolve_event(work, event)
        reg = regulation_of(ev)
        division = reg.divisions[0].id
        stage = playing_stage(reg, division)
        games = round_rows.games(work.session, ev.id, division, stage=stage.id)
        names = {p.id: p.name for p in roster_rows.list_players(work.session, ev.id)}
    last = max(g.round for g in games)
    n = last - 1
    score: Counter[str] = Counter()
    for g in games:
        if g.round >= n:
            continue
        if g.is_bye or g.result is Result.BLACK_WINS:
            score[g.black] += 2
        elif g.result is Result.WHITE_WINS and g.white:
            score[g.white] += 2
    _, txt = _pdf(demo_db, event, "pairings", division=division, round=n)
    boards = [g for g in games if g.round == n and not g.is_bye and g.white]
    assert boards
    for g in boards:
        assert g.white is not None
        winner, loser = ("黑", "白") if g.result is Result.BLACK_WINS else ("白", "黑")
        # The demo enters 黑胜/白胜 and, now and then, a loss on time (白超时负 = 黑胜 on time).
        word = {"": f"{winner}胜", "超时判负": f"{loser}超时负"}[g.reason]
        tokens = _row(txt, names[g.black], names[g.white])
        assert tokens[0] == str(g.board)
        assert tokens[-1] == word, (tokens, word)
        assert tokens[tokens.index(names[g.black]) + 1:][:2].count(str(score[g.black])) >= 1
        assert tokens[-2] == str(score[g.white]), (tokens, score[g.white])


@pytest.mark.parametrize("event", EVENTS)
def test_table_cards_and_score_slips_one_per_board(demo_db: DemoDb, event: str) -> None:
    with unit_of_work(str(demo_db.path)) as work:
        ev = resolve_event(work, event)
        reg = regulation_of(ev)
        expected = []
        for d in reg.divisions:
            rounds = round_rows.list_rounds(work.session, ev.id, d.id, stage=playing_stage(reg, d.id).id)
            if not rounds:
                continue
            last = max(r.number for r in rounds)
            expected += [g for r in rounds if r.number == last for g in r.games if not g.is_bye]
        names = {p.id: p.name for p in roster_rows.list_players(work.session, ev.id)}
    _, cards = _pdf(demo_db, event, "cards")
    _, slips = _pdf(demo_db, event, "slips")
    raw_cards = pdftotext(_pdf(demo_db, event, "cards")[0], layout=False)
    assert raw_cards.count("黑方") == len(expected)
    assert slips.count("黑方签字") == len(expected) == slips.count("白方签字") == slips.count("裁判签字")
    for g in expected:
        assert names[g.black] in cards and names[g.white or ""] in cards
        assert names[g.black] in slips and names[g.white or ""] in slips
    # Komi 7.5 in both regulations: no draw box on the slip.
    assert "黑胜" in slips and "白胜" in slips and "和棋" not in slips
    # Six cards, three slips per A4 page.
    assert cards.count("\f") == -(-len(expected) // 6)
    assert slips.count("\f") == -(-len(expected) // 3)


@pytest.mark.parametrize("event", EVENTS)
def test_prize_list_amounts_and_certificates(demo_db: DemoDb, event: str, tmp_path: Path) -> None:
    with unit_of_work(str(demo_db.path)) as work:
        results = load_event_results(work, event)
        report = compute_prizes(results)
    _, txt = _pdf(demo_db, event, "prizes")
    cursor = 0
    for pl in report.lists:  # printed in the report's order, each list's rows after its title
        found = re.compile(r"\s*".join(map(re.escape, pl.name))).search(txt, cursor)
        assert found, pl.name
        cursor = found.start()
        section = txt[cursor:]
        for ln in pl.lines:
            if ln.place is None or pl.kind not in ("cash", "ecard"):
                continue
            assert _row(section, ln.name, str(ln.amount))[0] == place_text_of(ln.place, ln.shared)
        if pl.total:
            assert f"小计 {pl.total} 元" in txt
    assert str(report.total) in _line_with(txt, "合计")
    if event == "1":
        # The regulation (seed 000, 七 1): 冠军60000元, 亚军30000元, 第九名至第三十二名1000元.
        open_list = next(pl for pl in report.lists if pl.name == "公开组男子个人")
        by_place = {ln.place: ln for ln in open_list.lines}
        assert _row(txt, by_place[1].name, "60000")[0] == "1"
        assert _row(txt, by_place[2].name, "30000")[0] == "2"
        assert _row(txt, by_place[9].name, "1000")[0] == "9"
    # Certificates: one page per prize winner (participation awards excepted).
    pdf, _ = _pdf(demo_db, event, "certificates")
    pages = pdftotext(pdf, layout=False).split("\f")[:-1]
    winners = [(pl, ln) for pl in report.lists if pl.source != "participation" for ln in pl.lines]
    assert len(pages) == len(winners)
    for page, (pl, ln) in zip(pages, winners, strict=True):
        flat = _flat(page)
        assert ln.name in flat and pl.name in flat
        if ln.place is not None:
            assert f"第{ln.place}名" in flat
    assert "获奖证书" in pdftotext(pdf, layout=False).replace(" ", "")


def place_text_of(place: int, shared: bool) -> str:
    return f"{place}=" if shared else str(place)


@pytest.mark.parametrize("event", EVENTS)
def test_team_standings_and_rank_award_list(demo_db: DemoDb, event: str) -> None:
    with unit_of_work(str(demo_db.path)) as work:
        results = load_event_results(work, event)
        awards = compute_rank_awards(results)
    _, txt = _pdf(demo_db, event, "teams")
    flat = re.sub(r"\s+", "", txt)
    for tt in results.team_tables().values():
        assert tt.competition.name in txt
        section = txt[txt.index(tt.competition.name):]  # this competition's table comes first
        for r in tt.rows:
            tokens = _row(section, r.name)
            assert tokens[0] == (str(r.place) if r.place is not None else r.name)
            assert f"{r.value:g}" in tokens
            for m in r.members:
                assert results.players[m.player_id].name in flat
    _, txt = _pdf(demo_db, event, "rank-awards")
    flat = re.sub(r"\s+", "", txt)
    applicants = awards.applicants()
    for a in applicants:
        assert a.name in flat and re.sub(r"\s+", "", a.text) in flat
    for rule in awards.rules:
        assert f"参赛{rule.entrants}人" in flat


@pytest.mark.parametrize("event", EVENTS)
def test_entry_list_and_booklet_name_every_player_without_private_data(demo_db: DemoDb, event: str) -> None:
    with unit_of_work(str(demo_db.path)) as work:
        ev = resolve_event(work, event)
        reg = regulation_of(ev)
        players = [p for d in reg.divisions for p in approved_players(work, ev, d.id)]
        teams = team_rows.list_teams(work.session, ev.id)
    for kind in ("entries", "booklet"):
        _, txt = _pdf(demo_db, event, kind)
        flat = re.sub(r"\s+", "", txt)
        for p in players:
            assert p.name in flat
            assert p.birth_date is None or p.birth_date.isoformat() not in txt
            for private in (p.id_number, p.phone, p.certificate_no):
                assert not private or private not in txt
        for t in teams:
            assert t.name in flat
        if kind == "entries":  # 序号 姓名 性别 代表队 段位
            for p in players:
                tokens = _row(txt, p.name)
                assert tokens[2] == p.gender.label and tokens[-1] == str(p.rank), tokens
    assert reg.name.replace(" ", "") in flat and "赛程" in txt and "组别与参赛资格" in flat


@pytest.mark.parametrize("event", EVENTS)
def test_rare_characters_are_embedded_not_tofu(demo_db: DemoDb, event: str, tmp_path: Path) -> None:
    """The renamed winners print in the prize list; pdffonts shows a font was embedded that
    holds them (HanaMin for 𪚥, which Noto CJK lacks) and pdftotext reads them back."""
    pdf, txt = _pdf(demo_db, event, "prizes")
    fonts = pdffonts(pdf, tmp_path)
    assert "NotoSansCJK" in fonts
    for name in RARE[event]:
        assert name in txt
    if event == "2":
        assert "HanaMinA" in fonts  # 𪚥 U+2A6A5 (Ext B) comes from the fallback font
    page_images(pdf, f"{event}-rare-prizes", pages=1)


def test_kinds_by_chinese_name_and_bad_requests(demo_db: DemoDb) -> None:
    assert kind_of("对阵表") == "pairings" and kind_of("秩序册") == "booklet"
    with unit_of_work(str(demo_db.path)) as work:
        by_name = build_document(work, "2", "entries", PrintOptions(division="甲组"))
        assert [t.title.split("参赛名单")[0] for s in by_name.sections for t in s.tables] == ["甲组"]
        with pytest.raises(InputError, match="未知的打印种类: 海报"):
            build_document(work, "1", "海报")
        with pytest.raises(InputError, match=r"没有组别“nope”.*公开组\(open\)"):
            build_document(work, "1", "standings", PrintOptions(division="nope"))
        with pytest.raises(InputError, match="第99轮尚未编排"):
            build_document(work, "1", "pairings", PrintOptions(division="open", round=99))
        with pytest.raises(InputError, match="背景图片"):
            print_pdf(work, "1", "certificates", PrintOptions(background=Path("/no/such.png")))


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain one-colour PNG (written here so the test needs no image library)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_certificate_background_image(demo_db: DemoDb, tmp_path: Path) -> None:
    import subprocess

    bg = tmp_path / "bg.png"
    bg.write_bytes(_png(30, 21, (253, 243, 216)))
    with unit_of_work(str(demo_db.path)) as work:
        plain = print_pdf(work, "2", "certificates", PrintOptions(division="jia"))
        fancy = print_pdf(work, "2", "certificates", PrintOptions(division="jia", background=bg))
    assert pdftotext(plain) == pdftotext(fancy)  # same certificates, only the paper differs

    def images(pdf: bytes, name: str) -> list[str]:
        f = tmp_path / name
        f.write_bytes(pdf)
        out = subprocess.run(["pdfimages", "-list", str(f)], capture_output=True, text=True, check=True)
        return [ln for ln in out.stdout.splitlines()[2:] if ln.strip()]

    pages = pdftotext(fancy).count("\f")
    assert images(plain, "plain.pdf") == []
    found = images(fancy, "fancy.pdf")
    assert len(found) == pages and all(" 30    21 " in ln for ln in found)  # 30×21 px on every page


def test_english_labels_for_an_english_caller(demo_db: DemoDb) -> None:
    """Chinese first; a caller in English (``--lang en``, an English web request) gets the
    fixed words in English while names and the regulation's own texts stay as entered."""
    from yisai.i18n import use_language

    with use_language("en"):
        _, standings = _pdf(demo_db, "2", "standings", division="jia")
        _, slips = _pdf(demo_db, "2", "slips", division="jia")
    flat = _flat(standings)
    assert "Place" in standings and "Name" in standings and "afterround7" in flat
    assert "Page1of" in flat and "Printed" in standings and "第1页" not in flat
    assert "Scoreslip" in _flat(slips) and "Black'ssignature" in _flat(slips)
    with use_language("zh"):
        _, again = _pdf(demo_db, "2", "standings", division="jia")
    assert "名次" in again and "Place" not in again


def test_seed_002_papers_as_organisers_expect(demo_db: DemoDb) -> None:
    """Issue 22 item 7 on seed 002: certificates carry the event's last day (规程 四:
    2025年5月1日-4日), not the day of printing; the prize list's 单位 is the player's team;
    the 秩序册 has each team's roster seat by seat and the round-1 draw; no division ids."""
    printed = datetime(2026, 1, 2, 3, 4)
    pdf, _ = _pdf(demo_db, "2", "certificates", printed_at=printed)
    pages = pdftotext(pdf, layout=False).split("\f")[:-1]
    assert pages and all("2025年5月4日" in _flat(p) and "2026" not in _flat(p) for p in pages)
    page_images(pdf, "2-certificate-date", pages=1)

    with unit_of_work(str(demo_db.path)) as work:
        report = compute_prizes(load_event_results(work, "2"))
        teams = team_rows.list_teams(work.session, 2)
        names = {p.id: p.name for p in roster_rows.list_players(work.session, 2)}
        round1 = [r for d in ("jia", "yi", "bing") for r in round_rows.list_rounds(work.session, 2, d, number=1)]
    team_of = {m.player_id: t.name for t in teams for m in t.members}
    _, txt = _pdf(demo_db, "2", "prizes")
    checked = 0
    for pl in report.lists:
        for ln in pl.lines:
            if ln.player_id and ln.amount and ln.place is not None:
                assert team_of[ln.player_id] in _row(txt, ln.name, str(ln.amount)), ln.name
                checked += 1
    assert checked >= 30  # six individual lists (甲乙丙 × 男女), five or more places each
    assert "均为税前" not in _flat(txt)  # seed 002 never says the values are pre-tax

    pdf, txt = _pdf(demo_db, "2", "booklet")
    flat = _flat(txt)
    assert "(jia)" not in flat and "分档jia" not in flat and "甲组" in flat
    assert "技术官员" in flat and "裁判长:由中国围棋协会选派" in flat
    for t in teams:
        for m in t.members:
            row = _row(txt, names[m.player_id])
            assert m.slot in row, (t.name, row)  # 甲组男 张三 …
    draw = txt[txt.index("第一轮对阵"):]
    boards = [g for r in round1 for g in r.games if g.white]
    assert boards
    for g in boards:
        row = _row(draw, names[g.black], names[g.white])
        assert row[0] == str(g.board)
        assert team_of[g.black] != team_of[g.white]  # round 1 avoids teammates (同队回避)
    page_images(pdf, "2-booklet", pages=9)

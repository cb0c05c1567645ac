"""Scoresheets (记分表, seed 000 art. 46): a page per table and set, read back from the PDF.

The PDF is checked as a printer would see it: its pages and their size (pypdf), its text
(poppler's pdftotext) and each page's QR code (rendered by pdftoppm, decoded by zxing-cpp).
"""

from __future__ import annotations

import print_support as pdf
import pytest
from event_support import run, seated_event, swiss_cup
from print_support import A4_PORTRAIT, needs_poppler, rotating_event

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.event.access import table_links
from guandan_dup.printing import print_round

pytestmark = needs_poppler


def page_texts(path) -> list[str]:
    """Each page's words, one space apart (the layout's line breaks do not matter)."""
    return [" ".join(page.split()) for page in pdf.texts(path)]


@pytest.fixture
def event(tmp_path):
    """17 players at 4 tables, 2 sets of 3 boards a round; round 1 seated."""
    return seated_event(tmp_path)


def test_art46_a_sheet_per_table_and_set_on_a4_a_tables_sheets_together(event, tmp_path):
    printed = print_round(EventFolder.open(event), 1, "scoresheets", out=tmp_path / "s.pdf")
    assert printed.pages == 8 and pdf.sizes(printed.path) == [A4_PORTRAIT] * 8
    heads = [(t, s) for t in (1, 2, 3, 4) for s in (1, 2)]
    for text, (table, set_no) in zip(page_texts(printed.path), heads, strict=True):
        assert f"第{table}桌 Table {table} · 第{set_no}局 Set {set_no}" in text
        assert f"副 Boards {3 * set_no - 2}-{3 * set_no}" in text
    assert printed.path == tmp_path / "s.pdf" and not (event / "print").exists()


def test_art46_a_sheet_names_each_seat_with_name_and_id_and_has_both_signatures(event,
                                                                               tmp_path):
    folder = EventFolder.open(event)
    printed = print_round(folder, 1, "scoresheets", out=tmp_path / "s.pdf")
    seating = folder.read(1, "seating").set_index("table")
    players = folder.players()
    names = dict(zip(players["player"], players["name"], strict=True))
    for i, text in enumerate(page_texts(printed.path)):
        row = seating.loc[i // 2 + 1]
        seats = " ".join(f"{word} {row[seat]} {names[row[seat]]}" for seat, word in (
            ("north", "北 North"), ("east", "东 East"), ("south", "南 South"),
            ("west", "西 West")))
        assert seats in text
        for label in ("南北签名", "东西签名", "最终级数", "上游", "下游", "南北级数",
                      "东西级数"):
            assert label in text
        set_no = i % 2 + 1
        boards = " ".join(str(b) for b in range(3 * set_no - 2, 3 * set_no + 1))
        assert f"start 起始 2 2 {boards} Final levels" in text


def test_art32_a_set_the_ledger_decides_says_there_is_nothing_to_write(event, tmp_path):
    run("event", "ledger", "add", event, "late", "--round", 1, "--table", 2, "--set", 2,
        "--side", "EW", "--minutes", 12, "--reason", "traffic")  # past 10 minutes: forfeit
    printed = print_round(EventFolder.open(event), 1, "scoresheets", out=tmp_path / "s.pdf")
    texts = page_texts(printed.path)
    assert "本局结果已由裁判判定，无需记分" in texts[3]  # table 2, set 2
    assert not any("无需记分" in text for text in texts[:3] + texts[4:])


@pytest.mark.parametrize(("side", "minutes", "start"), [
    ("NS", 3, "N-S 南北 2 · E-W 东西 3"),
    ("NS", 7, "N-S 南北 2 · E-W 东西 4"),
    ("EW", 4, "N-S 南北 3 · E-W 东西 2"),
])
def test_art32_a_late_sides_opponents_start_higher_on_that_sheet_only(event, tmp_path,
                                                                       side, minutes, start):
    run("event", "ledger", "add", event, "late", "--round", 1, "--table", 2, "--set", 2,
        "--side", side, "--minutes", minutes, "--reason", "traffic")
    printed = print_round(EventFolder.open(event), 1, "scoresheets", out=tmp_path / "s.pdf")
    texts = page_texts(printed.path)
    late = texts[3]  # table 2, set 2
    assert "第2桌 Table 2 · 第2局 Set 2" in late
    assert f"起始级数: {start}" in late
    assert "late 迟到 (art. 32, ledger row 1)" in late
    assert ("North-South 南北 late" if side == "NS" else "East-West 东西 late") in late
    for other in texts[:3] + texts[4:]:
        assert "起始级数: N-S 南北 2 · E-W 东西 2" in other
        assert "迟到" not in other


def test_spec11_each_sheets_qr_code_is_its_tables_entry_link_with_its_pin(event, tmp_path):
    printed = print_round(EventFolder.open(event), 1, "scoresheets", out=tmp_path / "s.pdf")
    links = {link.table: link for link in table_links(event, 1)}
    codes = [pdf.qr_codes(png) for png in pdf.pictures(printed.path, tmp_path / "png")]
    texts = page_texts(printed.path)
    for i, (found, text) in enumerate(zip(codes, texts, strict=True)):
        link = links[i // 2 + 1]
        assert found == [link.url]
        assert f"PIN {link.pin}" in text


def test_art19_a_substitute_is_printed_in_the_seat_of_the_player_replaced(event, tmp_path):
    folder = EventFolder.open(event)
    replaced = folder.read(1, "seating").set_index("table").loc[3, "east"]
    run("event", "ledger", "add", event, "substitute", "--round", 1, "--player", "SUB1",
        "--for", replaced, "--reason", "family emergency")
    printed = print_round(EventFolder.open(event), 1, "scoresheets", out=tmp_path / "s.pdf")
    names = dict(zip(folder.players()["player"], folder.players()["name"], strict=True))
    for text in page_texts(printed.path)[4:6]:  # table 3's two sets
        assert f"东 East SUB1 SUB1 (substitute 替补 for {names[replaced]}) 南 South" in text
        assert replaced not in text


def test_spec7_rotating_partners_give_each_sets_sheet_its_own_seats(tmp_path):
    folder = EventFolder.open(rotating_event(tmp_path))
    printed = print_round(folder, 1, "scoresheets", out=tmp_path / "s.pdf")
    seating = folder.read(1, "seating").set_index(["table", "set"])
    texts = page_texts(printed.path)
    assert printed.pages == 6
    for text, (table, set_no) in zip(texts, [(t, s) for t in (1, 2) for s in (1, 2, 3)],
                                     strict=True):
        row = seating.loc[(table, set_no)]
        assert f"南 South {row['south']} " in text and f"北 North {row['north']} " in text


def test_spec8_a_team_matchs_sheets_name_the_match_and_room(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3, dealt=(1,))
    printed = print_round(folder, 1, "scoresheets", out=tmp_path / "s.pdf")
    texts = page_texts(printed.path)
    assert printed.pages == 4
    assert "第1场 Match 1 · 开室 open room" in texts[0]
    assert "第1场 Match 1 · 闭室 closed room" in texts[2]


def test_a_round_not_seated_has_no_scoresheets(event, tmp_path):
    with pytest.raises(GuandanError, match="round 2 is not seated yet"):
        print_round(EventFolder.open(event), 2, "scoresheets", out=tmp_path / "s.pdf")
    assert not (tmp_path / "s.pdf").exists()

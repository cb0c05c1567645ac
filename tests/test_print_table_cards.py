"""Issue 23 item 4: `event print --what table-cards`, a fold-up A4 card per table whose QR
codes (one on each half) decode to the table's entry link, with its PIN and its players."""

from __future__ import annotations

import shutil

import pytest
from event_support import named_teams, run, seated_event, team_players
from print_support import (
    A4_LANDSCAPE,
    needs_poppler,
    pictures,
    qr_codes,
    rotating_event,
    sizes,
    texts,
)

from guandan_dup.event import EventFolder
from guandan_dup.live import tokens
from guandan_dup.printing import print_round
from guandan_dup.seats import SEAT_COLUMNS

pytestmark = needs_poppler


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """17 players on 4 tables, round 1 seated, its table cards printed by the CLI."""
    directory = seated_event(tmp_path_factory.mktemp("cards"))
    output = run("event", "print", directory, "--round", 1, "--what", "table-cards")
    assert f"Wrote {directory / 'print' / 'round-1-table-cards.pdf'} (4 pages, A4)" in output
    return directory


def cards(directory, round_no=1):
    return directory / "print" / f"round-{round_no}-table-cards.pdf"


def test_one_a4_landscape_card_per_table(event):
    assert sizes(cards(event)) == [A4_LANDSCAPE] * 4


def test_both_halves_of_each_card_decode_to_the_tables_entry_link(event, tmp_path):
    links = tokens.table_links(event, 1)
    found = [qr_codes(p) for p in pictures(cards(event), tmp_path)]
    assert found == [[link.url, link.url] for link in links]


def test_each_card_shows_its_number_pin_sets_and_players_by_name_and_id(event):
    folder = EventFolder.open(event)
    seating = folder.read(1, "seating")
    names = dict(zip(folder.players()["player"], folder.players()["name"], strict=True))
    for link, text, (_, row) in zip(tokens.table_links(event, 1), texts(cards(event)),
                                    seating.sort_values("table").iterrows(), strict=True):
        assert f"PIN {link.pin}" in text and "桌 Table" in text
        assert f"第{row['group']}组 Group {row['group']} · 第1轮 Round 1" in text
        assert "局 Sets · 副 boards" in text and "1-3, 4-6" in text, "sets' boards"
        assert "北 North" in text and "对折 fold" in text
        for seat in SEAT_COLUMNS:
            assert names[row[seat]] in text and row[seat] in text, (link.table, seat)


def test_a_card_printed_after_a_revocation_carries_the_new_link(event, tmp_path):
    copy = shutil.copytree(event, tmp_path / "event")
    run("event", "tokens", copy, "--round", 1, "--revoke", 2)
    printed = print_round(EventFolder.open(copy), 1, "table-cards")
    links = tokens.table_links(copy, 1)
    assert [qr_codes(p) for p in pictures(printed.path, tmp_path / "png")] == [
        [link.url, link.url] for link in links]
    assert links[1].url not in {x.url for x in tokens.table_links(event, 1)}


def test_rotating_partners_show_each_sets_seats(tmp_path):
    directory = rotating_event(tmp_path)
    printed = print_round(EventFolder.open(directory), 1, "table-cards")
    seating = EventFolder.open(directory).read(1, "seating")
    assert printed.pages == 2
    for (table, rows), text in zip(seating.groupby("table"), texts(printed.path),
                                   strict=True):
        assert len(rows) == 3, "a seating row per set"
        for boards in ("1-2", "3-4", "5-6"):
            assert boards in text, (table, boards)


def test_team_cards_name_the_match_and_room(tmp_path):
    directory = tmp_path / "cup"
    run("event", "init", directory, "--kind", "teams", "--format", "round-robin",
        "--players", team_players(tmp_path / "players.csv", [4, 4, 4, 4]),
        "--rounds", 3, "--boards-per-set", 3)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    printed = print_round(EventFolder.open(directory), 1, "table-cards")
    pages = texts(printed.path)
    assert printed.pages == 4, "two matches, two rooms each"
    assert sum("第1场 Match 1 · 开室 open room" in t for t in pages) == 1
    assert sum("闭室 closed room" in t for t in pages) == 2
    links = tokens.table_links(directory, 1)
    assert [qr_codes(p) for p in pictures(printed.path, tmp_path / "png")] == [
        [link.url, link.url] for link in links]


LONG = "江苏省南京市鼓楼区老年大学掼蛋协会第一代表队"
OTHER = "上海市浦东新区陆家嘴金融城掼蛋俱乐部"


def words_right_edges(pdf) -> list[float]:
    """Where every word printed ends, in points from the left (``pdftotext -bbox``)."""
    import re
    import subprocess

    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                          check=True).stdout.decode("utf-8")
    return [float(x) for x in re.findall(r'<word [^>]*xMax="([\d.]+)"', html)]


def test_issue25_team_cards_keep_long_team_names_whole_on_the_card(tmp_path):
    """A team's name is never cut: the teams go on a line of their own, shrunk to fit,
    and every word printed ends inside the page."""
    directory = named_teams(tmp_path, [LONG, "北京队", OTHER, "南京队"])
    printed = print_round(EventFolder.open(directory), 1, "table-cards")
    teams = EventFolder.open(directory).read(1, "matches")
    names = {1: LONG, 2: "北京队", 3: OTHER, 4: "南京队"}
    lines = ["".join(t.split()) for t in texts(printed.path, layout=True)]
    for match in teams.itertuples():
        for name in (names[int(match.home)], names[int(match.away)]):
            assert sum(name in page for page in lines) == 2, name  # both rooms' cards
    assert max(words_right_edges(printed.path)) <= A4_LANDSCAPE[0]

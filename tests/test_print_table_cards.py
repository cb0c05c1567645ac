"""Issue 23 item 4: `event print --what table-cards`, a fold-up A4 card per table whose QR
codes (one on each half) decode to the table's entry link, with its PIN and its players."""

from __future__ import annotations

import shutil

import pytest
from event_support import run, seated_event, team_players
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
        assert f"PIN {link.pin}" in text and "Table 桌" in text
        assert f"Group {row['group']} 组" in text and "1-3, 4-6" in text, "sets' boards"
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
    assert sum("open room 开室" in t for t in pages) == 2
    assert sum("closed room 闭室" in t for t in pages) == 2
    links = tokens.table_links(directory, 1)
    assert [qr_codes(p) for p in pictures(printed.path, tmp_path / "png")] == [
        [link.url, link.url] for link in links]

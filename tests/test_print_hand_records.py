"""Issue 23 item 4: `event print --what hand-records`, the round's boards as `event deal`
dealt them, two to an A4 page, through the same path as every printed kind."""

from __future__ import annotations

import shutil

import pytest
from event_support import run, seated_event
from print_support import A4_PORTRAIT, needs_poppler, sizes, texts

from guandan_dup.cards import SUIT_SYMBOLS
from guandan_dup.deals.boardset import hands_of, load
from guandan_dup.deals.render import hand_by_suit, to_text
from guandan_dup.event import EventFolder
from guandan_dup.printing import print_round

pytestmark = needs_poppler


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return seated_event(tmp_path_factory.mktemp("hands"))


def words(text: str) -> str:
    return " ".join(text.split())


def test_two_boards_to_a_page_with_the_headings_of_the_text_records(event):
    printed = print_round(EventFolder.open(event), 1, "hand-records")
    table = load(event / "rounds" / "1" / "boards.parquet")
    headings = [line for line in to_text(table).splitlines() if line.startswith("第")]
    assert len(headings) == 6 and printed.pages == 3
    assert sizes(printed.path) == [A4_PORTRAIT] * 3
    pages = [words(t) for t in texts(printed.path)]
    for index, heading in enumerate(headings):
        assert words(heading) in pages[index // 2], heading


def test_every_hand_is_printed_suit_by_suit(event):
    printed = print_round(EventFolder.open(event), 1, "hand-records")
    hands = hands_of(load(event / "rounds" / "1" / "boards.parquet"))
    pages = ["".join(t.split()) for t in texts(printed.path)]  # small print: spaces vary
    for board, seats in enumerate(hands):
        for hand in seats:
            suits, jokers = hand_by_suit(hand)
            for symbol, ranks in zip(SUIT_SYMBOLS, suits, strict=True):
                assert symbol + ("".join(ranks) or "—") in pages[board // 2], (board + 1, ranks)
            assert "".join(jokers) in pages[board // 2]


def test_a_round_not_dealt_is_refused_with_the_command_that_deals_it(event, tmp_path):
    copy = shutil.copytree(event, tmp_path / "event")
    (copy / "rounds" / "1" / "boards.parquet").unlink()
    shutil.rmtree(copy / "print", ignore_errors=True)
    output = run("event", "print", copy, "--round", 1, "--what", "hand-records", code=1)
    assert output == (f"Error: round 1 is not dealt yet, so it has no hand records; run "
                      f"`guandan-dup event deal {copy} --round 1` first\n")
    assert not (copy / "print" / "round-1-hand-records.pdf").exists()

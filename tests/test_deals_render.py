"""Hand records (SPEC 3.5): JSON, plain text and printable HTML of the same boards."""

import json
import re

import numpy as np
import pytest

from guandan_dup.cards import parse_cards
from guandan_dup.deals.boardset import hands_of, make_board_set
from guandan_dup.deals.render import (
    OutputFormat,
    format_for_path,
    hand_by_suit,
    to_html,
    to_json,
    to_text,
)

KEY = bytes(range(32))


@pytest.fixture(scope="module")
def table():
    return make_board_set(KEY, range(1, 7), boards_per_set=3, delayed="golden")


def test_json_lists_every_board_with_card_texts_that_parse_back(table):
    boards = json.loads(to_json(table))
    assert [b["board"] for b in boards] == [1, 2, 3, 4, 5, 6]
    assert [b["leader"] for b in boards] == ["E", None, None, "E", None, None]
    parsed = [[parse_cards(" ".join(b[seat])) for seat in ("north", "east", "south", "west")]
              for b in boards]
    assert (np.array(parsed) == hands_of(table)).all()


def test_text_record_has_a_heading_and_four_seat_lines_per_board(table):
    blocks = to_text(table).rstrip("\n").split("\n\n")
    assert len(blocks) == 6
    assert blocks[0].splitlines()[0] == "Board 1  (set 1, board 1 of 3, East leads)"
    assert blocks[1].splitlines()[0] == "Board 2  (set 1, board 2 of 3)"
    assert [line.split()[0] for line in blocks[3].splitlines()[1:]] == [
        "North", "East", "South", "West"
    ]


def test_text_record_holds_exactly_the_cards_of_each_hand(table):
    """Every rank in a seat's line, read back with its suit, is that seat's hand."""
    line = to_text(table).splitlines()[1]  # board 1, North
    cards = []
    for symbol, ranks in re.findall(r"([♠♥♣♦]) ([^♠♥♣♦大小]*)", line):
        cards += [symbol + rank for rank in ranks.split() if rank != "-"]
    cards += re.findall(r"大王|小王", line)
    assert sorted(parse_cards(" ".join(cards))) == hands_of(table)[0, 0].tolist()


def test_hand_by_suit_orders_suits_then_ranks_high_first_jokers_last():
    suits, jokers = hand_by_suit(np.array(parse_cards("S2 SA ST H9 DK BJ RJ RJ")))
    assert suits == [["A", "10", "2"], ["9"], [], ["K"]]
    assert jokers == ["大王", "大王", "小王"]


def test_html_prints_one_unsplittable_block_per_board_in_compass_layout(table):
    html = to_html(table, title="Round 1")
    assert "<title>Round 1</title>" in html
    assert html.count('<section class="board">') == 6
    assert "break-inside: avoid" in html
    for seat in ("north", "west", "east", "south"):
        assert html.count(f'<div class="hand {seat}">') == 6
    assert 'grid-template-areas: ". north ." "west centre east" ". south ."' in html
    assert html.count('<span class="symbol red">♥</span>') == 24
    assert html.count('<span class="symbol">♠</span>') == 24


def test_html_escapes_the_title(table):
    assert "<b>" not in to_html(table, title="<b>x</b>")


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("b.parquet", OutputFormat.PARQUET),
        ("b.JSON", OutputFormat.JSON),
        ("b.txt", OutputFormat.TEXT),
        ("b.html", OutputFormat.HTML),
        ("b.htm", OutputFormat.HTML),
        ("boards", OutputFormat.PARQUET),
    ],
)
def test_output_format_follows_the_suffix(name, fmt):
    assert format_for_path(name) is fmt

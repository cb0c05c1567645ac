"""Hand records (SPEC 3.5): JSON, plain text and printable HTML of the same boards."""

import json
import re

import numpy as np
import pytest
from write_support import disk_full, record_writes

from guandan_dup.cards import parse_cards
from guandan_dup.deals.boardset import BoardSetError, hands_of, make_board_set
from guandan_dup.deals.render import (
    OutputFormat,
    deal_file,
    format_for_path,
    hand_by_suit,
    to_html,
    to_json,
    to_text,
    write,
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


def test_text_record_has_a_heading_and_four_seat_lines_per_board_chinese_first(table):
    blocks = to_text(table).rstrip("\n").split("\n\n")
    assert len(blocks) == 6
    assert blocks[0].splitlines()[0] == (
        "第 1 副 · 第 1 局第 1 副，共 3 副 · 首出 东 · Board 1  (set 1, board 1 of 3, East leads)")
    assert blocks[1].splitlines()[0] == (
        "第 2 副 · 第 1 局第 2 副，共 3 副 · Board 2  (set 1, board 2 of 3)")
    assert [" ".join(line.split()[:2]) for line in blocks[3].splitlines()[1:]] == [
        "北 North", "东 East", "南 South", "西 West"
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
    assert html.count("<h3>北 North</h3>") == 6
    assert html.count("首出 东 · East leads") == 2, "the first board of each set"


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


def test_deal_file_deals_a_range_text_and_writes_the_format_of_the_suffix(tmp_path):
    table = deal_file(KEY, "1-3", tmp_path / "b.json", boards_per_set=3, delayed="golden")
    assert table.equals(make_board_set(KEY, [1, 2, 3], 3, "golden"))
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))[2]["board"] == 3


def test_writing_onto_a_folder_is_refused_and_leaves_nothing(tmp_path, table):
    (tmp_path / "out").mkdir()
    with pytest.raises(BoardSetError, match="cannot write the boards to '.*out': it is a folder"):
        write(table, tmp_path / "out")
    assert [path.name for path in tmp_path.iterdir()] == ["out"]


@pytest.mark.parametrize("name", ["b.parquet", "b.html"])
def test_a_failed_write_names_the_output_not_a_temporary_file(tmp_path, table, name):
    (tmp_path / "plain").write_text("a file, not a folder")
    out = tmp_path / "plain" / name
    expected = r"cannot write the boards to '.*plain/b\.\w+': "
    with pytest.raises(BoardSetError, match=expected) as caught:
        write(table, out)
    assert ".tmp" not in str(caught.value)


def test_board_mode_headings_do_not_repeat_the_board_as_a_set():
    lines = to_text(make_board_set(KEY, [5, 6])).splitlines()
    assert [lines[0], lines[6]] == ["第 5 副 · 首出 东 · Board 5  (East leads)",
                                    "第 6 副 · 首出 东 · Board 6  (East leads)"]


@pytest.mark.parametrize("name", ["b.parquet", "b.json", "b.txt", "b.html"])
def test_issue20_boards_are_synced_and_a_failed_sync_leaves_the_old_file(
    tmp_path, table, name, monkeypatch
):
    out = tmp_path / name
    events = record_writes(monkeypatch)
    write(table, out)
    assert [e[0] for e in events] == ["sync file", "replace", "sync dir"]
    before = out.read_bytes()
    disk_full(monkeypatch)
    with pytest.raises(BoardSetError, match=r"cannot write the boards to .*: No space left"):
        write(make_board_set(KEY, [7]), out)
    assert out.read_bytes() == before
    assert [path.name for path in tmp_path.iterdir()] == [name]

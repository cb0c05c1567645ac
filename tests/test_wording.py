"""Issue 25: what a director reads says lists as words, counts with their nouns and folders
as a shell takes them (``guandan_dup.wording``, shared by every room)."""

import pytest

from guandan_dup.wording import counted, numbered, pasteable, quoted, spans, words


@pytest.mark.parametrize(("items", "conjunction", "said"), [
    ([], "and", ""),
    ([2], "and", "2"),
    ([2, 3], "and", "2 and 3"),
    (["csv", "md", "html"], "and", "csv, md and html"),
    (["csv", "xlsx"], "or", "csv or xlsx"),
])
def test_issue25_a_list_reads_as_words_never_as_python(items, conjunction, said):
    assert words(items, conjunction) == said


@pytest.mark.parametrize(("noun", "items", "said"), [
    ("round", [2], "round 2"),
    ("round", [2, 3], "rounds 2 and 3"),
    ("set", [1, 2, 3], "sets 1, 2 and 3"),
    ("column", ["trick"], "column trick"),
])
def test_issue25_numbered_things_share_their_noun_singular_or_plural(noun, items, said):
    assert numbered(noun, items) == said


@pytest.mark.parametrize(("count", "noun", "many", "said"), [
    (0, "bye", None, "0 byes"),
    (1, "bye", None, "1 bye"),
    (2, "player", None, "2 players"),
    (1, "match", "matches", "1 match"),
    (3, "match", "matches", "3 matches"),
])
def test_issue25_a_count_carries_its_noun_never_a_parenthesised_s(count, noun, many, said):
    assert counted(count, noun, many) == said


@pytest.mark.parametrize(("numbers", "most", "said"), [
    ([5], None, "table 5"),
    ([1, 2, 3, 4, 6], None, "tables 1-4 and 6"),
    ([1, 2, 3, 4, 5, 6, 7], None, "tables 1-7"),
    ([1, 3, 5, 7, 9], 3, "tables 1, 3, 5 and 2 more"),
    ([1, 2, 3, 5, 6, 9, 11], 2, "tables 1-3, 5-6 and 2 more"),
])
def test_issue25_tables_read_in_runs_and_say_how_many_more(numbers, most, said):
    assert spans("table", numbers, most) == said


def test_issue25_values_a_director_typed_are_quoted_as_typed():
    assert quoted(["pdf"]) == "'pdf'"
    assert quoted(["csv,md", "x"], "or") == "'csv,md' or 'x'"


@pytest.mark.parametrize(("path", "pasted"), [
    ("cup", "cup"),
    ("events/cup", "events/cup"),
    ("南京赛", "南京赛"),
    ("南京赛/cup-round-1.xlsx", "南京赛/cup-round-1.xlsx"),
    ("my cup", "'my cup'"),
    ("it's", "'it'\"'\"'s'"),
    ("$HOME", "'$HOME'"),
])
def test_issue25_a_folder_in_a_command_to_paste_is_quoted_only_when_a_shell_needs_it(path,
                                                                                   pasted):
    assert pasteable(path) == pasted

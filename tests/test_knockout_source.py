"""Where a knockout side comes from (SPEC 9): ``Source``'s text, ``"entry N"``, ``"winner R.M"``
or ``"loser R.M"``, as the bracket files and the results site show it, round-trips."""

import re

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from guandan_dup.errors import NotationError
from guandan_dup.knockout import LAYOUTS, Source, skeleton, sources

NUMBERS = st.integers(1, 10**6)
SOURCES = st.one_of(
    st.builds(Source, st.just("entry"), NUMBERS),
    st.builds(lambda kind, r, m: Source(kind, round=r, match=m),
              st.sampled_from(["winner", "loser"]), NUMBERS, NUMBERS),
)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_source_of_every_bracket_up_to_64_entries_round_trips(layout):
    for entries in range(2, 65):
        table = sources(entries, layout)
        sides = [s for slot in skeleton(entries, layout) for s in (slot.a, slot.b)]
        texts = [t for pair in zip(table["from_a"], table["from_b"], strict=True) for t in pair]
        for side, text in zip(sides, texts, strict=True):
            assert (side is None) == pd.isna(text)  # a bye's missing side
            if side is not None:
                assert side.to_text() == text
                assert Source.from_text(text) == side


@given(SOURCES)
def test_any_source_round_trips_through_text(source):
    assert Source.from_text(source.to_text()) == source


def test_the_text_forms_as_the_bracket_files_show_them():
    assert Source("entry", 12).to_text() == "entry 12"
    assert Source("winner", round=1, match=2).to_text() == "winner 1.2"
    assert Source.from_text("loser 10.11") == Source("loser", round=10, match=11)


@pytest.mark.parametrize(
    "text",
    ["entry 0", "entry", "entry 1.2", "winner 1", "winner 0.1", "loser 1.0", "Winner 1.2",
     " winner 1.2", "bye", "entry 01", "", None],
)
def test_bad_source_text_is_a_notation_error(text):
    with pytest.raises(NotationError, match=re.escape(f"bad knockout source {text!r}")):
        Source.from_text(text)


@pytest.mark.parametrize(
    "fields",
    [("bye", 1), ("entry", 0), ("entry", 1, 1, 1), ("winner", 1, 1, 1), ("loser", 0, 0, 1)],
)
def test_a_source_that_fits_no_kind_cannot_be_made(fields):
    with pytest.raises(NotationError, match="bad knockout source"):
        Source(*fields)

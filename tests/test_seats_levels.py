"""Seats (counter-clockwise play, partners) and levels 2..A, A+ (SPEC 1, 4)."""

import pytest

from guandan_dup.errors import NotationError
from guandan_dup.levels import LEVEL_NAMES, level_from_text, level_to_text
from guandan_dup.seats import SEAT_COLUMNS, Seat


@pytest.mark.parametrize("seat", list(Seat))
def test_seat_round_trips_and_partner_is_opposite(seat):
    assert Seat.from_text(seat.to_text()) is seat
    assert seat.partner.partner is seat and seat.partner.side == seat.side


def test_seat_columns_follow_seat_order_n_e_s_w():
    assert [seat.column for seat in Seat] == list(SEAT_COLUMNS)
    assert SEAT_COLUMNS == ("north", "east", "south", "west")


def test_spec1_play_goes_counter_clockwise_n_w_s_e():
    assert [s.to_text() for s in Seat.N.iter_from()] == ["N", "W", "S", "E"]


def test_bad_seat_is_a_notation_error():
    with pytest.raises(NotationError, match="'X'"):
        Seat.from_text("X")


@pytest.mark.parametrize("index", range(14))
def test_all_fourteen_levels_round_trip(index):
    assert level_from_text(level_to_text(index)) == index


def test_level_names_and_errors():
    assert LEVEL_NAMES[0] == "2" and LEVEL_NAMES[-1] == "A+"
    with pytest.raises(NotationError, match="unknown level 'B'"):
        level_from_text("B")

"""A write into a round with results checks only where the new rows can make a problem
(``event.ingest.check_merged``); it refuses exactly what the whole check refuses, with the
same message, and passes what it passes."""

import random

import pandas as pd
import pytest
from event_support import KEY, players_csv, set_results, write

from guandan_dup.errors import InvalidResultsError
from guandan_dup.event import create_event, deal_round, ingest, seat_event_round
from guandan_dup.event.ingest import check_merged, merge_results
from guandan_dup.results import validate_sets
from guandan_dup.seats import SEAT_COLUMNS

FILE = "the tables' entries with the results already in round 1"
NO_STARTS = pd.DataFrame({c: pd.Series(dtype="int64") for c in
                          ["round", "table", "set", "ns_start", "ew_start"]})


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("incremental")
    event = create_event(tmp / "event", players_csv(tmp / "players.csv", 40), 10, 2, 4, 1,
                         key=KEY)
    deal_round(event, 1)
    seat_event_round(event, 1)
    ingest(event, write(set_results(event, 1), tmp / "r1.parquet"), 1)
    return event.read(1, "results")


def outcome(check, *args) -> str:
    try:
        check(*args)
    except InvalidResultsError as error:
        return str(error)
    return "accepted"


def both(earlier, new, starts=NO_STARTS) -> tuple[str, str]:
    merged, _ = merge_results(earlier, new)
    return (outcome(check_merged, merged, new, earlier, FILE, starts),
            outcome(validate_sets, merged, FILE, None, False, None, starts))


def test_a_new_row_seating_a_player_of_another_table_is_refused_as_the_whole_check_does(
        stored):
    new = stored.iloc[[5]].copy()
    new["north"] = stored.iloc[2]["east"]  # table 3's player, again at table 6
    mine, whole = both(stored.drop(index=5), new)
    assert "also plays at table" in whole
    assert mine == whole


def test_a_new_row_changing_only_levels_is_accepted_as_the_whole_check_does(stored):
    new = stored.iloc[[3]].assign(ns_level=pd.array([5], "Int8"))
    assert both(stored, new) == ("accepted", "accepted")


def test_an_earlier_row_made_unreachable_by_a_late_start_is_still_found(stored):
    row = stored.iloc[0]
    starts = NO_STARTS.iloc[:0].copy()
    starts.loc[0] = [1, int(row["table"]), int(row["set"]), 12, 12]  # from A/A: 2 is too low
    new = stored.iloc[[7]].assign(ew_level=pd.array([4], "Int8"))
    mine, whole = both(stored, new, starts.astype("int64"))
    assert mine == whole


@pytest.mark.parametrize("seed", range(12))
def test_property_the_part_checked_refuses_what_the_whole_refuses(stored, seed):
    """Random batches of 1-3 rows, some with a seat swapped for another table's player or
    an impossible level, against the rest stored: the same outcome, word for word."""
    draw = random.Random(seed)
    rows = draw.sample(range(len(stored)), draw.randint(1, 3))
    new = stored.iloc[rows].copy()
    for i in range(len(new)):
        if draw.random() < 0.5:
            seat = draw.choice(SEAT_COLUMNS)
            new.iloc[i, new.columns.get_loc(seat)] = stored.iloc[draw.randrange(len(stored))][
                draw.choice(SEAT_COLUMNS)]
        if draw.random() < 0.3:
            new.iloc[i, new.columns.get_loc("ns_level")] = draw.randrange(13)
    mine, whole = both(stored, new)
    assert mine == whole

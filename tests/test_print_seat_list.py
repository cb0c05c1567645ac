"""Issue 23 item 4: `event print --what seat-list`, every player of the round by name with
their table and seat, for the wall; byes listed; seats per set under partner rotation."""

from __future__ import annotations

import pandas as pd
import pytest
from event_support import players_csv, run, seated_event
from print_support import A4_PORTRAIT, needs_poppler, sizes, texts

from guandan_dup.event import EventFolder
from guandan_dup.printing import print_round
from guandan_dup.printing.seat_list import placements
from guandan_dup.printing.source import RoundSource

SEAT_LABEL = {"north": "北 North", "east": "东 East", "south": "南 South", "west": "西 West"}


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return seated_event(tmp_path_factory.mktemp("seats"))


def source(seating: pd.DataFrame, byes=(), names=None) -> RoundSource:
    """A round seated as ``seating`` without a folder: ``names`` stands in for the
    players file (the cached property is filled before anything reads it)."""
    made = RoundSource(None, 1, seating, pd.DataFrame({"player": list(byes)}))
    made.__dict__["names"] = names or {}
    return made


def test_the_list_is_sorted_by_name_then_id_with_a_bye_listed():
    seating = pd.DataFrame({"group": [1], "table": [3], "north": ["p2"], "east": ["p1"],
                            "south": ["p4"], "west": ["p3"]})
    names = {"p1": "王伟", "p2": "李艳", "p3": "王伟", "p4": "陈超", "p5": "张敏"}
    assert placements(source(seating, ["p5"], names)) == [
        ("张敏", "p5", "轮空 bye", ""),
        ("李艳", "p2", "3", "北 North"),
        ("王伟", "p1", "3", "东 East"),
        ("王伟", "p3", "3", "西 West"),
        ("陈超", "p4", "3", "南 South"),
    ]


def test_under_partner_rotation_a_player_changing_seat_gets_each_sets_seat():
    seating = pd.DataFrame({"group": [1, 1], "table": [1, 1], "set": [1, 2],
                            "north": ["a", "a"], "east": ["b", "c"], "south": ["c", "b"],
                            "west": ["d", "d"]})
    found = {p: seat for _, p, _, seat in placements(source(seating))}
    assert found == {"a": "北 North", "d": "西 West",
                     "b": "第1局 set 1 东 East; 第2局 set 2 南 South",
                     "c": "第1局 set 1 南 South; 第2局 set 2 东 East"}


@needs_poppler
def test_the_printed_list_names_every_player_with_table_and_seat(event):
    printed = print_round(EventFolder.open(event), 1, "seat-list")
    assert printed.path == event / "print" / "round-1-seat-list.pdf"
    assert sizes(printed.path) == [A4_PORTRAIT]
    text = " ".join(texts(printed.path, layout=True)[0].split())
    folder = EventFolder.open(event)
    names = dict(zip(folder.players()["player"], folder.players()["name"], strict=True))
    for _, row in folder.read(1, "seating").iterrows():
        for seat, label in SEAT_LABEL.items():
            assert f"{names[row[seat]]} ({row[seat]}) {row['table']} {label}" in text
    [bye] = folder.read(1, "byes")["player"]
    assert f"{names[bye]} ({bye}) 轮空 bye" in text


@needs_poppler
def test_a_long_list_goes_on_as_many_pages_as_it_needs(tmp_path):
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 100),
        "--tables-per-group", 5, "--sets-per-round", 1, "--boards-per-set", 2,
        "--rounds", 1)
    run("event", "seat", directory, "--round", 1)
    printed = print_round(EventFolder.open(directory), 1, "seat-list")
    pages = texts(printed.path)  # 62 names a page
    assert printed.pages == len(pages) == 2 and sizes(printed.path) == [A4_PORTRAIT] * 2
    ids = [f"P{i:03d}" for i in range(1, 101)]
    assert all(sum(f"({p})" in page for page in pages) == 1 for p in ids), "each once"

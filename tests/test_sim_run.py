"""``simulate_event`` and ``demo_event``: the choice ``simulate`` and ``demo`` make from their
options, the refusals, and the lines they print."""

import pytest

from guandan_dup.errors import GuandanError
from guandan_dup.sim import demo_event, simulate_event

EITHER = ("give either --players (an individual event) or --teams, and --rounds (or "
          "--knockout pairs --pairs N)")


@pytest.mark.parametrize("options", [
    {"players": 8, "teams": 4, "rounds": 1},
    {"players": 8},
    {"teams": 4},
    {"rounds": 2},
])
def test_simulate_event_refuses_none_or_both_kinds_and_writes_nothing(tmp_path, options):
    with pytest.raises(GuandanError, match="^" + EITHER.replace("(", r"\(").replace(")", r"\)")):
        simulate_event(tmp_path / "x", **options)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(("options", "message"), [
    ({"knockout": "pairs"}, "knockout 'pairs' of None: rehearse a knockout of pairs"),
    ({"knockout": "teams", "pairs": 4}, "knockout 'teams' of None"),
    ({"knockout": "bogus", "pairs": 4}, "knockout 'bogus' of 4"),
])
def test_simulate_event_refuses_a_knockout_without_its_count(tmp_path, options, message):
    with pytest.raises(GuandanError, match=message):
        simulate_event(tmp_path / "x", **options)
    assert not (tmp_path / "x").exists()


def test_simulate_event_returns_the_rehearsal_and_its_summary(tmp_path):
    out = tmp_path / "e"
    done = simulate_event(out, players=8, rounds=1, sets_per_round=1, boards_per_set=1,
                          tables_per_group=2, seed=3)
    leader = done.rehearsal.standings.sort_values("position").iloc[0]
    assert done.lines == (
        f"Simulated 1 round of 8 players in {out}",
        f"Results and play log: {out}/results-round-1.parquet, {out}/playlog-round-1.parquet",
        f"Leader after round 1: {leader['player']} {leader['name']}, "
        f"{leader['cumulative'] * 100:.2f}%",
    )


def test_demo_event_refuses_before_making_a_folder(tmp_path):
    with pytest.raises(GuandanError, match="demo --teams plays 8 teams of 4 players"):
        demo_event(tmp_path / "d", kind="teams", players=20)
    with pytest.raises(GuandanError, match="demo kind 'pairs': expected individual or teams"):
        demo_event(tmp_path / "d", kind="pairs")
    assert not (tmp_path / "d").exists()


def test_demo_event_gives_the_standings_table_and_where_things_are(tmp_path):
    done = demo_event(tmp_path / "d", players=8, rounds=1)
    assert [c.header for c in done.table.columns][:2] == ["名次 Rank", "选手 Player"]
    assert done.table.row_count == 8
    assert done.lines[:3] == (f"Event folder: {tmp_path / 'd'}",
                              f"Exports: {tmp_path / 'd' / 'exports'}", "Try next:")
    assert "playlog validate" in done.details[0]  # said with --verbose

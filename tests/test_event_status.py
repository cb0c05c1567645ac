"""event status: what is done and what is missing, round by round."""

from event_support import KEY, players_csv, set_results, write

from guandan_dup.event import create_event, deal_round, event_status, ingest, seat_event_round


def test_status_follows_the_round_loop(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 8)
    folder = create_event(tmp_path / "e", csv, 1, 2, 2, 2, key=KEY)
    first = event_status(folder).rounds[0]
    assert (first.dealt, first.sets_not_dealt, first.seated, first.scored) == (
        False, [1, 2], False, False)
    assert first.missing == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert event_status(folder).next_step() == "guandan-dup event deal DIR --round 1"
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    ingest(folder, write(results[results["table"] == 2], tmp_path / "t2.parquet"), 1)
    state = event_status(folder)
    assert state.rounds[0].dealt and state.rounds[0].seated
    assert state.rounds[0].missing == [(1, 1), (1, 2)]
    assert state.next_step() == "guandan-dup event ingest DIR RESULTS.parquet --round 1"
    assert state.rounds[1].sets_not_dealt == [3, 4]

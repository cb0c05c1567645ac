"""Scoring an event round: only round R's files, earlier standings never rewritten silently."""

import pytest
from event_support import KEY, players_csv, set_results, snapshot, write

from guandan_dup.errors import GuandanError
from guandan_dup.event import create_event, deal_round, ingest, score_round, seat_event_round


@pytest.fixture
def folder(tmp_path):
    csv = players_csv(tmp_path / "players.csv", 16)
    return create_event(tmp_path / "event", csv, 2, 2, 3, 3, key=KEY)


def play_round(folder, r, tmp_path):
    deal_round(folder, r)
    seat_event_round(folder, r)
    ingest(folder, write(set_results(folder, r, seed=r), tmp_path / f"r{r}.parquet"), r)
    score_round(folder, r)


def test_scoring_round_2_writes_only_round_2_and_keeps_round_1_bytes(folder, tmp_path):
    play_round(folder, 1, tmp_path)
    round_one = snapshot(folder.round_dir(1))
    play_round(folder, 2, tmp_path)
    assert snapshot(folder.round_dir(1)) == round_one
    standings = folder.read(2, "standings")
    assert set(standings["round"]) == {2} and sorted(standings["position"]) == list(range(1, 17))
    assert (standings["sets"] == 4).all(), "cumulative over both rounds"


def test_rescoring_an_earlier_round_is_refused_unless_forced(folder, tmp_path):
    play_round(folder, 1, tmp_path)
    play_round(folder, 2, tmp_path)
    before = snapshot(folder.path)
    with pytest.raises(GuandanError, match=r"^round 2 is already scored from round 1's standings"):
        score_round(folder, 1)
    assert snapshot(folder.path) == before
    score_round(folder, 1, force=True)
    assert snapshot(folder.path) == before, "same results, same files: nothing to keep"


def test_forced_rescore_after_a_correction_keeps_the_old_standings(folder, tmp_path):
    play_round(folder, 1, tmp_path)
    play_round(folder, 2, tmp_path)
    published = folder.file(1, "standings").read_bytes()
    fix = set_results(folder, 1, seed=1)
    fix = fix[fix["table"] == 1].assign(ns_level="8", ew_level="4")
    ingest(folder, write(fix, tmp_path / "fix.parquet"), 1)
    score_round(folder, 1, force=True)
    kept = [p.read_bytes() for p in (folder.path / "history").glob("rounds-1-standings.*")]
    assert published in kept


def test_a_round_without_results_cannot_be_scored(folder):
    with pytest.raises(GuandanError, match="round 1 has no results yet"):
        score_round(folder, 1)


def test_ties_use_a_lot_from_the_key_and_never_print_it(folder, tmp_path):
    play_round(folder, 1, tmp_path)
    standings = folder.read(1, "standings")
    assert standings["position"].is_unique
    assert KEY.hex() not in folder.file(1, "standings").read_bytes().hex()


def test_scoring_with_missing_tables_warns_which(folder, tmp_path):
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    results = set_results(folder, 1)
    ingest(folder, write(results[results["table"] != 3], tmp_path / "r.parquet"), 1)
    scored = score_round(folder, 1)
    assert scored.warnings[0] == (
        "round 1 has no results for table 3 set 1, table 3 set 2; the others were "
        "Neuberg-adjusted"
    )


def test_a_correction_to_a_scored_round_warns_that_standings_are_out_of_date(folder, tmp_path):
    play_round(folder, 1, tmp_path)
    play_round(folder, 2, tmp_path)
    fix = set_results(folder, 1, seed=1)
    fix = fix[fix["table"] == 1].assign(ns_level="8", ew_level="4")
    warnings = ingest(folder, write(fix, tmp_path / "fix.parquet"), 1).warnings
    assert (f"rounds 1 and 2 were scored before these results: their standings are out of "
            f"date until you score again (`guandan-dup event score {folder.path} --round 1 "
            "--force`, then every later round)") in warnings
    same = ingest(folder, write(fix, tmp_path / "fix.parquet"), 1).warnings
    assert not any("were scored before" in w for w in same), "nothing changed, nothing stale"

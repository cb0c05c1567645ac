"""The registered players who have not played (``penalised.with_unplaced``) and the
shortcut ``ledger.score_with_ledger`` takes when there are none: scoring with the players
named must give exactly the standings of scoring without them when every named player has
a set in every round (a million players' round skips the pass on that promise), and more
rows when one has not."""

import pandas as pd
from scoring_support import seeded_event

from guandan_dup.scoring import score


def _played_every_round(sets: pd.DataFrame) -> list[str]:
    seats = sets.melt(id_vars=["round"], value_vars=["north", "east", "south", "west"])
    per_round = seats.groupby("round")["value"].agg(set)
    return sorted(set.intersection(*per_round))


def test_with_unplaced_changes_nothing_when_everyone_named_has_played():
    sets = seeded_event()
    players = _played_every_round(sets)
    assert players  # the seeded event has players who sat in every round
    named = score(sets, players=players).standings
    plain = score(sets).standings.reset_index(drop=True)
    pd.testing.assert_frame_equal(named, plain)


def test_with_unplaced_adds_a_row_per_round_a_registered_player_sat_out():
    sets = seeded_event()
    everyone = sorted(set(sets[["north", "east", "south", "west"]].stack()))
    named = score(sets, players=everyone).standings
    plain = score(sets).standings
    rounds = sets["round"].nunique()
    assert len(named) == rounds * len(everyone) > len(plain)

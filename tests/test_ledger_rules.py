"""The director's ledger, rule by rule (SPEC 10; seed 000 art. 32-37, 48, 51-53)."""

import re
from fractions import Fraction

import pandas as pd
import pytest
from ledger_support import PLAYERS, TIME, context, ledger_of, results, seating

from guandan_dup.errors import InvalidResultsError
from guandan_dup.ledger import (
    LedgerError,
    active,
    add,
    dump,
    empty,
    load_bytes,
    replay,
    score_with_ledger,
    withdraw,
)
from guandan_dup.ledger.penalties import scale_step
from guandan_dup.ledger.status import final_rounds
from guandan_dup.results import validate_sets
from guandan_dup.scoring import score
from guandan_dup.scoring.penalised import exact_standings

EXPECTED = {1: 4, 2: 4, 3: 4, 4: 4}


def scored(*entries, ctx=None, rounds=(1, 2)):
    ledger = ledger_of(*entries, ctx=ctx)
    return score_with_ledger(results(rounds), seating(), ledger, ctx or context(), EXPECTED)


def traveller(scoring, round_no, table, set_no):
    t = scoring.travellers
    return t[(t["round"] == round_no) & (t["table"] == table) & (t["set"] == set_no)].iloc[0]


@pytest.mark.parametrize(
    ("name", "minutes", "side", "start"),
    [
        ("test_art32_late_0_to_5_minutes_starts_other_side_at_3", 3.0, "NS", (0, 1)),
        ("test_art32_late_exactly_5_minutes_is_still_0_to_5", 5.0, "EW", (1, 0)),
        ("test_art32_late_5_to_10_minutes_starts_other_side_at_4", 7.5, "NS", (0, 2)),
        ("test_art32_late_exactly_10_minutes_is_still_5_to_10", 10.0, "EW", (2, 0)),
    ],
)
def test_art32_late_arrival_start_levels(name, minutes, side, start):
    effects = replay(ledger_of(("late", 1, dict(table=2, set=1, side=side, minutes=minutes))),
                     context())
    rows = effects.start_levels
    assert rows[["round", "table", "set"]].values.tolist() == [[1, 2, 1]], name
    assert tuple(rows[["ns_start", "ew_start"]].iloc[0]) == start, name
    assert effects.artificial.empty and effects.will_not_play.empty


def test_art32_late_over_10_minutes_is_a_forfeit():
    effects = replay(ledger_of(("late", 1, dict(table=2, set=1, side="EW", minutes=10.5))),
                     context())
    assert effects.start_levels.empty
    row = effects.artificial.iloc[0]
    assert (row["ns_adjusted"], row["ew_adjusted"]) == ("A+", "A-")
    assert effects.will_not_play.values.tolist() == [[1, 2, 1]]


def _one_set(ns, ew, r=1, t=1, s=1):
    frame = pd.DataFrame([(r, 1, t, s, "a", "b", "c", "d", ns, ew)], columns=[
        "round", "group", "table", "set", "north", "east", "south", "west", "ns_level",
        "ew_level"])
    return frame


@pytest.mark.parametrize(
    ("ns", "ew", "start", "valid"),
    [
        ("3", "3", (0, 1), True),    # EW started at 3, NS won one board +1
        ("3", "3", (0, 0), False),   # from 2/2 one board moves one side only
        ("2", "2", (0, 1), False),   # EW cannot fall back below its start
        ("2", "4", (0, 2), False),   # EW started at 4, one board must move someone
        ("2", "5", (0, 2), True),    # EW started at 4 and won +1
    ],
)
def test_art32_ingestion_checks_levels_against_the_start_levels(ns, ew, start, valid):
    starts = pd.DataFrame([(1, 1, 1, *start)], columns=["round", "table", "set", "ns_start",
                                                         "ew_start"])
    frame = _one_set(ns, ew)
    if valid:
        validate_sets(frame, boards_per_set=1, start_levels=starts)
    else:
        with pytest.raises(InvalidResultsError, match="starting at"):
            validate_sets(frame, boards_per_set=1, start_levels=starts)


def test_art32_board_level_results_are_played_from_the_start_levels(tmp_path):
    from guandan_dup.results import load_results

    boards = pd.DataFrame([(1, 1, 1, 1, "a", "b", "c", "d", "NES")], columns=[
        "round", "table", "set", "board", "north", "east", "south", "west", "finish"])
    path = tmp_path / "boards.parquet"
    boards.to_parquet(path, index=False)
    starts = pd.DataFrame([(1, 1, 1, 0, 2)], columns=["round", "table", "set", "ns_start",
                                                       "ew_start"])
    plain = load_results([path]).sets.iloc[0]
    late = load_results([path], start_levels=starts).sets.iloc[0]
    assert (plain["ns_level"], plain["ew_level"]) == (2, 0)  # NS +2 from 2/2: 4/2
    # EW started at 4: board 1 is played at 2 (the lower level); NS +2 -> 4/4
    assert (late["ns_level"], late["ew_level"]) == (2, 2)


@pytest.mark.parametrize(
    ("kind", "side", "codes"),
    [
        ("absent", "NS", ("A-", "A+")),   # art. 34: a forfeit
        ("absent", "EW", ("A+", "A-")),
        ("excused", "NS", ("A", "A+")),   # art. 36: a draw for the absent, 34 for the others
        ("excused", "EW", ("A+", "A")),
    ],
)
def test_art34_art36_absent_and_excused_score_artificial_results(kind, side, codes):
    scoring = scored((kind, 1, dict(table=3, side=side)))
    for set_no in (1, 2):  # no --set: every set of the table in the round
        row = traveller(scoring, 1, 3, set_no)
        assert (row["ns_adjusted"], row["ew_adjusted"]) == codes
    rates = {"A+": 0.6, "A": 0.5, "A-": 0.4}
    assert (row["ns_rate"], row["ew_rate"]) == (rates[codes[0]], rates[codes[1]])


@pytest.mark.parametrize(("kind", "adjusted"), [("absent", "forfeit"), ("excused", "excused")])
def test_art34_art36_team_absences_are_match_adjustments(kind, adjusted):
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    effects = replay(ledger_of((kind, 2, dict(team=3)), ctx=ctx), ctx)
    assert effects.match_adjustments[["round", "team", "kind"]].values.tolist() == [
        [2, 3, adjusted]]
    assert effects.artificial.empty


def test_spec10_split_artificial_result_gives_each_direction_its_rate():
    scoring = scored(("artificial", 1, dict(table=1, set=1, result="A+/A-")))
    row = traveller(scoring, 1, 1, 1)
    assert (row["adjusted"], row["ns_rate_num"] / row["rate_den"]) == ("A+/A-", 0.6)
    assert row["ew_rate_num"] / row["rate_den"] == 0.4
    # the other three tables are compared among themselves, Neuberg-factored to 4
    assert traveller(scoring, 1, 2, 1)["top"] == 6


def test_spec10_variable_artificial_takes_the_better_of_the_rate_and_own_average():
    scoring = scored(("artificial", 2, dict(table=1, set=4, result="A/A", variable=True)))
    scores = scoring.scores
    mine = scores[(scores["round"] == 2) & (scores["table"] == 1) & (scores["set"] == 4)]
    for _, row in mine.iterrows():
        real = scores[(scores["player"] == row["player"]) & scores["adjusted"].isna()]
        own = sum(Fraction(int(n), int(d)) for n, d in zip(real["rate_num"], real["rate_den"],
                                                           strict=True)) / len(real)
        assert Fraction(int(row["rate_num"]), int(row["rate_den"])) == max(Fraction(1, 2), own)
    assert mine["rate_num"].div(mine["rate_den"]).nunique() > 1, "partners may differ"


def test_spec10_not_played_is_left_out_and_the_others_neuberg_adjusted():
    scoring = scored(("not-played", 1, dict(table=4, set=1)))
    t = scoring.travellers
    assert not ((t["round"] == 1) & (t["table"] == 4) & (t["set"] == 1)).any()
    # set 1: D = +3, +1, +1 (table 4 out); n = 3, N = 4: MP' = (MP + 1) * 4/3 - 1, top 6
    top = traveller(scoring, 1, 1, 1)
    assert Fraction(int(top["ns_rate_num"]), int(top["rate_den"])) == Fraction(
        (4 + 1) * 4 - 3, 2 * 3 * 3)
    first = scoring.standings[scoring.standings["round"] == 1].set_index("player")
    assert first.loc["p13", "sets"] == 1 and first.loc["p01", "sets"] == 2


def test_spec10_fouled_tables_are_compared_among_themselves_and_factored_to_the_field():
    scoring = scored(("fouled", 1, dict(set=1, tables="1,4")))
    # set 1: tables 1 (+3) and 4 (-2) in one group, tables 2 and 3 (+1, +1) in the other;
    # each group n = 2 factored to N = 4: MP' = (MP + 1) * 2 - 1, top 6
    rates = {t: Fraction(int(traveller(scoring, 1, t, 1)["ns_rate_num"]),
                         int(traveller(scoring, 1, t, 1)["rate_den"])) for t in (1, 2, 3, 4)}
    assert rates == {1: Fraction(5, 6), 2: Fraction(1, 2), 3: Fraction(1, 2), 4: Fraction(1, 6)}
    plain = score(results((1,)), EXPECTED).travellers
    assert plain.loc[plain["set"] == 2, "ns_rate"].tolist() == [
        traveller(scoring, 1, t, 2)["ns_rate"] for t in (1, 2, 3, 4)], "set 2 is untouched"


@pytest.mark.parametrize(
    ("scale", "steps"),
    [
        (1, [("match", 2), ("match", 2)]),
        (2, [("level", 3), ("match", 1), ("match", 1)]),
        (3, [("level", 2), ("match", Fraction(1, 2))]),
        (4, [("warning", 0), ("level", 1), ("level", 1)]),
    ],
)
def test_art52_each_scale_and_its_repeat_step(scale, steps):
    assert [scale_step(scale, i) for i in range(len(steps))] == [
        (u, Fraction(a)) for u, a in steps]
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    entries = [("penalty", 1, dict(team=2, scale=scale)) for _ in steps]
    entries.insert(1, ("penalty", 1, dict(team=3, scale=scale)))  # another team's: own count
    rows = replay(ledger_of(*entries, ctx=ctx), ctx).team_penalties
    mine = rows[rows["team"] == 2]
    assert list(zip(mine["match_halves"], mine["level_hundredths"], strict=True)) == [
        (int(a * 2) if u == "match" else 0, int(a * 100) if u == "level" else 0)
        for u, a in ((u, Fraction(a)) for u, a in steps)]
    assert rows[rows["team"] == 3]["note"].str.contains("first offence").all()


def test_art52_repeat_counts_only_rows_in_force():
    ledger = ledger_of(("penalty", 1, dict(player="p01", scale=2)))
    ledger = withdraw(ledger, context(), 1, "mistake", time=TIME)
    ledger = add(ledger, context(), "penalty", 1, "slow play", time=TIME, player="p01", scale=2)
    rows = replay(ledger, context()).penalties
    assert rows["points"].tolist() == ["3"] and "first offence" in rows["note"].iloc[0]


@pytest.mark.parametrize(("minutes", "level_points"), [(0.5, 1), (5.0, 1), (5.5, 2), (10.0, 2)])
def test_art33_overtime_costs_level_points(minutes, level_points):
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    rows = replay(ledger_of(("overtime", 1, dict(team=1, minutes=minutes)), ctx=ctx),
                  ctx).team_penalties
    assert rows[["match_halves", "level_hundredths"]].values.tolist() == [[0, 100 * level_points]]


def test_art33_overtime_beyond_10_minutes_is_refused():
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    with pytest.raises(LedgerError, match="art. 33 covers up to 10 minutes"):
        ledger_of(("overtime", 1, dict(team=1, minutes=12.0)), ctx=ctx)


def test_art51_penalty_comes_off_the_total_and_never_moves_opponents_figures():
    plain = scored()
    fined = scored(("penalty", 1, dict(player="p01", points="2.5")))
    pd.testing.assert_frame_equal(plain.scores, fined.scores)
    pd.testing.assert_frame_equal(plain.travellers, fined.travellers)
    before = plain.standings.set_index(["round", "player"])
    after = fined.standings.set_index(["round", "player"])
    assert (before["cumulative"] - after["cumulative"]).fillna(0).round(12).to_dict() == {
        key: (0.025 if key[1] == "p01" else 0.0) for key in before.index}
    assert after["penalty"].to_dict() == {k: (2.5 if k[1] == "p01" else 0.0) for k in after.index}
    assert before["round_avg"].fillna(-1).equals(after["round_avg"].fillna(-1).reindex(
        before.index))


def test_art51_penalties_are_exact_so_float_sums_never_break_a_tie():
    # p01 and p03 are partners throughout: equal averages. 0.1 + 0.2 points against 0.3 are
    # unequal in floats, equal in fact: the tie must stay shared.
    fined = scored(("penalty", 1, dict(player="p01", points="0.1")),
                   ("penalty", 2, dict(player="p01", points="0.2")),
                   ("penalty", 1, dict(player="p03", points="0.3"))).standings
    last = fined[fined["round"] == 2].set_index("player")
    assert last.loc["p01", "rank"] == last.loc["p03", "rank"]
    assert last.loc["p01", "rank_label"].endswith("=")
    first = fined[fined["round"] == 1].set_index("player")
    assert first.loc["p01", "rank"] < first.loc["p03", "rank"], "p01 lost 0.1 only in round 1"


def test_art51_in_a_pairs_event_a_penalty_hits_the_pair():
    pairs = {p: f"pair{i // 2}" for i, p in enumerate(PLAYERS)}
    ctx = context("pairs", pair_of=pairs)
    rows = replay(ledger_of(("penalty", 1, dict(player="p03", points="1")), ctx=ctx), ctx)
    assert sorted(rows.penalties["player"]) == ["p03", "p04"]


def test_spec6_exact_standings_reference_equals_the_fast_standings():
    fast = score(results(), EXPECTED, seed=5).standings
    slow = exact_standings(score(results(), EXPECTED).scores, [1, 2],
                           pd.DataFrame(columns=["round", "player", "points"]), 5, {})
    pd.testing.assert_frame_equal(fast, slow.drop(columns="penalty"), check_exact=False,
                                  rtol=1e-12)


def test_spec10_every_registered_player_is_in_the_round_1_standings_even_after_a_bye():
    standings = scored().standings
    first = standings[standings["round"] == 1]
    assert set(first["player"]) == set(PLAYERS)
    bye = first.set_index("player").loc["p17"]
    assert (bye["sets"], bye["position"], bye["rank_label"]) == (0, 17, "17")
    assert pd.isna(bye["cumulative"])


def test_spec10_substitute_scores_for_the_player_replaced():
    frame = results((1, 2))
    seat = (frame["round"] == 1) & (frame["north"] == "p01")
    assert seat.any()
    frame.loc[seat, "north"] = "x99"
    ledger = ledger_of(("substitute", 1, dict(player="x99", for_player="p01")))
    scoring = score_with_ledger(frame, seating(), ledger, context(), EXPECTED)
    plain = scored()
    assert "x99" not in set(scoring.scores["player"])
    pd.testing.assert_frame_equal(plain.scores, scoring.scores)


@pytest.mark.parametrize(
    ("player", "replaced", "ok"),
    [("p02", "p01", True), ("p05", "p01", False), ("zz", "p01", False)],
)
def test_art19_substitute_in_a_team_must_be_registered_for_that_team(player, replaced, ok):
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    entry = ("substitute", 1, dict(player=player, for_player=replaced))
    if ok:
        rows = replay(ledger_of(entry, ctx=ctx), ctx).substitutes
        assert rows[["player", "for_player"]].values.tolist() == [[player, replaced]]
    else:
        with pytest.raises(LedgerError, match="art. 19.2"):
            ledger_of(entry, ctx=ctx)


@pytest.mark.parametrize("kind", ["individual", "teams"])
def test_spec10_a_player_cannot_substitute_for_themselves(kind):
    ctx = context(kind, team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    with pytest.raises(LedgerError, match="cannot substitute for themselves"):
        ledger_of(("substitute", 1, dict(player="p01", for_player="p01")), ctx=ctx)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (("assigned", 1, dict(table=1, set=1, result="K/5")), "scores whole matches"),
        (("artificial", 1, dict(table=1, set=1, result="A+/A-")), "scores whole matches"),
        (("not-played", 1, dict(table=1, set=1)), "scores whole matches"),
        (("fouled", 1, dict(set=1, tables="1,2")), "scores whole matches"),
        (("late", 1, dict(table=1, set=1, side="NS", minutes=12.0)), "absent --team T"),
    ],
)
def test_art34_a_team_event_refuses_table_decisions_its_scorer_would_ignore(entry, message):
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    with pytest.raises(LedgerError, match=message):
        ledger_of(entry, ctx=ctx)


def test_spec10_will_not_play_lists_every_set_no_results_file_will_bring():
    effects = replay(ledger_of(
        ("not-played", 1, dict(table=4, set=1)), ("absent", 2, dict(table=2, side="NS")),
        ("late", 1, dict(table=1, set=2, side="NS", minutes=2.0))), context())
    assert effects.will_not_play.values.tolist() == [[1, 4, 1], [2, 2, 3], [2, 2, 4]]


def test_art48_a_round_is_final_after_its_correction_deadline():
    end = {1: pd.Timestamp("2026-11-30 12:00", tz="UTC")}
    at = pd.Timestamp("2026-11-30 12:00", tz="UTC")
    assert final_rounds(end, 30, at + pd.Timedelta(minutes=29, seconds=59)) == frozenset()
    assert final_rounds(end, 30, at + pd.Timedelta(minutes=30)) == {1}
    assert final_rounds(end, 10, at + pd.Timedelta(minutes=10)) == {1}


def test_art48_changing_a_final_round_needs_override_and_is_a_row():
    ctx = context(final=(1,))
    with pytest.raises(LedgerError, match="this round is final"):
        add(empty(), ctx, "not-played", 1, "no time", table=1, set=1)
    ledger = add(empty(), ctx, "not-played", 1, "no time", table=1, set=1, override=True)
    assert ledger["override"].tolist() == [True]
    add(empty(), ctx, "not-played", 2, "no time", table=1, set=3)  # round 2 is provisional


def test_spec10_every_problem_of_an_entry_is_listed_at_once():
    with pytest.raises(LedgerError) as caught:
        add(empty(), context(), "late", 3, " ", table=9, side="N", player="nobody")
    text = str(caught.value)
    for expected in ("every decision needs a reason", "late needs --set", "late needs "
                     "--minutes", "the plan has rounds 1-2", "expected NS or EW",
                     "'nobody': is not a registered player"):
        assert expected in text, text


@pytest.mark.parametrize(
    ("kind", "fields", "message"),
    [
        ("late", dict(table=1, set=3, side="NS", minutes=1.0), "round 1 plays sets 1 and 2"),
        ("late", dict(table=1, set=1, side="NS", minutes=0.0), "minutes above 0"),
        ("assigned", dict(table=1, set=1, result="K"), "expected NS/EW"),
        ("artificial", dict(table=1, set=1, result="A+/B"), "expected two of A+, A, A-"),
        ("fouled", dict(set=1, tables="1,2,3,4"), "some of the tables, not all"),
        ("fouled", dict(set=1, tables="1,9"), "set 1 is played at tables 1-4"),
        ("penalty", dict(player="p01", points="-1"), "a number above 0"),
        ("penalty", dict(player="p01", points="1", scale=2), "give one of"),
        ("penalty", dict(player="p01", scale=5), "scales 1, 2, 3, 4"),
        ("penalty", dict(player="zz", points="1"), "not a registered player"),
        ("enter", dict(player="p01"), "already registered"),
        ("bogus", dict(), "expected one of late"),
        ("penalty", dict(player="p01", match_points="1"), "场分/级差分 are for team events"),
    ],
)
def test_spec10_entries_are_checked_with_clear_messages(kind, fields, message):
    with pytest.raises(LedgerError, match=re.escape(message)):
        add(empty(), context(), kind, 1, "because", **fields)


def test_spec10_withdrawing_adds_a_row_and_never_deletes():
    ledger = ledger_of(("not-played", 1, dict(table=4, set=1)))
    after = withdraw(ledger, context(), 1, "played after all", time=TIME)
    assert after["kind"].tolist() == ["not-played", "retract"]
    assert after["withdraws"].tolist()[1] == 1 and active(after).empty
    assert replay(after, context()).not_played.empty
    with pytest.raises(LedgerError, match="already withdrawn"):
        withdraw(after, context(), 1, "again", time=TIME)
    with pytest.raises(LedgerError, match="cannot be withdrawn"):
        withdraw(after, context(), 2, "again", time=TIME)


def test_spec10_ledger_file_round_trips_byte_for_byte():
    ledger = ledger_of(("late", 1, dict(table=1, set=1, side="NS", minutes=3.0)),
                       ("penalty", 1, dict(player="p02", points="2.5", article="41")))
    data = dump(ledger)
    assert dump(load_bytes(data)) == data
    pd.testing.assert_frame_equal(load_bytes(data), ledger)


def test_spec10_a_table_is_in_one_fouled_group_of_a_set_at_a_time():
    ledger = ledger_of(("fouled", 1, dict(set=1, tables="1,2")))
    with pytest.raises(LedgerError, match="ledger row 1 already has tables 1,2"):
        add(ledger, context(), "fouled", 1, "again", time=TIME, set=1, tables="2,3")
    add(ledger, context(), "fouled", 1, "the other set", time=TIME, set=2, tables="2,3")


def test_art52_team_penalties_are_in_match_or_level_points():
    ctx = context("teams", team_of={p: 1 + i // 4 for i, p in enumerate(PLAYERS)})
    with pytest.raises(LedgerError, match="give --match-points or --level-points"):
        add(empty(), ctx, "penalty", 1, "x", team=1, points="2")
    rows = replay(add(empty(), ctx, "penalty", 1, "x", team=1, match_points="0.5"),
                  ctx).team_penalties
    assert rows[["match_halves", "level_hundredths"]].values.tolist() == [[1, 0]]
    with pytest.raises(LedgerError, match="场分 move in halves"):
        add(empty(), ctx, "penalty", 1, "x", team=1, match_points="0.3")


def test_spec10_every_kind_has_a_sentence_for_the_director():
    from guandan_dup.ledger import KINDS
    from guandan_dup.ledger.describe import _SENTENCES

    assert set(_SENTENCES) == set(KINDS)


def test_spec10_an_assigned_result_stands_in_for_a_missing_table_with_its_seated_players():
    ledger = ledger_of(("assigned", 1, dict(table=4, set=1, result="K/5")))
    scoring = score_with_ledger(results(skip={(1, 4, 1)}), seating(), ledger, context(),
                                EXPECTED)
    row = traveller(scoring, 1, 4, 1)
    assert (row["north"], row["west"], row["ns_level"], row["ew_level"]) == ("p13", "p16", 11, 3)
    assert row["ns_score"] == 8 and pd.isna(row["adjusted"])


def test_art34_an_absent_table_needs_no_results_row():
    ledger = ledger_of(("absent", 1, dict(table=3, side="EW")))
    scoring = score_with_ledger(results(skip={(1, 3, 1), (1, 3, 2)}), seating(), ledger,
                                context(), EXPECTED)
    for set_no in (1, 2):
        row = traveller(scoring, 1, 3, set_no)
        assert (row["north"], row["adjusted"], row["ns_rate"], row["ew_rate"]) == (
            "p09", "A+/A-", 0.6, 0.4)


def test_spec6_exact_standings_stay_exact_beside_a_penalised_player():
    """A zero penalty changes nothing: everybody else's averages stay exact fractions too
    (an int 0 / 100 once turned them into floats and split exact ties)."""
    plain = score(results(), EXPECTED, seed=5)
    zero = pd.DataFrame({"round": [1], "player": ["p01"], "points": ["0"]})
    slow = exact_standings(plain.scores, [1, 2], zero, 5, {})
    pd.testing.assert_frame_equal(plain.standings, slow.drop(columns="penalty"),
                                  check_exact=False, rtol=1e-12)


def test_spec10_a_late_entry_is_in_the_standings_from_the_round_it_joins():
    ctx = context(players=(*PLAYERS, "p18"))
    ledger = ledger_of(("enter", 2, dict(player="p19")), ctx=ctx)
    first = score_with_ledger(results((1,)), seating(), ledger, ctx, EXPECTED).standings
    both = score_with_ledger(results(), seating(), ledger, ctx, EXPECTED).standings
    assert "p19" not in set(first["player"]) and "p18" in set(first["player"])
    assert "p19" in set(both.loc[both["round"] == 2, "player"])


def test_art51_a_penalty_on_a_player_with_no_set_yet_is_shown():
    standings = scored(("penalty", 1, dict(player="p17", points="1"))).standings
    bye = standings.set_index(["round", "player"]).loc[(1, "p17")]
    assert (bye["sets"], bye["penalty"]) == (0, 1.0)

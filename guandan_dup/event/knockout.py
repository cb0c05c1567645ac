"""The event folder's knockout steps: the hand-off from ``event seat/ingest/score`` when the
plan's format is ``knockout`` (SPEC 9), built on the ``knockout`` room; a team knockout's
matches are seated and scored by ``event.team_knockout``.

Round R plays set R at every table, so all matches of a round play the same deals. Seating
round R reads the decided brackets of rounds 1..R-1 from rounds/*/bracket.parquet; scoring
round R decides its matches from its results (levels, extra boards, forfeits), completes
rounds/R/bracket.parquet, writes the round's travellers (the tables compared on the shared
deals, for the results pages) and, after the last round, places.parquet at the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import pyarrow as pa

from ..errors import GuandanError, InvalidPlanError, InvalidResultsError, Problem
from ..knockout import (
    KnockoutError,
    complete,
    final_places,
    pair_outcomes,
    round_bracket,
    rounds_needed,
)
from ..movement import Seating, partnerships
from ..movement.individual import byes_frame
from ..reading import read_parquet
from ..scoring import score
from . import team_knockout
from .folder import PLACES, RESULTS_DIGEST, EventFolder, parquet_bytes
from .ledger import effects
from .plan import EventPlan
from .teams import team_caption, teams_of


def knockout_plan(
    name: str, kind: str, players: int, boards_per_set: int, seeded: bool
) -> EventPlan:
    """The plan of a pairs knockout: one set per round, one group, the rounds its bracket
    needs (a team knockout's is made with the team event's, ``event.teams``)."""
    return EventPlan(
        name=name,
        kind=kind,
        players=players,
        tables_per_group=max(1, players // 4),
        sets_per_round=1,
        boards_per_set=boards_per_set,
        rounds=rounds_needed(players // 2),
        seeding="list" if seeded else "lot",
        format="knockout",
    )


def knockout_options(
    kind: str,
    tables_per_group: int | None,
    sets_per_round: int | None,
    rounds: int | None,
    rotate_partners: bool,
    seed_from: object,
    top: int | None,
) -> None:
    """Refuse ``event init`` options a knockout does not take: its shape follows from its
    entries, and only a team knockout is seeded from an earlier stage."""
    given = {"--tables-per-group": tables_per_group, "--sets-per-round": sets_per_round,
             "--rounds": rounds, "--rotate-partners": rotate_partners or None}
    extra = [option for option, value in given.items() if value is not None]
    if extra:
        raise InvalidPlanError(
            f"a knockout takes its shape from its entries: leave out {', '.join(extra)}")
    if kind not in ("pairs", "teams"):
        raise InvalidPlanError(f"a knockout is played by pairs or teams, not {kind}")
    if kind == "pairs" and (seed_from is not None or top is not None):
        raise InvalidPlanError("--seed-from and --top seed a team knockout; a pairs knockout "
                               "is drawn by lot (or seeded with --seeding)")
    if top is not None and seed_from is None:
        raise InvalidPlanError("--top needs --seed-from: the stage whose top teams go through")


def entries(folder: EventFolder) -> list[str]:
    """Pair ids in entry order: where ``event init`` put them (seeding list, then lot)."""
    players = folder.players().sort_values("seed", kind="stable")
    return players["pair"].astype(str).drop_duplicates().tolist()


def pair_of(folder: EventFolder) -> dict[str, str]:
    players = folder.players()
    return dict(zip(players["player"].astype(str), players["pair"].astype(str), strict=True))


def decided(folder: EventFolder, rounds: range) -> pd.DataFrame | None:
    """The brackets of ``rounds`` stacked (each decided once its round is scored)."""
    return folder.read_rounds("bracket", rounds)


@dataclass(frozen=True)
class KnockoutSeating(Seating):
    """A seated knockout round: the seating, byes, and the round's bracket."""

    bracket: pd.DataFrame = field(default_factory=pd.DataFrame)

    def summary(self) -> list[str]:
        """The round's matches as a director announces them."""
        return [
            f"Match {m.match} ({m.places}): {m.side_a} has a bye" if pd.isna(m.side_b) else
            f"Match {m.match} ({m.places}), table {m.table}: {m.side_a} (N-S) v {m.side_b} (E-W)"
            for m in self.bracket.itertuples()
        ]


def plan_round(folder: EventFolder, round_no: int) -> tuple[pd.DataFrame, KnockoutSeating]:
    """Round R's bracket and seating (side_a North-South, its first player North)."""
    if round_no > 1 and folder.scored_out_of_date(round_no - 1):
        raise GuandanError(
            f"round {round_no - 1}'s results changed after it was scored; run `guandan-dup "
            f"event score DIR --round {round_no - 1} --force` before seating round {round_no}"
        )
    bracket = round_bracket(
        entries(folder), folder.plan.layout(), round_no, decided(folder, range(1, round_no))
    )
    members = partnerships(folder.players())
    played = bracket[bracket["side_b"].notna()]
    a = [members[p] for p in played["side_a"]]
    b = [members[p] for p in played["side_b"]]
    seating = pd.DataFrame(
        {
            "round": pd.array([round_no] * len(played), "int64"),
            "group": pd.array([1] * len(played), "int64"),
            "table": played["table"].astype("int64").to_numpy(),
            "north": pd.array([m[0] for m in a], "str"),
            "east": pd.array([m[0] for m in b], "str"),
            "south": pd.array([m[1] for m in a], "str"),
            "west": pd.array([m[1] for m in b], "str"),
        }
    )
    byes = bracket.loc[bracket["side_b"].isna(), "side_a"]
    bye_players = byes_frame(round_no, [p for s in byes for p in members[s]])
    return bracket, KnockoutSeating(seating, bye_players, bracket=bracket)


def result_problems(
    folder: EventFolder, located: pd.DataFrame, round_no: int, file: str
) -> list[Problem]:
    """Results that decide no match (a level match without ``tiebreak``, an artificial
    result naming no winner), on the file's own rows (``located`` has ``file_row``)."""
    if folder.plan.kind == "teams":
        return team_knockout.result_problems(folder, located, round_no, file)
    _, found = pair_outcomes(located, pair_of(folder))
    rows = dict(zip(located["table"], located["file_row"], strict=True))
    return [Problem(file, int(rows[t]), column, value, rule) for t, column, value, rule in found]


@dataclass(frozen=True)
class KnockoutRound:
    """A scored knockout round: its decided bracket, the places after the last round."""

    round: int
    bracket: pd.DataFrame
    places: pd.DataFrame | None
    warnings: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    """Side -> how the director reads it out (a team's number alone says little: "team 3
    南京队"); a side not in it is read as it is (a pair id)."""

    def side(self, side: str) -> str:
        return self.names.get(str(side), str(side))

    def summary(self) -> list[str]:
        lines = [f"Scored knockout round {self.round}:"]
        lines += [
            f"  match {m.match} ({m.places}): {self.side(m.side_a)} v {self.side(m.side_b)}, "
            f"{self.side(m.winner)} wins ({m.decided_by})" if m.decided_by != "bye" else
            f"  match {m.match} ({m.places}): {self.side(m.side_a)} has a bye"
            for m in self.bracket.itertuples()
        ]
        if self.places is not None:
            lines.append("Final places: " + ", ".join(
                f"{p.place_label} {self.side(p.side)}" for p in self.places.head(8).itertuples()
            ) + " (all in places.parquet)")
        return lines


def score_round(folder: EventFolder, round_no: int) -> KnockoutRound:
    """Decide round R's matches and write its bracket, travellers and (last round) places."""
    if folder.plan.kind == "teams":
        done = team_knockout.score_round(folder, round_no)
    else:
        done = _score_pairs_round(folder, round_no)
    places = None
    if round_no == folder.plan.rounds:
        places = read_parquet(folder.path / PLACES, "places file").to_pandas()
    return KnockoutRound(round_no, done, places, _stale_next_round(folder, round_no),
                         side_names(folder))


def side_names(folder: EventFolder) -> dict[str, str]:
    """Side -> how the director reads it out: a team by number and name; a pair by its id
    (not in the mapping)."""
    if folder.plan.kind != "teams":
        return {}
    teams = teams_of(folder)
    return {str(t): team_caption(int(t), name)
            for t, name in zip(teams["team"], teams["name"], strict=True)}


def with_forfeits(folder: EventFolder, round_no: int, results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the ledger's artificial results of the round (an ``absent`` side, or
    one over 10 minutes late: A-/A+, art. 34) in place of their tables' rows, so
    ``pair_outcomes`` decides those matches as forfeits."""
    decided = effects(folder).artificial
    mine = decided[decided["round"] == round_no]
    if mine.empty:
        return results
    seating = folder.read(round_no, "seating")[["table", "north", "east"]]
    rows = mine[["table", "ns_adjusted", "ew_adjusted"]].merge(seating, on="table")
    kept = results[~results["table"].isin(mine["table"])]
    return pd.concat([kept, rows], ignore_index=True)


def _score_pairs_round(folder: EventFolder, round_no: int) -> pd.DataFrame:
    bracket = folder.read(round_no, "bracket")
    results = folder.read(round_no, "results")
    if bracket is None or results is None:
        raise GuandanError(f"round {round_no} is not seated or has no results yet")
    outcomes, problems = pair_outcomes(with_forfeits(folder, round_no, results),
                                       pair_of(folder))
    if problems:
        stored = str(folder.file(round_no, "results"))
        raise InvalidResultsError([Problem(stored, None, c, v, f"table {t}: {rule}")
                                   for t, c, v, rule in problems])
    done = complete(bracket.drop(columns=["winner", "decided_by"], errors="ignore"), outcomes)
    travellers = score(results, folder.plan.expected_tables(round_no)).travellers
    table = pa.Table.from_pandas(travellers, preserve_index=False)
    table = table.replace_schema_metadata(
        (table.schema.metadata or {}) | {RESULTS_DIGEST: folder.results_digest(round_no)}
    )
    files = {
        folder.file(round_no, "bracket"): parquet_bytes(done),
        folder.file(round_no, "travellers"): parquet_bytes(table),
    }
    if round_no == folder.plan.rounds:
        everything = pd.concat([decided(folder, range(1, round_no)), done], ignore_index=True)
        files[folder.path / PLACES] = parquet_bytes(final_places(everything, entries(folder)))
    folder.replace_files(files)
    return done


def _stale_next_round(folder: EventFolder, round_no: int) -> list[str]:
    """A warning when round R+1 was seated from winners that a correction has changed."""
    seated = folder.read(round_no + 1, "bracket") if round_no < folder.plan.rounds else None
    if seated is None:
        return []
    seat = team_knockout.plan_round if folder.plan.kind == "teams" else plan_round
    try:
        fresh, _ = seat(folder, round_no + 1)
    except KnockoutError:
        return []
    columns = ["match", "side_a", "side_b"]
    if fresh[columns].equals(seated[columns]):
        return []
    return [f"round {round_no + 1} was seated from round {round_no}'s earlier winners; seat it "
            f"again (`guandan-dup event seat DIR --round {round_no + 1}`)"]


def status_notes(folder: EventFolder) -> tuple[str, ...]:
    """What ``event status`` adds for a knockout: the bracket, each seated round's matches
    decided, and the places once the last round is scored."""
    plan = folder.plan
    notes = [f"Knockout of {plan.entries()} {plan.kind} ({plan.layout()}): {plan.rounds} "
             f"rounds, places 1-{min(plan.entries(), 8)} played out"]
    for r in range(1, plan.rounds + 1):
        bracket = folder.read(r, "bracket")
        if bracket is not None:
            done = 0 if "winner" not in bracket else int(bracket["winner"].notna().sum())
            notes.append(f"Round {r}: {done} of {len(bracket)} matches decided "
                         f"(rounds/{r}/bracket.parquet)")
    places_path = folder.path / PLACES
    if places_path.exists():
        places = read_parquet(places_path, "places file").to_pandas()
        winner = str(places["side"].iloc[0])
        notes.append(f"Places: {PLACES}; winner {side_names(folder).get(winner, winner)}")
    return tuple(notes)

"""A pairs knockout by lot (seed 003; SPEC 9): pairs drawn into tables, one set a match,
the higher final level wins, a level match decided by extra boards (the results'
``tiebreak`` names the side that won them)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pandas as pd

from ...errors import InvalidPlanError, Problem
from ...knockout import pair_outcomes, round_bracket, rounds_needed
from ...levels import LEVEL_NAMES
from ...movement import Seating, partnerships
from ...movement.individual import byes_frame
from ..folder import EventFolder, parquet_bytes
from ..ledger import effects
from ..people import people_of
from ..plan import EventPlan
from ..seat import refuse_lineups, write_player_seating
from ..walkovers import pair_walkovers, withdrawn_pairs
from .by_standing import ByStanding, registered_players
from .knockout import Knockout, public_rounds


@dataclass(frozen=True)
class KnockoutSeating(Seating):
    """A seated knockout round: the seating, byes, and the round's bracket."""

    bracket: pd.DataFrame = field(default_factory=pd.DataFrame)
    notes: list[str] = field(default_factory=list)
    """What the director announces besides the matches (a withdrawn pair's forfeit)."""

    def summary(self) -> list[str]:
        """The round's matches as a director announces them, each pair with its players'
        names (``names``: "D04 王伟 / 李芳")."""
        return [
            f"Match {m.match} ({m.places}): {self.named(m.side_a)} has a bye"
            if pd.isna(m.side_b) else
            f"Match {m.match} ({m.places}), table {m.table}: {self.named(m.side_a)} (N-S) v "
            f"{self.named(m.side_b)} (E-W)"
            for m in self.bracket.itertuples()
        ] + self.notes


class PairsKnockout(Knockout):
    """Pairs drawn by lot (or seeded from a list) into a bracket; table t holds the lot's
    pairs 2t-1 and 2t; places 1 to 8 played out, earlier losers sharing places ("9=")."""

    kind = "pairs"
    title = "pairs knockout"
    pairs = True

    def plan_problems(self, plan):
        if plan.players % 2 or plan.players < 4:
            return [f"players = {plan.players}: a pairs knockout needs at least 2 whole pairs"]
        return super().plan_problems(plan)

    def entries(self, plan):
        return plan.players // 2

    def layout(self, plan):
        return "seeded" if plan.seeding == "list" else "lot"

    def create(self, path, request, key):
        players, seeded = registered_players(self.kind, request, key)
        if "venue" in players:
            raise InvalidPlanError(
                "a pairs knockout cannot seat by venue (its bracket pairs entries "
                "event-wide): leave the venue column out of the players file, or run one "
                "knockout per venue")
        partnerships(players)  # refuses a pair without exactly two players
        plan = EventPlan(
            name=request.name or path.resolve().name,
            kind=self.kind,
            players=len(players),
            tables_per_group=max(1, len(players) // 4),
            sets_per_round=1,
            boards_per_set=request.boards_per_set,
            rounds=rounds_needed(len(players) // 2),
            seeding="list" if seeded else "lot",
            correction_minutes=request.correction_minutes,
            format=self.format,
        )
        return plan, {path / "players.parquet": parquet_bytes(players)}

    def entry_order(self, folder):
        """Pair ids where ``event init`` put them (seeding list, then lot)."""
        players = folder.players().sort_values("seed", kind="stable")
        return players["pair"].astype(str).drop_duplicates().tolist()

    def side_names(self, folder):
        players = folder.players()
        return players.groupby("pair", sort=False)["name"].agg(" / ".join).astype(str).to_dict()

    def side_captions(self, folder):
        people = people_of(folder)
        return {pair: people.pair(pair) for pair in people.pair_players}

    def result_texts(self, folder, rounds):
        """(round, table) -> the table's levels, of rounds whose set is public only."""
        results = folder.read_rounds("results", public_rounds(folder, rounds))
        if results is None:
            return {}
        return {(r["round"], r["table"]): result_text(r) for r in results.to_dict("records")}

    def round_texts(self, folder, round_no, results, tables, outcomes):
        return {int(r["table"]): result_text(r) for r in results.to_dict("records")}

    def plan_round(self, folder, round_no):
        """Round R's bracket and seating (side_a North-South, its first player North)."""
        self.check_seatable(folder, round_no)
        bracket = round_bracket(self.entry_order(folder), self.layout(folder.plan), round_no,
                                folder.read_rounds("bracket", range(1, round_no)))
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

    def seat(self, folder, round_no, lineups, with_cards=True):
        refuse_lineups(lineups)
        bracket, seating = self.plan_round(folder, round_no)
        write_player_seating(folder, round_no, seating,
                             {folder.file(round_no, "bracket"): parquet_bytes(bracket)},
                             with_cards=with_cards)
        withdrawn = withdrawn_pairs(folder, effects(folder), round_no)
        people = people_of(folder)
        notes = [f"{people.pair(gone)} withdrew from round {withdrawn[gone][0]} (ledger row "
                 f"{withdrawn[gone][1]}): {people.pair(other)} advances (art. 35)"
                 for _, gone, other, _ in pair_walkovers(bracket, withdrawn)]
        return replace(seating, notes=notes, names=people.names())

    def result_problems(self, folder, located, round_no, file):
        """Results that decide no match (a level match without ``tiebreak``, an artificial
        result naming no winner), on the file's own rows."""
        _, found = pair_outcomes(located, pair_of(folder))
        rows = dict(zip(located["table"], located["file_row"], strict=True))
        return [Problem(file, int(rows[t]), column, value, rule)
                for t, column, value, rule in found]

    def outcomes(self, folder, round_no, results):
        outcomes, problems = pair_outcomes(with_forfeits(folder, round_no, results),
                                           pair_of(folder))
        return outcomes, {}, problems

    def demo_request(self, scratch, entrants, boards_per_set, **shape):
        """``entrants`` pairs (a knockout counts its entries), two players each."""
        return ByStanding.demo_request(self, scratch, 2 * entrants, boards_per_set, **shape)


def pair_of(folder: EventFolder) -> dict[str, str]:
    players = folder.players()
    return dict(zip(players["player"].astype(str), players["pair"].astype(str), strict=True))


def with_forfeits(folder: EventFolder, round_no: int, results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the round's forfeits in place of their tables' rows, so
    ``pair_outcomes`` decides those matches as forfeits: the ledger's artificial results
    (an ``absent`` side, or one over 10 minutes late: A-/A+, art. 34), and the matches of a
    pair whose player withdrew (art. 35: the opponent advances)."""
    decided = effects(folder)
    mine = decided.artificial[decided.artificial["round"] == round_no]
    rows = mine[["table", "ns_adjusted", "ew_adjusted"]]
    bracket = folder.read(round_no, "bracket")
    withdrawn = withdrawn_pairs(folder, decided, round_no)
    gone = [(table, *(("A-", "A+") if side == "NS" else ("A+", "A-")))
            for table, _, _, side in pair_walkovers(bracket, withdrawn) if table not in set(
                rows["table"])]
    if gone:
        rows = pd.concat([rows, pd.DataFrame(gone, columns=list(rows.columns))],
                         ignore_index=True)
    if rows.empty:
        return results
    seating = folder.read(round_no, "seating")[["table", "north", "east"]]
    rows = rows.merge(seating, on="table")
    kept = results[~results["table"].isin(rows["table"])]
    return pd.concat([kept, rows], ignore_index=True)


def result_text(row: dict) -> str:
    """One table's result as side A (North-South) against side B: ``"A+ : K"``, a forfeit's
    ``"A+/A-"``, a level match with the side that won the extra boards, ``"7 : 7 (EW)"``."""
    if isinstance(row.get("adjusted"), str):
        return row["adjusted"]
    text = f"{LEVEL_NAMES[int(row['ns_level'])]} : {LEVEL_NAMES[int(row['ew_level'])]}"
    tiebreak = row.get("tiebreak")
    return f"{text} ({tiebreak.upper()})" if isinstance(tiebreak, str) else text

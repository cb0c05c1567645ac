"""``event seat``: a round's seating, byes and table cards from the event's own history.

Round 1 follows the order fixed at ``event init`` (seeding list, then the lot); round R > 1
follows round R-1's standings (``position``, the strict order), with the byes and, in pairs
events, the meetings of every earlier round. A round that already has results keeps its
seating: reseating it would orphan them.
"""

from __future__ import annotations

import os

from ..errors import GuandanError
from ..movement import (
    Seating,
    earlier_meetings,
    pair_byes,
    pair_order,
    partnerships,
    seat_pairs,
    seat_round,
    seeding_order,
    with_unplaced,
)
from . import cards, knockout, team_knockout
from .folder import EventFolder, parquet_bytes
from .ledger import effects
from .teams import TeamSeating, seat_team_round
from .transaction import step


def round_order(folder: EventFolder, round_no: int) -> list[str]:
    """Player ids best first: the round-1 order, or the previous round's standings."""
    seeded = seeding_order(folder.players())
    if round_no == 1:
        return seeded
    standings = folder.read(round_no - 1, "standings")
    if standings is None:
        raise GuandanError(
            f"round {round_no - 1} is not scored yet, so round {round_no} cannot be seated; "
            f"run `guandan-dup event score DIR --round {round_no - 1}` first"
        )
    if folder.scored_out_of_date(round_no - 1):
        raise GuandanError(
            f"round {round_no - 1}'s results changed after it was scored, so its standings "
            f"are out of date and cannot seat round {round_no}; run `guandan-dup event score "
            f"DIR --round {round_no - 1}` first"
        )
    ranked = standings.sort_values("position")["player"].astype(str).tolist()
    return with_unplaced(ranked, seeded)


def away(folder: EventFolder, round_no: int) -> set[str]:
    """Players the ledger keeps out of ``round_no``'s movement: withdrawn in it or before,
    or entering only later (in a pairs event a withdrawal takes the pair out)."""
    decided = effects(folder)
    gone = decided.withdrawals[decided.withdrawals["round"] <= round_no]["player"].dropna()
    later = decided.entries[decided.entries["round"] > round_no]["player"]
    out = set(gone) | set(later)
    players = folder.players()
    if "pair" in players and out:
        pairs = set(players.loc[players["player"].isin(out), "pair"])
        out |= set(players.loc[players["pair"].isin(pairs), "player"])
    return out


def plan_seating(folder: EventFolder, round_no: int) -> Seating:
    """The seating of ``round_no`` (computed, not written); the ledger's withdrawals and
    late entries leave and join the movement here."""
    plan = folder.plan
    missing = away(folder, round_no)
    order = [p for p in round_order(folder, round_no) if p not in missing]
    earlier = range(1, round_no)
    byes = folder.read_rounds("byes", earlier)
    had_bye = [] if byes is None else byes["player"].astype(str).tolist()
    if plan.kind == "individual":
        return seat_round(
            order,
            plan.tables_per_group,
            had_bye,
            round_no,
            sets=plan.sets_of_round(round_no),
            rotate_partners=plan.rotate_partners,
        )
    players = folder.players()
    players = players[~players["player"].isin(missing)]
    pair_of = dict(zip(players["player"], players["pair"], strict=True))
    seatings = folder.read_rounds("seating", earlier)
    met = set() if seatings is None else earlier_meetings(seatings, pair_of)
    had_pair_bye = [] if byes is None else pair_byes(byes, pair_of)
    order_of_pairs = pair_order(
        players.assign(position=players["player"].map({p: i for i, p in enumerate(order)})),
        pair_of,
    )
    return seat_pairs(
        order_of_pairs, partnerships(players), plan.tables_per_group, met, had_pair_bye, round_no
    )


@step("event seat")
def seat_event_round(
    folder: EventFolder, round_no: int, lineups: str | os.PathLike | None = None
) -> Seating | TeamSeating:
    """Write rounds/R/seating.parquet, byes.parquet and table-cards.html; return the seating.

    A team event writes its matches and ``lineups`` (a CSV, else each team's first four
    players) instead of byes (``event.teams``); a knockout also writes its round's
    bracket.parquet (``event.knockout``, ``event.team_knockout``).
    """
    folder.plan.check_round(round_no)
    if folder.read(round_no, "results") is not None:
        raise GuandanError(
            f"round {round_no} already has results; its seating cannot change any more"
        )
    plan = folder.plan
    if plan.kind == "teams":
        seat = team_knockout.seat_round if plan.format == "knockout" else seat_team_round
        return seat(folder, round_no, lineups)
    if lineups is not None:
        raise GuandanError("--lineups is for team events: this event seats players by standing")
    extra = {}
    if plan.format == "knockout":  # a pair plays its bracket's match
        bracket, seating = knockout.plan_round(folder, round_no)
        extra[folder.file(round_no, "bracket")] = parquet_bytes(bracket)
    else:
        seating = plan_seating(folder, round_no)
    players = folder.players()
    names = dict(zip(players["player"], players["name"], strict=True))
    html = cards.to_html(plan, round_no, seating.seating, seating.byes, names)
    folder.replace_files(
        {
            folder.file(round_no, "seating"): parquet_bytes(seating.seating),
            folder.file(round_no, "byes"): parquet_bytes(seating.byes),
            folder.file(round_no, "table-cards.html"): html.encode("utf-8"),
            **extra,
        }
    )
    return seating

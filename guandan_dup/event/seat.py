"""``event seat``: a round's seating, byes and table cards from the event's own history.

The step checks the round and that it has no results yet (reseating it would orphan them),
then hands over to the plan's format (``event.formats``): an event reseated by standing
follows the round-1 order fixed at ``event init`` and then the previous round's standings
(``position``, the strict order), with the byes and, in pairs events, the meetings of every
earlier round; a team event pairs its matches; a knockout seats its bracket's matches.
"""

from __future__ import annotations

import os

import pyarrow as pa

from ..errors import GuandanError
from ..movement import Seating, seeding_order, with_unplaced
from ..wording import event_command
from . import cards
from .access import round_links
from .folder import EventFolder, parquet_bytes
from .ledger import effects
from .transaction import step

CARDS = "table-cards.html"
"""rounds/R/table-cards.html: the cards ``event seat`` prints for the tables."""


def round_order(folder: EventFolder, round_no: int) -> list[str]:
    """Player ids best first: the round-1 order, or the previous round's standings."""
    seeded = seeding_order(folder.players())
    if round_no == 1:
        return seeded
    standings = folder.read(round_no - 1, "standings")
    if standings is None:
        raise GuandanError(
            f"round {round_no - 1} is not scored yet, so round {round_no} cannot be seated; "
            f"run `{event_command(folder.path, 'score', round_no - 1)}` first"
        )
    folder.check_seats_from(round_no, f"round {round_no}'s seating")
    ranked = standings.sort_values("position")["player"].astype(str).tolist()
    return with_unplaced(ranked, seeded)


def away_players(folder: EventFolder, round_no: int) -> set[str]:
    """Players the ledger keeps out of ``round_no``'s movement: withdrawn in it or before,
    or entering only later (in a pairs event a withdrawal takes the pair out)."""
    decided = effects(folder)
    gone = decided.withdrawals[decided.withdrawals["round"] <= round_no]["player"].dropna()
    later = decided.entries[decided.entries["round"] > round_no]["player"]
    out = set(gone) | set(later)
    if not out:  # as almost always: no players file read for nothing (1M players: 0.2 s)
        return out
    players = folder.players()
    if "pair" in players:
        pairs = set(players.loc[players["player"].isin(out), "pair"])
        out |= set(players.loc[players["pair"].isin(pairs), "player"])
    return out


def substituting(folder: EventFolder, round_no: int) -> set[str]:
    """Registered players the ledger has play ``round_no`` in another's seat (a substitute):
    the movement does not place them at a table of their own (in a pairs event, their pair
    neither), so the seating never has them twice, whichever of the two came first."""
    decided = effects(folder)
    subs = decided.substitutes[decided.substitutes["round"] == round_no]["player"]
    players = folder.players()
    out = set(subs) & set(players["player"])
    if "pair" in players and out:
        pairs = set(players.loc[players["player"].isin(out), "pair"])
        out |= set(players.loc[players["pair"].isin(pairs), "player"])
    return out


def refuse_lineups(lineups: str | os.PathLike | None) -> None:
    """Lineups name a team's pairs: an event of players or pairs has none."""
    if lineups is not None:
        raise GuandanError("--lineups is for team events: this event seats players by standing")


def write_player_seating(
    folder: EventFolder, round_no: int, seating: Seating, extra: dict | None = None,
    metadata: dict[bytes, bytes] | None = None, with_cards: bool = True,
) -> Seating:
    """Write a round's seating, byes and table cards (and ``extra`` files of the same step,
    a knockout's bracket) in one ``replace_files``; ``metadata`` goes into seating.parquet
    (the order a round was seated from). Without ``with_cards`` (``event seat
    --no-cards``) no cards are drawn, and an earlier seating's cards of the round are
    removed (kept in history/), since they would show seats that are no longer so."""
    arrow = pa.Table.from_pandas(seating.seating, preserve_index=False)
    files = {
        folder.file(round_no, "seating"): parquet_bytes(
            arrow.replace_schema_metadata((arrow.schema.metadata or {}) | (metadata or {}))),
        folder.file(round_no, "byes"): parquet_bytes(seating.byes),
        **(extra or {}),
    }
    folder.replace_files(files | table_cards(folder, round_no, seating.seating, seating.byes)
                         if with_cards else files,
                         remove=() if with_cards else [folder.file(round_no, CARDS)])
    return seating


def table_cards(folder: EventFolder, round_no: int, seating, byes, rooms=None) -> dict:
    """rounds/R/table-cards.html of a seating, as the file to write (``cards.to_html``;
    ``rooms``: a team round's ``cards.Room`` by table)."""
    players = folder.players()
    names = dict(zip(players["player"], players["name"], strict=True))
    links = round_links(folder, round_no, seating["table"])
    html = cards.to_html(folder.plan, round_no, seating, byes, names, links, rooms)
    return {folder.file(round_no, CARDS): html.encode("utf-8")}


@step("event seat")
def seat_event_round(
    folder: EventFolder, round_no: int, lineups: str | os.PathLike | None = None,
    with_cards: bool = True,
):
    """Seat ``round_no`` and write its files (seating, byes or a team event's matches and
    ``lineups``, table cards; a knockout's bracket); returns the seating, whose
    ``summary()`` is what a director announces. ``with_cards=False`` writes no table
    cards (``write_player_seating``): a platform seating its players online needs none, and
    drawing a million players' QR codes takes a quarter of an hour; ``event print DIR
    --round R --what table-cards`` draws them from the seating later, if they are wanted."""
    folder.plan.check_round(round_no)
    if folder.read(round_no, "results") is not None:
        raise GuandanError(
            f"round {round_no} already has results; its seating cannot change any more"
        )
    return folder.plan.event_format.seat(folder, round_no, lineups, with_cards)

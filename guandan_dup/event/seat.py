"""``event seat``: a round's seating, byes and table cards from the event's own history.

The step checks the round and that it has no results yet (reseating it would orphan them),
then hands over to the plan's format (``event.formats``): an event reseated by standing
follows the round-1 order fixed at ``event init`` and then the previous round's standings
(``position``, the strict order), with the byes and, in pairs events, the meetings of every
earlier round; a team event pairs its matches; a knockout seats its bracket's matches.
"""

from __future__ import annotations

import os

from ..errors import GuandanError
from ..movement import Seating, seeding_order, with_unplaced
from . import cards
from .access import round_links
from .folder import EventFolder, parquet_bytes
from .ledger import effects
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


def away_players(folder: EventFolder, round_no: int) -> set[str]:
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


def refuse_lineups(lineups: str | os.PathLike | None) -> None:
    """Lineups name a team's pairs: an event of players or pairs has none."""
    if lineups is not None:
        raise GuandanError("--lineups is for team events: this event seats players by standing")


def write_player_seating(
    folder: EventFolder, round_no: int, seating: Seating, extra: dict | None = None
) -> Seating:
    """Write a round's seating, byes and table cards (and ``extra`` files of the same step,
    a knockout's bracket) in one ``replace_files``."""
    players = folder.players()
    names = dict(zip(players["player"], players["name"], strict=True))
    links = round_links(folder, round_no, seating.seating["table"])
    html = cards.to_html(folder.plan, round_no, seating.seating, seating.byes, names, links)
    folder.replace_files(
        {
            folder.file(round_no, "seating"): parquet_bytes(seating.seating),
            folder.file(round_no, "byes"): parquet_bytes(seating.byes),
            folder.file(round_no, "table-cards.html"): html.encode("utf-8"),
            **(extra or {}),
        }
    )
    return seating


@step("event seat")
def seat_event_round(
    folder: EventFolder, round_no: int, lineups: str | os.PathLike | None = None
):
    """Seat ``round_no`` and write its files (seating, byes or a team event's matches and
    ``lineups``, table cards; a knockout's bracket); returns the seating, whose
    ``summary()`` is what a director announces."""
    folder.plan.check_round(round_no)
    if folder.read(round_no, "results") is not None:
        raise GuandanError(
            f"round {round_no} already has results; its seating cannot change any more"
        )
    return folder.plan.event_format.seat(folder, round_no, lineups)

"""Who may act where, and on what: the checks every route of a table makes first.

``refused`` says whether a caller (the director, a venue's director, a table's token, a
platform's) may act on a round's table; ``plays`` whether the table plays in the round and
plays the set. Both are pure, so the routes call them before the desk is asked anything
(``live.api``) and the desk before it changes the state (``live.desk``).
"""

from __future__ import annotations

from ..wording import numbered, spans
from .facts import RoundFacts
from .sets import Answer, fail
from .tokens import Caller, Director, Table, VenueDirector


def refused(by: Caller | None, round_no: int, table: int | None = None) -> Answer | None:
    """``401`` for nobody, ``403`` for a table's token on another table or round (or a
    platform's), ``None`` when ``by`` may act on ``round_no``'s ``table``. A venue's
    director acts on its venue's tables only: its ``403`` says whose token it is and
    what it reaches (``VenueDirector.scope``)."""
    if by is None:
        return fail(401, "a token is needed: the table's link or PIN, or the "
                      "director's token")
    if isinstance(by, Director):
        return None
    if isinstance(by, VenueDirector):
        if by.reaches(table):
            return None
        where = f"table {table}" if table is not None else f"all of round {round_no}"
        return fail(403, f"this is {by.words()}: it reaches its venue's tables only, "
                    f"not {where}; ask the event's director", **by.scope())
    if isinstance(by, Table) and table is not None and (by.round, by.table) == (
            round_no, table):
        return None
    where = f"round {round_no}" + (f" table {table}" if table is not None else "")
    mine = (f"round {by.round} table {by.table}" if isinstance(by, Table)
            else "no table")
    return fail(403, f"this token is for {mine}, not {where}")


def plays(facts: RoundFacts, table: int, set_no: int | None = None) -> Answer | None:
    """``None`` when ``table`` plays in the round (and plays ``set_no``), else the ``404``
    that names the tables or the sets it has."""
    here = facts.tables.get(table)
    if here is None:
        tables = sorted(facts.tables)
        return fail(404, f"round {facts.round} has {spans('table', tables)}, not {table}")
    if set_no is not None and set_no not in here.sets:
        return fail(404, f"table {table} (group {here.group}) plays "
                      f"{numbered('set', here.sets)} in round {facts.round}, not {set_no}")
    return None

"""What an event may publish, gathered from its folder and handed to ``reports`` to render.

The rule for results of a set (issue 9, SPEC section 10 "Publication"): a set's traveller,
its rows on player pages and its hand records appear only once every expected table has
played it, or has been declared as one that will not play it. Until then other tables'
results would tell a late table which direction did well, so the set is *pending* and the
standings that count its partial results are *withheld* (``counted_pending``): beside the
set's public travellers, a round's averages would give the pending set's rates away.
``complete_sets`` is that rule, in one place, and ``public_sets`` applies it to the folder
with the ledger's declarations: the exports (``event.export``), the players' site
(``site_data``) and the team site (``event.formats.teams``) all ask it, so they cannot
disagree.

Arrows point down: this module opens the event folder and filters what is public;
``reports.site`` only renders the tables it is given.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

import pandas as pd

from ..errors import GuandanError
from ..reports.site import SiteData, write_site
from ..reports.tables import with_start_levels
from ..scoring import TRAVELLERS_COLUMNS
from ..seats import SEAT_COLUMNS
from .decisions import decisions
from .finality import final as final_rounds
from .folder import SUBFOLDERS, EventFolder
from .ledger import effects, read_ledger, will_not_play_rows
from .transaction import step

Row = tuple[int, int, int]
"""A (round, table, set) result the plan expects."""

_BOARD = ("board", "set", "set_board", "leader", *SEAT_COLUMNS)


def complete_sets(
    planned: Iterable[Row], played: Iterable[Row], will_not_play: Collection[Row] = frozenset()
) -> frozenset[tuple[int, int]]:
    """The (round, set) pairs whose every planned table has a result or will not play it.

    ``planned`` and ``played`` are (round, table, set) rows; ``will_not_play`` are the rows
    the director declared will never come (the ledger's forfeits and withdrawals), which no
    longer hold the set back.

    >>> planned = [(1, 1, 1), (1, 2, 1), (1, 1, 2), (1, 2, 2)]
    >>> sorted(complete_sets(planned, [(1, 1, 1), (1, 2, 1), (1, 1, 2)]))
    [(1, 1)]
    >>> sorted(complete_sets(planned, [(1, 1, 1), (1, 2, 1), (1, 1, 2)], {(1, 2, 2)}))
    [(1, 1), (1, 2)]
    """
    planned = list(planned)
    done = set(played) | set(will_not_play)
    waiting = {(r, s) for r, t, s in planned if (r, t, s) not in done}
    return frozenset((r, s) for r, _, s in planned if (r, s) not in waiting)


def counted_pending(rounds: Sequence[int], sets_of_round, complete) -> dict[int, list[int]]:
    """Round -> the pending sets its standings would count (its own and every earlier
    round's), for the rounds that count one. Standings are cumulative, so a round's figures
    beside the public travellers would give the pending set's rates away (SPEC 10): they are
    withheld until that list is empty.

    >>> counted_pending([1, 2, 3], {1: [1, 2], 2: [3, 4], 3: [5, 6]}.get,
    ...                 {(1, 1), (1, 2), (2, 3), (3, 5), (3, 6)})
    {2: [4], 3: [4]}
    """
    counted, out = [], {}
    for r in sorted(rounds):
        counted += [s for s in sets_of_round(r) if (r, s) not in complete]
        if counted:
            out[r] = list(counted)
    return out


def planned_rows(folder: EventFolder, rounds: Iterable[int]) -> list[Row]:
    """Every (round, table, set) result the plan expects in ``rounds``."""
    return [(r, t, s) for r in rounds for t, s in folder.plan.planned_results(r)]


def stored_rows(folder: EventFolder, rounds: Iterable[int]) -> set[Row]:
    """Every (round, table, set) result stored in the rounds' results files."""
    rows: set[Row] = set()
    for r in rounds:
        results = folder.read(r, "results")
        if results is not None:
            pairs = zip(results["table"], results["set"], strict=True)
            rows |= {(r, int(t), int(s)) for t, s in pairs}
    return rows


def public_sets(folder: EventFolder, rounds: Iterable[int],
                ledger: pd.DataFrame | None = None) -> frozenset[tuple[int, int]]:
    """The (round, set) of ``rounds`` that may be published: ``complete_sets`` of the
    folder's plan, its stored results and the ledger's rows saying a table will not play
    (``ledger.will_not_play_rows``; ``ledger``, default the folder's). Every export and
    page asks this one function, and so does a ledger withdrawal that would reopen a set."""
    rounds = list(rounds)
    return complete_sets(planned_rows(folder, rounds), stored_rows(folder, rounds),
                         will_not_play_rows(folder, ledger))


def set_states(folder: EventFolder, rounds: list[int], complete) -> pd.DataFrame:
    """One row per planned set of ``rounds``: round, set, complete (bool)."""
    rows = [(r, s, (r, s) in complete) for r in rounds for s in folder.plan.sets_of_round(r)]
    return pd.DataFrame(rows, columns=["round", "set", "complete"]).astype(
        {"round": "int64", "set": "int64", "complete": "bool"}
    )


def pending_seats(folder: EventFolder, sets: pd.DataFrame, seating: pd.DataFrame) -> pd.DataFrame:
    """Who sits where in the sets still pending: round, set, table, player, seat (N/E/S/W).

    A player's page lists these sets as pending, from the seating alone (public from the
    start), without any result.
    """
    pending = sets[~sets["complete"]]
    planned = pd.DataFrame(
        [
            (r, t, s)
            for r, s in zip(pending["round"], pending["set"], strict=True)
            for t in folder.plan.tables_of_set(int(r), int(s))
        ],
        columns=["round", "table", "set"],
    ).astype("int64")
    keys = ["round", "table", "set"] if "set" in seating else ["round", "table"]
    tables = planned.merge(seating, on=keys, how="inner")
    frames = [
        tables[["round", "set", "table"]].assign(player=tables[column], seat=column[0].upper())
        for column in SEAT_COLUMNS
    ]
    columns = ["round", "set", "table", "player", "seat"]
    return pd.concat(frames, ignore_index=True)[columns]


def stacked(folder: EventFolder, name: str, rounds: Iterable[int],
            columns: Sequence[str]) -> pd.DataFrame:
    """The rounds' ``name`` tables stacked; with none yet, an empty table of ``columns``, so
    the pages need no special case for an event that has not started."""
    frame = folder.read_rounds(name, rounds)
    return frame if frame is not None else pd.DataFrame(columns=list(columns))


def site_data(folder: EventFolder) -> SiteData:
    """Everything the players' site may show: seating and byes of every seated round (a
    player with a bye must find that on the seating page), standings of scored rounds, and
    travellers and deals of public sets only (``public_sets``); the ledger also gives the
    director's penalties and adjustments (``event.decisions``: of public sets only), late
    starts' levels on the travellers and which rounds are still before their correction
    deadline, the format its own tables (a knockout's bracket). Standings that count a
    pending set (their round's or an earlier one's, ``counted_pending``) are withheld: with
    the public travellers they would give that set's rates away."""
    scored = folder.rounds_scored()
    ledger = read_ledger(folder)
    final, decided = final_rounds(folder, ledger), effects(folder, ledger)
    planned = range(1, folder.plan.rounds + 1)
    complete = public_sets(folder, scored)
    sets = set_states(folder, scored, complete)
    travellers = stacked(folder, "travellers", scored, TRAVELLERS_COLUMNS)
    public = pd.Series(
        [
            (r, s) in complete
            for r, s in zip(travellers["round"], travellers["set"], strict=True)
        ],
        index=travellers.index,
        dtype="bool",
    )
    byes = stacked(folder, "byes", planned, ("round", "player"))
    seating = stacked(folder, "seating", planned, ("round", "group", "table", *SEAT_COLUMNS))
    boards = [
        frame[frame["set"].isin([s for r2, s in complete if r2 == r])]
        for r in scored
        if (frame := folder.read(r, "boards")) is not None
    ]
    round_done = {r: sets.loc[sets["round"] == r, "complete"].all() for r in scored}
    withheld = {r: sets  # a knockout has no standings to withhold
                for r, sets in counted_pending(scored, folder.plan.sets_of_round,
                                               complete).items()
                if folder.file(r, "standings").exists()}
    return SiteData(
        name=folder.plan.name,
        planned_rounds=folder.plan.rounds,
        commitment=folder.commitment,
        key_hex=folder.key().hex() if folder.key_revealed else None,
        reveal_override=folder.reveal_override,
        players=folder.players(),
        rounds_scored=scored,
        standings={r: f for r in scored
                   if r not in withheld and (f := folder.read(r, "standings")) is not None},
        withheld=withheld,
        seating=seating,
        travellers=with_start_levels(travellers[public].reset_index(drop=True),
                                     decided.start_levels),
        byes=byes,
        sets=sets,
        pending=pending_seats(folder, sets, seating),
        boards=pd.concat(boards, ignore_index=True) if boards else pd.DataFrame(columns=_BOARD),
        boards_files={
            r: folder.file(r, "boards")
            for r in scored
            if round_done[r] and folder.file(r, "boards").exists()
        },
        correcting=frozenset(r for r in scored if r not in final),
        decisions=decisions(ledger, decided, complete),
        **folder.plan.event_format.site_tables(folder),
    )


def publish_site(
    folder: EventFolder,
    out_dir: str | os.PathLike | None = None,
    lang: str = "zh",
    show_progress: bool = False,
) -> Path:
    """Write the players' results site of ``folder`` to ``out_dir`` (default DIR/site).

    Returns the path of the site's ``index.html``. Raises ``GuandanError`` for an unknown
    ``lang``, a damaged event file, or an unsafe ``out_dir``; then nothing is written and an
    earlier site stays as it was.
    """
    return write_site(site_data(folder), site_folder(folder, out_dir), lang, show_progress)


def site_folder(folder: EventFolder, out_dir: str | os.PathLike | None) -> Path:
    """Where the site goes (default DIR/site), refused where replacing it whole would take
    the event folder or its own files with it: the site may stand inside the event folder
    only as a folder of its own directly in it, not one of the layout's (``SUBFOLDERS``)."""
    out = Path(out_dir) if out_dir is not None else folder.path / "site"
    out_abs, event_abs = out.resolve(), folder.path.resolve()
    if out_abs == event_abs or out_abs in event_abs.parents:
        raise GuandanError(
            f"site folder {str(out)!r} would contain the event folder {str(folder.path)!r}: "
            f"choose another --out (the default is {folder.path / 'site'})"
        )
    if event_abs in out_abs.parents and (
        out_abs.parent != event_abs or out_abs.name in SUBFOLDERS
    ):
        raise GuandanError(
            f"site folder {str(out)!r} is inside the event folder's own files: inside "
            f"{str(folder.path)!r} a site can only be a folder of its own directly in it, "
            f"such as the default {folder.path / 'site'}"
        )
    return out


@step("event site")
def build_event_site(
    folder: EventFolder,
    out_dir: str | os.PathLike | None = None,
    lang: str = "zh",
    show_progress: bool = False,
) -> Path:
    """The results site of any event folder, as its format builds it (a team event's team
    pages); returns the path of its index.html. Refused while a round's standings are
    older than its results (``check_up_to_date``)."""
    folder.check_up_to_date("publishing the site")
    return folder.plan.event_format.write_site(folder, out_dir, lang, show_progress)

"""The ``move`` command's library side: seat a round from files outside an event folder.

For directors who keep their own files: a standings Parquet file (the ``score`` command's,
possibly holding several rounds), earlier byes and seatings, a seeding list or a players file
and key for the round-1 lot. ``--round R`` names the round whose standings are used and the
seating is for round R+1; if the file holds no round R but does hold R-1, R is taken as the
round to seat (so both readings of ``--round`` work).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..atomic import staged_writes
from ..deals.keys import read_key
from ..errors import GuandanError, InvalidPlanError
from ..reading import read_table
from ..wording import counted, numbered, plural, quoted, words
from .draw import draw_lot, seeded_then_lot, with_unplaced
from .individual import Seating, seat_round
from .pairs import earlier_meetings, pair_byes, pair_order, partnerships, seat_pairs
from .players import load_players, load_seeding

PathLike = str | os.PathLike


def _read_table(path: PathLike, columns: Sequence[str]) -> pd.DataFrame:
    """A Parquet file, or by its suffix a CSV or xlsx one (read as players files are), with
    ``columns``."""
    if Path(path).suffix.lower() in (".csv", ".xlsx"):
        frame = read_table(path, columns)
    else:
        try:
            frame = pd.read_parquet(path)
        except (OSError, pa.ArrowException) as error:
            raise GuandanError(f"cannot read {str(path)!r}: {error}") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise GuandanError(f"{str(path)!r} has no {plural('column', len(missing))} "
                           f"{quoted(missing)}: expected {quoted(columns)}")
    return frame


def standings_order(path: PathLike, round_no: int) -> tuple[list[str], int]:
    """Player ids by ``position`` in the file's standings, and the round they seat."""
    standings = _read_table(path, ["player", "position"])
    rounds = set(standings["round"].tolist()) if "round" in standings.columns else {round_no}
    if round_no in rounds:
        used, seats = round_no, round_no + 1
    elif round_no - 1 in rounds:
        used, seats = round_no - 1, round_no
    else:
        raise GuandanError(f"{str(path)!r} has no standings of round {round_no} (it has "
                           f"{numbered('round', sorted(rounds)) or 'none'})")
    part = standings if "round" not in standings.columns else standings[standings["round"] == used]
    return part.sort_values("position")["player"].astype(str).tolist(), seats


def round_one_order(
    seeding: PathLike | None, players: pd.DataFrame | None, key: PathLike | None
) -> list[str]:
    """A seeding list's order, or the lot of ``players`` drawn from the key file.

    With both a seeding list and a players file, the players the list leaves out follow it in
    a lot drawn from the key (as ``event init`` does), so nobody is silently left unseated.
    """
    if seeding is None and (players is None or key is None):
        raise InvalidPlanError(
            "without standings, give --seeding FILE, or --players FILE and --key FILE for a lot"
        )
    if seeding is None:
        return draw_lot(players["player"], read_key(key))
    known = players["player"] if players is not None else _read_table(seeding, ["id"])["id"]
    seeded = load_seeding(seeding, known)
    listed = set(seeded)
    rest = [] if players is None else [p for p in players["player"] if p not in listed]
    if not rest:
        return seeded
    if key is None:
        raise InvalidPlanError(
            f"{counted(len(rest), 'player')} of the players file "
            f"{plural('is', len(rest), 'are')} not in the seeding list {str(seeding)!r} "
            f"({words(rest[:10]) if len(rest) <= 10 else ', '.join(rest[:10]) + ', ...'}): "
            "list them too, or give --key FILE to place them by lot"
        )
    return seeded_then_lot(players["player"], seeded, read_key(key))


def parse_sets(text: str) -> list[int]:
    """The round's sets in playing order from ``"4,5,6"``; a bad list is an InvalidPlanError."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() and int(part) >= 1 for part in parts):
        raise InvalidPlanError(f"--sets {text!r}: expected set numbers >= 1 separated by commas")
    return [int(part) for part in parts]


def byes_path(out: PathLike) -> Path:
    """Where ``move`` writes the byes: ``byes.parquet`` beside the seating file."""
    return Path(out).with_name("byes.parquet")


def move(
    out: PathLike,
    round_no: int,
    tables_per_group: int,
    standings: PathLike | None = None,
    byes_so_far: PathLike | None = None,
    seeding: PathLike | None = None,
    players: PathLike | None = None,
    key: PathLike | None = None,
    rotate_partners: bool = False,
    sets: Sequence[int] | str | None = None,
    kind: str = "individual",
    earlier_seatings: Sequence[PathLike] = (),
) -> Seating:
    """Seat a round and write ``out`` and ``byes.parquet`` beside it (together).

    ``players`` (a players CSV) is needed for a pairs event (its ``pair`` column) and for a
    round-1 lot. ``sets`` are the round's sets for partner rotation, or their text "4,5,6"
    (default: three sets numbered as an event plan with three sets a round would, 3R-2..3R).
    """
    if round_no < 1:
        raise InvalidPlanError(f"--round {round_no}: rounds are numbered from 1")
    if isinstance(sets, str):
        sets = parse_sets(sets)
    if kind not in ("individual", "pairs"):
        raise InvalidPlanError(f"kind {kind!r}: expected individual or pairs")
    roster = None if players is None else load_players(players, kind)
    had = (
        pd.DataFrame({"player": []})
        if byes_so_far is None
        else _read_table(byes_so_far, ["player"])
    )
    if standings is not None:
        order, round_no = standings_order(standings, round_no)
        known = [] if roster is None else roster["player"].tolist()
        order = with_unplaced(order, had["player"].astype(str).tolist() + known)
    else:
        order = round_one_order(seeding, roster, key)
    if kind == "individual":
        sets = list(sets or range(3 * round_no - 2, 3 * round_no + 1))
        had_bye = had["player"].astype(str).tolist()
        seating = seat_round(order, tables_per_group, had_bye, round_no, sets, rotate_partners)
    else:
        if roster is None:
            raise InvalidPlanError("a pairs event needs --pairs FILE (columns id, name, pair)")
        pair_of = dict(zip(roster["player"], roster["pair"], strict=True))
        frames = [_read_table(p, ["north", "east"]) for p in earlier_seatings]
        met = earlier_meetings(pd.concat(frames), pair_of) if frames else set()
        ranked = pd.DataFrame({"player": order, "position": range(len(order))})
        seating = seat_pairs(
            pair_order(ranked, pair_of),
            partnerships(roster),
            tables_per_group,
            met,
            pair_byes(had, pair_of),
            round_no,
        )
    with staged_writes() as stage:
        for dest, frame in ((out, seating.seating), (byes_path(out), seating.byes)):
            pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), stage(dest))
    return seating

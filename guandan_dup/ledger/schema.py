"""The ledger table: one row per director's decision, append-only (SPEC 10).

A row is never changed or deleted: a decision is taken back by a later ``retract`` row whose
``withdraws`` names it. The table's columns and types are the contract (docs/formats.md,
"ledger.parquet"); ``load``/``dump`` read and write it as Parquet and ``empty`` starts one.

>>> empty().columns[:6].tolist()
['id', 'time', 'command', 'kind', 'round', 'set']
>>> load_bytes(dump(empty())).equals(empty())
True
"""

from __future__ import annotations

import io
import os

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import GuandanError, ProblemsError
from ..reading import read_parquet

LEDGER_FILE = "ledger.parquet"

#: Column -> Arrow type, in order. Empty cells are nulls; decimals are kept as the text the
#: director typed (``points``, ``match_points``, ``level_points``) so they stay exact.
SCHEMA = pa.schema([
    ("id", pa.int64()),               # 1, 2, ... in the order rows were added
    ("time", pa.timestamp("us", tz="UTC")),  # when the row was added
    ("command", pa.string()),         # the command line that added it
    ("kind", pa.string()),            # one of ``KINDS``
    ("round", pa.int64()),
    ("set", pa.int64()),
    ("table", pa.int64()),
    ("player", pa.string()),
    ("side", pa.string()),            # NS or EW: the side the decision is about
    ("team", pa.int64()),
    ("minutes", pa.float64()),        # late arrival or overtime
    ("result", pa.string()),          # "K/5" (assigned levels) or "A+/A-" (artificial)
    ("variable", pa.bool_()),         # artificial: the better of the rate and own average
    ("tables", pa.string()),          # fouled: "3,4,7"
    ("for_player", pa.string()),      # substitute: the player replaced
    ("name", pa.string()),            # enter: the new player's name
    ("points", pa.string()),          # penalty: percentage points (individual, pairs)
    ("match_points", pa.string()),    # penalty: 场分 (team events)
    ("level_points", pa.string()),    # penalty: 级差分 (team events)
    ("scale", pa.int64()),            # penalty: art. 52 scale 1..4
    ("at", pa.timestamp("us", tz="UTC")),  # ends: the round's scheduled end
    ("article", pa.string()),
    ("reason", pa.string()),
    ("withdraws", pa.int64()),        # retract: the id of the row taken back
    ("override", pa.bool_()),         # the row changes a round already final (art. 48)
])
COLUMNS = tuple(SCHEMA.names)


class LedgerError(ProblemsError):
    """A ledger entry (or ledger file) that breaks one or more rules; lists every problem."""

    subject = "the ledger entry"


class LedgerFileError(LedgerError):
    """A ledger file (hand-edited, or damaged) whose rows break the rules; nothing is read
    from it, so no command scores, exports or shows a decision that could not be made."""

    subject = "the ledger file"


def empty() -> pd.DataFrame:
    """A ledger with no rows, every column typed."""
    return from_arrow(SCHEMA.empty_table())


def from_arrow(table: pa.Table) -> pd.DataFrame:
    """The pandas form: nullable integers and booleans, ``str`` text, UTC timestamps."""
    return table.to_pandas(types_mapper={
        pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype(),
        pa.string(): pd.StringDtype(),
    }.get)


def to_arrow(ledger: pd.DataFrame) -> pa.Table:
    """The ledger as an Arrow table with exactly ``SCHEMA`` (missing columns are refused)."""
    missing = [c for c in COLUMNS if c not in ledger.columns]
    if missing:
        raise GuandanError(f"a ledger needs the columns {missing}")
    try:
        return pa.Table.from_pandas(ledger[list(COLUMNS)], schema=SCHEMA, preserve_index=False)
    except (pa.ArrowException, TypeError, ValueError) as error:
        raise GuandanError(f"the ledger does not fit its schema: {error}") from None


def dump(ledger: pd.DataFrame) -> bytes:
    """ledger.parquet's bytes."""
    sink = io.BytesIO()
    pq.write_table(to_arrow(ledger), sink)
    return sink.getvalue()


def load_bytes(data: bytes) -> pd.DataFrame:
    return _checked(pq.read_table(io.BytesIO(data)), "ledger bytes")


def load(path: str | os.PathLike) -> pd.DataFrame:
    """Read ledger.parquet; a folder without one has an empty ledger (see ``load_folder``)."""
    return _checked(read_parquet(path, "ledger file"), str(path))


def _checked(table: pa.Table, where: str) -> pd.DataFrame:
    if table.schema.remove_metadata() != SCHEMA:
        missing = sorted(set(COLUMNS) - set(table.schema.names))
        raise GuandanError(
            f"{where!r} is not a ledger: expected the columns of docs/formats.md "
            f"(missing {missing})" if missing else
            f"{where!r} is not a ledger: a column has another type than docs/formats.md says"
        )
    ledger = from_arrow(table)
    from .stored import shape_problems  # stored checks with ``checks``, which knows the kinds

    problems = shape_problems(ledger, os.path.basename(where))
    if problems:
        raise LedgerFileError(problems)
    return ledger

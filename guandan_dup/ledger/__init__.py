"""The director's ledger (SPEC 10): one append-only table of decisions that scoring,
movement, exports and the site read through its replayed ``Effects``.

``add``/``withdraw`` return a new table (checked against a ``Context``); ``replay`` turns
the rows in force into effects; ``score_with_ledger`` scores results with them applied.
docs/formats.md documents ledger.parquet; docs/director-guide.md "When things go wrong".
"""

from .add import add, withdraw
from .apply import registered, score_with_ledger, scoring_inputs
from .context import Context
from .kinds import FIELDS, KINDS, TEAM_FIELDS, active
from .replay import COLUMNS as EFFECT_COLUMNS
from .replay import Effects, replay
from .schema import COLUMNS, LEDGER_FILE, SCHEMA, LedgerError, dump, empty, load, load_bytes

__all__ = [
    "COLUMNS", "EFFECT_COLUMNS", "FIELDS", "KINDS", "LEDGER_FILE", "SCHEMA", "TEAM_FIELDS",
    "Context", "Effects", "LedgerError", "active", "add", "dump", "empty", "load",
    "load_bytes", "registered", "replay", "score_with_ledger", "scoring_inputs", "withdraw",
]

"""Provisional and final rounds (art. 48): a round is provisional until its correction
deadline, ``correction_minutes`` after its scheduled end, then final.

Decision (docs/director-guide.md): a round's scheduled end is the latest ``ends`` row of the
ledger for it (``event ledger add DIR ends --round R --at TIME``); without one, the time the
round was first scored (``event.finality.scored_times``). A round with neither has not ended:
it is provisional.

>>> import pandas as pd
>>> end = {1: pd.Timestamp("2026-11-30 12:00", tz="UTC")}
>>> sorted(final_rounds(end, 30, pd.Timestamp("2026-11-30 12:30", tz="UTC")))
[1]
>>> sorted(final_rounds(end, 30, pd.Timestamp("2026-11-30 12:29", tz="UTC")))
[]
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .kinds import active


def round_ends(ledger: pd.DataFrame, scored_at: Mapping[int, pd.Timestamp]) -> dict:
    """Each round's scheduled end: the ledger's last ``ends`` row in force for it, else the
    time it was first scored."""
    out = dict(scored_at)
    rows = active(ledger)
    rows = rows[rows["kind"] == "ends"].sort_values("id")
    for round_no, at in zip(rows["round"], rows["at"], strict=True):
        out[int(round_no)] = pd.Timestamp(at)
    return out


def deadlines(ends: Mapping[int, pd.Timestamp], minutes: int | Mapping[int, int]
              ) -> dict[int, pd.Timestamp]:
    """Each ended round's deadline: ``minutes`` after its end (a mapping gives each ended
    round its own)."""
    return {r: at + pd.Timedelta(minutes=minutes[r] if isinstance(minutes, Mapping)
                                 else minutes) for r, at in ends.items()}


def final_rounds(ends: Mapping[int, pd.Timestamp], minutes: int | Mapping[int, int],
                 now: pd.Timestamp) -> frozenset:
    """The rounds whose correction deadline has passed at ``now``."""
    return frozenset(r for r, at in deadlines(ends, minutes).items() if now >= at)

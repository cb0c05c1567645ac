"""One venue's part of a field's standings, ranked within the venue (issue 24).

The comparison is the plan's (``compare_within``); this only reads the standings for
one venue: its players, in the field's order, with ``rank``, ``rank_label`` and
``position`` counted among them (players tied in the field stay tied).

>>> import pandas as pd
>>> field = pd.DataFrame({"player": ["a", "b", "c", "d"], "venue": ["X", "Y", "X", "X"],
...                       "rank": [1, 2, 2, 4], "rank_label": ["1", "2=", "2=", "4"],
...                       "position": [1, 2, 3, 4]})
>>> venue_standings(field, "X")[["player", "rank_label", "position"]].to_numpy().tolist()
[['a', '1', 1], ['c', '2', 2], ['d', '3', 3]]
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import GuandanError
from ..ranking import ranks_within


def venues_of(standings: pd.DataFrame) -> list[str]:
    """The venues a standings table names, sorted (``[]`` without a venue column)."""
    return sorted(standings["venue"].dropna().unique()) if "venue" in standings else []


def venue_slug(venue: str) -> str:
    """``venue`` as it stands in a file name: letters (Chinese ones too), digits, ``-``;
    anything else becomes ``_``.

    >>> venue_slug("南京 A/B")
    '南京_A_B'
    """
    return re.sub(r"[^\w-]", "_", venue)


def venue_standings(standings: pd.DataFrame, venue: str) -> pd.DataFrame:
    """``venue``'s rows of ``standings`` (one round's, or several: each round is ranked
    apart), best first, with ranks and positions within the venue; a ``GuandanError``
    names the venues when ``venue`` is not one of them."""
    known = venues_of(standings)
    if venue not in known:
        raise GuandanError(
            f"venue {venue!r}: expected one of {', '.join(known)}" if known else
            f"venue {venue!r}: these standings have no venues (no venue column in the "
            "players file)")
    by = ["round", "position"] if "round" in standings else ["position"]
    mine = standings[standings["venue"] == venue].sort_values(by, kind="stable")
    parts = []
    for _, part in (mine.groupby("round", sort=True) if "round" in mine else [(None, mine)]):
        ranks, labels = ranks_within(part["rank"].to_numpy(np.int64))
        parts.append(part.assign(rank=ranks, rank_label=labels.to_pylist(),
                                 position=np.arange(1, len(part) + 1, dtype=np.int64)))
    return pd.concat(parts, ignore_index=True) if parts else mine.reset_index(drop=True)

"""What ingestion returns, in a module of its own: the quick path of a sound block
(``by_round``, ``clean``) returns it without loading the full path's pandas."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Ingested:
    """Validated results: the normalised set table (a frame, or an Arrow table from the
    quick path of ``by_round.ingest_block``) and warnings worth a director's look;
    ``seats``, when ingestion hashed the ids (``clean.clean_block``), the distinct ids,
    each row's players as codes into them (rows of ``sets``, seats N E S W) and the ids'
    ``arrays.id_hashes`` (or None) for scoring."""

    sets: pd.DataFrame | pa.Table
    warnings: list[str] = field(default_factory=list)
    seats: tuple[pa.Array, np.ndarray, np.ndarray | None] | None = None

"""Reading a Parquet input file with an error a director understands, whatever goes wrong.

A missing file, a folder, a truncated or non-Parquet file all become one ``GuandanError``
subclass (the caller's) naming the file and what it was meant to be, never a pyarrow
traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .errors import GuandanError


def read_parquet(
    path: str | os.PathLike, what: str, error: type[GuandanError] = GuandanError
) -> pa.Table:
    """Read ``path`` as an Arrow table; ``error`` says ``{what} 'path' ...`` on any failure."""
    name = str(path)
    if Path(path).is_dir():
        raise error(f"{what} {name!r} is a folder, not a file")
    try:
        return pq.read_table(path)
    except FileNotFoundError:
        raise error(f"{what} {name!r} does not exist") from None
    except (OSError, pa.ArrowException) as failure:
        raise error(f"cannot read {what} {name!r} as Parquet: {failure}") from None

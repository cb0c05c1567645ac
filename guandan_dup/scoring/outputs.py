"""The three outputs as Arrow tables, built from numpy arrays without pandas.

A national event is scored by ``guandan-dup score`` straight from Arrow to Parquet: importing
pandas alone took a third of a second of every run, and each block's frames were converted
to Arrow again to be written. The files must still read back into pandas as they always
have (nullable ``Int8`` and ``Int64`` columns, categorical ids and codes, ``str`` text), so
each table carries the ``pandas`` schema metadata ``pyarrow.Table.from_pandas`` would give
the equivalent frame, column for column (``test_scoring_outputs`` holds them equal). Two
things differ from that frame's table, and neither changes what pandas reads: the ids' codes
are always int32 (see ``scores``), and the columns that are never empty are required, not
nullable. ``to_frame`` gives the frame.

Each column is declared once, as the pandas dtype of the frame the output stands for.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ..arrays import to_arrow
from ..seats import SEAT_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

TRAVELLERS_DTYPES = {
    **dict.fromkeys(("round", "group", "set", "table"), "int64"),
    **dict.fromkeys(SEAT_COLUMNS, "str"),
    "ns_level": "Int8", "ew_level": "Int8",
    "adjusted": "str", "ns_adjusted": "str", "ew_adjusted": "str",
    "ns_score": "Int8", "ns_rate": "float64", "ew_rate": "float64",
    "ns_matchpoints": "float64", "ew_matchpoints": "float64", "top": "Int64",
    "ns_rate_num": "int64", "ew_rate_num": "int64", "rate_den": "int64",
}
SCORES_DTYPES = {
    **dict.fromkeys(("round", "group", "set", "table"), "int32"),
    **dict.fromkeys(("player", "seat", "direction", "adjusted"), "category"),
    "score": "Int8", "score_rate": "float64", "rate_num": "int64", "rate_den": "int64",
}
STANDINGS_DTYPES = {
    "round": "int64", "player": "str", "sets": "int64", "round_avg": "float64",
    "cumulative": "float64", "rank": "int64", "rank_label": "str", "position": "int64",
}
DTYPES = {"travellers": TRAVELLERS_DTYPES, "scores": SCORES_DTYPES,
          "standings": STANDINGS_DTYPES}
# The columns that may be empty (artificial results have no levels, scores or matchpoints; a
# bye no round average). The others are required in the files' schemas: the Parquet writer
# then encodes no definition level a value, a fifth of the time of writing a file.
OPTIONAL = {
    "travellers": frozenset({"ns_level", "ew_level", "adjusted", "ns_adjusted", "ew_adjusted",
                             "ns_score", "ns_matchpoints", "ew_matchpoints", "top"}),
    "scores": frozenset({"adjusted", "score"}),
    "standings": frozenset({"round_avg"}),
}

# pandas dtype -> (Arrow type, pandas_type and numpy_type of pyarrow's pandas metadata)
_KINDS = {
    "int64": (pa.int64(), "int64", "int64"),
    "int32": (pa.int32(), "int32", "int32"),
    "Int8": (pa.int8(), "int8", "Int8"),
    "Int64": (pa.int64(), "int64", "Int64"),
    "float64": (pa.float64(), "float64", "float64"),
    "str": (pa.large_string(), "object", "str"),
}


def code_type(categories: int) -> pa.DataType:
    """The integer type pandas gives the codes of a categorical of ``categories`` values
    (and so the index type of its Arrow dictionary)."""
    for kind in (pa.int8(), pa.int16(), pa.int32()):
        if categories < 2 ** (kind.bit_width - 1):
            return kind
    return pa.int64()


def coded(codes: np.ndarray, words: pa.Array,
          kind: pa.DataType | None = None) -> pa.DictionaryArray:
    """``words[code]`` as an Arrow dictionary (null where a code is negative), as a pandas
    categorical of distinct ``words`` becomes: large string values, the narrowest codes
    (``kind``, if given, instead: pandas reads any width back as the same categorical)."""
    kind = kind or code_type(len(words))
    indices = to_arrow(codes, codes < 0, kind)
    return pa.DictionaryArray.from_arrays(indices, words.cast(pa.large_string()))


def nullable(values: np.ndarray, missing: np.ndarray, kind: str) -> pa.Array:
    """An integer column with nulls where ``missing`` (a pandas ``Int8``/``Int64`` column)."""
    return to_arrow(values, missing, _KINDS[kind][0])


def floats(values: np.ndarray) -> pa.Array:
    """A float column, NaN as null (as ``from_pandas`` writes a float64 column)."""
    return to_arrow(values, np.isnan(values))


def output_table(name: str, columns: Mapping[str, pa.Array | np.ndarray]) -> pa.Table:
    """Output ``name`` (travellers, scores or standings) from its columns, each cast to its
    declared type (nullable only if ``OPTIONAL``), with the pandas metadata of the frame it
    stands for."""
    dtypes = DTYPES[name]
    arrays = [_typed(columns[column], dtype) for column, dtype in dtypes.items()]
    schema = pa.schema([pa.field(column, array.type, nullable=column in OPTIONAL[name])
                        for column, array in zip(dtypes, arrays, strict=True)])
    table = pa.Table.from_arrays(arrays, schema=schema)
    return table.replace_schema_metadata({b"pandas": _metadata(table, dtypes)})


def empty_table(name: str) -> pa.Table:
    """Output ``name`` with its columns and no rows (an event with no round scored yet)."""
    return output_table(name, {
        column: coded(np.zeros(0, np.int8), pa.nulls(0, pa.large_string()))
        if dtype == "category" else pa.nulls(0, _KINDS[dtype][0])
        for column, dtype in DTYPES[name].items()})


def to_frame(table: pa.Table) -> pd.DataFrame:
    """An output as the frame it stands for. The metadata gives every dtype but one: a
    categorical with no category at all (a block without artificial results) would come back
    with object categories, where the frame had ``str`` ones."""
    import pandas as pd

    frame = table.to_pandas()
    for column, dtype in frame.dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype) and not len(dtype.categories):
            frame[column] = frame[column].cat.set_categories(pd.Index([], dtype="str"))
    return frame


def _typed(values: pa.Array | pa.ChunkedArray | np.ndarray, dtype: str):
    if dtype == "category":
        return values
    kind = _KINDS[dtype][0]
    if isinstance(values, np.ndarray):
        return to_arrow(values, kind=kind)
    return values if values.type == kind else values.cast(kind)


def _metadata(table: pa.Table, dtypes: Mapping[str, str]) -> bytes:
    """pyarrow's ``pandas`` metadata of a frame of ``dtypes`` (see ``construct_metadata`` in
    ``pyarrow.pandas_compat``): the same JSON, key for key."""
    columns = []
    for field in table.schema:
        dtype, metadata = dtypes[field.name], None
        if dtype == "category":
            chunks = table[field.name].chunks
            pandas_type, numpy_type = "categorical", str(field.type.index_type)
            metadata = {"num_categories": len(chunks[0].dictionary) if chunks else 0,
                        "ordered": False}
        else:
            _, pandas_type, numpy_type = _KINDS[dtype]
        columns.append({"name": field.name, "field_name": field.name,
                        "pandas_type": pandas_type, "numpy_type": numpy_type,
                        "metadata": metadata})
    return _json(columns)


def _json(columns: list[dict]) -> bytes:
    return json.dumps({
        "index_columns": [], "column_indexes": [], "columns": columns, "attributes": {},
        "creator": {"library": "pyarrow", "version": pa.__version__},
        "pandas_version": pandas_version(),
    }).encode("utf8")


@cache
def pandas_version() -> str:
    """pandas' version, read from its installed metadata (pandas itself is not imported):
    the ``Version`` of the one ``pandas-*.dist-info`` beside the package, else (another
    layout) ``importlib.metadata``'s, whose import and search of every path took 25-50 ms
    of the start of a run."""
    spec = importlib.util.find_spec("pandas")
    found = [] if spec is None or not spec.origin else list(
        Path(spec.origin).parent.parent.glob("pandas-*.dist-info/METADATA"))
    if len(found) == 1:
        for line in found[0].read_text(encoding="utf-8").splitlines():
            if not line:  # the end of the headers
                break
            if line.startswith("Version:"):
                return line.removeprefix("Version:").strip()
    from importlib.metadata import version

    return version("pandas")

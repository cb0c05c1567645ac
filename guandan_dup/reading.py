"""Reading input files (Parquet, CSV) with an error a director understands, whatever goes wrong.

A missing file, a folder, a truncated or non-Parquet file, a CSV saved in another encoding all
become one ``GuandanError`` (subclass) naming the file and what to do, never a traceback.
"""

from __future__ import annotations

import codecs
import os
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import GuandanError, Problem, ProblemsError


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


def is_utf16(data: bytes) -> bool:
    """Whether ``data`` (a file's first bytes) is UTF-16 text, as Excel's "Unicode Text" and
    some exports save it: a UTF-16 byte-order mark, or a NUL in every other byte (the high
    half of each Latin character), which UTF-8 text never has. Such a file decodes as
    neither UTF-8 nor GBK, and "probably GBK" would send the director the wrong way.

    >>> is_utf16("round,table".encode("utf-16")), is_utf16(b"round,table")
    (True, False)
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    sample = data[:200]
    halves = (sample[0::2], sample[1::2])
    return len(sample) >= 4 and any(half.count(0) >= 0.9 * len(half) for half in halves)


UTF16_REASON = (
    "is UTF-16 text (as Excel's 'Unicode Text' saves it), not UTF-8: save it as 'CSV UTF-8 "
    "(comma delimited)' (Excel) or with the encoding UTF-8 (WPS)"
)
"""What to do about a UTF-16 file, phrased after its name."""


def separator(data: bytes | str) -> str:
    """The CSV separator of a file starting with ``data``: ``;`` when its header line has a
    ``;`` and no ``,`` (Excel writes ``;`` where the decimal mark is a comma: much of Europe,
    Russia, Brazil), else ``,``. Such a header only makes sense split on ``;``.

    >>> separator(b"id;name"), separator("id,name;x"), separator("id")
    (';', ',', ',')
    """
    text = data.decode("utf-8-sig", "replace") if isinstance(data, bytes) else data
    header = text.split("\n", 1)[0]
    return ";" if ";" in header and "," not in header else ","


def _first_bytes(path: str | os.PathLike) -> bytes:
    """The first bytes of a file (its header line, as a rule), or none if it cannot be opened
    (the reader says why)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(65536)
    except OSError:
        return b""


def read_csv(path: str | os.PathLike) -> pd.DataFrame:
    """All cells as stripped text; a file that cannot be read is a ``GuandanError``. The
    separator is ``,``, or ``;`` when the header line says so (:func:`separator`)."""
    first = _first_bytes(path)
    if is_utf16(first):
        raise GuandanError(f"cannot read {str(path)!r}: it {UTF16_REASON}")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig",
                            sep=separator(first))
    except UnicodeDecodeError as e:
        raise GuandanError(
            f"cannot read {str(path)!r} as a UTF-8 CSV file ({e}); it is probably in another "
            "encoding such as GBK: save it again as 'CSV UTF-8' (Excel) or UTF-8"
        ) from None
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise GuandanError(f"cannot read {str(path)!r} as a UTF-8 CSV file: {e}") from None
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    return frame.apply(lambda column: column.str.strip())


def read_csv_with(
    path: str | os.PathLike, columns: Sequence[str], error: type[ProblemsError]
) -> pd.DataFrame:
    """``read_csv``, refusing with ``error`` (one problem per column) a file that lacks any
    of ``columns``: a director's CSV with a misnamed header is told which names it has."""
    frame = read_csv(path)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        found = ", ".join(frame.columns) or "none"
        raise error([Problem(Path(path).name, None, c, None, f"missing column (found: {found})")
                     for c in missing])
    return frame


def text_problem(text: str) -> str | None:
    r"""Why ``text`` cannot stand as an id or a name a director typed, or None: a control
    character (a line break, a NUL: no results file or page could hold it as given), or
    nothing visible (spaces and invisible characters such as U+200B only, an id no one
    could type back).

    >>> text_problem("P001"), text_problem("王 伟")
    (None, None)
    >>> print(text_problem("x" + chr(10) + "y"))
    has a control character ('\n'): ids and names are one line of visible text
    >>> print(text_problem(chr(0x200B)))
    has nothing visible (only spaces or invisible characters)
    """
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        return (f"has a control character ({bad!r}): ids and names are one line of visible "
                "text")
    if not any(unicodedata.category(c)[0] not in "ZC" for c in text):
        return "has nothing visible (only spaces or invisible characters)"
    return None

"""Atomic writes: every file appears whole or not at all.

A director's folder must never hold a half-written Parquet file after a crash or a refused
input, so writers write to a temporary file beside the destination and rename it into place
(``os.replace`` is atomic on one file system). ``staged_writes`` extends that to several files
that must change together: all temporary files are written first and renamed only if every
write succeeded.

A rename replaces whatever the destination is, so a destination that is not a regular file
(a symbolic link, a device such as ``/dev/stdout``, a folder) is refused before anything is
written: replacing it would destroy the link or the device node instead of writing through
it. Commands that print text take ``-`` for standard output instead.
"""

from __future__ import annotations

import os
import stat
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .errors import GuandanError


def check_regular_destination(dest: str | os.PathLike) -> None:
    """Refuse ``dest`` unless it is a regular file or does not exist yet."""
    try:
        mode = os.lstat(dest).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode):
        return
    what = (
        "a symbolic link" if stat.S_ISLNK(mode)
        else "a folder" if stat.S_ISDIR(mode)
        else "a device or special file"
    )
    raise GuandanError(
        f"cannot write to {str(dest)!r}: it is {what}, not a regular file, and writing would "
        "replace it; give the path of a regular file (or - to print, where a command prints)"
    )


def _temp_beside(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.{uuid.uuid4().hex}.tmp")


@contextmanager
def staged_writes() -> Iterator[Callable[[str | os.PathLike], Path]]:
    """Yield ``stage(dest) -> temp_path``; on success rename every temp file onto its dest.

    If the block raises, every temporary file is removed and no destination is touched. If a
    rename fails (say the destination is a folder), the error names the destination and no
    temporary file is left behind.
    """
    staged: list[tuple[Path, Path]] = []

    def stage(dest: str | os.PathLike) -> Path:
        dest = Path(dest)
        check_regular_destination(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = _temp_beside(dest)
        staged.append((tmp, dest))
        return tmp

    try:
        yield stage
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for index, (tmp, dest) in enumerate(staged):
        try:
            os.replace(tmp, dest)
        except OSError as error:
            for left, _ in staged[index:]:
                left.unlink(missing_ok=True)
            raise OSError(error.errno, error.strerror, str(dest)) from error


def write_bytes(dest: str | os.PathLike, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``dest`` atomically; ``mode`` sets permissions before the rename."""
    with staged_writes() as stage:
        tmp = stage(dest)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if mode is None else mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is None:
            os.chmod(tmp, 0o644)


def write_text(dest: str | os.PathLike, text: str) -> None:
    """Write UTF-8 ``text`` to ``dest`` atomically."""
    write_bytes(dest, text.encode("utf-8"))


def write_parquet(dest: str | os.PathLike, table: pa.Table) -> None:
    """Write an Arrow table to ``dest`` atomically (metadata on the table's schema is kept)."""
    with staged_writes() as stage:
        pq.write_table(table, stage(dest))

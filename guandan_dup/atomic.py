"""Atomic writes: every file appears whole or not at all, and stays after a crash.

The one way this package writes a file (STYLE rule 15). A director's folder must never hold
a half-written Parquet file after a crash, a power cut or a refused input, so a file is
written to a hidden temporary file beside its destination (``.NAME.HEX.tmp``: ``temp_beside``),
synced to disk, renamed into place (``os.replace`` is atomic on one file system) and then the
folder holding it is synced, so the rename itself survives a power cut:

- ``write_bytes`` / ``write_text`` / ``write_parquet``: one file, the whole primitive.
- ``staged_writes``: several files that change together, written by any writer (a pyarrow
  ``ParquetWriter`` streaming row groups, say) to the temporary paths it hands out; each is
  synced and renamed only if every write succeeded.

The pieces are public for the two writers that need more than a rename of one file: the
event folder's transaction (``event.transaction``: its journal is a commit point between the
writes and the renames) and the results site (``reports.site.build``: a whole folder swapped
in). They write with ``write_synced`` (a new file, synced), make folders with
``make_folder``, and sync with ``sync_file`` and ``sync_dir``; ``replace_synced`` is a rename
followed by the sync of the destination's folder. A file written a part at a time can have
each part's writing to disk started at once (``start_writeback``), so that its sync at the
end waits for the last part only.

A rename replaces whatever the destination is, so a destination that is not a regular file
(a symbolic link, a device such as ``/dev/stdout``, a folder) is refused before anything is
written: replacing it would destroy the link or the device node instead of writing through
it. Commands that print text take ``-`` for standard output instead.
"""

from __future__ import annotations

import os
import stat
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .errors import GuandanError

FILE_MODE = 0o644
"""The permissions of a written file unless a writer asks for others (a key file: 0600)."""


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


def temp_beside(dest: str | os.PathLike) -> Path:
    """A fresh hidden temporary path beside ``dest``: ``.NAME.HEX.tmp`` (32 hex digits), the
    pattern the event folder's recovery deletes (``event.transaction.TEMP``).

    >>> temp_beside("out/scores.parquet").name.startswith(".scores.parquet.")
    True
    """
    dest = Path(dest)
    return dest.with_name(f".{dest.name}.{uuid.uuid4().hex}.tmp")


def sync_dir(path: str | os.PathLike) -> None:
    """Sync the folder ``path``, so the names renamed or made in it survive a power cut."""
    if os.name == "nt":  # pragma: no cover - Windows cannot open a folder to sync it
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_file(path: str | os.PathLike) -> None:
    """Sync the contents of the file ``path`` written by another writer (pyarrow's)."""
    fd = os.open(path, os.O_RDWR if os.name == "nt" else os.O_RDONLY)  # Windows: writable
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def start_writeback(path: str | os.PathLike) -> None:
    """Have the system start writing the file ``path``'s unwritten pages to disk, without
    waiting for it (Linux's ``posix_fadvise`` ``DONTNEED`` starts the writeback; elsewhere
    this does nothing): a file written a part at a time is then mostly on disk by the time
    it is complete, and ``sync_file`` waits only for the last part."""
    if not hasattr(os, "posix_fadvise"):
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def make_folder(path: str | os.PathLike) -> None:
    """Make the folder ``path`` and any missing parents, each synced into its parent."""
    path = Path(path)
    missing = []
    while not path.is_dir():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)
        sync_dir(folder.parent)


def write_synced(path: str | os.PathLike, data: bytes, mode: int = FILE_MODE,
                 dest: str | os.PathLike | None = None) -> None:
    """Write ``data`` to the new file ``path`` (refused if it exists) and sync it.

    The file has ``mode`` from its creation, set again whatever the umask (a key stays
    0600, the rest 0644). A failure (a full disk) names ``dest``, the file the temporary
    ``path`` was to become (``named``).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)  # Windows: bytes
    try:
        fd = os.open(path, flags, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fd)
        os.chmod(path, mode)
    except OSError as error:
        raise named(error, dest or path) from error


def named(error: OSError, dest: str | os.PathLike) -> OSError:
    """``error`` naming ``dest``: a write that fails (``No space left on device``) often
    names no file, or a temporary one, and the director needs to know which file it was;
    an error naming another file of the director's stays as it is."""
    if error.filename is not None and not Path(error.filename).name.startswith("."):
        return error
    return OSError(error.errno, error.strerror or str(error), str(dest))


def replace_synced(tmp: str | os.PathLike, dest: str | os.PathLike) -> None:
    """Rename ``tmp`` onto ``dest`` and sync the folder holding ``dest``."""
    os.replace(tmp, dest)
    sync_dir(Path(dest).parent)


def move_into_place(renames: Iterable[tuple[Path, Path]]) -> None:
    """Rename each synced temporary file onto its destination, then sync each folder once.

    If a rename fails (say the destination became a folder), the error names the
    destination and the temporary files not yet renamed are removed.
    """
    renames = list(renames)
    for index, (tmp, dest) in enumerate(renames):
        try:
            os.replace(tmp, dest)
        except OSError as error:
            for left, _ in renames[index:]:
                left.unlink(missing_ok=True)
            raise OSError(error.errno, error.strerror, str(dest)) from error
    for folder in dict.fromkeys(dest.parent for _, dest in renames):
        sync_dir(folder)


@contextmanager
def staged_writes() -> Iterator[Callable[..., Path]]:
    """Yield ``stage(dest, synced=False) -> temp_path``; on success sync every temp file and
    rename it onto its dest, then sync their folders.

    ``stage`` refuses a ``dest`` that is not a regular file (``check_regular_destination``)
    and makes its folder. ``synced=True`` is the writer's promise to sync the file itself
    (``sync_file``) before the block ends, when it can do so beside other work. If the block
    raises, every temporary file is removed and no destination is touched. If a rename fails
    (say the destination is a folder), the error names the destination and no temporary file
    is left behind.
    """
    staged: list[tuple[Path, Path]] = []
    unsynced: list[Path] = []

    def stage(dest: str | os.PathLike, synced: bool = False) -> Path:
        dest = Path(dest)
        check_regular_destination(dest)
        make_folder(dest.parent)
        tmp = temp_beside(dest)
        staged.append((tmp, dest))
        if not synced:
            unsynced.append(tmp)
        return tmp

    try:
        yield stage
        for tmp in unsynced:
            sync_file(tmp)
    except OSError as error:  # a writer's failure names the file it was writing: the last
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise (named(error, staged[-1][1]) if staged else error) from error
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    move_into_place(staged)


def write_bytes(dest: str | os.PathLike, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``dest`` atomically and durably: a temporary file beside it, synced,
    renamed into place, its folder synced. ``mode`` (default 0644) is the file's from the
    start: a private file is never readable by others, not even as a temporary file."""
    dest = Path(dest)
    check_regular_destination(dest)
    make_folder(dest.parent)
    tmp = temp_beside(dest)
    try:
        write_synced(tmp, data, FILE_MODE if mode is None else mode, dest)
        move_into_place([(tmp, dest)])
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(dest: str | os.PathLike, text: str) -> None:
    """Write UTF-8 ``text`` to ``dest`` atomically (``write_bytes``)."""
    write_bytes(dest, text.encode("utf-8"))


def write_parquet(dest: str | os.PathLike, table: pa.Table) -> None:
    """Write an Arrow table to ``dest`` atomically (metadata on the table's schema is kept)."""
    with staged_writes() as stage:
        pq.write_table(table, stage(dest))

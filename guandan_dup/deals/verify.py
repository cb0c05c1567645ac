"""Verification: recompute every board of a board-set file from the revealed key.

After the event the director reveals the key; anyone can then check that the key matches the
commitment published before the event and that each board in the file is exactly the board
the key deals (cards, set numbering and leader). A single differing board means the file was
not produced from this key, or was altered afterwards.

>>> from .boardset import make_board_set
>>> table = make_board_set(bytes(32), [1, 2, 3])
>>> verify(bytes(32), table).summary()
'all 3 boards match the key, and the key matches the commitment 9dbb17bf078a08f2...'
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from .boardset import BoardSetError, BoardSetInfo, hands_of, load, make_board_set
from .generate import ALGORITHM
from .keys import commitment


@dataclass(frozen=True)
class Verification:
    """The outcome of ``verify``: which boards differ and whether the commitment holds."""

    boards: int
    differing: tuple[int, ...]
    published_commitment: str
    commitment_matches: bool
    replaced_delayed: tuple[str, str] | None = None
    """(the file's delayed value, the one used instead) when ``verify`` was given another."""
    published_elsewhere: tuple[str, str, bool] | None = None
    """(where, commitment, whether the key matches it) for a commitment published apart from
    the file: given by the verifier, or the event.toml of the event folder holding the file."""

    @property
    def ok(self) -> bool:
        """The key is the committed one and deals every board of the file."""
        elsewhere = self.published_elsewhere is None or self.published_elsewhere[2]
        return self.commitment_matches and elsewhere and not self.differing

    def summary(self) -> str:
        """One line per finding, for a director to read."""
        short = self.published_commitment[:16] + "..."
        lines = []
        if self.replaced_delayed is not None:
            stored, used = self.replaced_delayed
            lines.append(f"using the delayed value {used!r} instead of the file's {stored!r}")
        if not self.commitment_matches:
            lines.append(f"the key does NOT match the commitment {short} in the file")
        if self.published_elsewhere is not None and not self.published_elsewhere[2]:
            where, published, _ = self.published_elsewhere
            lines.append(f"the key does NOT match the commitment {published[:16]}... in {where}")
        if self.differing:
            listed = ", ".join(str(board) for board in self.differing)
            lines.append(f"{len(self.differing)} of {self.boards} boards differ: {listed}")
        if self.ok:
            lines.append(
                f"all {self.boards} boards match the key, "
                f"and the key matches the commitment {short}"
            )
        return "\n".join(lines)


def verify(
    key: bytes,
    table: pa.Table,
    delayed: str | None = None,
    show_progress: bool = False,
    file: str = "the board set",
) -> Verification:
    """Recompute ``table``'s boards from ``key``; ``delayed`` overrides the file's value.

    ``file`` names the table in error messages. A table without boards is refused: it
    would match any key.
    """
    info = BoardSetInfo.from_table(table, file)
    if table.num_rows == 0:
        raise BoardSetError(f"{file} holds no boards, so there is nothing to verify")
    if info.algorithm != ALGORITHM:
        raise BoardSetError(
            f"{file} was dealt with algorithm {info.algorithm!r}; this version of "
            f"guandan-dup verifies {ALGORITHM!r}"
        )
    used = info.delayed if delayed is None else delayed
    expected = make_board_set(
        key, table.column("board").to_numpy(), info.boards_per_set, used, info.first_leader,
        show_progress,
    )
    differs = (hands_of(table) != hands_of(expected)).any(axis=(1, 2))
    for column in ("set", "set_board", "leader"):
        differs |= np.asarray(
            table.column(column).to_numpy(zero_copy_only=False)
            != expected.column(column).to_numpy(zero_copy_only=False)
        )
    return Verification(
        boards=table.num_rows,
        differing=tuple(np.sort(table.column("board").to_numpy()[differs]).tolist()),
        published_commitment=info.commitment,
        commitment_matches=info.commitment == commitment(key),
        replaced_delayed=None if used == info.delayed else (info.delayed, used),
    )


def event_commitment(path: str | os.PathLike) -> tuple[str, str] | None:
    """(event.toml's path, its commitment) when ``path`` lies in an event folder
    (``DIR/rounds/R/boards.parquet``), else None."""
    for folder in list(Path(path).resolve().parents)[:3]:
        toml = folder / "event.toml"
        if toml.is_file():
            try:
                published = tomllib.loads(toml.read_text(encoding="utf-8")).get("commitment")
            except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
                return None
            return (repr(str(toml)), published) if isinstance(published, str) else None
    return None


def verify_file(
    path: str | os.PathLike,
    key: bytes,
    delayed: str | None = None,
    show_progress: bool = False,
    published: str | None = None,
) -> Verification:
    """``verify`` the board-set Parquet file at ``path``.

    The key is also checked against ``published`` (the commitment announced before the
    event) or, by default, against the event.toml of the event folder the file lies in: the
    file's own commitment only says which key dealt it, not that it is the committed one.
    """
    result = verify(key, load(path), delayed, show_progress, file=f"board set file {str(path)!r}")
    elsewhere = ("the given commitment", published) if published else event_commitment(path)
    if elsewhere is None:
        return result
    where, value = elsewhere
    return replace(
        result, published_elsewhere=(where, value, value.lower() == commitment(key))
    )

"""Event keys: 256 secret bits that fix every board, and the commitment published beforehand.

Before the event the director publishes the commitment, a SHA-256 hash of the key; after it,
the key itself, so anyone can check that the boards were fixed in advance and regenerate
them. The key is therefore never printed or logged, and its file is owner-only (0600).

>>> commitment(bytes(range(32)))[:16]
'18b38b70fc6ffa27'
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
import warnings
from pathlib import Path

from ..atomic import write_bytes
from ..errors import KeyFileError
from .generate import KEY_BYTES

COMMITMENT_LABEL = b"guandan-dup/commitment/v1"
"""Domain label hashed before the key, so the commitment is no other use's hash of the key."""
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


class KeyPermissionWarning(UserWarning):
    """A key file that other users can read: the boards are no longer secret."""


def new_key() -> bytes:
    """32 bytes from the operating system's secure random source."""
    return secrets.token_bytes(KEY_BYTES)


def commitment(key: bytes) -> str:
    """The hex SHA-256 of ``COMMITMENT_LABEL + key``: publish it before the event."""
    return hashlib.sha256(COMMITMENT_LABEL + key).hexdigest()


def write_key(path: str | os.PathLike, key: bytes, force: bool = False) -> None:
    """Write ``key`` as 64 hex digits and a newline, atomically, mode 0600.

    Raises ``KeyFileError`` if the file exists and ``force`` is false: replacing a key whose
    commitment was published would make the published boards unverifiable.
    """
    path = Path(path)
    if len(key) != KEY_BYTES:
        raise KeyFileError(f"an event key is {KEY_BYTES} bytes; got {len(key)}")
    if path.is_dir():
        raise KeyFileError(f"cannot write the key to {str(path)!r}: it is a folder")
    if path.exists() and not force:
        raise KeyFileError(
            f"key file {str(path)!r} already exists; refusing to replace it "
            "(use --force if its commitment was never published)"
        )
    write_bytes(path, key.hex().encode("ascii") + b"\n", mode=0o600)


def create_key(path: str | os.PathLike, force: bool = False) -> str:
    """Make a new key, write it to ``path`` (see ``write_key``) and return its commitment."""
    key = new_key()
    write_key(path, key, force=force)
    return commitment(key)


def read_key(path: str | os.PathLike) -> bytes:
    """Read a key file written by ``write_key``.

    Raises ``KeyFileError`` if the file is missing, unreadable or not 64 hex digits (the
    message never quotes the content). Warns with ``KeyPermissionWarning`` if group or others
    may read it, but still returns the key: the director may be checking an old event.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise KeyFileError(f"key file {str(path)!r} does not exist") from None
    except OSError as error:
        raise KeyFileError(f"cannot read key file {str(path)!r}: {error.strerror}") from None
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        warnings.warn(
            f"key file {str(path)!r} is readable by others; chmod 600 it while the key is "
            "secret (a key revealed after the event needs no protection)",
            KeyPermissionWarning,
            stacklevel=2,
        )
    text = raw.decode("ascii", errors="replace").strip()
    if len(text) != 2 * KEY_BYTES or not set(text) <= _HEX_DIGITS:
        raise KeyFileError(
            f"key file {str(path)!r} is malformed: expected {2 * KEY_BYTES} hexadecimal "
            f"digits (a {8 * KEY_BYTES}-bit key) on one line, found {len(text)} characters"
        )
    return bytes.fromhex(text)

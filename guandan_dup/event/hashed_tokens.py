"""Tokens kept as hashes only (issue 24): the platforms' and the venue directors' tokens.

A token is 32 random bytes (43 urlsafe characters), printed once to the director and never
stored: an owner-only JSON file of the folder, written through the folder's transaction
like ``director.token``, keeps its SHA-256 only, so a copy of the folder (a backup, the
exports) gives nobody a way in. The token has 256 bits of entropy, so a plain hash needs no
salt or key stretching, and it does not depend on the folder's secret (which ``event
init`` makes and nothing replaces). Each file is ``{"NAME": {"sha256": HEX, "created":
ISO-TIME}}``; a ``TokenFile`` is one such file (``live/platforms.json``,
``live/venue-directors.json``), and this module is the one implementation both use.

Making a token for a name that has one replaces it (the old token stops working);
revoking removes it.

>>> len(token_hash("abc"))
64
>>> holder_of({"a": token_hash("t1"), "b": token_hash("t2")}, "t2")
'b'
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import GuandanError
from ..wording import pasteable
from .folder import EventFolder
from .transaction import writing

TOKEN_BYTES = 32


@dataclass(frozen=True)
class IssuedToken:
    """What making a token did: the name, its new token, and whether it replaced an earlier
    one."""

    name: str
    token: str
    replaced: bool


def token_hash(token: str) -> str:
    """The SHA-256 of a token, hex: what a token file keeps."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def holder_of(hashes: dict[str, str], token: str) -> str | None:
    """The name whose hash is ``token``'s, compared in constant time, or ``None``."""
    if not token:
        return None
    presented = token_hash(token).encode("ascii")
    found = None
    for name, digest in hashes.items():
        if hmac.compare_digest(presented, digest.encode("ascii", "replace")):
            found = name
    return found


@dataclass(frozen=True)
class TokenFile:
    """One file of hashed tokens by name: where it is, what a name is (``"platform"``,
    ``"venue"``: the words of its messages), how the director makes one (the option the
    messages name) and the rule a name must pass (``check``, raising ``GuandanError``)."""

    file: str
    what: str
    option: str
    check: Callable[[str], str]

    def hashes(self, path: str | os.PathLike) -> dict[str, str]:
        """Name -> token hash of every name with a token (none before the first)."""
        file = Path(path) / self.file
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            return {self.check(name): str(entry["sha256"]) for name, entry in data.items()}
        except FileNotFoundError:
            return {}
        except (ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError):
            raise GuandanError(
                f"{str(file)!r} is damaged (expected {{\"NAME\": {{\"sha256\": ...}}}}): make "
                f"the tokens again with `guandan-dup event tokens {pasteable(path)} "
                f"{self.option}`, one for each"
            ) from None

    def _entries(self, folder: EventFolder) -> dict:
        file = folder.path / self.file
        self.hashes(folder.path)  # a damaged file is refused before it is rewritten
        return json.loads(file.read_text(encoding="utf-8")) if file.exists() else {}

    def _write(self, folder: EventFolder, entries: dict) -> None:
        text = json.dumps(dict(sorted(entries.items())), indent=1, ensure_ascii=False)
        folder.replace_files({folder.path / self.file: (text + "\n").encode("utf-8")})

    def make(self, path: str | os.PathLike, name: str, command: str,
             allowed: Callable[[EventFolder, str], None] | None = None,
             now: datetime | None = None) -> IssuedToken:
        """A new token for ``name``, its hash saved (replacing the name's old one), under
        the folder's write lock as ``command``; ``allowed(folder, name)`` may refuse it
        first (a venue the event does not have)."""
        self.check(name)
        with writing(path, command) as folder:
            if allowed is not None:
                allowed(folder, name)
            entries = self._entries(folder)
            token = secrets.token_urlsafe(TOKEN_BYTES)
            created = (now or datetime.now(UTC)).isoformat(timespec="seconds")
            replaced = name in entries
            entries[name] = {"sha256": token_hash(token), "created": created}
            self._write(folder, entries)
        return IssuedToken(name, token, replaced)

    def revoke(self, path: str | os.PathLike, name: str, command: str) -> None:
        """Remove ``name``'s token: it stops working (a running server sees it within half
        a second). Refused for a name that has no token."""
        self.check(name)
        with writing(path, command) as folder:
            entries = self._entries(folder)
            if name not in entries:
                known = ", ".join(sorted(entries)) or "none yet"
                raise GuandanError(f"no {self.what} {name!r} has a token ({self.what}s "
                                   f"with tokens: {known}); nothing was revoked")
            del entries[name]
            self._write(folder, entries)

"""Platforms' tokens (issue 24): an online platform that deals and plays calls the API with
a token of its own, made by ``event tokens DIR --platform NAME``.

A platform's token is 32 random bytes (43 urlsafe characters), printed once to the director
and never stored: ``live/platforms.json`` (owner-only, written through the folder's
transaction like ``director.token``) keeps its SHA-256 only, so a copy of the folder (a
backup, the exports) gives nobody a way in. The token has 256 bits of entropy, so a plain
hash needs no salt or key stretching, and it does not depend on the folder's secret (which
``event init`` makes and nothing replaces). The file:
``{"NAME": {"sha256": HEX, "created": ISO-TIME}}``.

A name is a short identifier (``NAME_RULE``): it appears in the release log and in
``event status``, and a platform's engineers type it. Making a token for a name that has
one replaces it (the old token stops working); ``revoke_platform`` removes it.

>>> check_name("tencent-games")
'tencent-games'
>>> len(token_hash("abc"))
64
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import GuandanError
from .folder import PLATFORMS, EventFolder
from .transaction import writing

NAME_RULE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A platform's name: 1-32 lower-case letters, digits, ``-`` and ``_``, starting with a
letter or digit."""
TOKEN_BYTES = 32


class PlatformNameError(GuandanError):
    """A platform name that is not a short identifier."""


@dataclass(frozen=True)
class PlatformToken:
    """What ``event tokens --platform`` made: the name, its new token, and whether it
    replaced an earlier one."""

    name: str
    token: str
    replaced: bool


def check_name(name: str) -> str:
    """``name`` if it is a short identifier (``NAME_RULE``), else ``PlatformNameError``."""
    if not isinstance(name, str) or not NAME_RULE.fullmatch(name):
        raise PlatformNameError(
            f"platform name {name!r}: expected a short identifier, 1-32 lower-case letters, "
            "digits, - and _, starting with a letter or digit (for example 'tencent' or "
            "'qq-games')"
        )
    return name


def token_hash(token: str) -> str:
    """The SHA-256 of a token, hex: what ``live/platforms.json`` keeps."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def platform_hashes(path: str | os.PathLike) -> dict[str, str]:
    """Name -> token hash of every platform of the folder (none before the first)."""
    file = Path(path) / PLATFORMS
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return {check_name(name): str(entry["sha256"]) for name, entry in data.items()}
    except FileNotFoundError:
        return {}
    except (ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError):
        raise GuandanError(
            f"{str(file)!r} is damaged (expected {{\"NAME\": {{\"sha256\": ...}}}}): make "
            "the platforms' tokens again with `guandan-dup event tokens DIR --platform NAME`"
        ) from None


def platform_of(hashes: dict[str, str], token: str) -> str | None:
    """The platform whose hash is ``token``'s, compared in constant time, or ``None``."""
    if not token:
        return None
    presented = token_hash(token).encode("ascii")
    found = None
    for name, digest in hashes.items():
        if hmac.compare_digest(presented, digest.encode("ascii", "replace")):
            found = name
    return found


def _entries(folder: EventFolder) -> dict:
    file = folder.path / PLATFORMS
    platform_hashes(folder.path)  # a damaged file is refused before it is rewritten
    return json.loads(file.read_text(encoding="utf-8")) if file.exists() else {}


def _write(folder: EventFolder, entries: dict) -> None:
    text = json.dumps(dict(sorted(entries.items())), indent=1)
    folder.replace_files({folder.path / PLATFORMS: (text + "\n").encode("utf-8")})


def make_platform_token(path: str | os.PathLike, name: str,
                        now: datetime | None = None) -> PlatformToken:
    """A new token for platform ``name``, its hash saved (replacing the name's old one)."""
    check_name(name)
    with writing(path, "event tokens --platform") as folder:
        entries = _entries(folder)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        created = (now or datetime.now(UTC)).isoformat(timespec="seconds")
        replaced = name in entries
        entries[name] = {"sha256": token_hash(token), "created": created}
        _write(folder, entries)
    return PlatformToken(name, token, replaced)


def revoke_platform(path: str | os.PathLike, name: str) -> None:
    """Remove platform ``name``'s token: it stops working (a running server sees it within
    half a second). Refused for a name that has no token."""
    check_name(name)
    with writing(path, "event tokens --revoke-platform") as folder:
        entries = _entries(folder)
        if name not in entries:
            known = ", ".join(sorted(entries)) or "none yet"
            raise GuandanError(f"no platform {name!r} has a token (platforms: {known}); "
                               "nothing was revoked")
        del entries[name]
        _write(folder, entries)

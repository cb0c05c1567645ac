"""Platforms' tokens (issue 24): an online platform that deals and plays calls the API with
a token of its own, made by ``event tokens DIR --platform NAME``.

The token is kept as a hash only, in ``live/platforms.json`` (owner-only):
``event.hashed_tokens`` says how, and is shared with the venue directors' tokens
(``event.venue_tokens``).

A name is a short identifier (``NAME_RULE``): it appears in the release log and in
``event status``, and a platform's engineers type it. Making a token for a name that has
one replaces it (the old token stops working); ``revoke_platform`` removes it.

>>> check_name("tencent-games")
'tencent-games'
>>> len(token_hash("abc"))
64
"""

from __future__ import annotations

import os
import re
from datetime import datetime

from ..errors import GuandanError
from .folder import PLATFORMS
from .hashed_tokens import IssuedToken, TokenFile, holder_of, token_hash

__all__ = ["NAME_RULE", "PlatformNameError", "PlatformToken", "check_name", "make_platform_token",
           "platform_hashes", "platform_of", "revoke_platform", "token_hash"]

NAME_RULE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A platform's name: 1-32 lower-case letters, digits, ``-`` and ``_``, starting with a
letter or digit."""

PlatformToken = IssuedToken
"""What ``event tokens --platform`` made: the name, its new token, whether it replaced one."""


class PlatformNameError(GuandanError):
    """A platform name that is not a short identifier."""


def check_name(name: str) -> str:
    """``name`` if it is a short identifier (``NAME_RULE``), else ``PlatformNameError``."""
    if not isinstance(name, str) or not NAME_RULE.fullmatch(name):
        raise PlatformNameError(
            f"platform name {name!r}: expected a short identifier, 1-32 lower-case letters, "
            "digits, - and _, starting with a letter or digit (for example 'tencent' or "
            "'qq-games')"
        )
    return name


TOKENS = TokenFile(PLATFORMS, "platform", "--platform NAME", check_name)
"""The platforms' token file."""


def platform_hashes(path: str | os.PathLike) -> dict[str, str]:
    """Name -> token hash of every platform of the folder (none before the first)."""
    return TOKENS.hashes(path)


def platform_of(hashes: dict[str, str], token: str) -> str | None:
    """The platform whose hash is ``token``'s, compared in constant time, or ``None``."""
    return holder_of(hashes, token)


def make_platform_token(path: str | os.PathLike, name: str,
                        now: datetime | None = None) -> PlatformToken:
    """A new token for platform ``name``, its hash saved (replacing the name's old one)."""
    return TOKENS.make(path, name, "event tokens --platform", now=now)


def revoke_platform(path: str | os.PathLike, name: str) -> None:
    """Remove platform ``name``'s token: it stops working (a running server sees it within
    half a second). Refused for a name that has no token."""
    TOKENS.revoke(path, name, "event tokens --revoke-platform")

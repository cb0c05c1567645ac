"""JSON at the server's speed: ``orjson`` where it writes what ``json`` writes, ``json`` else.

A platform's batch is a thousand results: its body read, its record written into the
journal, each item's canonical text (``canonical``: the same result sent again is the same
text), its answer. With the standard library's ``json`` these were a fifth of the server's
time a result; ``orjson`` does them in a tenth of the time. What ``orjson`` refuses or
reads otherwise (a whole number beyond 64 bits, which it reads as a float or refuses, a
lone surrogate, JSON's extensions ``NaN`` and ``Infinity``) goes to ``json``, so nothing
is read or written differently: for text, whole numbers, true/false/null, lists and
objects both write the same bytes (a test holds them equal). A non-finite float is the one
value they write differently (``orjson``: null); the server's records and the items it
accepts hold none.
"""

from __future__ import annotations

import json
import re

import orjson

_LONG_NUMBER = re.compile(rb"\d{19}")
"""Digits enough for a number beyond 64 bits (or text holding them): read by ``json``."""


def dumps(value) -> bytes:
    """``value`` as compact JSON (UTF-8), as ``json.dumps(..., ensure_ascii=False,
    separators=(",", ":"))`` writes it."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
            "utf-8", "surrogatepass")


def loads(text: bytes | str):
    """The value of the JSON ``text``; ``ValueError`` (or ``UnicodeDecodeError``) as
    ``json.loads`` raises it when it is not JSON."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if _LONG_NUMBER.search(raw):
        return json.loads(text)  # orjson reads a whole number below -2**63 as a float
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)  # what orjson does not read (NaN, huge numbers), or why not


def canonical(value) -> str:
    """``value`` as comparable text: keys sorted, compact, as ``json.dumps(...,
    sort_keys=True, ensure_ascii=False, separators=(",", ":"))`` writes it (the bodies
    journals hold were written so)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

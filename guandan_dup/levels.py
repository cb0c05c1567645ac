"""Levels 2..A and A+ (过A) as indices 0..13, with their text form.

>>> level_from_text("10"), level_from_text("A+"), level_to_text(12)
(8, 13, 'A')
"""

from __future__ import annotations

from .errors import NotationError

LEVEL_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "A+")
LEVEL_A = 12
LEVEL_PASSED_A = 13

_LOOKUP = {name: index for index, name in enumerate(LEVEL_NAMES)}
_LOOKUP["T"] = _LOOKUP["10"]


def level_from_text(text: str) -> int:
    """Level index 0..13 of ``"2"``..``"A"``, ``"A+"``; ``NotationError`` names a bad one."""
    index = _LOOKUP.get(str(text).strip().upper())
    if index is None:
        raise NotationError(f"unknown level {text!r}: expected one of {', '.join(LEVEL_NAMES)}")
    return index


def level_to_text(index: int) -> str:
    if not 0 <= index < len(LEVEL_NAMES):
        raise NotationError(f"level index {index!r} is not in 0..13")
    return LEVEL_NAMES[index]

"""Where a side of a knockout match comes from, with its text form: ``"entry 3"`` (the third
of the entry order), ``"winner 1.2"`` / ``"loser 1.2"`` (of round 1's match 2).

The text is what the bracket's ``from_a`` / ``from_b`` columns, the export and the results
site show for a match still to come.

>>> Source.from_text("winner 1.2")
Source(kind='winner', position=0, round=1, match=2)
>>> Source("entry", 3).to_text(), Source("loser", round=2, match=1).to_text()
('entry 3', 'loser 2.1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError

SOURCE_KINDS = ("entry", "winner", "loser")
"""An entry of the entry order, the winner or the loser of an earlier match."""
_TEXT = re.compile(r"(entry) ([1-9][0-9]*)|(winner|loser) ([1-9][0-9]*)\.([1-9][0-9]*)")


@dataclass(frozen=True)
class Source:
    """An entry (``position``: 1-based in the entry order), or the winner or loser of round
    ``round``'s match ``match`` (its number in that round, as in the bracket files).

    Raises ``NotationError`` for an unknown kind or numbers that do not fit it.
    """

    kind: str
    position: int = 0
    round: int = 0
    match: int = 0

    def __post_init__(self) -> None:
        entry = self.kind == "entry"
        fits = (self.position >= 1 and self.round == self.match == 0 if entry
                else self.position == 0 and self.round >= 1 and self.match >= 1)
        if self.kind not in SOURCE_KINDS or not fits:
            raise NotationError(f"bad knockout source {self!r}: expected an entry position "
                                f">= 1, or a winner or loser of a round >= 1 and match >= 1")

    @property
    def is_entry(self) -> bool:
        return self.kind == "entry"

    @classmethod
    def from_text(cls, text: str) -> Source:
        """Parse ``"entry N"``, ``"winner R.M"`` or ``"loser R.M"`` (exactly as
        ``to_text`` writes them); ``NotationError`` names a bad one."""
        found = _TEXT.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise NotationError(f"bad knockout source {text!r}: expected 'entry N', "
                                f"'winner R.M' or 'loser R.M' (round R's match M)")
        entry, position, kind, round_no, match = found.groups()
        if entry:
            return cls("entry", int(position))
        return cls(kind, round=int(round_no), match=int(match))

    def to_text(self) -> str:
        if self.is_entry:
            return f"entry {self.position}"
        return f"{self.kind} {self.round}.{self.match}"

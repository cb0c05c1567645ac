"""Whether one play may follow another (seed 000 art. 4.2 and 8.1.1).

Bombs beat every plain combination and each other by tier: joker bomb > bombs of six or
more cards (more cards first, then rank) > straight flush > five-card bomb > four-card bomb.
A plain combination beats only a combination of its own type (so of the same length) and
a lower rank.

>>> from guandan_dup.cards import parse_cards
>>> play_beats(parse_cards("S9 D9"), parse_cards("S8 C8"), level=0)
True
>>> play_beats(parse_cards("S9 D9"), parse_cards("S8 C8 D8"), level=0)
False
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import format_cards
from ..errors import IllegalPlayError
from .combos import Combo, classify, power


def beats(play: Combo, previous: Combo, level: int) -> bool:
    """Whether ``play`` may follow ``previous`` at ``level`` (both readings, art. 4.2)."""
    stronger = power(play, level) > power(previous, level)
    if play.is_bomb:
        return stronger
    return stronger and play.type == previous.type


def strongest(cards: Iterable[int], level: int, role: str = "play") -> Combo:
    """The strongest reading of a play, the one a follower must beat.

    Cards readable as several plain types (only with wild cards: S3 C3 S4 C4 and two wild
    cards are a tube 3-4-5, a tube 2-3-4 or a plate 333-444) count as their highest-ranked
    reading. Raises ``IllegalPlayError`` (naming the ``role`` of the cards) when the cards
    form no combination.
    """
    cards = list(cards)
    readings = classify(cards, level)
    if not readings:
        shown = format_cards(cards)
        raise IllegalPlayError(f"the {role} {shown!r} is not a combination (seed 000 art. 3)")
    return readings[0]


def play_beats(cards: Iterable[int], previous_cards: Iterable[int], level: int) -> bool:
    """Whether some reading of ``cards`` beats the strongest reading of ``previous_cards``.

    A play that forms no combination beats nothing; a previous play that forms none is an
    ``IllegalPlayError``.
    """
    previous = strongest(previous_cards, level, role="previous play")
    return any(beats(reading, previous, level) for reading in classify(cards, level))

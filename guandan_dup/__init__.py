"""guandan-dup: software for duplicate (复式) Guandan tournaments.

The package is layered so a reader knows from a path what lives there: ``cards``, ``seats``
and ``levels`` are the game's small value types; ``rules`` the game itself; ``deals`` board
sets; ``results`` and ``scoring`` ingestion and score rates; ``movement`` reseating; ``event``
the event folder that composes them; ``reports`` what people read; ``cli`` a thin typer layer.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("guandan-dup")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

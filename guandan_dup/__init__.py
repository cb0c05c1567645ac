"""guandan-dup: software for duplicate (复式) Guandan tournaments.

The package is layered so a reader knows from a path what lives there: ``cards``, ``seats``
and ``levels`` are the game's small value types; ``rules`` the game itself; ``deals`` board
sets; ``results`` and ``scoring`` ingestion and score rates; ``movement`` reseating; ``event``
the event folder that composes them; ``reports`` what people read; ``cli`` a thin typer layer.
"""

import os

# numpy asks Linux for transparent huge pages on every large array; first-touching them costs
# more than it saves for short-lived columns of a few hundred MB (scoring 500,000 table results
# ran 18% faster without). Only a default: a user's own setting wins, and it takes effect only
# when numpy has not been imported before this package.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata on first use: reading it
    costs more start-up than most commands spend on their own work (PEP 562)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("guandan-dup")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0"

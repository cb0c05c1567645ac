"""The choices scoring offers, in a module that imports nothing, so the command line can show
them without loading numpy and pandas."""

COMPARE_WITHIN = ("event", "group")
"""Compare a set's results across the event, or within each group (组)."""
ENGINES = ("local", "dask")
"""Where ``score`` runs: this process, a round at a time; or a Dask cluster (``dask``)."""

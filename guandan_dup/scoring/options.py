"""The choices scoring offers, in a module that imports nothing, so the command line can show
them without loading numpy and pandas."""

FILE_COMPARE_WITHIN = ("event", "group")
"""What ``guandan-dup score`` compares a set's results within: the event, or each group (组)."""
COMPARE_WITHIN = (*FILE_COMPARE_WITHIN, "venue")
"""Also, in an event folder with venues (issue 24), each venue: the sets then carry a
``venue`` number per table."""
ENGINES = ("local", "dask")
"""Where ``score`` runs: this process, a round at a time; or a Dask cluster (``dask``)."""

"""Progress bars for long work: off by default in the library, on by default in the CLI.

Library functions take ``show_progress: bool = False`` and report through ``progress``; the
CLI turns it on unless ``--quiet``. Bars go to stderr so they never mix with printed output.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress(
    total: int | None, description: str, enabled: bool = False
) -> Iterator[Callable[..., None]]:
    """Yield ``advance(n=1)``; draws a transient bar on stderr when ``enabled``."""
    if not enabled:
        yield lambda n=1: None
        return
    from rich.console import Console  # only when a bar is drawn: 40 ms of imports
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)

"""Write the results site: render every page of the data given, swap the site in.

The whole site is written into a fresh temporary folder beside the destination and only then
renamed into place, so a failed build (a bad file in the event folder, a full disk) leaves
the previously published site exactly as it was. Every file and folder of it is synced to
disk before the swap, and the folder holding it after (with the pieces of
:mod:`guandan_dup.atomic`, the package's one way to write), so a power cut too leaves the old
site or the whole new one. The swap itself is one atomic exchange of the two folders
(Linux's ``renameat2(RENAME_EXCHANGE)``), so a build killed at any instant leaves the old site
or the new one at ``out``, never no site; where the system cannot exchange, two renames are
the fallback and the next build puts back a site a kill between them set aside. What a
killed build leaves beside the site is removed by the next build. A marker file identifies
folders this function built; any other non-empty folder is refused rather than replaced, so
a mistyped ``--out`` can never delete a director's files.
"""

from __future__ import annotations

import ctypes
import errno
import math
import os
import re
import shutil
import uuid
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from ...atomic import make_folder, replace_synced, sync_dir, write_synced
from ...errors import GuandanError
from ...progress import progress
from ..tables import percent
from .data import SiteData, with_known_players
from .labels import labels_for
from .pages import HREFS, Page, boards_href, page_count, site_pages
from .stages import stage_views

MARKER = ".guandan-dup-site"
STATIC = ("site.css", "site.js")
KEY_FILE = "event.key"


def pct(rate) -> str:
    """A score rate as a percentage with two decimals, rounded as the ranking tables round it
    (``reports.tables.percent``: half up); a dash when there is none.

    >>> pct(0.5), pct(2 / 3), pct(1 / 32), pct(None)
    ('50.00%', '66.67%', '3.13%', '–')
    """
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "–"
    return f"{percent(rate):.2f}%"


def movement(places) -> str:
    """Places gained (▲) or lost (▼) since the previous round; blank in round 1.

    >>> movement(3), movement(-1), movement(0), movement(None)
    ('▲3', '▼1', '–', '')
    """
    if places is None:
        return ""
    if places == 0:
        return "–"
    return f"▲{places}" if places > 0 else f"▼{-places}"


def environment(lang: str) -> Environment:
    """The Jinja environment: autoescaped, strict about undefined names, labels of ``lang``."""
    env = Environment(
        loader=PackageLoader("guandan_dup.reports.site", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["pct"] = pct
    env.filters["movement"] = movement
    env.globals.update(HREFS, L=labels_for(lang))
    return env


def check_target(out: Path) -> None:
    """Refuse a destination whose replacement would destroy something that is not a site
    (where it may stand in an event folder, the event side decides: ``event.publish``)."""
    if out.exists() and not out.is_dir():
        raise GuandanError(f"site folder {str(out)!r} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise GuandanError(
            f"refusing to replace {str(out)!r}: it is not empty and was not built by "
            "`guandan-dup event site`; choose an empty or new folder for --out"
        )


def clean_leftovers(target: Path) -> None:
    """Remove the ``.NAME.new-HEX`` and ``.NAME.old-HEX`` folders a killed build left beside
    the site folder ``target`` (a half-built site, or the previous one set aside for the
    swap); the pattern is this module's own, so nothing else is touched. The build that
    follows writes the whole site again. Where only the fallback swap could run and a kill
    fell between its two renames, ``target`` is missing and the one ``.old`` folder is the
    published site: it is put back first (``_restore``), so it is never lost."""
    leftover = re.compile(rf"^\.{re.escape(target.name)}\.(new|old)-[0-9a-f]{{32}}$")
    with os.scandir(target.parent) as entries:
        names = [
            e.name for e in entries
            if leftover.match(e.name) and e.is_dir(follow_symlinks=False)
        ]
    names = _restore(target, names)
    for name in names:
        shutil.rmtree(target.parent / name, ignore_errors=True)


def _restore(target: Path, names: list[str]) -> list[str]:
    """Put the one set-aside ``.old`` site back at a missing ``target``; the leftover names
    still to remove. With none, or several (which one was published cannot be told), the
    target is left as it is."""
    old = [name for name in names if ".old-" in name]
    if os.path.lexists(target) or len(old) != 1:
        return names
    replace_synced(target.parent / old[0], target)
    return [name for name in names if name != old[0]]


_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100
_CANNOT_EXCHANGE = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}


def exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``), so there is no instant at which either name is missing. Returns
    False, changing nothing, where the C library, the kernel or the file system cannot do
    it (the caller falls back to two renames); any other failure raises ``OSError``."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    done = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
                     _RENAME_EXCHANGE)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in _CANNOT_EXCHANGE:
        return False
    raise OSError(code, os.strerror(code), str(first), None, str(second))


def _swap_in(built: Path, out: Path) -> None:
    """Put the finished (synced) site at ``out`` and sync the folder holding it; the old site
    is removed only afterwards. An existing site is exchanged with the new one in one step
    (``exchange``: ``built`` then holds the old site); where that cannot be done, the old
    site is renamed aside and the new one onto ``out`` (a kill between the two leaves the
    old site for ``clean_leftovers`` to put back)."""
    if not out.exists():
        replace_synced(built, out)
    elif exchange(built, out):
        sync_dir(out.parent)
        shutil.rmtree(built, ignore_errors=True)
    else:
        old = out.with_name(f".{out.name}.old-{uuid.uuid4().hex}")
        os.replace(out, old)
        try:
            os.replace(built, out)
        except BaseException:
            os.replace(old, out)
            raise
        sync_dir(out.parent)
        shutil.rmtree(old, ignore_errors=True)


class _Folder:
    """The fresh folder a site is built in: every file written synced (``atomic``'s
    ``write_synced``), its folders made as they are needed and synced once it is whole."""

    def __init__(self, root: Path):
        self.root = root
        self.folders: dict[Path, None] = {}

    def write(self, name: str, data: bytes) -> None:
        dest = self.root / name
        if dest.parent not in self.folders:
            make_folder(dest.parent)
            self.folders[dest.parent] = None
        write_synced(dest, data)

    def sync(self) -> None:
        for folder in self.folders:
            sync_dir(folder)


def write_site(
    data: SiteData,
    out: Path,
    lang: str = "zh",
    show_progress: bool = False,
) -> Path:
    """Write the site of ``data`` (gathered by ``event.publish.site_data``) to ``out``.

    Returns the path of the site's ``index.html``. Raises ``GuandanError`` for an unknown
    ``lang`` or an ``out`` that is not a site; then nothing is written and an earlier site
    stays as it was.
    """
    out = Path(out)
    env = environment(lang)
    check_target(out)
    data = with_known_players(data)
    common = {"event_name": data.name, "rounds_scored": sorted(data.standings),
              "has_bracket": data.bracket is not None, "abandoned": data.reveal_override,
              "stages": stage_views(data.stages, lang)}
    return write_pages(out, env, site_pages(data), page_count(data), common, data.key_hex,
                       data.boards_files, show_progress)


def write_pages(
    out: Path,
    env: Environment,
    pages: Iterable[Page],
    count: int,
    common: Mapping[str, Any],
    key_hex: str | None,
    boards_files: Mapping[int, Path],
    show_progress: bool = False,
) -> Path:
    """Render ``pages`` into a fresh folder beside ``out`` with the static files, the
    revealed key and the complete rounds' board files, then swap it in whole (first removing
    what a killed earlier build left beside ``out``: ``clean_leftovers``)."""
    # Work on the real folder: "." has no name to build beside, and a symlinked site
    # (a web server's folder) must be replaced where it lives, keeping the link.
    target = out.resolve()
    make_folder(target.parent)
    clean_leftovers(target)
    built = target.with_name(f".{target.name}.new-{uuid.uuid4().hex}")
    folder = _Folder(built)
    try:
        with progress(count, "Building site", show_progress) as advance:
            for page in pages:
                html = env.get_template(page.template).render(
                    **common, **page.context, root=page.root
                )
                folder.write(page.path, html.encode("utf-8"))
                advance()
        static = resources.files(__package__) / "static"
        for name in STATIC:
            folder.write(name, (static / name).read_bytes())
        if key_hex is not None:  # revealed: the file `deal verify --key` reads
            folder.write(KEY_FILE, (key_hex + "\n").encode("ascii"))
        for round_no, source in boards_files.items():
            folder.write(boards_href(round_no), Path(source).read_bytes())
        folder.write(MARKER, b"built by guandan-dup event site\n")
        folder.sync()
        _swap_in(built, target)
    except BaseException:
        shutil.rmtree(built, ignore_errors=True)
        raise
    return out / "index.html"

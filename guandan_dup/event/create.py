"""``event init``: a new event folder with its plan, players, key and published commitment;
``event reveal``: the key published after the event.

The format makes the plan and the players' files from the new key (``event.formats``): the
round-1 order is fixed then, once (seeded players first, then a lot drawn from the new key,
so the order cannot be known before the key exists and can be checked by anyone after it
is revealed), and stored as the ``seed`` column of players.parquet.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from ..deals.keys import commitment, new_key
from ..errors import GuandanError
from ..wording import spans
from .access import SECRET, new_secret
from .folder import EVENT_TOML, KEY_FILE, EventFolder, toml_text
from .formats import EventFormat, InitRequest, format_named
from .plan import EventPlan
from .transaction import DEFAULT_WAIT, locked, writing


def create_event(
    path: str | os.PathLike,
    players_csv: str | os.PathLike | None,
    tables_per_group: int | None,
    sets_per_round: int | None,
    boards_per_set: int,
    rounds: int | None,
    kind: str = "individual",
    name: str | None = None,
    seeding: str | os.PathLike | None = None,
    rotate_partners: bool = False,
    key: bytes | None = None,
    fmt: str | None = None,
    conversion: str | os.PathLike | None = None,
    team_names: str | os.PathLike | None = None,
    awards: str | None = None,
    wait: float = DEFAULT_WAIT,
    seed_from: str | os.PathLike | None = None,
    top: int | None = None,
    correction_minutes: int = 30,
    compare_within: str = "event",
    force: bool = False,
) -> EventFolder:
    """Create the event folder at ``path`` and return it opened.

    ``kind`` and ``fmt`` choose the event's format once (``event.formats.format_named``):
    individual or pairs reseated by standing (``fmt`` None), a team ``swiss`` or
    ``round-robin``, a pairs or team ``knockout``. Each format takes the options that shape
    it and refuses the others: events reseated by standing need ``tables_per_group``,
    ``sets_per_round`` and ``rounds``; a team event takes ``conversion``, ``team_names``
    and ``awards``; a knockout takes its shape from its entries, and a team knockout may be
    seeded from a finished stage's folder (``seed_from``, its ``top`` teams).
    ``correction_minutes`` is art. 48's correction time after a round's end (the plan's);
    ``compare_within`` (event, group or venue) what a set's results are compared within.
    ``force`` seeds a team knockout from a stage still in its correction time (art. 48).
    ``key`` is for rehearsals and tests only (a real event draws a fresh secret one).
    Nothing is written unless the players file and the plan are valid and ``path`` holds
    no event; the key, the players and event.toml are written in one step under the
    folder's lock.
    """
    request = InitRequest(
        players_csv, boards_per_set, tables_per_group, sets_per_round, rounds,
        rotate_partners, name, seeding, conversion, team_names, awards, seed_from, top,
        correction_minutes, compare_within, force)
    return create_from_request(path, format_named(kind, fmt), request, key, wait)


def create_from_request(
    path: str | os.PathLike, event_format: EventFormat, request: InitRequest,
    key: bytes | None = None, wait: float = DEFAULT_WAIT,
) -> EventFolder:
    """``create_event`` for a format already chosen and its ``InitRequest``."""
    path = Path(path)
    _check_no_event(path)
    event_format.check_request(request)
    key = new_key() if key is None else key
    plan, files = event_format.create(path, request, key)
    return _write_new_event(path, plan, key, files, wait)


def _write_new_event(
    path: Path, plan: EventPlan, key: bytes, files: dict[Path, bytes], wait: float
) -> EventFolder:
    """Write the key, ``files`` and event.toml in one step under the new folder's lock."""
    folder = EventFolder(path, plan, commitment(key), key_revealed=False)
    with locked(path, "event init", wait):
        _check_no_event(path)
        folder.replace_files(
            {
                folder.key_path: key.hex().encode("ascii") + b"\n",
                path / SECRET: new_secret(),  # the tables' links (event seat's cards)
                **files,
                path / EVENT_TOML: toml_text(plan, folder.commitment, False).encode("utf-8"),
            }
        )
    return folder


def _check_no_event(path: Path) -> None:
    if (path / EVENT_TOML).exists():
        raise GuandanError(f"{str(path)!r} already holds an event ({EVENT_TOML}); not touched")
    if (path / KEY_FILE).exists():
        raise GuandanError(
            f"{str(path)!r} already holds a key file ({KEY_FILE}); not touched: move it away "
            "if its commitment was never published"
        )


FORCED = "revealed with --force before every set was played (no reason given)"


def unplayed(folder: EventFolder) -> list[str]:
    """What revealing the key now would give away: unscored rounds, and each dealt set with
    the tables that have not played it yet ("round 2 set 4: tables 3, 5")."""
    scored = set(folder.rounds_scored())
    out = []
    for r in range(1, folder.plan.rounds + 1):
        dealt = folder.file(r, "boards").exists()
        missing: dict[int, list[int]] = {}
        for table, set_no in folder.missing_results(r) if dealt else []:
            missing.setdefault(set_no, []).append(table)
        out += [
            f"round {r} set {s}: {spans('table', sorted(t))}"
            for s, t in missing.items()
        ]
        if r not in scored and not missing:
            out.append(f"round {r}: not {'scored' if dealt else 'dealt'} yet")
    return out


def reveal_key(
    path: str | os.PathLike,
    force: bool = False,
    abandoned: str | None = None,
    wait: float = DEFAULT_WAIT,
) -> EventFolder:
    """Record in event.toml that the key is published (after the event); returns the folder.

    Refused while a dealt set has a table that has not played it, or a round is unscored:
    the key gives away every board, so a late table could look its boards up. An event
    abandoned early is revealed with ``abandoned="the reason"``, recorded in event.toml
    (``reveal_override``) with the time and shown on the site; ``force`` is the older
    spelling of the same override and records that no reason was given. Refused too if
    ``event.key`` is not the key of the commitment (``EventFolder.key``).
    """
    with writing(path, "event reveal", wait) as folder:
        folder.key()  # the file the director is told to publish must be the committed key
        still = unplayed(folder)
        reason = abandoned if abandoned is not None else FORCED if force else None
        if reason is not None and not reason.strip():
            raise GuandanError("--abandoned needs a reason, e.g. --abandoned 'storm: rounds 3-4 "
                               "cancelled'")
        if still and reason is None:
            raise GuandanError(
                "the key gives away every board, so it is revealed only when every dealt set "
                f"has been played by every table; still to play: {'; '.join(still)}. Nothing "
                "was changed. If the event was abandoned, say why: --abandoned REASON"
            )
        at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        override = {"reason": reason.strip(), "at": at} if still and reason else None
        return folder.with_key_revealed(override)

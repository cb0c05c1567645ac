"""``event init``: a new event folder with its plan, players, key and published commitment.

The round-1 order is fixed here, once: seeded players first (a ``--seeding`` list, else the
players file's ``seed`` column), then everyone else in a lot drawn from the new key, so the
order cannot be known before the key exists and can be checked by anyone after it is
revealed. The order is stored as the ``seed`` column of players.parquet.
"""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from ..deals.keys import commitment, new_key
from ..errors import GuandanError, InvalidPlanError
from ..movement import partnerships, seeded_then_lot, seeding_order
from ..movement.players import load_players, load_seeding
from .folder import EVENT_TOML, KEY_FILE, EventFolder, parquet_bytes, toml_text
from .knockout import knockout_options, knockout_plan
from .plan import EventPlan
from .team_knockout import qualified_teams
from .teams import team_event_files
from .transaction import DEFAULT_WAIT, locked, writing


def round_one_order(players: pd.DataFrame, key: bytes, seeding: list[str] | None) -> list[str]:
    """Seeded players in seeding order, then the unseeded ones by lot.

    In a pairs event a pair stands where its better seeded (or better drawn) player stands,
    and its two players follow each other.
    """
    if seeding is None:
        seeding = seeding_order(players[players["seed"].notna()])
    order = seeded_then_lot(players["player"], seeding, key)
    if "pair" not in players.columns:
        return order
    pair_of = dict(zip(players["player"], players["pair"], strict=True))
    members = players.groupby("pair", sort=False)["player"].agg(list)
    pairs = pd.Series([pair_of[p] for p in order]).drop_duplicates()
    return [p for pair in pairs for p in members[pair]]


def create_event(
    path: str | os.PathLike,
    players_csv: str | os.PathLike,
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
) -> EventFolder:
    """Create the event folder at ``path`` and return it opened.

    ``key`` is for rehearsals and tests only (a real event draws a fresh secret one). Nothing
    is written unless the players file and the plan are valid and ``path`` holds no event.
    A team event (``kind="teams"``) takes ``fmt``, ``conversion``, ``team_names`` and
    ``awards`` instead of tables per group, sets per round and partner rotation
    (``event.teams``). A knockout (``fmt="knockout"``, pairs or teams) takes its shape from
    its entries: ``tables_per_group``, ``sets_per_round`` and ``rounds`` are left ``None``;
    a team knockout may be seeded from a finished stage's folder (``seed_from``, its ``top``
    teams). ``correction_minutes`` is art. 48's correction time after a round's end (the
    plan's). The key, the players and event.toml are written in one step under the folder's
    lock.
    """
    path = Path(path)
    _check_no_event(path)
    options = {"--tables-per-group": tables_per_group, "--sets-per-round": sets_per_round,
               "--rotate-partners": rotate_partners or None, "--format": fmt,
               "--conversion": conversion, "--teams": team_names, "--awards": awards}
    team_only = ("--format", "--conversion", "--teams", "--awards")
    key = new_key() if key is None else key
    qualified = None
    if fmt == "knockout":
        knockout_options(kind, tables_per_group, sets_per_round, rounds, rotate_partners,
                         seed_from, top)
        if seed_from is not None:
            qualified = qualified_teams(seed_from, top)
        if kind == "pairs":
            team_only = ("--conversion", "--teams", "--awards")
    elif seed_from is not None or top is not None:
        raise InvalidPlanError("--seed-from and --top seed a team knockout (--format knockout)")
    if kind == "teams":
        wrong = [o for o, v in options.items() if v is not None and o not in team_only]
        if wrong or fmt is None:
            raise InvalidPlanError(
                "a team event takes --format swiss|round-robin|knockout and no "
                + ", ".join(o for o in options if o not in team_only)
                + (f" (given: {', '.join(wrong)})" if wrong else "")
            )
        plan, files = team_event_files(path, players_csv, fmt, rounds, boards_per_set, key,
                                       conversion or "linear", name, seeding, team_names,
                                       awards or "", qualified)
        return _write_new_event(path, replace(plan, correction_minutes=correction_minutes),
                                key, files, wait)
    if kind not in ("individual", "pairs"):
        raise InvalidPlanError(f"kind {kind!r}: expected individual, pairs or teams")
    wrong = [o for o in team_only if options[o] is not None]
    needed = () if fmt == "knockout" else ("--tables-per-group", "--sets-per-round")
    missing = [o for o in needed if options[o] is None]
    if wrong or missing:
        raise InvalidPlanError(
            f"an {kind} event needs --tables-per-group and --sets-per-round and takes no "
            f"--format (but knockout), --conversion, --teams or --awards (given: "
            f"{', '.join(wrong) or 'none'}; missing: {', '.join(missing) or 'none'})"
        )
    players = load_players(players_csv, kind)
    seeded = load_seeding(seeding, players["player"]) if seeding is not None else None
    seeded_any = bool(seeded) or bool(players["seed"].notna().any())
    name = name or path.resolve().name
    if fmt == "knockout":
        plan = knockout_plan(name, kind, len(players), boards_per_set, seeded_any)
    else:
        if rounds is None:
            raise InvalidPlanError(f"an {kind} event needs --rounds")
        plan = EventPlan(
            name=name,
            kind=kind,
            players=len(players),
            tables_per_group=tables_per_group,
            sets_per_round=sets_per_round,
            boards_per_set=boards_per_set,
            rounds=rounds,
            rotate_partners=rotate_partners,
            seeding="list" if seeded_any else "lot",
        )
    if kind == "pairs":
        partnerships(players)  # refuses a pair without exactly two players
    order = round_one_order(players, key, seeded)
    players["seed"] = players["player"].map({p: i for i, p in enumerate(order, 1)}).astype("int64")
    players = players.sort_values("seed", ignore_index=True)
    return _write_new_event(
        path, replace(plan, correction_minutes=correction_minutes), key,
        {path / "players.parquet": parquet_bytes(players)}, wait
    )


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
            f"round {r} set {s}: table{'s' if len(t) > 1 else ''} {', '.join(map(str, t))}"
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

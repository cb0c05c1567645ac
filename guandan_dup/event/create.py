"""``event init``: a new event folder with its plan, players, key and published commitment.

The round-1 order is fixed here, once: seeded players first (a ``--seeding`` list, else the
players file's ``seed`` column), then everyone else in a lot drawn from the new key, so the
order cannot be known before the key exists and can be checked by anyone after it is
revealed. The order is stored as the ``seed`` column of players.parquet.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..deals.keys import commitment, new_key, write_key
from ..errors import GuandanError, InvalidPlanError
from ..movement import partnerships, seeded_then_lot, seeding_order
from ..movement.players import load_players, load_seeding
from .folder import EVENT_TOML, EventFolder, parquet_bytes, toml_text
from .knockout import knockout_options, knockout_plan
from .plan import EventPlan
from .team_knockout import qualified_teams
from .teams import create_team_event


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
    seed_from: str | os.PathLike | None = None,
    top: int | None = None,
) -> EventFolder:
    """Create the event folder at ``path`` and return it opened.

    ``key`` is for rehearsals and tests only (a real event draws a fresh secret one). Nothing
    is written unless the players file and the plan are valid and ``path`` holds no event.
    A team event (``kind="teams"``) takes ``fmt``, ``conversion``, ``team_names`` and
    ``awards`` instead of tables per group, sets per round and partner rotation
    (``event.teams``). A knockout (``fmt="knockout"``, pairs or teams) takes its shape from
    its entries: ``tables_per_group``, ``sets_per_round`` and ``rounds`` are left ``None``;
    a team knockout may be seeded from a finished stage's folder (``seed_from``, its ``top``
    teams).
    """
    path = Path(path)
    if (path / EVENT_TOML).exists():
        raise GuandanError(f"{str(path)!r} already holds an event ({EVENT_TOML}); not touched")
    options = {"--tables-per-group": tables_per_group, "--sets-per-round": sets_per_round,
               "--rotate-partners": rotate_partners or None, "--format": fmt,
               "--conversion": conversion, "--teams": team_names, "--awards": awards}
    team_only = ("--format", "--conversion", "--teams", "--awards")
    if fmt == "knockout":
        knockout_options(kind, tables_per_group, sets_per_round, rounds, rotate_partners,
                         seed_from, top)
        if kind == "teams":
            qualified = None if seed_from is None else qualified_teams(seed_from, top)
            return create_team_event(path, players_csv, fmt, None, boards_per_set,
                                     conversion or "linear", name, seeding, team_names, key,
                                     awards or "", qualified=qualified)
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
        return create_team_event(path, players_csv, fmt, rounds, boards_per_set,
                                 conversion or "linear", name, seeding, team_names, key,
                                 awards or "")
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
    key = new_key() if key is None else key
    order = round_one_order(players, key, seeded)
    players["seed"] = players["player"].map({p: i for i, p in enumerate(order, 1)}).astype("int64")
    players = players.sort_values("seed", ignore_index=True)
    path.mkdir(parents=True, exist_ok=True)
    write_key(path / "event.key", key)
    folder = EventFolder(path, plan, commitment(key), key_revealed=False)
    folder.replace_files(
        {
            path / "players.parquet": parquet_bytes(players),
            path / EVENT_TOML: toml_text(plan, folder.commitment, False).encode("utf-8"),
        }
    )
    return folder


def reveal_key(path: str | os.PathLike, force: bool = False) -> EventFolder:
    """Record in event.toml that the key is published (after the event); returns the folder.

    Refused while a round is unscored unless ``force``d: the key gives away every board of
    the rounds still to play, so revealing it early is the one mistake that spoils an event.
    """
    folder = EventFolder.open(path)
    scored = set(folder.rounds_scored())
    unscored = [r for r in range(1, folder.plan.rounds + 1) if r not in scored]
    if unscored and not force:
        raise GuandanError(
            f"round(s) {unscored} are not scored yet: the key gives away every board still to "
            "be played, so it is revealed only after the last round. Nothing was changed; use "
            "--force if the event is over (e.g. the remaining rounds were cancelled)"
        )
    return folder.with_key_revealed()

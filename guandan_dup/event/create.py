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
from .knockout import knockout_plan
from .plan import EventPlan


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
    format: str = "movement",
) -> EventFolder:
    """Create the event folder at ``path`` and return it opened.

    ``key`` is for rehearsals and tests only (a real event draws a fresh secret one). Nothing
    is written unless the players file and the plan are valid and ``path`` holds no event.
    A ``knockout`` takes its shape from its entries: ``tables_per_group``, ``sets_per_round``
    and ``rounds`` are left ``None`` (one set per round, as many rounds as the bracket needs).
    """
    path = Path(path)
    if (path / EVENT_TOML).exists():
        raise GuandanError(f"{str(path)!r} already holds an event ({EVENT_TOML}); not touched")
    if kind not in ("individual", "pairs"):
        raise InvalidPlanError(f"kind {kind!r}: expected individual or pairs")
    players = load_players(players_csv, kind)
    seeded = load_seeding(seeding, players["player"]) if seeding is not None else None
    seeded_any = bool(seeded) or bool(players["seed"].notna().any())
    name = name or path.resolve().name
    if format == "knockout":
        given = {"--tables-per-group": tables_per_group, "--sets-per-round": sets_per_round,
                 "--rounds": rounds, "--rotate-partners": rotate_partners or None}
        extra = [option for option, value in given.items() if value is not None]
        if extra:
            raise InvalidPlanError(f"a knockout takes its shape from its entries: leave out "
                                   f"{', '.join(extra)}")
        plan = knockout_plan(name, kind, len(players), boards_per_set, seeded_any)
    else:
        needed = {"--tables-per-group": tables_per_group, "--sets-per-round": sets_per_round,
                  "--rounds": rounds}
        missing = [option for option, value in needed.items() if value is None]
        if missing or format != "movement":
            raise InvalidPlanError(
                f"format {format!r}: expected movement or knockout" if format != "movement"
                else f"a {kind} event needs {', '.join(missing)}"
            )
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

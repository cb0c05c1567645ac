"""Page data for the results site, assembled with column operations from the tables given.

The templates only lay out what this module hands them: standings rows with movement since
the previous round, each player's set-by-set history, travellers, and which sets may show
their deals. Everything a page links to is keyed by a *slug*, a file-name-safe form of the
player id, so ids with spaces, slashes or Chinese characters still give working links.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ...seats import SEAT_COLUMNS, Seat
from ..tables import level_text

_SAFE_ID = r"^[A-Za-z0-9_-]{1,64}$"

# (seat column, compass letter, partner column, opponent columns in seat order, side)
_SEAT_VIEWS = tuple(
    (
        seat.column,
        seat.to_text(),
        seat.partner.column,
        tuple(other.column for other in Seat if other.side != seat.side),
        seat.side.lower(),
    )
    for seat in Seat
)


def player_slugs(ids: pd.Series) -> pd.Series:
    """File-name-safe, case-insensitively unique page names for player ids.

    Plain ids (letters, digits, ``_``, ``-``) are kept; any other id, or ids that differ
    only by case (they would share a file on macOS and Windows), get a sanitised form plus
    a short hash of the id, which is stable from build to build.

    >>> player_slugs(pd.Series(["P01", "张三", "a b", "X", "x"])).tolist()
    ['P01', 'u-1d841bc0', 'a_b-c8687a08', 'X-4b68ab38', 'x-2d711642']
    """
    ids = ids.astype("str")
    lower = ids.str.lower()
    clash = lower.duplicated(keep=False)
    safe = ids.str.fullmatch(_SAFE_ID) & ~clash
    cleaned = ids.str.replace(r"[^A-Za-z0-9_-]", "_", regex=True).str.strip("_").str[:40]
    cleaned = cleaned.where(cleaned != "", "u")
    digest = ids.map(lambda text: hashlib.sha256(text.encode("utf-8")).hexdigest()[:8])
    return ids.where(safe, cleaned + "-" + digest)


def with_level_texts(travellers: pd.DataFrame) -> pd.DataFrame:
    """Travellers plus ``ns_text``/``ew_text``: levels, or the artificial "A+"/"A"/"A-"."""
    return travellers.assign(
        ns_text=level_text(travellers["ns_level"], travellers["ns_adjusted"].astype("str")),
        ew_text=level_text(travellers["ew_level"], travellers["ew_adjusted"].astype("str")),
        is_adjusted=travellers["adjusted"].notna(),
    )


def standings_rows(
    current: pd.DataFrame, previous: pd.DataFrame | None, players: pd.DataFrame
) -> pd.DataFrame:
    """One round's standings with names, slugs and ``move`` (places gained since last round).

    ``move`` compares strict positions, so a player level on average with the one above but
    placed below still sees where the tie-break put them; it is <NA> in round 1 and for a
    player absent from the previous standings.
    """
    rows = current.merge(players[["player", "name", "slug"]], on="player", how="left")
    if previous is None:
        rows["move"] = pd.array([pd.NA] * len(rows), dtype="Int64")
    else:
        before = previous[["player", "position"]].rename(columns={"position": "before"})
        rows = rows.merge(before, on="player", how="left")
        rows["move"] = (rows["before"] - rows["position"]).astype("Int64")
    return rows.sort_values("position", kind="stable").reset_index(drop=True)


def seat_history(travellers: pd.DataFrame) -> pd.DataFrame:
    """Every player's results from their own seat: one row per (player, set).

    Columns: round, set, table, player, seat (N/E/S/W), partner, opponent_1, opponent_2,
    own (own side's level text), against (the opponents'), is_adjusted, rate, and own_start,
    against_start: the levels a late arrival's set started at (``tables.with_start_levels``;
    empty for a start at 2/2 or travellers without them).
    """
    travellers = with_level_texts(travellers)
    if "ns_start" not in travellers:
        travellers = travellers.assign(ns_start="", ew_start="")
    views = []
    for seat, letter, partner, (left, right), side in _SEAT_VIEWS:
        other = "ew" if side == "ns" else "ns"
        views.append(
            pd.DataFrame(
                {
                    "round": travellers["round"],
                    "set": travellers["set"],
                    "table": travellers["table"],
                    "player": travellers[seat],
                    "seat": letter,
                    "partner": travellers[partner],
                    "opponent_1": travellers[left],
                    "opponent_2": travellers[right],
                    "own": travellers[f"{side}_text"],
                    "against": travellers[f"{other}_text"],
                    "is_adjusted": travellers["is_adjusted"],
                    "rate": travellers[f"{side}_rate"],
                    "own_start": travellers[f"{side}_start"],
                    "against_start": travellers[f"{other}_start"],
                }
            )
        )
    return (
        pd.concat(views, ignore_index=True)
        .sort_values(["player", "round", "set"], kind="stable")
        .reset_index(drop=True)
    )


def name_columns(frame: pd.DataFrame, columns, players: pd.DataFrame) -> pd.DataFrame:
    """Add ``<column>_name``, ``<column>_slug`` and ``<column>_shared`` (the name is not
    unique, so the page shows the id too) for each player-id column."""
    by_id = players.set_index("player")
    extra = {}
    for column in columns:
        extra[f"{column}_name"] = frame[column].map(by_id["name"]).fillna(frame[column])
        extra[f"{column}_slug"] = frame[column].map(by_id["slug"])
        extra[f"{column}_shared"] = frame[column].map(by_id["shared_name"]).fillna(False)
    return frame.assign(**extra)


@dataclass(frozen=True)
class SiteData:
    """Everything the pages show, gathered by the event side (``event.publish.site_data``),
    which alone decides what is public: this package renders what it is given.

    ``travellers`` and ``boards`` hold only sets marked complete in ``sets`` (round, set,
    complete); ``pending`` says who sits where in the other sets (round, set, table, player,
    seat), without results; ``standings`` only rounds that count no pending set, and
    ``withheld`` the others (round -> the pending sets, of the round or earlier, it would
    count: its standings page says it waits for them); ``boards_files`` only rounds whose
    every set is complete: with ``boards``, the site's sole sources of deals.
    ``correcting`` are the rounds still before their correction deadline (art. 48:
    provisional); ``decisions`` the director's penalties and adjustments
    (``event.decisions``' table: kind, article, reason), shown under the standings and on
    the pages of the players they concern. ``travellers`` may carry ``ns_start`` and
    ``ew_start`` (``tables.with_start_levels``): a late arrival's start levels.
    ``reveal_override`` ({"reason", "at"}) is set when the key was revealed with sets
    unplayed (an abandoned event); every page says so.
    """

    name: str
    planned_rounds: int
    commitment: str
    key_hex: str | None
    players: pd.DataFrame
    rounds_scored: list[int]
    standings: dict[int, pd.DataFrame]
    seating: pd.DataFrame
    travellers: pd.DataFrame
    byes: pd.DataFrame
    sets: pd.DataFrame
    pending: pd.DataFrame
    boards: pd.DataFrame
    boards_files: dict[int, Path]
    bracket: pd.DataFrame | None = None
    """A knockout's matches (``event.formats.knockout.bracket_view``); ``None`` otherwise."""
    places: pd.DataFrame | None = None
    correcting: frozenset[int] = frozenset()
    decisions: pd.DataFrame | None = None
    reveal_override: dict | None = None
    withheld: dict[int, list[int]] = field(default_factory=dict)
    stages: tuple = ()
    """The competition's other stages to link to (``stages.StageLink``: a knockout's stage
    it was seeded from)."""

    def is_provisional(self, round_no: int) -> bool:
        """Standings that may still change: art. 48's correction time (standings counting a
        pending set are not shown at all: ``withheld``)."""
        return round_no in self.correcting

    @property
    def complete_sets(self) -> frozenset[int]:
        return frozenset(self.sets.loc[self.sets["complete"], "set"].tolist())


def known_players(players: pd.DataFrame, *frames: pd.DataFrame) -> pd.DataFrame:
    """players.parquet plus any id met in the round files (named by its id), with slugs and
    ``shared_name`` (another player has the same name: pages then show the id beside it);
    a pairs event's ``pair`` column is kept (the index's search finds a pair by its id)."""
    seen = pd.concat(
        [frame[c] for frame in frames for c in ("player", *SEAT_COLUMNS) if c in frame],
        ignore_index=True,
    ).astype("str")
    extra = pd.Index(seen.unique()).difference(players["player"].astype("str"))
    kept = ["player", "name", *(["pair"] if "pair" in players else [])]
    everyone = pd.concat(
        [players[kept], pd.DataFrame({"player": extra, "name": extra})],
        ignore_index=True,
    ).astype({"player": "str", "name": "str"})
    return everyone.assign(
        slug=player_slugs(everyone["player"]),
        shared_name=everyone["name"].duplicated(keep=False),
    )


def with_known_players(data: SiteData) -> SiteData:
    """``data`` with ``players`` completed by ``known_players`` from every table it holds."""
    frames = (data.seating, data.travellers, data.byes, data.pending, *data.standings.values())
    return replace(data, players=known_players(data.players, *frames))

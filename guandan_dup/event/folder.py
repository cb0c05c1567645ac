"""The event folder: the one place an event's plan, key, players and round files live.

Layout (the results site and the simulator rely on it)::

    event.toml  event.key  players.parquet
    rounds/R/{boards,seating,byes,results,scores,travellers,standings}.parquet
    rounds/R/{hand-records,table-cards}.html
    rounds/R/scored.json   (when the round was first scored: ``event.finality.SCORED_FILE``)
    teams.parquet, conversion.csv, rounds/R/{matches,lineups,match_results,team_standings}
                .parquet   (team events only)
    rounds/R/bracket.parquet, places.parquet   (knockouts)
    history/    earlier versions of replaced files, never deleted
    exports/    ranking tables
    director.token, live/{secret,revoked.json,base-url.txt}   the tables' links and the
                director's token (``event.access``), owner-only where secret; live/ also
                holds the server's journal (``guandan-dup serve``)

Every write goes through ``replace_files``: all files of one step are committed together
(crash-atomic, under the folder's lock: see :mod:`.transaction`), and a file being replaced
is first copied into ``history/`` under a timestamped name that is never reused, so nothing a
director published is ever lost.
"""

from __future__ import annotations

import hashlib
import io
import os
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import tomli_w

from ..deals.keys import commitment as commitment_of
from ..deals.keys import read_key
from ..errors import GuandanError, InvalidPlanError, KeyFileError
from ..reading import read_parquet
from ..wording import numbered, pasteable, plural
from .parts import DEEP_COPIES, file_stamp, part_files, read_rows, stamps, stored_keys
from .plan import EventPlan
from .transaction import commit

EVENT_TOML = "event.toml"
KEY_FILE = "event.key"
LIVE_SECRET = "live/secret"
DIRECTOR_TOKEN = "director.token"
PLATFORMS = "live/platforms.json"
VENUE_TOKENS = "live/venue-directors.json"
PRIVATE = (KEY_FILE, LIVE_SECRET, DIRECTOR_TOKEN, PLATFORMS, VENUE_TOKENS)
"""Files written owner-only (0600): the event key, the HMAC key of the tables' links, the
director's console token (``event.access``) and the platforms' and venue directors' token
hashes (``event.platforms``, ``event.venue_tokens``)."""
RESULTS_DIGEST = b"guandan_dup.results_digest"
"""Standings metadata key: the ``results_digest`` of the results they were scored from."""
TABLES = ("boards", "seating", "byes", "results", "scores", "travellers", "standings", "bracket")
TEAM_TABLES = ("matches", "lineups", "match_results", "team_standings")
"""Round files of team events (``event.formats.team_matches``)."""
SUBFOLDERS = ("rounds", "history", "exports", "live")
"""Folders of the layout that event commands create and fill later: a site there would be
replaced whole on the next build, taking their files with it (``publish.site_folder``)."""
STALE_BECAUSE = {
    "results": "had results ingested after it was scored",
    "ledger": "was changed by a ledger decision after it was scored",
}
"""What made a round's scored outputs out of date (``EventFolder.out_of_date_because``),
in words."""
PLACES = "places.parquet"
"""A knockout's final places, at the folder's top once its last round is scored."""


def parquet_bytes(table: pd.DataFrame | pa.Table) -> bytes:
    """A Parquet file's bytes (an Arrow table keeps its schema metadata)."""
    if isinstance(table, pd.DataFrame):
        table = pa.Table.from_pandas(table, preserve_index=False)
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def toml_text(
    plan: EventPlan, commitment: str, key_revealed: bool, reveal_override: dict | None = None
) -> str:
    """event.toml: a comment spelling out the schedule, then the plan's keys and the state."""
    data = plan.to_dict() | {"commitment": commitment, "key_revealed": key_revealed}
    if reveal_override is not None:
        data["reveal_override"] = reveal_override
    return schedule_comment(plan) + tomli_w.dumps(data)


def schedule_comment(plan: EventPlan) -> str:
    """Which tables, sets and boards each round and group plays, for a reader of event.toml.

    It is derived from the keys (sets_per_round, boards_per_set, [[schedule]]) and ignored
    when the file is read, so a director sees the whole plan without working it out.
    """
    lines = ["# The plan as derived from the keys below (only the keys are read):"]
    for r in range(1, plan.rounds + 1):
        runs: list[tuple[int, int, list[int]]] = []  # consecutive groups playing the same sets
        for g in range(1, plan.groups() + 1):
            sets = plan.sets_of_group(r, g)
            if runs and runs[-1][2] == sets:
                runs[-1] = (runs[-1][0], g, sets)
            else:
                runs.append((g, g, sets))
        for first, last, sets in runs:
            playing = set(plan.tables_of_set(r, sets[0]))  # a knockout's bracket needs fewer
            t = [t for g in range(first, last + 1) for t in plan.tables_of_group(g)
                 if t in playing]
            t = [t[0], t[-1]]
            groups = f"group {first}" if first == last else f"groups {first}-{last}"
            tables = f"table {t[0]}" if t[0] == t[1] else f"tables {t[0]}-{t[1]}"
            lines.append(
                f"#   round {r}, {groups} ({tables}): "
                f"sets {', '.join(map(str, sets))}, boards {plan.board_ranges(sets)}"
            )
    return "\n".join(lines) + "\n\n"


@dataclass
class PlannedWrites:
    """What a dry run's steps would have written (``EventFolder.dry_run``): the files by
    path, with their new contents, and the files they would have deleted."""

    files: dict[Path, bytes] = field(default_factory=dict)
    removed: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class EventFolder:
    """An opened event folder; reopen it after a step changes event.toml."""

    path: Path
    plan: EventPlan
    commitment: str
    key_revealed: bool
    reveal_override: dict | None = None
    """``{"reason": ..., "at": ...}`` when the key was revealed with sets still unplayed."""
    planned: PlannedWrites | None = field(default=None, compare=False)
    """A dry run's record of what its steps would write (``None``: steps write)."""

    def dry_run(self) -> EventFolder:
        """This folder for a dry run: every step checks and computes as usual, but
        ``replace_files`` only records in ``planned`` what it would write, and nothing in
        the folder changes (``event ingest --dry-run``)."""
        return replace(self, planned=PlannedWrites())

    def like(self, other: EventFolder) -> EventFolder:
        """This (freshly opened) folder, a dry run if ``other`` is one."""
        return self if other.planned is None else replace(self, planned=other.planned)

    @classmethod
    def open(cls, path: str | os.PathLike) -> EventFolder:
        """Read ``path/event.toml``; a folder without one is not an event folder."""
        path = Path(path)
        toml_path = path / EVENT_TOML
        try:
            data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise GuandanError(
                f"{str(path)!r} is not an event folder (no {EVENT_TOML}); "
                "create one with `guandan-dup event init`"
            ) from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise InvalidPlanError(f"cannot read {str(toml_path)!r}: {error}") from None
        state = {k: data.pop(k, None) for k in ("commitment", "key_revealed", "reveal_override")}
        if not isinstance(state["commitment"], str) or not isinstance(state["key_revealed"], bool):
            raise InvalidPlanError(f"{str(toml_path)!r}: needs commitment and key_revealed")
        return cls(
            path,
            EventPlan.from_dict(data),
            state["commitment"],
            state["key_revealed"],
            state["reveal_override"],
        )

    @property
    def key_path(self) -> Path:
        return self.path / KEY_FILE

    @property
    def history_dir(self) -> Path:
        return self.path / "history"

    @property
    def exports_dir(self) -> Path:
        return self.path / "exports"

    def round_dir(self, round_no: int) -> Path:
        return self.path / "rounds" / str(round_no)

    def file(self, round_no: int, name: str) -> Path:
        """A round file by name: ``seating`` -> rounds/R/seating.parquet; html names as is."""
        return self.round_dir(round_no) / (name if "." in name else f"{name}.parquet")

    def key(self) -> bytes:
        """The event key (for deals and lots); never print it.

        Refused unless it matches the commitment in event.toml: another event's key copied
        into the folder would deal other boards than the ones committed to.
        """
        key = read_key(self.key_path)
        if commitment_of(key) != self.commitment:
            raise KeyFileError(
                f"the key file {str(self.key_path)!r} does not match the commitment "
                f"{self.commitment[:16]}... in {str(self.path / EVENT_TOML)!r}: it is not this "
                "event's key (another event's key copied in?). Nothing was done; put back the "
                "event's own key file"
            )
        return key

    def players(self) -> pd.DataFrame:
        return _kept(self.path / "players.parquet")

    def read(self, round_no: int, name: str) -> pd.DataFrame | None:
        """A round's table (one of ``TABLES``) or ``None`` if that step has not been done;
        a round's results with the parts the server has written since (``event.parts``)."""
        if name not in TABLES + TEAM_TABLES:
            raise GuandanError(
                f"unknown round file {name!r}: expected one of {TABLES + TEAM_TABLES}")
        if name == "results":
            return read_rows(self.round_dir(round_no), name)
        path = self.file(round_no, name)
        if not path.exists():
            return None
        return _kept(path) if name == "seating" else _read_parquet(path)

    def has_results(self, round_no: int) -> bool:
        """Whether round R has results stored (its results.parquet, or parts of it)."""
        return self.file(round_no, "results").exists() or bool(
            part_files(self.round_dir(round_no), "results"))

    def results_bytes(self, round_no: int) -> bytes | None:
        """Round R's results.parquet as it is, or as compacting its parts writes it (the
        same bytes: ``event.parts``); ``None`` without results."""
        if not part_files(self.round_dir(round_no), "results"):
            path = self.file(round_no, "results")
            return path.read_bytes() if path.exists() else None
        key, stamp = str(self.round_dir(round_no)), stamps(self.round_dir(round_no), "results")
        known = _COMPACTED.get(key)
        if known is None or known[0] != stamp:  # a scoring asks three times: made once
            if key not in _COMPACTED and len(_COMPACTED) >= KEPT_COMPACTED:
                _COMPACTED.clear()
            known = _COMPACTED[key] = (stamp, parquet_bytes(self.read(round_no, "results")))
        return known[1]

    def read_rounds(self, name: str, rounds: range) -> pd.DataFrame | None:
        """One table of several rounds stacked (rounds without it are skipped)."""
        frames = [f for r in rounds if (f := self.read(r, name)) is not None]
        return pd.concat(frames, ignore_index=True) if frames else None

    def missing_results(
        self, round_no: int, results: pd.DataFrame | None = None
    ) -> list[tuple[int, int]]:
        """The (table, set) results the plan expects in ``round_no`` that are not in the
        stored ``results`` (default: the round's; its ``table`` and ``set`` columns are
        all that is read), sorted; a table's set that the ledger says will not be played
        (or scores artificially) is not missing."""
        if results is None:
            results = stored_keys(self.round_dir(round_no))
        pairs = self.seated_pairs(round_no)
        if results is not None and len(results) and len(pairs):
            # by whole columns: a million players' round is 500,000 pairs, looked at by
            # the store, the server's scoring and its standings event after the last result
            width = int(max(pairs[:, 1].max(), results["set"].max())) + 1
            stored = (results["table"].to_numpy(np.int64) * width
                      + results["set"].to_numpy(np.int64))
            pairs = pairs[~np.isin(pairs[:, 0] * width + pairs[:, 1], stored)]
        if not len(pairs):
            return []
        done = self.will_not_play(round_no)
        return sorted(p for p in map(tuple, pairs.tolist()) if p not in done)

    def seated_results(self, round_no: int) -> list[tuple[int, int]]:
        """The plan's (table, set) of ``round_no`` at tables its seating has (withdrawals
        recorded in the ledger may leave fewer tables than the plan); all before seating."""
        return list(map(tuple, self.seated_pairs(round_no).tolist()))

    def seated_pairs(self, round_no: int) -> np.ndarray:
        """``seated_results`` as an array of (table, set) rows, set by set: kept while
        event.toml and the round's seating are unchanged (a million players' round is
        500,000 pairs, which the store, the scoring and the standings event all ask for)."""
        seating = self.file(round_no, "seating")
        key = (str(self.path.resolve()), round_no, file_stamp(self.path / EVENT_TOML),
               file_stamp(seating))
        known = _SEATED.get(key)
        if known is not None:
            return known
        pairs = self.plan.planned_array(round_no)  # read-only: shared by every caller
        if seating.exists():
            tables = read_parquet(seating, "event file", columns=["table"])["table"]
            pairs = pairs[np.isin(pairs[:, 0], tables.to_numpy())]
            pairs.flags.writeable = False
        if len(_SEATED) > 32:
            _SEATED.clear()
        _SEATED[key] = pairs
        return pairs

    def will_not_play(self, round_no: int) -> set[tuple[int, int]]:
        """The (table, set) of ``round_no`` that no results file will bring (the ledger's
        ``Effects.will_not_play``): publication counts them as done."""
        if not (self.path / "ledger.parquet").exists():
            return set()
        from .ledger import will_not_play_rows  # it reads the folder: import it late

        return {(t, s) for r, t, s in will_not_play_rows(self) if r == round_no}

    def results_digest(self, last_round: int) -> str:
        """SHA-256 of the stored results of rounds 1..last_round, which scoring them used."""
        digest = hashlib.sha256()
        for r in range(1, last_round + 1):
            digest.update(self.results_bytes(r) or b"")
            digest.update(b"\0")
        return digest.hexdigest()

    @property
    def standings_name(self) -> str:
        """The round file that says a round is scored, carrying the digest of the results it
        was scored from (the format's: team events rank teams; a knockout's rounds have only
        travellers)."""
        return self.plan.event_format.standings_name

    def scored_out_of_date(self, round_no: int) -> bool:
        """Whether round R's scored outputs are out of date (``out_of_date_because``)."""
        return self.out_of_date_because(round_no) is not None

    def out_of_date_because(self, round_no: int) -> str | None:
        """Why round R's scored outputs no longer follow from the folder: ``"results"``
        when results of rounds 1..R changed since it was scored, ``"ledger"`` when a ledger
        decision changes them (``event.ledger.ledger_changed``); ``None`` when they are
        up to date or the round is not scored."""
        path = self.file(round_no, self.standings_name)
        if not path.exists():
            return None
        try:
            metadata = pq.read_schema(path).metadata or {}
        except (OSError, pa.ArrowException) as failure:
            raise GuandanError(f"cannot read event file {str(path)!r}: {failure}") from None
        if metadata.get(RESULTS_DIGEST) != self.results_digest(round_no).encode():
            return "results"
        from .ledger import ledger_changed  # it reads the folder: import it late

        return "ledger" if ledger_changed(self, round_no, metadata) else None

    def check_seats_from(self, round_no: int, what: str) -> None:
        """Refuse ``what`` (seating or pairing round R) from round R-1's scored outputs when
        they are out of date, saying what changed them (``out_of_date_because``) and the
        command that brings them up to date."""
        previous = round_no - 1
        because = self.out_of_date_because(previous) if previous >= 1 else None
        if because is None:
            return
        raise GuandanError(
            f"round {previous} {STALE_BECAUSE[because]}, so {what} cannot be made from its "
            f"out-of-date outputs; nothing was written. Run `guandan-dup event score "
            f"{pasteable(self.path)} --round {previous}` first"
        )

    def stale_rounds(self) -> list[int]:
        """Scored rounds whose outputs are older than the results or ledger decisions they
        follow from."""
        return [r for r in self.rounds_scored() if self.scored_out_of_date(r)]

    def check_up_to_date(self, doing: str) -> None:
        """Refuse ``doing`` (e.g. "export") while a round's scored outputs are out of date,
        saying what changed them: published beside the ledger's list of decisions, figures
        scored without one of them would contradict it."""
        why = {r: because for r in self.rounds_scored()
               if (because := self.out_of_date_because(r)) is not None}
        if not why:
            return
        stale = sorted(why)
        first, later = stale[0], [r for r in self.rounds_scored() if r > stale[0]]
        force = " --force" if later else ""
        then = f", then score {numbered('round', later)} again" if later else ""
        reasons = []
        if by_results := [r for r in stale if why[r] == "results"]:
            reasons.append(f"{numbered('round', by_results)}: the standings are older than the "
                           "results (results were ingested after scoring)")
        if by_ledger := [r for r in stale if why[r] == "ledger"]:
            reasons.append(f"{numbered('round', by_ledger)}: a ledger decision changed "
                           f"{plural('it', len(by_ledger), 'them')} after scoring")
        raise GuandanError(
            f"{'; '.join(reasons)}, so {doing} would publish out-of-date standings. Nothing "
            f"was written; run `guandan-dup event score {pasteable(self.path)} --round "
            f"{first}{force}`{then}"
        )

    def rounds_scored(self) -> list[int]:
        return [
            r for r in range(1, self.plan.rounds + 1)
            if self.file(r, self.standings_name).exists()
        ]

    def history_name(self, dest: Path) -> Path:
        """A fresh history path for ``dest``: its folder path, a UTC timestamp, a counter."""
        stem = "-".join(dest.relative_to(self.path).with_suffix("").parts)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        n, candidate = 1, self.history_dir / f"{stem}.{stamp}{dest.suffix}"
        while candidate.exists():
            n += 1
            candidate = self.history_dir / f"{stem}.{stamp}-{n}{dest.suffix}"
        return candidate

    def replace_files(self, files: Mapping[Path, bytes], remove: Collection[Path] = ()) -> None:
        """Write ``files`` and delete ``remove`` (files that must no longer be published) as
        one crash-atomic step; existing different versions are copied into history first,
        and deleted files moved there (in the same step). Needs the folder's write lock
        (``writing``). In a dry run (``dry_run``) nothing is written: the files are recorded
        in ``planned``."""
        if self.planned is not None:
            self.planned.files.update(files)
            self.planned.removed.extend(p for p in remove if p not in files and p.exists())
            return
        staged: dict[Path, bytes] = {}
        private = {self.path / name for name in PRIVATE}
        kept = set()  # history copies of private files stay owner-only
        for dest, data in files.items():
            old = _regular_bytes(dest)
            if old is not None and old != data:
                copy = self.history_name(dest)
                staged[copy] = old
                if dest in private:
                    kept.add(copy)
            staged[dest] = data
        gone = [dest for dest in remove if dest not in files and dest.exists()]
        moves = {dest: self.history_name(dest) for dest in gone
                 if dest.is_file() and not dest.is_symlink()}  # kept by a rename, as it is
        commit(self.path, staged, private=frozenset(private | kept),
               remove=[dest for dest in gone if dest not in moves], moves=moves)

    def with_key_revealed(self, override: dict | None = None) -> EventFolder:
        """Mark the key as published in event.toml (the site may then show it); ``override``
        records why it was revealed with sets unplayed."""
        text = toml_text(self.plan, self.commitment, True, override)
        self.replace_files({self.path / EVENT_TOML: text.encode()})
        return replace(self, key_revealed=True, reveal_override=override)


_COMPACTED: dict[str, tuple[tuple, bytes]] = {}
"""Round folder -> (its results' stamps, ``results_bytes`` of its parts written whole): a
round's latest, for up to ``KEPT_COMPACTED`` rounds (a scoring also digests the earlier
rounds that have parts)."""
KEPT_COMPACTED = 4
_SEATED: dict[tuple, np.ndarray] = {}
"""(folder, round, stamps of event.toml and the seating) -> ``seated_pairs``."""


def _regular_bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None


def _read_parquet(path: Path) -> pd.DataFrame:
    return read_parquet(path, "event file").to_pandas()


_KEPT: dict[str, tuple[tuple | None, pd.DataFrame]] = {}
"""Path -> (its stamp, its frame) of the files ``_kept`` reads."""


def _kept(path: Path) -> pd.DataFrame:
    """players.parquet or a round's seating, read again only when the file changed: every
    step reads them, some several times, and a million players' seating took 0.2 s a read
    (each write of the live server's store read it). A step replaces a file by renaming a
    new one in, so a changed file has another stamp; the frame is handed out as a copy, a
    shallow one where pandas' copy-on-write (pandas 3) keeps it from changing the one kept."""
    key = str(path)
    stamp = file_stamp(path)
    known = _KEPT.get(key)
    if known is None or known[0] != stamp:
        if len(_KEPT) > 8:
            _KEPT.clear()
        known = _KEPT[key] = (stamp, _read_parquet(path))
    return known[1].copy(deep=DEEP_COPIES)

"""The event folder's ledger: ledger.parquet read and written, checked against the plan.

``event ledger add/list/withdraw`` call these; scoring, ingestion, seating and status read
the ledger through ``read_ledger`` and ``event_context``. Each step writes its files in one
``replace_files`` call (ledger.parquet, and players.parquet when a player enters). Which
rounds are final (art. 48) is ``event.finality``'s to say, and refusing an event.toml
edited after rounds were dealt or seated is ``event.plan_check``'s.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection
from dataclasses import replace

import pandas as pd

from ..errors import GuandanError, Problem
from ..ledger import LEDGER_FILE, Context, Effects, add, dump, empty, load, replay, withdraw
from ..ledger.describe import amount, describe, follow_up
from ..ledger.schema import LedgerError, LedgerFileError
from ..ledger.stored import event_problems
from ..wording import event_command, pasteable, words
from .commands import ingest_command
from .conflicts import replay_note, start_conflicts
from .finality import final, now_utc
from .folder import EventFolder, parquet_bytes
from .people import people_of
from .plan_check import check_plan_unchanged
from .transaction import step
from .walkovers import forfeited_tables, match_adjustments

LEDGER_LAST = b"guandan_dup.ledger_last_id"
"""Standings metadata: the last ledger row id the standings were scored with."""
RESULTS_FILES = b"guandan_dup.results_files"
"""Standings metadata: SHA-256 of each round's results file the standings were scored from."""
LEDGER_EFFECTS = b"guandan_dup.ledger_effects"
"""Scored-round metadata: ``effects_digest`` of the ledger the round was scored with."""
SCORED_EFFECTS = {
    "artificial": ["round", "table", "set", "ns_adjusted", "ew_adjusted", "variable"],
    "assigned": ["round", "table", "set", "ns_level", "ew_level"],
    "not_played": ["round", "table", "set"],
    "fouled": ["round", "set", "table", "split"],
    "entries": ["round", "player", "team"],
    "substitutes": ["round", "player", "for_player"],
    "penalties": ["round", "player", "points"],
    "team_penalties": ["round", "team", "match_halves", "level_hundredths"],
    "match_adjustments": ["round", "team", "kind"],
}
"""The effects a round's scoring reads (in any format), and the columns of each that its
outputs depend on: not the ledger ids, reasons or notes, which change no figure."""


def read_ledger(folder: EventFolder) -> pd.DataFrame:
    """The folder's ledger, or an empty one before the first decision. A hand-edited file
    is checked as it is read (``LedgerFileError`` naming the row), against the event too,
    so status, score and export refuse it alike rather than apply a decision never made;
    so is an event.toml edited after rounds were dealt or seated (``check_plan_unchanged``)."""
    check_plan_unchanged(folder)
    path = folder.path / LEDGER_FILE
    if not path.exists():
        return empty()
    ledger = load(path)
    problems = event_problems(event_context(folder, ledger), ledger, LEDGER_FILE)
    if problems:
        raise LedgerFileError(problems)
    return ledger


def event_context(folder: EventFolder, ledger: pd.DataFrame | None = None,
                  now: pd.Timestamp | None = None) -> Context:
    """The plan, players and final rounds of the folder as the ledger room's ``Context``."""
    plan = folder.plan
    ledger = read_ledger(folder) if ledger is None else ledger
    planned, ids, pair_of, team_of, seated = _event_facts(folder)
    return Context(plan.kind, plan.rounds, planned, ids, pair_of, team_of,
                   final(folder, ledger, now), by_team=plan.event_format.by_team,
                   seated=seated, byes=team_byes(folder),
                   not_applied=plan.event_format.ledger_not_applied,
                   three_failures_reset=plan.three_failures_reset)


_FACTS_CACHE: dict[str, tuple[tuple, tuple]] = {}
"""Folder -> (its files' stamps, ``_event_facts``): see ``_event_facts``."""


def _event_facts(folder: EventFolder) -> tuple:
    """The parts of ``event_context`` that only event.toml, players.parquet and the rounds'
    seating files decide (the planned sets, the ids, pairs, teams and seated players), kept
    while those files' stamps are unchanged. Every step reads the ledger through
    ``event_context``, often several times (``take_rows`` of the live server's every batch
    did five times): at a million players each build cost 1-2 s, the same each time. A step
    replaces a file by renaming a new one in, so a changed file always has another stamp;
    the values are only read, never changed, by the ledger room."""
    plan = folder.plan
    files = [folder.path / "event.toml", folder.path / "players.parquet"]
    files += [folder.file(r, "seating") for r in range(1, plan.rounds + 1)]
    stamps = tuple(_stamp(p) for p in files)
    key = str(folder.path.resolve())
    known = _FACTS_CACHE.get(key)
    if known is not None and known[0] == stamps:
        return known[1]
    planned = pd.DataFrame(
        [(r, t, s) for r in range(1, plan.rounds + 1) for t, s in plan.planned_results(r)],
        columns=["round", "table", "set"])
    players = folder.players()
    ids = tuple(players["player"].astype(str).tolist())  # not per element: 1M ids, 1 s
    pair_of = dict(zip(ids, players["pair"].astype(str), strict=True)) if "pair" in players else {}
    team_of = dict(zip(ids, players["team"].astype(int), strict=True)) if "team" in players else {}
    facts = (planned, ids, pair_of, team_of, seated_players(folder))
    if len(_FACTS_CACHE) > 8:
        _FACTS_CACHE.clear()
    _FACTS_CACHE[key] = (stamps, facts)
    return facts


def _stamp(path) -> tuple | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def team_byes(folder: EventFolder) -> dict[int, frozenset[int]]:
    """Round -> the teams its matches file gives a bye (a match without an away team)."""
    out = {}
    for r in range(1, folder.plan.rounds + 1):
        matches = folder.read(r, "matches") if folder.plan.event_format.by_team else None
        if matches is not None:
            out[r] = frozenset(int(h) for h in matches.loc[matches["away"].isna(), "home"])
    return out


def seated_players(folder: EventFolder) -> dict[int, frozenset[str]]:
    """Round -> the players its seating file puts at a table, for the rounds seated so far
    (the ledger refuses a substitute who already plays the round)."""
    out = {}
    for r in range(1, folder.plan.rounds + 1):
        seating = folder.read(r, "seating")
        if seating is not None:
            seats = seating[["north", "east", "south", "west"]].stack()  # drops empty seats
            out[r] = frozenset(seats.astype(str).tolist())  # whole columns: 1M seats, 0.1 s
    return out


def effects(folder: EventFolder, ledger: pd.DataFrame | None = None) -> Effects:
    """The folder's ledger replayed."""
    ledger = read_ledger(folder) if ledger is None else ledger
    return replay(ledger, event_context(folder, ledger))


def will_not_play_rows(folder: EventFolder, ledger: pd.DataFrame | None = None
                       ) -> frozenset[tuple[int, int, int]]:
    """Every (round, table, set) the ledger (default: the folder's) says no results file
    will bring: the ``will_not_play`` that publication (issue 9's ``event.publish``) takes
    to call a set complete. In a team event, both rooms of a match forfeited or excused; in
    a knockout, a match a withdrawn side forfeits (``walkovers``)."""
    decided = effects(folder, ledger)
    rows = decided.will_not_play
    out = set(zip(rows["round"].tolist(), rows["table"].tolist(), rows["set"].tolist(),
                  strict=True))
    out |= {(r, t, s) for r, t in forfeited_tables(folder, decided)
            for s in folder.plan.sets_of_round(r)}
    adjusted = match_adjustments(folder, decided)
    for round_no, team in zip(adjusted["round"], adjusted["team"], strict=True):
        matches = folder.read(int(round_no), "matches")
        if matches is None:
            continue
        mine = matches[(matches["home"] == team) | (matches["away"] == team)]
        sets = folder.plan.sets_of_round(int(round_no))
        out |= {(int(round_no), int(t), s) for m in mine.itertuples()
                for t in (m.open_table, m.closed_table) if not pd.isna(t) for s in sets}
    return frozenset(out)


def _entered(players: pd.DataFrame, row: pd.Series) -> pd.DataFrame:
    """players.parquet with a late entry appended (last in the seeding order)."""
    if "pair" in players:
        raise GuandanError("a late entry in a pairs event needs its pair: add the two players "
                           "to the players file before the event instead")
    seed = players["seed"].max()
    extra = {"player": row["player"],
             "name": row["player"] if pd.isna(row["name"]) else row["name"],
             "seed": (0 if pd.isna(seed) else int(seed)) + 1}
    if "team" in players:
        extra["team"] = int(row["team"])
    new = pd.concat([players, pd.DataFrame([extra])], ignore_index=True)
    return new.astype(players.dtypes.to_dict())


def what_it_does(folder: EventFolder, ledger: pd.DataFrame, row: pd.Series) -> str:
    """``describe(row)`` with the people named ("P017 何军"); a penalty given by its scale
    or an overtime with the step the replayed ledger takes after earlier offences, and in a
    pairs event the pair it comes off (said once: the amount a director gave is not
    repeated)."""
    people = people_of(folder)
    if row["kind"] not in ("penalty", "overtime"):
        return describe(row, people)
    decided = replay(ledger, event_context(folder, ledger))
    mine = decided.penalties[decided.penalties["ledger_id"] == int(row["id"])]
    teams = decided.team_penalties[decided.team_penalties["ledger_id"] == int(row["id"])]
    step = None
    if len(mine):
        first = mine.iloc[0]
        off = amount("points", first["points"]) if first["points"] != "0" else ""
        step = _step(row, first["note"], off)
    elif len(teams):
        first = teams.iloc[0]
        step = _step(row, first["note"], ", ".join(
            amount(column, f"{first[column]:g}") for column in ("match_points", "level_points")
            if first[column]))
    text = describe(row, people, step)
    pair = people.pair_by_player().get(str(row["player"])) if not pd.isna(
        row.get("player")) else None
    if pair is not None and len(mine):
        text += f" (off both players of pair {people.pair(pair)})"
    return text


def _step(row: pd.Series, note: str, off: str) -> str:
    """What the replay made of a penalty by scale (its ``note``: "art. 52 scale 2, first
    offence") or an overtime (the amount ``off`` alone: the row says the minutes)."""
    if row["kind"] == "overtime":
        return off
    return f"{note}: {off}" if off else note


def ledger_lines(folder: EventFolder, row: pd.Series, effect: str | None = None) -> list[str]:
    """What the director reads once ``row`` is added (``effect``: ``add_entry``'s) or a row
    is withdrawn by it (``row`` is the ``retract`` row: the row taken back is said beside
    it), then the step that applies the change, paste-ready (``follow_up``): the CLI and
    the live console say the same."""
    people = people_of(folder)
    about = row
    if row["kind"] == "retract":
        about = read_ledger(folder).set_index("id").loc[int(row["withdraws"])]
        effect = f"{describe(row, people)} ({describe(about, people)})"
    step = follow_up(about["kind"], folder.path, int(about["round"]), folder.rounds_scored(),
                     folder.stale_rounds())
    return [f"Ledger row {int(row['id'])}: {effect or describe(row, people)}",
            *([step] if step else [])]


@step("event ledger add")
def add_entry(folder: EventFolder, kind: str, round_no: int, reason: str, command: str = "",
              now: pd.Timestamp | None = None, **fields) -> tuple[pd.Series, str]:
    """Check and record one decision; returns the row added and what it does."""
    if kind == "open":
        raise GuandanError(f"a round is opened by `{event_command(folder.path, 'open', round_no)}"
                           "`, which checks it is dealt and seated first; nothing was written")
    ledger = read_ledger(folder)
    now = now or now_utc()
    fields = _team_by_number(folder, fields)
    new = add(ledger, event_context(folder, ledger, now), kind, round_no, reason, time=now,
              command=command, **fields)
    row = new.iloc[-1]
    note = check_stored_results(folder, new, row)
    files = {folder.path / LEDGER_FILE: dump(new)}
    if kind == "enter":
        files[folder.path / "players.parquet"] = parquet_bytes(_entered(folder.players(), row))
    effect = what_it_does(folder, new, row) + (f". Then: {note}" if note else "")
    folder.replace_files(files)
    return row, effect


def _team_by_number(folder: EventFolder, fields: dict) -> dict:
    """``fields`` with a team given as text (``--team``: its number, ``#number`` or its
    label in the players file, docs/teams.md) as the team's number; refused with the ways
    to write it."""
    team = fields.get("team")
    if not isinstance(team, str) or not folder.plan.event_format.by_team:
        return fields
    number, rule = people_of(folder).team_named(team)
    if number is None:
        raise LedgerError([Problem("ledger entry", None, "--team", team, rule)])
    return fields | {"team": number}


def check_stored_results(folder: EventFolder, ledger: pd.DataFrame,
                         row: pd.Series) -> str | None:
    """Refuse ``row`` (a late arrival, art. 32) when the set-level result already stored
    for its table's set cannot have been played from the start it gives: ingesting that
    result after the row is refused, so the row after the result is too, and the outcome
    never depends on the order of the commands. The check is ingestion's own
    (``validate_sets`` with the round's start levels). A result replayed from a board-level
    file is to be ingested again instead (``conflicts``): returns what to tell the
    director then. A withdrawal is checked against the results of its player."""
    if row["kind"] == "withdraw":
        _check_withdrawn_did_not_play(folder, row)
    if row["kind"] != "late" or pd.isna(row["table"]) or pd.isna(row["set"]):
        return None
    round_no, table, set_no = int(row["round"]), int(row["table"]), int(row["set"])
    decided = effects(folder, ledger).start_levels
    mine = decided[decided["ledger_id"] == int(row["id"])]
    if mine.empty:
        return None  # over 10 minutes late: a forfeit replaces the result
    conflicts = start_conflicts(folder, round_no, decided, {(table, set_no)})
    if not conflicts:
        return None
    found = conflicts[0]
    if found.from_boards:
        return replay_note(conflicts)
    raise GuandanError(
        f"the stored result of round {round_no} table {table} set {set_no} is "
        f"{found.levels}, which the start this decision gives cannot produce ({found.why}); "
        "nothing was written. If the result is wrong, correct it first (`"
        f"{ingest_command(folder.path, round_no)}` with the corrected result), then add the "
        "decision again")


def _check_withdrawn_did_not_play(folder: EventFolder, row: pd.Series) -> None:
    """Refuse withdrawing a player (in a pairs event, the pair) from round R when results
    of round R or later already have them at a table: ingesting such a result after the
    withdrawal is refused (``ByStanding.result_problems``), so the withdrawal after the
    result is too. In team events and knockouts a withdrawal forfeits the side's matches
    and wins over their rooms' results (``walkovers``)."""
    if folder.plan.event_format.by_team or pd.isna(row["player"]):
        return
    first = int(row["round"])
    players = folder.players()
    gone = {str(row["player"])}
    if "pair" in players:
        pair = players.loc[players["player"] == row["player"], "pair"]
        gone = set(players.loc[players["pair"].isin(pair), "player"].astype(str))
    played = []
    for r in range(first, folder.plan.rounds + 1):
        results = folder.read(r, "results")
        if results is None:
            continue
        seats = results[["table", "north", "east", "south", "west"]]
        tables = sorted({int(t) for t, *ids in seats.itertuples(index=False)
                         if gone & {str(p) for p in ids}})
        played += [f"round {r} table {t}" for t in tables]
    if played:
        who = people_of(folder).players(sorted(gone))
        has = "have" if len(gone) > 1 else "has"
        raise GuandanError(
            f"{who} already {has} results in {words(played)}, which a withdrawal from "
            f"round {first} on contradicts (ingesting them after it is refused); nothing was "
            f"written. Record the withdrawal from the first round they did not play, or "
            "correct those results first")


@step("event ledger withdraw")
def withdraw_entry(folder: EventFolder, row_id: int, reason: str, command: str = "",
                   override: bool = False, now: pd.Timestamp | None = None) -> pd.Series:
    """Take back ledger row ``row_id`` by a ``retract`` row; returns the row added."""
    ledger = read_ledger(folder)
    now = now or now_utc()
    context = event_context(folder, ledger, now)
    target = ledger[ledger["id"] == row_id]
    if len(target) and target["kind"].iloc[0] == "enter":
        entered = target.iloc[0]
        raise GuandanError(
            f"row {row_id} entered player {people_of(folder).player(entered['player'])}, who "
            "stays in the players file; withdraw the player instead (`"
            f"{event_command(folder.path, 'ledger add', None, 'withdraw', '--player')} "
            f"{pasteable(entered['player'])} --round {int(entered['round'])}` with its "
            "--reason)")
    new = withdraw(ledger, context, row_id, reason, time=now, command=command,
                   override=override)
    _check_stays_closed(folder, ledger, new, row_id)
    folder.replace_files({folder.path / LEDGER_FILE: dump(new)})
    return new.iloc[-1]


def _check_stays_closed(folder: EventFolder, ledger: pd.DataFrame, new: pd.DataFrame,
                        row_id: int) -> None:
    """Refuse a withdrawal that would reopen a table's set to be played once its cards or
    results may be out (SPEC 10, publication): after the reveal every board is public;
    before it, a set that is public with the row in force (``publish.public_sets``: every
    other table has played it) may already stand in an export or a site, with its
    travellers and hand records. A table whose result is stored reopens nothing."""
    from .publish import public_sets, stored_rows  # publish imports this module

    freed = will_not_play_rows(folder, ledger) - will_not_play_rows(folder, new)
    rounds = sorted({r for r, _, _ in freed})
    freed -= stored_rows(folder, rounds)
    public = public_sets(folder, rounds, ledger)
    reopened = sorted((r, t, s) for r, t, s in freed if folder.key_revealed or (r, s) in public)
    if not reopened:
        return
    where = "; ".join(f"round {r} table {t} set {s}" for r, t, s in reopened)
    why = ("the key is revealed, so every board is public" if folder.key_revealed else
           "every other table has played " + ", ".join(sorted(
               {f"set {s} of round {r}" for r, _, s in reopened})) + ", so its travellers "
           "and hand records may already be published (`event export`, `event site`)")
    raise GuandanError(
        f"row {row_id} cannot be withdrawn: {why}, and withdrawing it would reopen {where} "
        "to be played with cards anyone can look up. Nothing was changed: the row stays in "
        "force (if the table did play the set, ingest its result first: the row can then "
        "be withdrawn)")


def scoring_metadata(folder: EventFolder, round_no: int,
                     ledger: pd.DataFrame) -> dict[bytes, bytes]:
    """What the standings of ``round_no`` record about their sources (see ``event diff``):
    the hash of every round's results file, the last ledger row and the digest of the
    ledger's effects on rounds 1..R (``ledger_changed``), nothing time-bound."""
    files = {}
    for r in range(1, round_no + 1):
        stored = folder.results_bytes(r)
        if stored is not None:
            files[r] = hashlib.sha256(stored).hexdigest()
    last = int(ledger["id"].max()) if len(ledger) else 0
    digest = ledger_digest(folder, ledger, round_no)
    return {LEDGER_LAST: str(last).encode(), RESULTS_FILES: json.dumps(files).encode(),
            LEDGER_EFFECTS: digest.encode()}


def ledger_digest(folder: EventFolder, ledger: pd.DataFrame, round_no: int) -> str:
    """``effects_digest`` of ``ledger``'s effects as scoring applies them: with the
    forfeits of withdrawn teams and pairs (``walkovers``), so a withdrawal recorded after a
    round was scored makes it out of date exactly when it changes a match of the round."""
    decided = effects(folder, ledger)
    scored = replace(decided, match_adjustments=match_adjustments(folder, decided))
    return effects_digest(scored, round_no, forfeited_tables(folder, decided))


def effects_digest(decided: Effects, round_no: int,
                   walkovers: Collection[tuple[int, int]] = ()) -> str:
    """SHA-256 of what the ledger decides for rounds 1..``round_no`` that scoring reads
    (``SCORED_EFFECTS``), in a fixed order: equal digests, equal scored outputs, so a row
    about a later round, an ``ends`` row or a late start the results allow leaves it as is.
    ``walkovers`` are the (round, table) of knockout matches a withdrawn pair forfeits.
    """
    parts = {}
    for name, columns in SCORED_EFFECTS.items():
        frame = getattr(decided, name)
        frame = frame.loc[frame["round"] <= round_no, columns]
        rows = [[None if pd.isna(v) else str(v) for v in row]
                for row in frame.itertuples(index=False)]
        parts[name] = sorted(rows, key=json.dumps)
    parts["walkovers"] = sorted([r, t] for r, t in walkovers if r <= round_no)
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


def ledger_changed(folder: EventFolder, round_no: int, metadata: dict[bytes, bytes]) -> bool:
    """Whether the ledger now decides round 1..R differently from when round R was scored
    (``metadata``: its scored file's). Outputs scored before the digest was recorded are
    compared through the ledger as it was then, its rows up to the last id they record;
    outputs recording neither predate the ledger's metadata and count as up to date."""
    ledger = read_ledger(folder)
    recorded = metadata.get(LEDGER_EFFECTS)
    if recorded is None:
        last = metadata.get(LEDGER_LAST)
        if last is None:
            return False
        then = ledger[ledger["id"] <= int(last)]
        recorded = ledger_digest(folder, then, round_no).encode()
    return recorded != ledger_digest(folder, ledger, round_no).encode()

"""Helpers for the event-folder tests: players files, results files, folder snapshots, the
CLI runs that make the events several test files share (a Swiss cup, knockouts), and a
forked child holding the folder's lock."""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.event import EventFolder, RandomModel
from guandan_dup.event.entrants import demo_players, demo_teams
from guandan_dup.levels import level_to_text
from guandan_dup.rules.progression import play_set

KEY = bytes(range(32))
SET_KEY = ["round", "group", "table", "set", "north", "east", "south", "west"]
runner = CliRunner()


def players_csv(path: Path, count: int, kind: str = "individual", bom: bool = False) -> Path:
    """A players file with Chinese names, as a director would save it."""
    players = demo_players(count, pairs=kind == "pairs")
    path.write_text(players.to_csv(index=False), encoding="utf-8-sig" if bom
                    else "utf-8")
    return path


def board_results(folder: EventFolder, round_no: int, seed: int = 0) -> pd.DataFrame:
    """A board-level results file for every table of the round (the random model's)."""
    return RandomModel(seed)(folder, round_no)


def set_results(folder: EventFolder, round_no: int, seed: int = 0) -> pd.DataFrame:
    """The same results as a set-level file: final levels by the real level rules."""
    boards = board_results(folder, round_no, seed)
    rows = [
        (*key, *(level_to_text(x) for x in (state.ns_level, state.ew_level)))
        for key, group in boards.groupby(SET_KEY, sort=True)
        if (state := play_set(group["finish"].tolist()))
    ]
    return pd.DataFrame(rows, columns=[*SET_KEY, "ns_level", "ew_level"])


def write(frame: pd.DataFrame, path: Path) -> Path:
    frame.to_parquet(path, index=False)
    return path


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file's bytes under ``directory``, by relative path."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def run(*args, code=0) -> str:
    """The output of ``guandan-dup ARGS`` (each argument as text), once its exit code is
    ``code``."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def stored_after(directory, path) -> pd.DataFrame:
    """Round 1's stored results once ``event ingest`` has taken ``path``."""
    run("event", "ingest", directory, path, "--round", 1)
    return EventFolder.open(directory).read(1, "results")


def reference(directory, tmp_path, results: pd.DataFrame) -> pd.DataFrame:
    """What a copy of the event stores from ``results`` (a complete Parquet file)."""
    copy = tmp_path / "copy"
    shutil.copytree(directory, copy)
    return stored_after(copy, write(results, tmp_path / "reference.parquet"))


def seated_event(tmp_path: Path, rounds: int = 2) -> Path:
    """``tmp_path / "event"``, made by the CLI: 17 players (one bye a round), 4 tables,
    ``rounds`` rounds of 2 sets of 3 boards; round 1 dealt and seated."""
    directory = tmp_path / "event"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 17),
        "--tables-per-group", 4, "--sets-per-round", 2, "--boards-per-set", 3,
        "--rounds", rounds)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory


def team_players(path, sizes):
    """A players file: team T1 .. Tn with the given numbers of players."""
    labels = [f"T{i}" for i, size in enumerate(sizes, 1) for _ in range(size)]
    players = demo_players(len(labels)).assign(team=labels)
    players.to_csv(path, index=False, encoding="utf-8-sig")
    return path


def swiss_cup(tmp_path, sizes, boards_per_set, dealt=(1, 2)):
    """A two-round Swiss of teams of ``sizes`` in ``tmp_path / "cup"``, rounds ``dealt``
    dealt and round 1 seated: the directory and its folder."""
    directory = tmp_path / "cup"
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players",
        team_players(tmp_path / "players.csv", sizes), "--rounds", 2,
        "--boards-per-set", boards_per_set)
    for r in dealt:
        run("event", "deal", directory, "--round", r, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory, EventFolder.open(directory)


def named_teams(tmp_path: Path, labels: list[str]) -> Path:
    """A round robin in ``tmp_path / "cup"`` of four-player teams named ``labels`` (in team
    number order), round 1 dealt and seated: for what the cards do with long names."""
    players = demo_players(4 * len(labels)).assign(
        team=[label for label in labels for _ in range(4)])
    players.to_csv(tmp_path / "players.csv", index=False)
    directory = tmp_path / "cup"
    run("event", "init", directory, "--kind", "teams", "--format", "round-robin",
        "--players", tmp_path / "players.csv", "--rounds", len(labels) - 1,
        "--boards-per-set", 3)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "seat", directory, "--round", 1)
    return directory


def pairs_knockout(tmp_path: Path, pairs: int, *extra) -> Path:
    """A pairs knockout of ``pairs`` demo pairs in ``tmp_path / "ko"``, made by the CLI."""
    directory = tmp_path / "ko"
    csv = players_csv(tmp_path / "players.csv", 2 * pairs, "pairs")
    run("event", "init", directory, "--kind", "pairs", "--format", "knockout", "--players", csv,
        "--boards-per-set", 3, *extra)
    return directory


def team_knockout_by_lot(tmp_path: Path, teams: int) -> Path:
    """A team knockout of ``teams`` demo teams drawn by lot, in ``tmp_path / "ko"``."""
    players, _ = demo_teams(teams)
    players.to_csv(tmp_path / "players.csv", index=False)
    directory = tmp_path / "ko"
    run("event", "init", directory, "--kind", "teams", "--format", "knockout", "--players",
        tmp_path / "players.csv", "--boards-per-set", 3)
    return directory


def holding_child(hold: Callable[[], AbstractContextManager]) -> int:
    """A forked child inside ``hold()`` until killed; its pid once it is inside."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            with hold():
                os.write(write_end, b"x")
                time.sleep(30)
        finally:
            os._exit(0)
    assert os.read(read_end, 1) == b"x"
    os.close(read_end)
    os.close(write_end)
    return pid


def killed(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def retracted_as_before(folder: EventFolder, row_id: int, reason: str) -> None:
    """Withdraw ledger row ``row_id`` as versions before issue 21's pass did, even when it
    reopens a public set (``event ledger withdraw`` now refuses that): for the tests of what
    publication does when a set is pending again, which a folder of an older version, or a
    hand-edited ledger, can still bring."""
    from guandan_dup.event.ledger import event_context, read_ledger
    from guandan_dup.ledger import LEDGER_FILE, dump, withdraw

    ledger = read_ledger(folder)
    ledger = withdraw(ledger, event_context(folder, ledger), row_id, reason, override=True)
    (folder.path / LEDGER_FILE).write_bytes(dump(ledger))


def scored_cup(tmp_path: Path) -> tuple[Path, EventFolder]:
    """``swiss_cup`` of four teams of 4 with round 1 played (seed 1) and scored."""
    directory, folder = swiss_cup(tmp_path, [4, 4, 4, 4], 3)
    run("event", "ingest", directory, write(set_results(folder, 1, seed=1),
                                            tmp_path / "r1.parquet"), "--round", 1)
    run("event", "score", directory, "--round", 1)
    return directory, folder


def decided_results(directory: Path, round_no: int) -> pd.DataFrame:
    """Set-level results for every table, level matches won by EW on extra boards."""
    results = set_results(EventFolder.open(directory), round_no, seed=round_no)
    level = results["ns_level"] == results["ew_level"]
    return results.assign(tiebreak=pd.Series("EW", results.index).where(level))


def play_knockout_round(tmp_path: Path, directory: Path, round_no: int) -> str:
    """Deal, seat, ingest decided results and score knockout round ``round_no``; returns
    what the score printed."""
    run("event", "deal", directory, "--round", round_no, "--quiet")
    run("event", "seat", directory, "--round", round_no)
    file = write(decided_results(directory, round_no), tmp_path / f"r{round_no}.parquet")
    run("event", "ingest", directory, file, "--round", round_no)
    return run("event", "score", directory, "--round", round_no)


def names_of(folder: EventFolder) -> dict[str, str]:
    """Player id -> name, from the folder's players file."""
    players = folder.players()
    return dict(zip(players["player"], players["name"], strict=True))


def by_name(frame: pd.DataFrame, folder: EventFolder, columns, rows=None, dress=str):
    """``frame`` with the seat ``columns`` of ``rows`` (positions; all by default) holding
    the players' names (as ``dress`` types them) instead of their ids."""
    names = names_of(folder)
    out = frame.copy()
    at = out.index if rows is None else out.index[rows]
    for column in columns:
        out.loc[at, column] = out.loc[at, column].map(lambda p: dress(names[p]))
    return out


def saved(frame: pd.DataFrame, path):
    """``frame`` saved as a director's file of ``path``'s kind (.csv, .xlsx, .parquet)."""
    if path.suffix == ".csv":
        frame.to_csv(path, index=False)
    elif path.suffix == ".xlsx":
        frame.to_excel(path, index=False)
    else:
        write(frame, path)
    return path

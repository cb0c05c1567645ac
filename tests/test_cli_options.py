"""One meaning per option name: the new spellings, and the older ones still answering, hidden.

``--to`` is a file format (event export, standings, travellers, deal), ``--format`` an
event's format, ``--teams N`` a number of teams, ``--team-names FILE`` the file naming them,
``--kind`` an event's kind (demo too). The old spellings keep working and help hides them.
"""

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from guandan_dup.cli import demo as demo_module
from guandan_dup.cli.app import app
from guandan_dup.cli.options import OLD_SPELLINGS, format_list, hide_old_spellings
from guandan_dup.event.entrants import demo_players

runner = CliRunner()


def run(*args, code=0):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def options_shown(*path) -> str:
    """The option names a command's help shows (the words of its help starting with --)."""
    text = run(*path, "--help").stdout
    return " ".join(w for w in text.replace("│", " ").split() if w.startswith("--"))


@pytest.mark.parametrize(("path", "shown", "hidden"), [
    (("event", "init"), ["--team-names", "--kind", "--format"], ["--teams"]),
    (("event", "export"), ["--to"], ["--format"]),
    (("standings",), ["--to"], ["--format"]),
    (("travellers",), ["--to"], ["--format"]),
    (("deal",), ["--to"], ["--format"]),
    (("demo",), ["--kind"], ["--teams"]),
    (("move",), ["--players", "--kind"], ["--pairs"]),
    (("simulate",), ["--teams", "--format", "--players", "--pairs"], []),
])
def test_help_shows_the_new_spelling_only(path, shown, hidden):
    words = options_shown(*path).split()
    for name in shown:
        assert name in words, (path, name)
    for name in hidden:
        assert name not in words, (path, name)


def test_hiding_twice_changes_nothing():
    group = typer.main.get_command(app)
    command = group.get_command(None, "standings")
    names = [p.opts for p in command.params]
    hide_old_spellings(command)
    assert [p.opts for p in command.params] == names
    assert names.count(["--format"]) == 1 and names.count(["--to"]) == 1


def test_every_old_spelling_pair_is_used_by_some_command():
    group = typer.main.get_command(app)
    seen = set()
    for name in group.list_commands(None):
        stack = [group.get_command(None, name)]
        while stack:
            command = stack.pop()
            stack += getattr(command, "commands", {}).values()
            opts = {o for p in command.params for o in getattr(p, "opts", [])}
            seen |= {(new, old) for new, old in OLD_SPELLINGS if new in opts and old in opts}
    assert seen == OLD_SPELLINGS


@pytest.mark.parametrize(("given", "expected"), [
    (["csv"], ["csv"]),
    (["csv,md"], ["csv", "md"]),
    (["csv", "md", "csv"], ["csv", "md"]),
    (["html, xlsx,"], ["html", "xlsx"]),
    (["all"], ["csv", "xlsx", "md", "html"]),
    (["md,all"], ["md", "csv", "xlsx", "html"]),
    (["bogus"], ["bogus"]),
])
def test_format_list_takes_comma_lists_repeats_and_all(given, expected):
    assert format_list(given) == expected


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """A scored results folder (``guandan-dup score``) and a simulated event folder."""
    base = tmp_path_factory.mktemp("options")
    columns = {"round": [1, 1], "table": [1, 2], "set": [1, 1], "north": ["A", "E"],
               "east": ["B", "F"], "south": ["C", "G"], "west": ["D", "H"],
               "ns_level": ["7", "4"], "ew_level": ["4", "4"]}
    pq.write_table(pa.table(columns), base / "r.parquet")
    run("score", base / "r.parquet", "--out", base / "out", "--quiet")
    run("simulate", "--players", 8, "--rounds", 1, "--sets-per-round", 1, "--boards-per-set",
        1, "--tables-per-group", 2, "--out", base / "event", "--quiet")
    return base


@pytest.mark.parametrize("command", ["standings", "travellers"])
def test_standings_and_travellers_take_to_and_the_old_format(scored, command):
    new = run(command, scored / "out", "--round", 1, "--to", "csv").stdout
    old = run(command, scored / "out", "--round", 1, "--format", "csv").stdout
    assert new == old and new.count(",") > 3
    bad = run(command, scored / "out", "--round", 1, "--to", "pdf", code=2)
    assert "'pdf' is not one of" in bad.output


def test_the_xlsx_refusal_is_the_same_whichever_spelling(scored):
    for spelling in ("--to", "--format"):
        refused = run("standings", scored / "out", "--round", 1, spelling, "xlsx", code=1)
        assert refused.stderr == "Error: --format xlsx writes a binary file: give --out " \
                                 "FILE.xlsx\n"


def test_deal_takes_to_and_the_old_format(tmp_path):
    run("key", "new", "--out", tmp_path / "k")
    args = ["deal", "--key", tmp_path / "k", "--boards", "1-2", "--out", "-", "--quiet"]
    new = run(*args, "--to", "json").stdout
    assert new.startswith("[") and new == run(*args, "--format", "json").stdout


def exported(folder: Path) -> set[str]:
    return {p.suffix for p in (folder / "exports").iterdir() if p.name.startswith("standings")}


@pytest.mark.parametrize(("options", "suffixes"), [
    (["--to", "md"], {".md"}),
    (["--to", "csv,md"], {".csv", ".md"}),
    (["--to", "csv", "--to", "html"], {".csv", ".html"}),
    (["--format", "csv", "--format", "md"], {".csv", ".md"}),
    (["--format", "md,html"], {".md", ".html"}),
    (["--to", "all"], {".csv", ".xlsx", ".md", ".html"}),
    ([], {".csv", ".xlsx", ".html"}),
])
def test_event_export_takes_comma_lists_repeats_and_all(scored, tmp_path, options, suffixes):
    import shutil

    folder = tmp_path / "event"
    shutil.copytree(scored / "event", folder)
    shutil.rmtree(folder / "exports")
    out = run("event", "export", folder, *options).stdout
    assert out.startswith("Wrote ")
    assert exported(folder) == suffixes


def test_event_export_refuses_an_unknown_format_in_a_list(scored):
    refused = run("event", "export", scored / "event", "--to", "csv,pdf", code=1)
    assert refused.stderr.startswith(
        "Error: unknown export format 'pdf': expected csv, xlsx, md or html, or all (a comma "
        "list: csv,md)")


def test_event_init_takes_team_names_and_the_old_teams(tmp_path):
    labels = [f"T{t}" for t in (1, 2, 3) for _ in range(4)]
    demo_players(len(labels)).assign(team=labels).to_csv(tmp_path / "players.csv", index=False)
    (tmp_path / "names.csv").write_text("team,name\nT1,北京队\n", encoding="utf-8")
    outputs = []
    for spelling in ("--team-names", "--teams"):
        directory = tmp_path / spelling.strip("-")
        out = run("event", "init", directory, "--kind", "teams", "--format", "swiss",
                  "--players", tmp_path / "players.csv", "--rounds", 2, "--boards-per-set", 2,
                  "--name", "cup", spelling, tmp_path / "names.csv").stdout
        outputs.append(out.splitlines()[0].replace(str(directory), "DIR"))
        teams = pd.read_parquet(directory / "teams.parquet").set_index("label")
        assert teams.loc["T1", "name"] == "北京队"
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(("options", "kind"), [
    ([], "individual"),
    (["--kind", "teams"], "teams"),
    (["--teams"], "teams"),
    (["--kind", "individual", "--players", "8"], "individual"),
])
def test_demo_kind_and_the_old_teams_flag_ask_the_library_the_same(monkeypatch, options, kind):
    asked = {}

    def record(directory, **options):
        asked.update(options, directory=directory)
        raise typer.Exit(0)

    monkeypatch.setattr(demo_module, "demo_event", record)
    run("demo", *options, "--quiet")
    assert asked["kind"] == kind and asked["show_progress"] is False


def test_demo_refuses_players_with_either_spelling_of_a_team_demo(tmp_path):
    for options in (["--teams"], ["--kind", "teams"]):
        refused = run("demo", *options, "--players", 20, "--dir", tmp_path / "p", code=1)
        assert refused.stderr.startswith("Error: demo --teams plays 8 teams of 4 players")
    refused = run("demo", "--kind", "pairs", "--dir", tmp_path / "p", code=1)
    assert refused.stderr == "Error: demo kind 'pairs': expected individual or teams\n"
    assert not (tmp_path / "p").exists()

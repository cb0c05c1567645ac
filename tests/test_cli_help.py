"""The root's --version, and help texts that list what each group offers today."""

from importlib.metadata import version

from typer.testing import CliRunner

from guandan_dup.cli.app import COMMANDS, app

runner = CliRunner()


def test_version_prints_the_installed_packages_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"guandan-dup {version('guandan-dup')}\n"


def test_version_is_listed_in_the_root_help():
    assert "--version" in runner.invoke(app, ["--help"]).stdout


def test_event_help_lists_every_command_of_the_group():
    listed = COMMANDS["event"][1]
    for name in ("init", "deal", "seat", "ingest", "score", "export", "status", "reveal",
                 "site", "ledger", "diff"):
        assert name in listed, name
    shown = " ".join(runner.invoke(app, ["event", "--help"]).stdout.split())
    assert "status, reveal, site, ledger, diff" in shown


def test_simulate_and_demo_help_say_they_do_team_events_and_knockouts():
    assert "teams or a knockout" in COMMANDS["simulate"][1]
    assert "team Swiss" in COMMANDS["demo"][1]

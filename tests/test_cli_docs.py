"""House rule 10: every CLI command and option has help text, and every command a page in docs/."""

from pathlib import Path

import pytest
import typer

from guandan_dup.cli.app import app

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _commands(command, path=()):
    """Yield (path, command) for every leaf command and group below the root."""
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield (*path, name), sub
        yield from _commands(sub, (*path, name))


ROOT = typer.main.get_command(app)
for _name in ROOT.list_commands(None):  # the root loads command modules when asked for them
    ROOT.get_command(None, _name)
COMMANDS = list(_commands(ROOT))


def test_the_cli_has_the_contract_commands():
    names = {" ".join(path) for path, _ in COMMANDS}
    expected = {
        "key new", "deal", "deal verify", "score", "standings", "move", "event init",
        "event deal", "event seat", "event ingest", "event score", "event export",
        "event status", "event site", "rules classify", "rules beats", "simulate", "demo",
    }
    assert expected <= names, sorted(expected - names)


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_every_command_and_option_has_help(path):
    command = dict(COMMANDS)[path]
    assert (command.help or "").strip(), f"guandan-dup {' '.join(path)} has no help text"
    for param in command.params:
        if param.param_type_name == "option" and param.name != "help":
            assert (param.help or "").strip(), f"{' '.join(path)} option {param.name} has no help"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_every_command_is_documented(path):
    text = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    assert f"guandan-dup {' '.join(path)}" in text, f"no page in docs/ shows {' '.join(path)}"

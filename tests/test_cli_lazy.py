"""The command line loads command modules and heavy libraries only when a command runs."""

import importlib
import subprocess
import sys

import pytest
import typer

from guandan_dup.cli.app import COMMANDS, app

HEAVY = ("numpy", "pandas", "pyarrow", "openpyxl", "jinja2", "guandan_dup.sim")


def _loaded_after(argv: list[str]) -> set[str]:
    code = (
        "import sys\n"
        "from guandan_dup.cli import main\n"
        f"sys.argv = ['guandan-dup', *{argv!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return set(done.stderr.split())


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["standings", "--help"]])
def test_help_imports_no_heavy_library(argv):
    assert _loaded_after(argv) == set()


def test_listed_help_is_each_commands_own_first_paragraph():
    for modules, _ in COMMANDS.values():
        for module in modules:
            importlib.import_module(f"guandan_dup.cli.{module}")
    group = typer.main.get_command(app)
    for name, (_, listed) in COMMANDS.items():
        command = group.get_command(None, name)
        first = command.help.strip().split("\n\n")[0]
        assert " ".join(first.split()) == listed, name


def test_every_registered_command_is_listed():
    registered = {info.name for info in app.registered_commands + app.registered_groups}
    assert registered <= set(COMMANDS)


def test_report_formats_are_the_reports_formats():
    from guandan_dup.cli.scoring import REPORT_FORMATS
    from guandan_dup.reports import FORMATS

    assert REPORT_FORMATS == FORMATS


def test_unknown_command_is_still_refused():
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["no-such-command"])
    assert result.exit_code == 2

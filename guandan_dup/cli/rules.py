"""``guandan-dup rules``: read a play as combinations and check whether it beats another."""

from __future__ import annotations

import json

import typer

from ..cards import parse_cards
from ..levels import level_from_text
from ..rules.combos import classify
from ..rules.compare import play_beats
from .app import app

rules_app = typer.Typer(
    no_args_is_help=True,
    help="The combinations of Guandan (seed 000 art. 3-5): classify a play, compare two plays.",
)
app.add_typer(rules_app, name="rules")

_LEVEL_HELP = "Level being played: 2..10, J, Q, K, A (its heart card is wild)."
_CARDS_HELP = "Cards such as S7 H7 BJ (one or several per argument, spaces between cards)."


@rules_app.command("classify")
def classify_command(
    cards: list[str] = typer.Argument(..., help=_CARDS_HELP),
    level: str = typer.Option(..., "--level", "-l", help=_LEVEL_HELP),
) -> None:
    """Print every reading of the cards as JSON; prints [] and exits 1 when there is none."""
    readings = classify(parse_cards(" ".join(cards)), level_from_text(level))
    typer.echo(json.dumps([reading.to_json() for reading in readings]))
    if not readings:
        raise typer.Exit(1)


@rules_app.command("beats")
def beats_command(
    cards: list[str] = typer.Argument(..., help=_CARDS_HELP),
    previous: str = typer.Option(..., "--prev", help="The play to beat, e.g. \"S8 C8\"."),
    level: str = typer.Option(..., "--level", "-l", help=_LEVEL_HELP),
) -> None:
    """Print yes if some reading of CARDS beats the strongest reading of --prev, else no."""
    play = parse_cards(" ".join(cards))
    typer.echo("yes" if play_beats(play, parse_cards(previous), level_from_text(level)) else "no")

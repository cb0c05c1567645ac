"""Simulated play: bots, one table's set, whole events, and the play-log format.

``simulate`` rehearses a whole event with bots; ``BotPlay(seed)`` is the play function it
hands to ``event.rehearse``; ``validate_log`` replays a play log against its board set;
``simulate_event`` and ``demo_event`` (``sim.run``) pick and run what ``simulate`` and
``demo`` ask for.
"""

from .bots import ErraticBot, HeuristicBot, RandomBot, heuristic_bot, random_bot
from .event import BotPlay, play_round, simulate, simulate_teams
from .playlog import validate_log
from .run import Demo, Simulation, demo_event, simulate_event
from .table import Sitting, play_sitting
from .view import Bot, View

__all__ = [
    "Bot",
    "BotPlay",
    "Demo",
    "ErraticBot",
    "HeuristicBot",
    "RandomBot",
    "Simulation",
    "Sitting",
    "View",
    "demo_event",
    "heuristic_bot",
    "play_round",
    "play_sitting",
    "random_bot",
    "simulate",
    "simulate_event",
    "simulate_teams",
    "validate_log",
]

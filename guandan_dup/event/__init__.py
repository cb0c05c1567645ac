"""The event folder and the round loop: init, deal, seat, ingest, score, export, status.

``EventFolder`` reads an event folder (the layout the results site and the simulator rely
on); each step of a director's loop is one function here, and ``rehearse`` runs them all.
What a step means for one kind of event is its format's (``event.formats``).
"""

from .create import create_event, reveal_key
from .deal import deal_round
from .export import Exported, export_event
from .folder import EventFolder
from .formats import EventFormat, format_named
from .ingest import IngestReport, ingest
from .plan import EventPlan
from .publish import build_event_site, complete_sets, public_sets, publish_site, site_data
from .random_model import RandomModel
from .rehearse import PlayFunction, Rehearsal, rehearse
from .score import score_round
from .seat import seat_event_round
from .status import EventStatus, RoundStatus, event_status

__all__ = [
    "EventFolder",
    "EventFormat",
    "EventPlan",
    "EventStatus",
    "Exported",
    "IngestReport",
    "PlayFunction",
    "RandomModel",
    "Rehearsal",
    "RoundStatus",
    "build_event_site",
    "complete_sets",
    "create_event",
    "deal_round",
    "event_status",
    "export_event",
    "format_named",
    "ingest",
    "public_sets",
    "publish_site",
    "rehearse",
    "reveal_key",
    "score_round",
    "seat_event_round",
    "site_data",
]

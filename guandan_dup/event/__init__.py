"""The event folder and the round loop: init, deal, seat, ingest, score, export, status.

``EventFolder`` reads an event folder (the layout the results site and the simulator rely
on); each step of a director's loop is one function here, and ``rehearse`` runs them all.
"""

from .create import create_event, reveal_key
from .deal import deal_round
from .export import Exported, export_event
from .folder import EventFolder
from .ingest import IngestReport, ingest
from .plan import EventPlan
from .publish import complete_sets, publish_site, site_data
from .random_model import RandomModel
from .rehearse import PlayFunction, Rehearsal, rehearse
from .score import score_round
from .seat import plan_seating, seat_event_round
from .status import EventStatus, RoundStatus, event_status

__all__ = [
    "EventFolder",
    "EventPlan",
    "EventStatus",
    "Exported",
    "IngestReport",
    "PlayFunction",
    "RandomModel",
    "Rehearsal",
    "RoundStatus",
    "complete_sets",
    "create_event",
    "deal_round",
    "event_status",
    "export_event",
    "ingest",
    "plan_seating",
    "publish_site",
    "rehearse",
    "reveal_key",
    "score_round",
    "seat_event_round",
    "site_data",
]

"""Reports a director posts or prints: ranking tables and travellers in csv/xlsx/md/html."""

from .render import FORMATS, Section, render
from .tables import ranking_table, standings_report, traveller_sections, travellers_report

__all__ = [
    "FORMATS", "Section", "ranking_table", "render", "standings_report", "traveller_sections",
    "travellers_report",
]

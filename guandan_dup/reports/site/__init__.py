"""The results site: an event folder turned into static pages for players and spectators.

``build_site(event_dir)`` writes standings, player pages, travellers and (only for sets every
table has played) hand records as plain HTML with one CSS and one small script, so the site
works offline, from a USB stick or any static web host, and on a phone.
"""

from .build import build_site

__all__ = ["build_site"]

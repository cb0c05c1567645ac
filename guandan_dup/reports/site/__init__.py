"""The results site: the tables an event may publish, rendered as static pages.

``write_site(data, out, ...)`` writes standings, player pages, travellers and hand records
as plain HTML with one CSS and one small script, so the site works offline, from a USB stick
or any static web host, and on a phone. What ``data`` holds (which sets are complete, which
deals are public) is decided by the event side, ``event.publish``; this package only renders.
"""

from .build import write_site
from .data import SiteData

__all__ = ["SiteData", "write_site"]

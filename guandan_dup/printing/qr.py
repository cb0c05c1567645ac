"""QR codes drawn into a PDF page as vector squares: sharp at any printer's resolution."""

from __future__ import annotations

import segno
from reportlab.pdfgen.canvas import Canvas

QUIET = 2
"""Modules of white kept around the symbol inside ``size`` (the page around it is white)."""


def draw_qr(canvas: Canvas, text: str, x: float, y: float, size: float) -> None:
    """Draw ``text`` as a QR code whose lower-left corner is at (``x``, ``y``), ``size``
    points square including a quiet zone of ``QUIET`` modules.

    Error correction M (a card on a table gets creased); the mask is fixed, as on the HTML
    cards (``event.cards.qr_svg``): a link ending in a random token reads well under any,
    and the search of all eight costs 15 ms a code. Each row's run of dark modules is one
    rectangle, so a code is a few hundred path segments.
    """
    code = segno.make(text, error="m", micro=False, mask=0)
    rows = list(code.matrix)
    module = size / (len(rows) + 2 * QUIET)
    path = canvas.beginPath()
    for r, row in enumerate(rows):
        top = y + size - (QUIET + r) * module
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            path.rect(x + (QUIET + start) * module, top - module, (c - start) * module, module)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()

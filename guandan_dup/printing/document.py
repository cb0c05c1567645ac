"""A4 pages for every printed kind: one ``Document`` writing a PDF atomically.

The kinds (``table_cards``, ``scoresheets``, ...) draw with a handful of calls in points
from the page's lower-left corner (reportlab's convention): ``text``, ``centered``,
``right``, ``box``, ``line``, ``qr``; ``fitted`` shrinks a size until a name fits its box.
Every page gets the same footer (the event, the round, what it is, the page number), so a
page dropped from the pile is put back where it belongs. The PDF is built in memory and
written whole by ``atomic.write_bytes``: a print run interrupted leaves the last file whole.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..atomic import write_bytes
from .fonts import Font
from .qr import draw_qr

PORTRAIT = A4
"""A4 upright, 595 x 842 points."""
LANDSCAPE = landscape(A4)
"""A4 on its side, 842 x 595 points."""
MARGIN = 15 * mm
"""The white kept at every edge: laser printers do not print the outer 5 mm."""
FOOTER_SIZE = 8
BOLD_STROKE = 0.04
"""Bold as a stroke of the glyphs' outline (a fraction of the size): CJK fonts ship one
weight, and the embedded subset then needs no second font."""


class Document:
    """A PDF of A4 pages at ``path``: ``with Document(path, font, title, footer) as doc``,
    then ``doc.new_page()`` before each page's drawing. Written when the block ends without
    an error; ``pages`` counts the pages, ``notes`` collects what the kinds want said."""

    def __init__(self, path: str | os.PathLike, font: Font, title: str, footer: str = ""):
        self.path = Path(path)
        self.font = font
        self.title = title
        self.footer = footer
        self.pages = 0
        self.notes: list[str] = []
        self.width, self.height = PORTRAIT
        self._buffer = io.BytesIO()
        self.canvas = Canvas(self._buffer, pagesize=PORTRAIT, pageCompression=1,
                             initialFontName=font.name)
        self.canvas.setTitle(title)
        self.canvas.setCreator("guandan-dup")

    def __enter__(self) -> Document:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is not None:
            return
        if self.pages:
            self._finish_page()
        self.canvas.save()
        write_bytes(self.path, self._buffer.getvalue())

    def new_page(self, size: tuple[float, float] = PORTRAIT) -> None:
        """End the page being drawn (with its footer) and start one of ``size``
        (``PORTRAIT`` or ``LANDSCAPE``)."""
        if self.pages:
            self._finish_page()
        self.pages += 1
        self.width, self.height = size
        self.canvas.setPageSize(size)

    def _finish_page(self) -> None:
        parts = [part for part in (self.footer, f"第{self.pages}页 page {self.pages}") if part]
        self.text(MARGIN, MARGIN / 2, " · ".join(parts), FOOTER_SIZE)
        self.canvas.showPage()

    def text(self, x: float, y: float, s: str, size: float, bold: bool = False,
             align: str = "left", fit: float | None = None) -> None:
        """``s`` with its baseline at ``y``, starting at ``x`` (``align`` ``"center"``: centred
        on ``x``; ``"right"``: ending at ``x``); with ``fit``, smaller if need be to fit in
        that width (``fitted``)."""
        if fit is not None:
            size = self.fitted(s, size, fit)
        if align != "left":
            x -= self.width_of(s, size) / (2 if align == "center" else 1)
        canvas = self.canvas
        canvas.saveState()
        text = canvas.beginText(x, y)
        text.setFont(self.font.name, size)
        if bold:
            canvas.setLineWidth(size * BOLD_STROKE)
            text.setTextRenderMode(2)
        text.textOut(s)
        canvas.drawText(text)
        canvas.restoreState()

    def centered(self, x: float, y: float, s: str, size: float, bold: bool = False,
                 fit: float | None = None) -> None:
        """``s`` centred on ``x``."""
        self.text(x, y, s, size, bold, "center", fit)

    def right(self, x: float, y: float, s: str, size: float, bold: bool = False,
              fit: float | None = None) -> None:
        """``s`` ending at ``x``."""
        self.text(x, y, s, size, bold, "right", fit)

    def width_of(self, s: str, size: float) -> float:
        """How wide ``s`` is at ``size`` points in the document's font."""
        return stringWidth(s, self.font.name, size)

    def fitted(self, s: str, size: float, width: float, smallest: float = 6) -> float:
        """``size``, or less (not below ``smallest``) so that ``s`` fits in ``width``."""
        wide = self.width_of(s, size)
        return size if wide <= width else max(smallest, size * width / wide)

    def colour(self, rgb: tuple[float, float, float] | None) -> None:
        """Draw the text and fills that follow in ``rgb`` (0-1 each), or black (None)."""
        self.canvas.setFillColorRGB(*(rgb or (0, 0, 0)))

    def box(self, x: float, y: float, w: float, h: float, width: float = 0.8) -> None:
        """A rectangle to write in, lower-left corner at (``x``, ``y``)."""
        self.canvas.setLineWidth(width)
        self.canvas.rect(x, y, w, h, stroke=1, fill=0)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.8,
             dashed: bool = False) -> None:
        """A line (``dashed``: a fold or a cut)."""
        canvas = self.canvas
        canvas.saveState()
        canvas.setLineWidth(width)
        if dashed:
            canvas.setDash(4, 3)
        canvas.line(x1, y1, x2, y2)
        canvas.restoreState()

    @contextmanager
    def turned(self) -> Iterator[None]:
        """Draw upside down (the page turned half a circle about its centre): the far half
        of a card folded into a tent, read from the other side of the table."""
        canvas = self.canvas
        canvas.saveState()
        canvas.translate(self.width, self.height)
        canvas.rotate(180)
        try:
            yield
        finally:
            canvas.restoreState()

    def qr(self, text: str, x: float, y: float, size: float) -> None:
        """``text`` as a QR code, lower-left corner at (``x``, ``y``), ``size`` square."""
        draw_qr(self.canvas, text, x, y, size)

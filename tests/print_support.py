"""Reading printed PDFs back as a person would see them: pages, sizes, text, QR codes.

The pictures come from poppler's ``pdftoppm`` (installed by ``.ci/run``); the tests that need
it are skipped with the reason without it, as the browser tests are without chromium.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from event_support import players_csv, run
from PIL import Image
from pypdf import PdfReader

A4_PORTRAIT = (595, 842)
A4_LANDSCAPE = (842, 595)

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None,
    reason="poppler's pdftoppm/pdftotext are not installed (apt-get install poppler-utils)")


def sizes(pdf: Path) -> list[tuple[int, int]]:
    """Each page's (width, height) in whole points."""
    return [(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in PdfReader(pdf).pages]


def texts(pdf: Path, layout: bool = False) -> list[str]:
    """Each page's text as pdftotext reads it (what a reader's search finds); ``layout``:
    line by line as printed (``-layout``), where a row of a table must read as one line
    whatever order pdftotext's reading heuristics would give its cells."""
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", *(["-layout"] if layout else []),
                          str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8")
    return out.split("\f")[:-1]


def pictures(pdf: Path, folder: Path, dpi: int = 100) -> list[Path]:
    """The pages as PNG pictures (``pdftoppm -r DPI -png``), in page order."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(folder / "page")],
                   check=True)
    return sorted(folder.glob("page-*.png"))


def qr_codes(picture: Path) -> list[str]:
    """The texts of every QR code found in ``picture``."""
    with Image.open(picture) as image:
        found = zxingcpp.read_barcodes(image.convert("L"))
    return [code.text for code in found if code.format == zxingcpp.BarcodeFormat.QRCode]


def embedded_fonts(pdf: Path) -> dict[str, bool]:
    """Font name -> embedded, as ``pdffonts`` lists them."""
    lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    return {line.split()[0]: line.split()[-5] == "yes" for line in lines}


def rotating_event(tmp_path: Path) -> Path:
    """``tmp_path / "rot"``: 8 players on 2 tables rotating partners over 3 sets of 2
    boards (a seating row per table and set), one round, seated."""
    directory = tmp_path / "rot"
    run("event", "init", directory, "--players", players_csv(tmp_path / "p.csv", 8),
        "--tables-per-group", 2, "--sets-per-round", 3, "--boards-per-set", 2, "--rounds", 1,
        "--rotate-partners")
    run("event", "seat", directory, "--round", 1)
    return directory

"""The Chinese font of the printed pages: found on the machine and embedded in the PDF.

A PDF printed at the venue must show every name on any printer, so the font travels inside
the file: a CJK TrueType font (``--font FILE``, else the first found on the machine). A font
with PostScript (CFF) outlines, as most Noto CJK ``.otf`` files are, cannot be embedded by
reportlab and is passed over. With none found the pages use the standard CID font
STSong-Light, which every PDF reader is meant to supply but which is not in the file (some
printers' readers show boxes instead): the note says so, and how to install one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..errors import GuandanError

KNOWN_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
    "C:/Windows/Fonts/simsun.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Medium.ttc",
    "/Library/Fonts/Arial Unicode.ttf",
)
"""Where Debian (``fonts-wqy-microhei``), Windows and macOS keep a Chinese TrueType font."""

FALLBACK = "STSong-Light"
CHINESE_SAMPLE = "第桌局轮北东南西王李张刘陈"
"""Characters every page prints (headings, seats) and the commonest surnames: a font without
them (DejaVu, Arial) would print the names as boxes, so it is not a Chinese font here."""
INSTALL_HINT = ("install a Chinese TrueType font (Debian/Ubuntu: apt install "
                "fonts-wqy-microhei) or give --font FILE")


@dataclass(frozen=True)
class Font:
    """A font registered with reportlab: its ``name`` there, whether the PDF carries it
    (``embedded``) and what to tell the director about it (``note``, or None)."""

    name: str
    embedded: bool
    note: str | None = None
    #: The characters of ``CHINESE_SAMPLE`` the font has no glyph for ("" for a Chinese font).
    missing: str = ""


def find_cjk_font(path: str | os.PathLike | None = None) -> Font:
    """Register and return the font of the printed pages: ``path`` if given (refused if it
    is missing or cannot be embedded), else the first Chinese TrueType font found on the
    machine, else the standard CID font with a note saying it is not embedded."""
    if path is not None:
        if not Path(path).is_file():
            raise GuandanError(f"--font {str(path)!r}: no such file; give a Chinese TrueType "
                               f"font file, for example {KNOWN_FONTS[0]}")
        font = _truetype(Path(path))
        if font is None:
            raise GuandanError(
                f"--font {str(path)!r}: not a TrueType font reportlab can embed (a .ttf, or "
                "a .ttc with TrueType outlines; PostScript-outline .otf fonts cannot be "
                f"embedded); expected for example {KNOWN_FONTS[0]}"
            )
        if font.missing:
            raise GuandanError(
                f"--font {str(path)!r}: not a Chinese font (it has no {font.missing}, so "
                f"names would print as boxes); give one such as {KNOWN_FONTS[0]}"
            )
        return font
    for candidate in _candidates():
        font = _truetype(candidate)
        if font is not None and not font.missing:
            return font
    pdfmetrics.registerFont(UnicodeCIDFont(FALLBACK))
    return Font(FALLBACK, embedded=False, note=(
        f"no Chinese TrueType font found, so the PDF uses the standard font {FALLBACK}, "
        f"which is not embedded and may print as boxes on some printers: {INSTALL_HINT}"))


def _candidates() -> Iterator[Path]:
    """Chinese fonts fontconfig knows (``fc-list :lang=zh``), then the known paths."""
    seen = set()
    for text in [*_fontconfig(), *KNOWN_FONTS]:
        file = Path(text)
        if file not in seen and file.is_file():
            seen.add(file)
            yield file


def _fontconfig() -> list[str]:
    """The font files ``fc-list`` names for Chinese, TrueType ones first; none without it."""
    if shutil.which("fc-list") is None:
        return []
    try:
        listed = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True,
                                text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    files = sorted({line.split(":")[0].strip() for line in listed.splitlines() if line.strip()})
    return sorted(files, key=lambda f: not f.lower().endswith((".ttf", ".ttc")))


def _truetype(file: Path) -> Font | None:
    """``file`` registered as a TrueType font (the first face of a collection), or None if
    it is missing or reportlab cannot embed it (PostScript outlines)."""
    if not file.is_file():
        return None
    name = f"CJK-{file.stem}"
    try:
        font = TTFont(name, str(file), subfontIndex=0)
    except (TTFError, OSError, ValueError, KeyError):
        return None
    missing = "".join(c for c in CHINESE_SAMPLE if ord(c) not in font.face.charToGlyph)
    if not missing:
        pdfmetrics.registerFont(font)
    return Font(name, embedded=True, note=f"Chinese font embedded: {file}", missing=missing)

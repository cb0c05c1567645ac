"""Issue 23 item 4: `event print` itself: where it writes, what it refuses (an unknown WHAT,
a round not seated, an --out not a PDF, a font it cannot embed), the Chinese font embedded
or, without one, the standard font with a note; the PDF written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from event_support import run, seated_event
from print_support import embedded_fonts, needs_poppler, texts

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.printing import KINDS, fonts, print_round
from guandan_dup.printing.document import Document

WQY = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return seated_event(tmp_path_factory.mktemp("print"))


def test_the_kinds_are_the_five_of_the_issue():
    assert list(KINDS) == ["table-cards", "scoresheets", "seat-list", "lineups",
                           "hand-records"]


@pytest.mark.parametrize(("args", "message"), [
    (["--what", "scoresheet"], "Error: --what 'scoresheet' is not something this program "
     "prints; choose one of {kinds}\n"),
    (["--round", "2"], "Error: round 2 is not seated yet, so there is nothing to print for "
     "it; run `guandan-dup event seat {dir} --round 2` first\n"),
    (["--round", "3"], "Error: round 3 is not in the plan (rounds 1-2)\n"),
    (["--out", "cards.html"], "Error: --out 'cards.html': the printed pages are a PDF; give "
     "a file ending in .pdf\n"),
    (["--font", "missing.ttf"], "Error: --font 'missing.ttf': no such file; give a Chinese "
     f"TrueType font file, for example {fonts.KNOWN_FONTS[0]}\n"),
])
def test_what_is_refused_says_what_was_expected(event, args, message):
    base = {"--round": "1", "--what": "seat-list"}
    for option, value in zip(args[::2], args[1::2], strict=True):
        base[option] = value
    output = run("event", "print", event, *[x for pair in base.items() for x in pair], code=1)
    assert output == message.format(kinds=", ".join(KINDS), dir=event)


def test_a_file_that_is_not_a_font_is_refused(event, tmp_path):
    fake = tmp_path / "font.ttf"
    fake.write_text("not a font")
    with pytest.raises(GuandanError, match="not a TrueType font reportlab can embed"):
        print_round(EventFolder.open(event), 1, "seat-list", font=fake)


LATIN_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
               "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def test_a_font_without_chinese_characters_is_refused_and_passed_over(event, monkeypatch):
    latin = next((f for f in LATIN_FONTS if Path(f).is_file()), None)
    if latin is None:
        pytest.skip("no Latin-only TrueType font on this machine (fonts-dejavu-core)")
    with pytest.raises(GuandanError, match="not a Chinese font .it has no 第桌局"):
        print_round(EventFolder.open(event), 1, "seat-list", font=latin)
    monkeypatch.setattr(fonts, "_candidates", lambda: iter([Path(latin)]))
    assert fonts.find_cjk_font().name == fonts.FALLBACK, "boxes are worse than the CID font"


@needs_poppler
def test_the_found_chinese_font_is_embedded_and_said(event):
    output = run("event", "print", event, "--round", 1, "--what", "seat-list")
    path = event / "print" / "round-1-seat-list.pdf"
    assert output.splitlines()[0] == f"Wrote {path} (1 page, A4)"
    assert "Chinese font embedded: " in output
    assert list(embedded_fonts(path).values()) == [True]


@needs_poppler
def test_a_font_given_is_the_one_embedded(event, tmp_path):
    if not Path(WQY).is_file():
        pytest.skip(f"{WQY} is not installed (apt-get install fonts-wqy-microhei)")
    out = tmp_path / "wall.pdf"
    printed = print_round(EventFolder.open(event), 1, "seat-list", out=out, font=WQY)
    assert printed.path == out and printed.notes == [f"Chinese font embedded: {WQY}"]
    assert [name.split("+")[-1] for name in embedded_fonts(out)] == ["WenQuanYiMicroHei-0"]


@needs_poppler
def test_without_a_chinese_font_the_standard_one_is_used_and_the_director_told(
        event, tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "_candidates", lambda: iter(()))
    printed = print_round(EventFolder.open(event), 1, "seat-list", out=tmp_path / "x.pdf")
    [note] = printed.notes
    assert note.startswith("no Chinese TrueType font found, so the PDF uses the standard "
                           "font STSong-Light, which is not embedded")
    assert "apt install fonts-wqy-microhei" in note
    assert embedded_fonts(printed.path) == {"STSong-Light": False}
    assert "座位表" in texts(printed.path)[0]


def test_a_document_whose_drawing_fails_leaves_no_file(tmp_path):
    font = fonts.find_cjk_font()
    path = tmp_path / "cards.pdf"
    with pytest.raises(KeyError), Document(path, font, "t") as doc:
        doc.new_page()
        doc.text(10, 10, "第1桌", 12)
        doc.text(10, 30, {}["a seat the seating lacks"], 12)
    assert list(tmp_path.iterdir()) == []

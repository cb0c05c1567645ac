"""Issue 21 item 11: a damaged workbook is one clear problem naming the file, never a
traceback or a hang. The damaged files are built here from a sound one (zipfile), so no
binary is committed."""

import time
import zipfile

import pytest
from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from typer.testing import CliRunner

from guandan_dup.cli import app
from guandan_dup.errors import InvalidResultsError
from guandan_dup.results import load_results

HEADER = ["round", "table", "set", "north", "east", "south", "west", "ns_level", "ew_level"]
ROW = [1, 1, 1, "p1", "p2", "p3", "p4", 3, 2]
SHEET = "xl/worksheets/sheet1.xml"
BOOK = "xl/workbook.xml"
ENTITIES = "".join(
    '<!ENTITY lol{} "{}">'.format(i, f"&lol{i - 1};" * 10) for i in range(1, 10)
)
BOMB_DTD = f'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">{ENTITIES}]>'


def sound(path):
    """A good one-sheet results workbook."""
    book = Workbook()
    book.active.title = "results"
    book.active.append(HEADER)
    book.active.append(ROW)
    book.save(path)
    return path


def rewritten(path, member, change):
    """A copy of the sound workbook with ``member``'s bytes changed by ``change``."""
    source = sound(path.with_name("sound.xlsx"))
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            new.writestr(info, change(data) if info.filename == member else data)
    return path


def bomb(data: bytes) -> bytes:
    """The member with a billion-laughs DTD in front and its first text as the entity."""
    body = data.split(b"?>", 1)[1] if data.startswith(b"<?xml") else data
    return BOMB_DTD.encode() + body.replace(b">round<", b">&lol9;<", 1).replace(
        b'name="results"', b'name="&lol9;"')


def chart_only(path):
    """A workbook whose one sheet is a chart sheet."""
    book = Workbook()
    data = book.active
    for value in (1, 2, 3):
        data.append([value])
    chart = BarChart()
    chart.add_data(Reference(data, min_col=1, min_row=1, max_row=3))
    book.create_chartsheet("chart").add_chart(chart)
    book.remove(data)
    book.save(path)
    return path


DAMAGED = {
    "bad_workbook_xml": (lambda p: rewritten(p, BOOK, lambda d: d[: len(d) // 2]),
                         "cannot be read as an xlsx workbook: it is damaged or not a workbook"
                         " (unclosed token: line 1, column "),
    "truncated_sheet": (lambda p: rewritten(p, SHEET, lambda d: d[: len(d) // 2]),
                        "cannot be read as an xlsx workbook: its sheet 'results' is damaged"
                        " (unclosed token: line 1, column "),
    "entity_bomb_in_sheet": (lambda p: rewritten(p, SHEET, bomb),
                             "cannot be read as an xlsx workbook: its XML declares entities"),
    "entity_bomb_in_workbook_xml": (lambda p: rewritten(p, BOOK, bomb),
                                    "cannot be read as an xlsx workbook: its XML declares"
                                    " entities"),
    "cut_short_file": (lambda p: p.write_bytes(sound(p).read_bytes()[:900]) and p,
                       "cannot be read as an xlsx workbook: it is damaged or not a workbook"),
    "only_a_chart_sheet": (chart_only,
                           "has no worksheet, only chart sheets ('chart'): results are read"
                           " from a worksheet with a header row"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_issue21_item11_a_damaged_workbook_is_one_problem_naming_the_file(tmp_path, case):
    make, expected = DAMAGED[case]
    path = make(tmp_path / "r.xlsx")
    started = time.monotonic()
    with pytest.raises(InvalidResultsError) as caught:
        load_results(path)
    assert time.monotonic() - started < 10, "no hang"
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}: {expected}"), str(problem)


def test_issue21_item11_a_damaged_workbook_is_an_error_on_the_command_line(tmp_path):
    path = rewritten(tmp_path / "r.xlsx", SHEET, bomb)
    result = CliRunner().invoke(app, ["score", str(path), "--out", str(tmp_path / "out"),
                                      "--quiet"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "r.xlsx: cannot be read as an xlsx workbook: its XML declares entities" in (
        result.output)


def test_issue21_item11_openpyxl_parses_with_defusedxml():
    """The package depends on defusedxml, and openpyxl finds it: untrusted XML is parsed
    with entities refused, not only with expat's amplification limit."""
    import openpyxl

    assert openpyxl.DEFUSEDXML


def test_issue21_item11_a_stale_dimension_loses_no_row(tmp_path):
    """A sheet's <dimension> left at A1:I2 by the program that wrote it, over three rows
    of results: every row is read (read-only mode trusted the element and silently dropped
    the later rows)."""
    import re

    book = Workbook()
    book.active.append(HEADER)
    for table in (1, 2, 3):
        book.active.append([1, table, 1, *(f"{s}{table}" for s in "abcd"), 3, 2])
    book.save(tmp_path / "sound.xlsx")
    path = tmp_path / "r.xlsx"
    with zipfile.ZipFile(tmp_path / "sound.xlsx") as old, zipfile.ZipFile(path, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == SHEET:
                data = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:I2"', data)
            new.writestr(info, data)
    assert load_results(path).sets["table"].tolist() == [1, 2, 3]


def test_issue21_item11_a_zip_bomb_is_refused_unread(tmp_path):
    """A 0.1 MB workbook whose sheet unpacks to 100 MB (one cell of 'a's) would take
    gigabytes to read: refused from the sizes the zip declares, at once."""
    source = sound(tmp_path / "sound.xlsx")
    path = tmp_path / "r.xlsx"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == SHEET:
                data = data.replace(b"<t>p1</t>", b"<t>" + b"a" * (100 << 20) + b"</t>")
            new.writestr(info.filename, data)
    started = time.monotonic()
    with pytest.raises(InvalidResultsError) as caught:
        load_results(path)
    assert time.monotonic() - started < 5
    (problem,) = caught.value.problems
    assert f"its part '{SHEET}' unpacks to" in problem.rule and "refused unread" in problem.rule

"""Hostile names in the exported tables (issue 9, item 10): no formula runs in a spreadsheet,
no tag or column opens in Markdown or HTML, no name splits a row; numbers stay numbers.

OWASP "CSV Injection": a cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage
return is read as a formula; prefixing it with ``'`` makes it text.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from site_support import shared_event

from guandan_dup.event.export import export_event
from guandan_dup.event.folder import EventFolder
from guandan_dup.reports.render import FORMULA_START, Section, inert, markdown_text, render

HYPERLINK = '=HYPERLINK("http://evil.example","click")'
# (name as entered, as a csv/xlsx cell shows it)
OWASP_CSV_INJECTION = [
    (HYPERLINK, "'" + HYPERLINK),
    ("+1+1", "'+1+1"),
    ("-2+3", "'-2+3"),
    ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
    ("\tcmd", "'\tcmd"),
    ("\r=1+1", "' =1+1"),  # a carriage return is a line break: it becomes a space
    ("  @cmd", "'  @cmd"),  # importers may trim the spaces
    ("Li\nMing", "Li Ming"),
    ("Li\r\nMing", "Li Ming"),
    ("a=b", "a=b"),
    ("张三", "张三"),
]
HOSTILE = [name for name, _ in OWASP_CSV_INJECTION] + ["<script>alert(1)</script>", "a|b`c`*d*"]


def table(names) -> pd.DataFrame:
    """A table like the travellers: text names, a signed integer and a percent column."""
    return pd.DataFrame(
        {"Name": list(names), "Diff": [-2 + i for i in range(len(names))],
         "Pct": [50.0] * len(names)}
    )


def rendered(fmt: str, names=HOSTILE, note: str = "") -> str | bytes:
    return render([Section("S", table(names))], fmt, "T", frozenset({"Pct"}), note)


@pytest.mark.parametrize(("name", "shown"), OWASP_CSV_INJECTION)
def test_owasp_csv_injection_csv_cells_are_inert(name, shown):
    text = rendered("csv", [name]).encode("utf-8").decode("utf-8-sig")  # as Excel reads it
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["Name", "Diff", "Pct"], [shown, "-2", "50.00"]]


@pytest.mark.parametrize(("name", "shown"), OWASP_CSV_INJECTION)
def test_owasp_csv_injection_xlsx_text_is_a_string_cell(name, shown):
    sheet = load_workbook(io.BytesIO(rendered("xlsx", [name])))["S"]
    cell, diff = sheet["A2"], sheet["B2"]
    assert (cell.value, cell.data_type) == (shown, "s")
    assert (diff.value, diff.data_type) == (-2, "n")  # a real negative number stays one


def test_xlsx_drops_control_characters_it_cannot_hold():
    sheet = load_workbook(io.BytesIO(rendered("xlsx", ["a\x01b\x1fc"])))["S"]
    assert sheet["A2"].value == "abc"


@given(st.text(max_size=20))
def test_inert_text_never_starts_a_formula(text):
    safe = inert(text)
    assert not safe.startswith(FORMULA_START)
    assert safe in (text, "'" + text)


def markdown_rows(text: str) -> list[list[str]]:
    """The cells of each table row, split at unescaped pipes."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [re.split(r"(?<!\\)\|", row)[1:-1] for row in rows]


def test_markdown_escapes_html_and_its_own_marks_and_keeps_one_row_per_name():
    text = rendered("md")
    rows = markdown_rows(text)
    assert len(rows) == 2 + len(HOSTILE)  # header, rule, one per name
    assert {len(row) for row in rows} == {3}
    assert "<" not in text and ">" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert r"a\|b\`c\`\*d\*" in text


@given(st.text(max_size=20))
def test_markdown_text_leaves_no_active_character(text):
    escaped = markdown_text(text)
    assert not re.search(r"[<>]", escaped)
    assert not re.search(r"(?<!\\)[`*_\[\]|~]", escaped.replace("\\\\", ""))


class Cells(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells, self.tags, self._in = [], [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in = tag == "td"
        if tag == "td":
            self.cells.append("")

    def handle_data(self, data):
        if self._in:
            self.cells[-1] += data


def test_html_escapes_every_name_and_keeps_it_on_one_line():
    text = rendered("html", note="<b>note</b>")
    parser = Cells()
    parser.feed(text)
    assert "script" not in parser.tags and "b" not in parser.tags
    names = parser.cells[::3]
    assert names[HOSTILE.index("<script>alert(1)</script>")] == "<script>alert(1)</script>"
    assert names[HOSTILE.index("Li\nMing")] == "Li Ming"


def test_event_export_of_a_hostile_name(tmp_path_factory, tmp_path):
    event = shutil.copytree(shared_event("full", tmp_path_factory), tmp_path / "event")
    players = pd.read_parquet(event / "players.parquet")
    players.loc[0, "name"] = HYPERLINK
    players.loc[1, "name"] = "<script>x</script>\nEvil"
    players.to_parquet(event / "players.parquet", index=False)
    export_event(EventFolder.open(event), round_no=1, formats=("csv", "xlsx", "md", "html"))
    exports = Path(event / "exports")
    ranking = pd.read_csv(exports / "standings-round-1.csv", dtype=str)
    assert "'" + HYPERLINK in set(ranking["姓名 Name"])
    sheet = load_workbook(exports / "standings-round-1.xlsx").active
    names = [c for row in sheet.iter_rows() for c in row if c.value == "'" + HYPERLINK]
    assert len(names) == 1 and names[0].data_type == "s"
    assert not any(c.data_type == "f" for row in sheet.iter_rows() for c in row)
    for fmt in ("md", "html"):
        text = (exports / f"standings-round-1.{fmt}").read_text(encoding="utf-8")
        assert "<script>" not in text and "&lt;script&gt;x&lt;/script&gt; Evil" in text


def test_markdown_escapes_the_title_and_headings_as_the_cells():
    hostile = "<script>alert(1)</script>\n# x *y*"
    sections = [Section(hostile, table(["a"])), Section("B", table(["b"]))]
    text = render(sections, "md", f"{hostile} · 淘汰赛", frozenset({"Pct"}))
    assert "<" not in text and ">" not in text
    lines = text.splitlines()
    assert lines[0] == r"# &lt;script&gt;alert(1)&lt;/script&gt; # x \*y\* · 淘汰赛"
    assert r"## &lt;script&gt;alert(1)&lt;/script&gt; # x \*y\*" in lines
    assert sum(line.startswith("#") for line in lines) == 3

"""Render titled tables as csv, xlsx, md or html: one job, no knowledge of scoring.

Text formats come back as ``str``; xlsx as ``bytes``. Percent columns are shown with exactly
two decimals in every format (numbers with format ``0.00`` in xlsx, so they stay sortable);
empty cells (a bye's round average) stay empty rather than showing ``nan``, and a whole
number is shown whole (a table "3", not the "3.0" a column with an empty cell turns it into).
csv starts with a UTF-8 byte-order mark: without it Excel on Chinese Windows reads the file
as GBK and shows every Chinese header and name as mojibake.

Names come from players and are hostile until proven otherwise: in every format a line break
in a text cell becomes a space (one table row stays one row); in csv and xlsx a text cell a
spreadsheet would run as a formula gets a leading ``'`` (the OWASP CSV injection advice) and
xlsx stores text as text, never a formula; Markdown escapes its own syntax and HTML's, and
html is autoescaped. Numbers stay numbers, so a negative level difference is untouched.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

import jinja2
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font

from ..errors import GuandanError

FORMATS = ("csv", "xlsx", "md", "html")
_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("guandan_dup.reports", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


class Section(NamedTuple):
    """A heading and its table."""

    heading: str
    table: pd.DataFrame


BOM = "\ufeff"
"""The byte-order mark a csv starts with, so Excel reads it as UTF-8."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP: CSV injection)."""
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x85\u2028\u2029]")
_MARKDOWN = re.compile(r"([\\`*_\[\]|~])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def one_line(text: str) -> str:
    r"""A text cell on one line: every line break becomes a space.

    >>> one_line("Li\r\nMing\nJr")
    'Li Ming Jr'
    """
    return _LINE_BREAK.sub(" ", text)


def inert(text: str) -> str:
    """A text cell that no spreadsheet runs: a leading ``=``, ``+``, ``-``, ``@``, tab or CR
    gets a ``'`` in front, as the OWASP CSV injection guidance says; so does one hidden
    behind leading spaces, which some importers trim.

    >>> print(inert('=HYPERLINK("http://evil.example","click")'), inert("-1"), inert("Li"))
    '=HYPERLINK("http://evil.example","click") '-1 Li
    >>> inert("  =1+1")
    "'  =1+1"
    """
    risky = text.startswith(FORMULA_START) or text.lstrip().startswith(FORMULA_START)
    return "'" + text if risky else text


def markdown_text(text: str) -> str:
    r"""A table cell's text as literal Markdown: HTML's ``&``, ``<``, ``>`` as entities and
    Markdown's own marks (backslash, backtick, ``*``, ``_``, brackets, ``|``, ``~``)
    backslash-escaped, so no name can open a tag, a link or a new column.

    >>> print(markdown_text("<script>a|b</script> *x*"))
    &lt;script&gt;a\|b&lt;/script&gt; \*x\*
    """
    text = re.sub(r"[&<>]", lambda m: _ENTITIES[m.group()], text)
    return _MARKDOWN.sub(r"\\\1", text)


def _map_text(table: pd.DataFrame, change: Callable[[str], str]) -> pd.DataFrame:
    """``table`` with ``change`` applied to its text cells only (numbers are left alone)."""
    return table.apply(
        lambda column: column.map(lambda v: change(v) if isinstance(v, str) else v)
        if column.dtype == object or pd.api.types.is_string_dtype(column)
        else column
    )


def _spreadsheet_safe(table: pd.DataFrame) -> pd.DataFrame:
    """Text cells on one line and inert, with what xlsx cannot hold (control characters)
    dropped: the cells of csv and xlsx."""
    return _map_text(table, lambda v: inert(ILLEGAL_CHARACTERS_RE.sub("", one_line(v))))


def whole(value):
    """A float holding a whole number as that integer, anything else as it is: a nullable
    integer column read back as floats (or joined with a table lacking it) keeps showing
    "12", never "12.0".

    >>> whole(12.0), whole(2.5), whole("x")
    (12, 2.5, 'x')
    """
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _cells(table: pd.DataFrame, percent_columns: frozenset[str]) -> pd.DataFrame:
    """The cells as Python values, ``None`` where empty, whole numbers as integers outside
    the percent columns (which keep their two decimals)."""
    cells = table.astype(object)
    for column in set(table.columns) - percent_columns:
        cells[column] = pd.Series([whole(v) for v in cells[column]], index=cells.index,
                                  dtype=object)  # Series.map would infer floats again
    return cells.where(cells.notna(), None)


def _as_text(table: pd.DataFrame, percent_columns: frozenset[str]) -> pd.DataFrame:
    """Every cell as display text: percentages "57.35", whole numbers "12", empty cells ""."""
    cells = _cells(table, percent_columns)
    shown = cells.where(cells.notna(), "")
    for column in percent_columns & set(table.columns):
        values = table[column]
        shown[column] = values.map("{:.2f}".format).where(values.notna(), "")
    return shown.astype(str)


def _markdown(
    title: str, sections: Sequence[Section], percent: frozenset[str], note: str
) -> str:
    """The sections as one Markdown document. The title and headings carry names the
    director typed (the event, a conversion table, teams), so they are escaped and kept
    on one line exactly as the cells are: no heading can open a tag or a second line."""
    lines = [f"# {markdown_text(one_line(title))}"]
    lines += ["", markdown_text(one_line(note))] if note else []
    for section in sections:
        shown = _as_text(_map_text(section.table, one_line), percent).map(markdown_text)
        if len(sections) > 1:
            lines += ["", f"## {markdown_text(one_line(section.heading))}"]
        lines += ["", "| " + " | ".join(map(markdown_text, shown.columns)) + " |",
                  "|" + "|".join("---:" if c in percent else "---" for c in shown.columns) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in shown.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def _xlsx(sections: Sequence[Section], percent: frozenset[str]) -> bytes:
    book = Workbook()
    book.remove(book.active)
    for section in sections:
        sheet = book.create_sheet(section.heading[:31])
        sheet.append(list(section.table.columns))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        cells = _cells(_spreadsheet_safe(section.table), percent)
        for row in cells.itertuples(index=False):
            sheet.append(list(row))
            for cell in sheet[sheet.max_row]:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # text, even if it looked like a formula
        for index, column in enumerate(section.table.columns, 1):
            letter = sheet.cell(1, index).column_letter
            sheet.column_dimensions[letter].width = max(10, len(column) + 4)
            if column in percent:
                for (cell,) in sheet.iter_rows(min_row=2, min_col=index, max_col=index):
                    cell.number_format = "0.00"
        sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def render(
    sections: Sequence[Section],
    fmt: str,
    title: str,
    percent_columns: frozenset[str],
    note: str = "",
) -> str | bytes:
    """``sections`` as one document in ``fmt`` (csv joins the sections into one table).

    ``note`` (say, which sets are left out and why) is a paragraph under the title in md
    and html; csv and xlsx hold only the tables, so a spreadsheet can sort and sum them.
    csv starts with ``BOM``.
    """
    if fmt == "csv":
        joined = pd.concat([s.table for s in sections], ignore_index=True)
        return BOM + _as_text(_spreadsheet_safe(joined), percent_columns).to_csv(
            index=False, lineterminator="\n"
        )
    if fmt == "md":
        return _markdown(title, sections, percent_columns, note)
    if fmt == "html":
        shown = [
            (s.heading, list(s.table.columns), [c in percent_columns for c in s.table.columns],
             _as_text(_map_text(s.table, one_line), percent_columns).itertuples(index=False))
            for s in sections
        ]
        return _TEMPLATES.get_template("tables.html.j2").render(
            title=title, sections=shown, note=one_line(note)
        )
    if fmt == "xlsx":
        return _xlsx(sections, percent_columns)
    raise GuandanError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")

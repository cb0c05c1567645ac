"""Render titled tables as csv, xlsx, md or html: one job, no knowledge of scoring.

Text formats come back as ``str``; xlsx as ``bytes``. Percent columns are shown with exactly
two decimals in every format (numbers with format ``0.00`` in xlsx, so they stay sortable);
empty cells (a bye's round average) stay empty rather than showing ``nan``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import NamedTuple

import jinja2
import pandas as pd
from openpyxl import Workbook
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


def _as_text(table: pd.DataFrame, percent_columns: frozenset[str]) -> pd.DataFrame:
    """Every cell as display text: percentages "57.35", empty cells ""."""
    shown = table.astype(object).where(table.notna(), "")
    for column in percent_columns & set(table.columns):
        values = table[column]
        shown[column] = values.map("{:.2f}".format).where(values.notna(), "")
    return shown.astype(str)


def _markdown(title: str, sections: Sequence[Section], percent: frozenset[str]) -> str:
    lines = [f"# {title}"]
    for section in sections:
        shown = _as_text(section.table, percent).replace(r"\|", r"\\|", regex=True)
        if len(sections) > 1:
            lines += ["", f"## {section.heading}"]
        lines += ["", "| " + " | ".join(shown.columns) + " |",
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
        cells = section.table.astype(object).where(section.table.notna(), None)
        for row in cells.itertuples(index=False):
            sheet.append(list(row))
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
    sections: Sequence[Section], fmt: str, title: str, percent_columns: frozenset[str]
) -> str | bytes:
    """``sections`` as one document in ``fmt`` (csv joins the sections into one table)."""
    if fmt == "csv":
        joined = pd.concat([s.table for s in sections], ignore_index=True)
        return _as_text(joined, percent_columns).to_csv(index=False, lineterminator="\n")
    if fmt == "md":
        return _markdown(title, sections, percent_columns)
    if fmt == "html":
        shown = [
            (s.heading, list(s.table.columns), [c in percent_columns for c in s.table.columns],
             _as_text(s.table, percent_columns).itertuples(index=False))
            for s in sections
        ]
        return _TEMPLATES.get_template("tables.html.j2").render(title=title, sections=shown)
    if fmt == "xlsx":
        return _xlsx(sections, percent_columns)
    raise GuandanError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")

"""级差分 conversion tables (art. 47): a match's margin of levels -> the two teams' 级差分.

The official 26-point table is lost (SPEC 8), so a table is data: 27 rows, one per margin
0..26, giving the winner's and the loser's 级差分. Two presets ship (``linear``, the
default, and ``half``); a director may publish their own as a CSV with columns ``margin,
winner, loser`` and it is accepted after validation, every problem listed at once. Points
are kept as integer hundredths (art. 50 rounds carried points to 2 decimals), so comparing
totals is exact.

>>> table = preset("linear")
>>> table.points(0), table.points(5), table.points(-20)
((1300, 1300), (1800, 800), (0, 2600))
>>> preset("half").points(3)
(1450, 1150)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pandas as pd

from ..errors import GuandanError, Problem, ProblemsError
from ..reading import read_table_with
from ..wording import runs

MAX_MARGIN = 26
MARGINS = range(MAX_MARGIN + 1)
COLUMNS = ("margin", "winner", "loser")


class InvalidConversionError(ProblemsError):
    """A director's conversion table that cannot be used; carries every problem found."""

    subject = "the conversion table"


@dataclass(frozen=True)
class ConversionTable:
    """A named table: ``winner[m]`` and ``loser[m]`` in hundredths of a 级差分, m = 0..26."""

    name: str
    winner: tuple[int, ...]
    loser: tuple[int, ...]

    def points(self, levels: int) -> tuple[int, int]:
        """(this side, the other side) in hundredths for this side's net levels ``levels``."""
        margin = abs(int(levels))
        if margin > MAX_MARGIN:
            raise GuandanError(f"levels {levels!r}: a match's net levels are within -26..26")
        win, lose = self.winner[margin], self.loser[margin]
        return (win, lose) if levels >= 0 else (lose, win)

    def to_frame(self) -> pd.DataFrame:
        """The table as a director reads it (points as decimals)."""
        return pd.DataFrame({
            "margin": list(MARGINS),
            "winner": [w / 100 for w in self.winner],
            "loser": [x / 100 for x in self.loser],
        })

    def to_csv(self) -> str:
        """The CSV ``load`` reads back (points with up to two decimals, no float noise)."""
        lines = ["margin,winner,loser"]
        lines += [f"{m},{hundredths_text(w)},{hundredths_text(x)}"
                  for m, w, x in zip(MARGINS, self.winner, self.loser, strict=True)]
        return "\n".join(lines) + "\n"


def hundredths_text(value: int) -> str:
    """``1450`` -> ``"14.5"``, ``1300`` -> ``"13"``: a hundredths integer as a short decimal."""
    text = str(Decimal(value) / 100)
    return text.rstrip("0").rstrip(".") if "." in text else text


PRESETS = {
    "linear": ConversionTable(
        "linear",
        tuple(100 * (13 + min(m, 13)) for m in MARGINS),
        tuple(100 * (13 - min(m, 13)) for m in MARGINS),
    ),
    "half": ConversionTable(
        "half", tuple(1300 + 50 * m for m in MARGINS), tuple(1300 - 50 * m for m in MARGINS)
    ),
}


def preset(name: str) -> ConversionTable:
    """A shipped table by name; an unknown name is an error listing the presets."""
    if name not in PRESETS:
        raise GuandanError(
            f"conversion {name!r}: expected a preset ({', '.join(PRESETS)}) or a CSV file "
            "with columns margin, winner, loser"
        )
    return PRESETS[name]


MAX_VALUE = 100_000
"""1000 级差分 in hundredths: the most a conversion table may give (the presets give at most
26); a larger figure is a typing mistake and would overflow the standings' sums."""


def _hundredths(text: str) -> int | None:
    """``"14.5"`` -> 1450; None for anything that is not a number with at most 2 decimals."""
    try:
        value = Decimal(text) * 100
    except InvalidOperation:
        return None
    return int(value) if value.is_finite() and value == value.to_integral_value() else None


def _shape_problems(
    rows: dict[int, tuple[int, int, int]], given: set[int], file: str
) -> list[Problem]:
    """Missing margins (one problem naming them all) and the order rules (winner >= loser,
    monotone, equal at 0) on every row whose numbers could be read; ``rows`` maps a margin
    to (CSV line, winner, loser), ``given`` holds every margin on some line."""
    missing = [m for m in MARGINS if m not in given]
    problems = [Problem(file, None, "margin", ", ".join(runs(missing)),
                        "missing: the table needs every margin 0..26")] if missing else []
    for m, (line, win, lose) in sorted(rows.items()):
        if win < lose:
            problems.append(Problem(file, line, "winner", hundredths_text(win),
                                    f"margin {m}: the winner gets less than the loser"))
        if m == 0 and win != lose:
            problems.append(Problem(file, line, "loser", hundredths_text(lose),
                                    "margin 0 is a draw: both sides get the same"))
        if m - 1 in rows and win < rows[m - 1][1]:
            problems.append(Problem(file, line, "winner", hundredths_text(win),
                                    f"margin {m}: the winner gets less than at margin {m - 1}"))
        if m - 1 in rows and lose > rows[m - 1][2]:
            problems.append(Problem(file, line, "loser", hundredths_text(lose),
                                    f"margin {m}: the loser gets more than at margin {m - 1}"))
    return problems


def load(path: str | os.PathLike, name: str | None = None) -> ConversionTable:
    """A director's table from a CSV or xlsx file (``margin, winner, loser``), named after
    the file.

    Every problem is reported at once (with the CSV line): a missing column, a margin
    outside 0..26 or given twice, a value that is not a number with at most two decimals or
    is negative, the missing margins, and the order rules of SPEC 8 on the rows that could
    be read.
    """
    file = Path(path).name
    frame = read_table_with(path, COLUMNS, InvalidConversionError, numbers=COLUMNS)
    problems: list[Problem] = []
    rows: dict[int, tuple[int, int, int]] = {}
    seen: set[int] = set()
    for index, row in frame.iterrows():
        line = int(index)
        margin = row["margin"]
        values = {c: _hundredths(row[c]) for c in ("winner", "loser")}
        if not margin.isdigit() or int(margin) > MAX_MARGIN:
            problems.append(Problem(file, line, "margin", margin, "expected a whole number 0..26"))
            margin = None
        elif int(margin) in seen:
            problems.append(Problem(file, line, "margin", margin, "this margin is on two lines"))
            margin = None
        else:
            seen.add(int(margin))
        for column, value in values.items():
            if value is None or value < 0:
                problems.append(Problem(file, line, column, row[column],
                                        "expected a number >= 0 with at most two decimals"))
            elif value > MAX_VALUE:
                problems.append(Problem(file, line, column, row[column],
                                        f"expected at most {hundredths_text(MAX_VALUE)} "
                                        "级差分 (a match's whole award)"))
        if margin is not None and all(v is not None and 0 <= v <= MAX_VALUE
                                      for v in values.values()):
            rows[int(margin)] = (line, values["winner"], values["loser"])
    problems += _shape_problems(rows, seen, file)
    if problems:
        raise InvalidConversionError(problems)
    return ConversionTable(
        name or Path(path).stem,
        tuple(rows[m][1] for m in MARGINS),
        tuple(rows[m][2] for m in MARGINS),
    )


def resolve(spec: str | os.PathLike) -> ConversionTable:
    """``--conversion``: a preset's name or the path of a director's CSV or xlsx file."""
    text = str(spec)
    if text in PRESETS:
        return PRESETS[text]
    if Path(text).suffix.lower() in (".csv", ".xlsx") or Path(text).exists():
        table = load(text)
        if table.name in PRESETS:
            raise GuandanError(
                f"conversion table {text!r} is named {table.name!r} like a preset: rename the "
                "file, since its name is printed on every standings page"
            )
        return table
    return preset(text)

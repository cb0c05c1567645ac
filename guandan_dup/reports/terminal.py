"""Terminal tables (rich): the final standings ``demo`` prints after its last round.

Renders the standings it is given; it opens no folder.
"""

from __future__ import annotations

import pandas as pd
from rich.table import Table

from .team_tables import conversion_name


def standings_table(standings: pd.DataFrame, name: str, rounds: int) -> Table:
    """An individual event's standings after round ``rounds`` (the last): rank, player,
    name, sets and the cumulative average in %, in the standings' order."""
    table = Table(title=f"{name}: standings after round {rounds} 最终排名")
    for column in ("名次 Rank", "选手 Player", "姓名 Name", "局数 Sets", "累计 Total %"):
        table.add_column(column, justify="right" if column[0] in "局累" else "left")
    for row in standings.itertuples():
        table.add_row(
            row.rank_label, row.player, row.name, str(row.sets), f"{row.cumulative * 100:.2f}"
        )
    return table


def team_standings_table(standings: pd.DataFrame, name: str, conversion: str,
                         rounds: int) -> Table:
    """A team event's standings after round ``rounds`` (the last), by position; the title
    names the 级差分 ``conversion`` table."""
    table = Table(title=f"{name}: team standings after round {rounds} 最终排名 "
                  f"(级差分 {conversion_name(conversion, 'zh')})")
    for column in ("名次 Rank", "队 Team", "队名 Name", "场分 MP", "级差分 LP", "级差 Levels"):
        table.add_column(column, justify="left" if column[0] in "名队" else "right")
    for row in standings.sort_values("position").itertuples():
        table.add_row(row.rank_label, str(row.team), row.name, f"{row.match_points:g}",
                      f"{row.level_points:.2f}", str(row.level_diff))
    return table

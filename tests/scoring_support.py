"""Shared by the scoring tests: normalised set tables, the slow reference scorer, the
seeded event whose outputs are pinned, and a results file's columns from a set table.

``reference_rates`` and ``reference_standings`` are the slow, obvious scorer (Fractions and
loops, house rule 8) that ``test_scoring_reference`` holds the vectorised one equal to;
``seeded_event`` is the event ``test_scoring_digest`` pins the outputs of.
"""

import hashlib
from fractions import Fraction

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import strategies as st

from guandan_dup.levels import LEVEL_NAMES, level_from_text
from guandan_dup.rules.progression import reachable_levels

ADJUSTED = {"A+": Fraction(3, 5), "A": Fraction(1, 2), "A-": Fraction(2, 5)}

# Final levels a set can end with, from a few values only, so many results tie.
PAIRS = [(ns, ew) for ns, ew in sorted(reachable_levels(None)) if {ns, ew} <= {0, 1, 3, 12, 13}]


def seeded_event(seed: int = 13) -> pd.DataFrame:
    """Four rounds, 2-3 sets a round, 56 players in two groups: byes, missing tables,
    artificial results and many tied levels (levels drawn from a few values)."""
    rng = np.random.default_rng(seed)
    players = np.array([f"p{i:02d}" for i in range(56)], dtype=object)
    rows, set_no = [], 0
    for rnd in range(1, 5):
        present = players[rng.permutation(len(players))][: 52 if rnd % 2 else 56]
        for _ in range(2 + rnd % 2):
            set_no += 1
            for t in range(1, len(present) // 4 + 1):
                if rng.random() < 0.08:
                    continue
                seats = list(present[4 * t - 4: 4 * t])
                group = 1 + (t - 1) // 7
                if rng.random() < 0.07:
                    adjusted = ["A+/A-", "A/A", "A-/A+", "A/A-"][rng.integers(0, 4)]
                    ns = ew = None
                else:
                    adjusted = None
                    ns, ew = PAIRS[rng.integers(0, len(PAIRS))]
                ns_adj, ew_adj = adjusted.split("/") if adjusted else (None, None)
                rows.append({
                    "round": rnd, "group": group, "table": t, "set": set_no,
                    "north": seats[0], "east": seats[1], "south": seats[2], "west": seats[3],
                    "ns_level": ns, "ew_level": ew, "adjusted": adjusted,
                    "ns_adjusted": ns_adj, "ew_adjusted": ew_adj, "boards": None,
                })
    dtypes = {"round": "int64", "group": "int64", "table": "int64", "set": "int64",
              "north": "str", "east": "str", "south": "str", "west": "str",
              "ns_level": "Int8", "ew_level": "Int8", "adjusted": "str",
              "ns_adjusted": "str", "ew_adjusted": "str", "boards": "Int16"}
    return pd.DataFrame(rows, columns=list(dtypes)).astype(dtypes)


def make_sets(rows):
    """Normalised set table from ``(round, group, table, set, n, e, s, w, ns, ew, adjusted)``.

    ``ns``/``ew`` are level texts ("2".."A+") or None; ``adjusted`` is "A+/A-" or None.
    """
    records = []
    for rnd, group, table, set_no, n, e, s, w, ns, ew, adjusted in rows:
        ns_adj, ew_adj = adjusted.split("/") if adjusted else (None, None)
        records.append({
            "round": rnd, "group": group, "table": table, "set": set_no,
            "north": n, "east": e, "south": s, "west": w,
            "ns_level": None if ns is None else level_from_text(ns),
            "ew_level": None if ew is None else level_from_text(ew),
            "adjusted": adjusted, "ns_adjusted": ns_adj, "ew_adjusted": ew_adj, "boards": None,
        })
    dtypes = {"round": "int64", "group": "int64", "table": "int64", "set": "int64",
              "north": "str", "east": "str", "south": "str", "west": "str",
              "ns_level": "Int8", "ew_level": "Int8", "adjusted": "str",
              "ns_adjusted": "str", "ew_adjusted": "str", "boards": "Int16"}
    return pd.DataFrame(records, columns=list(dtypes)).astype(dtypes)


def reference_rates(sets, expected=None, within="event"):
    """{(round, set, table, direction): Fraction} by comparing every pair, one at a time."""
    rates = {}
    rows = list(sets.itertuples())
    for row in rows:
        if pd.isna(row.ns_level):
            rates[row.round, row.set, row.group, row.table, "NS"] = ADJUSTED[row.ns_adjusted]
            rates[row.round, row.set, row.group, row.table, "EW"] = ADJUSTED[row.ew_adjusted]
            continue
        mine = row.ns_level - row.ew_level
        others = [o.ns_level - o.ew_level for o in rows if o is not row
                  and not pd.isna(o.ns_level) and o.set == row.set
                  and (within == "event" or o.group == row.group)]
        n = len(others) + 1
        big_n = max(n, expected or 0)
        for side, sign in (("NS", 1), ("EW", -1)):
            mp = sum(2 if sign * mine > sign * d else 1 if mine == d else 0 for d in others)
            if big_n == 1:
                rate = Fraction(1, 2)
            else:
                rate = (Fraction((mp + 1) * big_n, n) - 1) / (2 * (big_n - 1))
            rates[row.round, row.set, row.group, row.table, side] = rate
    return rates


def reference_lot(seed, player):
    digest = hashlib.sha256(b"guandan-dup/lot\0" + str(seed).encode() + b"\0" + player.encode())
    return int.from_bytes(digest.digest()[:8], "big")


def reference_standings(sets, rates, seed=0, previous=None):
    """[(round, player, sets, cumulative Fraction, rank, label, position)] round by round;
    ``previous`` (player -> position) places players before the first round."""
    played = {}
    for row in sets.itertuples():
        for seat, side in (("north", "NS"), ("east", "EW"), ("south", "NS"), ("west", "EW")):
            rate = rates[row.round, row.set, row.group, row.table, side]
            played.setdefault(getattr(row, seat), []).append((row.round, rate))
    out, previous = [], dict(previous or {})
    for rnd in sorted(set(sets["round"])):
        avgs = {}
        for player, results in played.items():
            so_far = [rate for r, rate in results if r <= rnd]
            if so_far:
                avgs[player] = (len(so_far), sum(so_far) / len(so_far))
        order = sorted(avgs, key=lambda p: (-avgs[p][1], previous.get(p, float("inf")),
                                            reference_lot(seed, p), p))
        for position, player in enumerate(order, 1):
            count, avg = avgs[player]
            rank = 1 + sum(1 for q in avgs if avgs[q][1] > avg)
            tied = sum(1 for q in avgs if avgs[q][1] == avg) > 1
            out.append((rnd, player, count, avg, rank, f"{rank}{'=' if tied else ''}", position))
        previous = {player: position for position, player in enumerate(order, 1)}
    return out


@st.composite
def events(draw):
    """Small random events: byes, missing tables, artificial results, two groups."""
    players = [f"p{i:02d}" for i in range(draw(st.integers(4, 17)))]
    rows, set_no = [], 0
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        for _ in range(draw(st.integers(1, 2))):
            set_no += 1
            for t in range(1, len(order) // 4 + 1):
                if draw(st.integers(0, 9)) == 0:
                    continue
                seats = order[4 * t - 4: 4 * t]
                kind = draw(st.integers(0, 5))
                if kind == 0:
                    adjusted = draw(st.sampled_from(["A+/A-", "A/A", "A-/A-", "A/A+"]))
                    levels = (None, None)
                else:
                    adjusted = None
                    levels = tuple(draw(st.sampled_from(["2", "3", "5", "A", "A+"]))
                                   for _ in range(2))
                rows.append((rnd, 1 + (t - 1) // 2, t, set_no, *seats, *levels, adjusted))
    return make_sets(rows)


def as_file_table(sets: pd.DataFrame) -> pa.Table:
    """A set-level results file's columns from a normalised set table."""
    table = pa.Table.from_pandas(sets.drop(columns=["ns_adjusted", "ew_adjusted", "boards"]),
                                 preserve_index=False)
    names = pa.array(LEVEL_NAMES)
    for column in ("ns_level", "ew_level"):
        index = table.column_names.index(column)
        table = table.set_column(index, column, names.take(table[column]))
    return table

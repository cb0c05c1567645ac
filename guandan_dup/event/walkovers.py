"""Withdrawals in events of matches (SPEC 10; seed 000 art. 34, 35): what a team or a pair
that withdrew from round R on forfeits.

A withdrawn side leaves the movement: a Swiss pairs it no more (the rest are paired, the
bye rule as ever), and in every match it is still seated in from round R (a round robin's
fixed schedule, a knockout's bracket, a round seated before the withdrawal was recorded)
it forfeits: the opponent takes the award of the side present, or advances in a knockout
(art. 35). These walkovers join the ledger's own forfeits, so scoring, seating and
publication (``ledger.will_not_play_rows``) all apply them the same way.
"""

from __future__ import annotations

import pandas as pd

from ..ledger import Effects
from .folder import EventFolder


def withdrawn_teams(decided: Effects, round_no: int) -> dict[int, tuple[int, int]]:
    """Team -> (the round it withdrew from, the ledger row) for withdrawals up to
    ``round_no``."""
    rows = decided.withdrawals.dropna(subset=["team"])
    rows = rows[rows["round"] <= round_no]
    return {int(t): (int(r), int(i)) for t, r, i in
            zip(rows["team"], rows["round"], rows["ledger_id"], strict=True)}


def withdrawn_pairs(folder: EventFolder, decided: Effects, round_no: int) -> dict[str, tuple]:
    """Pair -> (the round its player withdrew from, the ledger row), in a pairs event."""
    rows = decided.withdrawals.dropna(subset=["player"])
    rows = rows[rows["round"] <= round_no]
    if rows.empty:  # no players file read for nothing (1M players: 0.1 s a round)
        return {}
    players = folder.players()
    if "pair" not in players:
        return {}
    pair_of = dict(zip(players["player"].astype(str), players["pair"].astype(str),
                       strict=True))
    return {pair_of[str(p)]: (int(r), int(i)) for p, r, i in
            zip(rows["player"], rows["round"], rows["ledger_id"], strict=True)
            if str(p) in pair_of}


def match_adjustments(folder: EventFolder, decided: Effects) -> pd.DataFrame:
    """The ledger's match adjustments (round, team, kind, ledger_id) and a ``forfeit`` for
    every match a withdrawn team is seated in from the round it withdrew."""
    rows = []
    for team, (first, row_id) in withdrawn_teams(decided, folder.plan.rounds).items():
        for round_no in range(first, folder.plan.rounds + 1):
            matches = folder.read(round_no, "matches")
            if matches is not None and not match_of(matches, team).empty:
                rows.append((round_no, team, "forfeit", row_id))
    own = decided.match_adjustments
    if not rows:
        return own
    walkovers = pd.DataFrame(rows, columns=list(own.columns)).astype(own.dtypes.to_dict())
    seen = set(zip(own["round"], own["team"], strict=True))
    walkovers = walkovers[[(r, t) not in seen for r, t in
                           zip(walkovers["round"], walkovers["team"], strict=True)]]
    return pd.concat([own, walkovers], ignore_index=True)


def forfeited_tables(folder: EventFolder, decided: Effects) -> set[tuple[int, int]]:
    """(round, table) of every knockout match a withdrawn pair forfeits (the bracket's
    table: a pairs match is one table)."""
    out = set()
    for round_no in range(1, folder.plan.rounds + 1):
        bracket = folder.read(round_no, "bracket")
        withdrawn = withdrawn_pairs(folder, decided, round_no)
        out |= {(round_no, table) for table, *_ in pair_walkovers(bracket, withdrawn)}
    return out


def pair_walkovers(bracket: pd.DataFrame | None, withdrawn: dict) -> list[tuple]:
    """(table, the withdrawn pair, its opponent, the side it sits: NS or EW) of every match
    of a pairs knockout's ``bracket`` with one withdrawn pair (``withdrawn_pairs``)."""
    if bracket is None or not withdrawn or "side_a" not in bracket:
        return []
    out = []
    for m in bracket[bracket["side_b"].notna()].itertuples():
        a, b = str(m.side_a) in withdrawn, str(m.side_b) in withdrawn
        if a != b and not pd.isna(m.table):
            gone, other = (m.side_a, m.side_b) if a else (m.side_b, m.side_a)
            out.append((int(m.table), str(gone), str(other), "NS" if a else "EW"))
    return out


def match_of(matches: pd.DataFrame, team: int) -> pd.DataFrame:
    """The match ``team`` plays in ``matches`` (empty when it is not paired or has a bye)."""
    return matches[((matches["home"] == team) | (matches["away"] == team))
                   & matches["away"].notna()]


def withdrawal_notes(matches: pd.DataFrame, decided: Effects, round_no: int,
                     caption) -> list[str]:
    """What a director announces of the round's withdrawn teams: not paired, or the match
    each forfeits and to whom (``caption``: team number -> how it is read out)."""
    notes = []
    for team, (first, row_id) in sorted(withdrawn_teams(decided, round_no).items()):
        said = f"{caption(team)} withdrew from round {first} (ledger row {row_id})"
        match = match_of(matches, team)
        if match.empty:
            notes.append(f"{said}: not paired")
            continue
        m = match.iloc[0]
        other = int(m["away"]) if int(m["home"]) == team else int(m["home"])
        notes.append(f"{said}: forfeits match {int(m['match'])}, {caption(other)} wins it "
                     "(art. 35)")
    return notes

"""Team standings after each round of a stage, in the order of art. 49 (SPEC 8).

Teams are ordered by total 场分; teams equal on it by, in turn: (1) total 级差分; (2)
head-to-head 场分 in their matches of this stage, only when exactly two teams are tied;
(3) matches won; (4) matches drawn is skipped (these events are 场分制); (5) total 级差;
(6) 对手分, the total 场分 of every opponent met (Swiss only); (7) the position after the
previous round (from round 2 on); (8) a lot drawn from the event key. A criterion that
splits a tied group sends each still-tied subgroup on to the next criterion, with the list
for its own size (a pair left over from a three-way tie uses head-to-head if it comes
next). Teams still equal before the lot share a rank ("3="); positions are strict.

Penalties (art. 51-52, the ledger's) come off the team's own totals from their round on,
before the ranking; they are never taken off a match, so the opponents' 对手分, head to head
and match results do not move (art. 51.3).

Every comparison is on integers: 场分 in halves, 级差分 in hundredths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..lots import draw_lots
from ..ranking import standing_ranks
from .matches import exact_points

TEAM_STANDINGS_COLUMNS = (
    "round", "team", "played", "wins", "draws", "losses", "match_points", "level_points",
    "level_diff", "opponent_points", "rank", "rank_label", "position",
    "penalty_match_points", "penalty_level_points",
)


@dataclass(frozen=True)
class Totals:
    """A team's exact totals over the stage so far."""

    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    halves: int = 0
    hundredths: int = 0
    level_diff: int = 0
    opponent_halves: int = 0


def totals(match_results: pd.DataFrame, teams: Sequence[int]) -> dict[int, Totals]:
    """Each team's totals over ``match_results`` (the rounds so far)."""
    halves, hundredths = exact_points(match_results)
    frame = match_results.assign(halves=halves, hundredths=hundredths)
    levels = frame["levels"]
    frame = frame.assign(
        met=frame["opponent"].notna(),
        win=(levels > 0).fillna(False),
        draw=(levels == 0).fillna(False),
        loss=(levels < 0).fillna(False),
        net=levels.fillna(0),
    )
    sums = frame.groupby("team")[["met", "win", "draw", "loss", "halves", "hundredths", "net"]]
    sums = sums.sum()
    own = sums["halves"].to_dict()  # every team met, ranked here or not
    sums = sums.reindex(list(teams), fill_value=0)
    met = frame[frame["met"]]
    opponent = met.groupby("team")["opponent"].agg(lambda o: sum(own.get(int(t), 0) for t in o))
    return {
        int(t): Totals(
            int(r.met), int(r.win), int(r.draw), int(r.loss), int(r.halves), int(r.hundredths),
            int(r.net), int(opponent.get(t, 0)),
        )
        for t, r in sums.iterrows()
    }


def penalties_through(penalties: pd.DataFrame | None, round_no: int) -> dict[int, tuple[int, int]]:
    """Team -> (场分 halves, 级差分 hundredths) of every penalty of rounds <= ``round_no``
    (``penalties``: round, team, match_halves, level_hundredths; ``None``: none)."""
    if penalties is None or penalties.empty:
        return {}
    part = penalties[penalties["round"] <= round_no]
    sums = part.groupby("team")[["match_halves", "level_hundredths"]].sum()
    return {int(t): (int(r.match_halves), int(r.level_hundredths)) for t, r in sums.iterrows()}


def _penalised(sums: dict[int, Totals], taken: Mapping[int, tuple[int, int]]) -> dict[int, Totals]:
    """``sums`` with each team's penalty taken off its own 场分 and 级差分 only."""
    return {t: replace(s, halves=s.halves - taken.get(t, (0, 0))[0],
                       hundredths=s.hundredths - taken.get(t, (0, 0))[1])
            for t, s in sums.items()}


def head_to_head(match_results: pd.DataFrame, team: int, other: int) -> int:
    """场分 (halves) ``team`` scored against ``other`` in the rounds given."""
    mine = match_results[(match_results["team"] == team) & (match_results["opponent"] == other)]
    return int(exact_points(mine)[0].sum())


Criterion = tuple[str, Callable[[int, list[int]], int], Callable[[list[int]], bool]]


def criteria(
    match_results: pd.DataFrame,
    sums: Mapping[int, Totals],
    fmt: str,
    previous: Mapping[int, int] | None,
) -> list[Criterion]:
    """Art. 49's tie-breaks after total 场分, as (name, key, applies to this tied group);
    a higher key places higher."""
    every = lambda group: True  # noqa: E731 - a table of small lambdas reads best
    out: list[Criterion] = [
        ("级差分 level points", lambda t, g: sums[t].hundredths, every),
        ("相遇 head to head",
         lambda t, g: head_to_head(match_results, t, next(o for o in g if o != t)),
         lambda group: len(group) == 2),
        ("胜场 wins", lambda t, g: sums[t].wins, every),
        ("级差 levels", lambda t, g: sums[t].level_diff, every),
    ]
    if fmt == "swiss":
        out.append(("对手分 opponents' points", lambda t, g: sums[t].opponent_halves, every))
    if previous:
        out.append(("上轮名次 previous position", lambda t, g: -previous[t],
                    lambda group: all(t in previous for t in group)))
    return out


def split_ties(group: list[int], rules: list[Criterion], start: int = 0) -> list[list[int]]:
    """``group`` (teams equal so far) as blocks, best first, by ``rules[start:]``; teams in
    one block are equal on every rule. A rule splitting the group sends each block on to
    the next rule (which then sees the block's own size)."""
    for index in range(start, len(rules)):
        if len(group) < 2:
            break
        _, key, applies = rules[index]
        if not applies(group):
            continue
        values = {t: key(t, group) for t in group}
        levels = sorted(set(values.values()), reverse=True)
        if len(levels) > 1:
            return [
                block
                for value in levels
                for block in split_ties([t for t in group if values[t] == value], rules, index + 1)
            ]
    return [group]


def standings_after(
    match_results: pd.DataFrame,
    round_no: int,
    teams: Sequence[int],
    fmt: str,
    seed: int | str | bytes,
    previous: Mapping[int, int] | None = None,
    penalties: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The standings after ``round_no`` (``TEAM_STANDINGS_COLUMNS``), in position order,
    from the match results of rounds 1..round_no; ``previous`` is team -> position after
    the round before (criterion 7), ``seed`` draws the lot, ``penalties`` (see
    ``penalties_through``) come off the totals shown and ranked."""
    so_far = match_results[match_results["round"] <= round_no]
    taken = penalties_through(penalties, round_no)
    sums = _penalised(totals(so_far, teams), taken)
    rules = criteria(so_far, sums, fmt, previous)
    by_points: dict[int, list[int]] = {}
    for team in teams:
        by_points.setdefault(sums[team].halves, []).append(team)
    blocks = [
        block
        for points in sorted(by_points, reverse=True)
        for block in split_ties(by_points[points], rules)
    ]
    ordered = []  # every block by lot, then the blocks one after another
    for block in blocks:
        lots = draw_lots(seed, [str(t) for t in block])
        ordered += [t for _, t in sorted(zip(lots.tolist(), block, strict=True))]
    tied = np.repeat(np.arange(len(blocks)), np.array([len(b) for b in blocks], np.int64))
    ranks, labels = standing_ranks(tied)
    rows = []
    for placed, (team, rank, label) in enumerate(
            zip(ordered, ranks.tolist(), labels.to_pylist(), strict=True), start=1):
        s = sums[team]
        rows.append((
            round_no, team, s.played, s.wins, s.draws, s.losses, s.halves / 2,
            s.hundredths / 100, s.level_diff, s.opponent_halves / 2, rank, label, placed,
            taken.get(team, (0, 0))[0] / 2, taken.get(team, (0, 0))[1] / 100,
        ))
    frame = pd.DataFrame(rows, columns=list(TEAM_STANDINGS_COLUMNS))
    return frame.astype({c: "int64" for c in (
        "round", "team", "played", "wins", "draws", "losses", "level_diff", "rank",
        "position")})


def team_standings(
    match_results: pd.DataFrame,
    teams: Sequence[int],
    fmt: str,
    seed: int | str | bytes,
    last_round: int | None = None,
    penalties: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Standings after every round 1..last_round (default: the last with results), each
    round's previous positions taken from the round before (none before round 1);
    ``penalties`` (round, team, match_halves, level_hundredths: the ledger's
    ``team_penalties``) are in force from their round on."""
    last = int(match_results["round"].max()) if last_round is None else last_round
    frames, previous = [], None
    for round_no in range(1, last + 1):
        frame = standings_after(match_results, round_no, teams, fmt, seed, previous,
                                penalties)
        previous = dict(zip(frame["team"].tolist(), frame["position"].tolist(), strict=True))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)

"""The stages of one competition (SPEC 9): a team knockout seeded (``--seed-from``) from a
finished team Swiss or round robin, and how the two stages find each other.

A team keeps its identity from one stage to the next: its label in the players file and
its name go through, and the knockout's event.toml records the stage it was seeded from
(``[seeded_from]``, ``SeededFrom``: the earlier folder relative to its own, that stage's
name and format, each knockout team's number there), so the knockout says "team 1 南京队
(Swiss team 4)" and its site links back to the earlier stage's. The earlier folder is
never written by the knockout's init; its site links forward by looking, when it is built,
at the event folders beside it (the same parent folder) for a knockout seeded from it.
Links go from one stage's site to the other's in its default place (DIR/site), so they
work wherever the two folders (or their site/ folders, kept in the same layout) stand side
by side: docs/knockout.md, "Seeded from a Swiss".

Seeding waits for the earlier stage's final positions (art. 48): while a round of it is
still in its correction time, a correction may still change who goes through, so seeding
is refused unless ``--force`` (then ``event init`` warns).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...errors import InvalidPlanError
from ...reports.site.stages import StageLink
from ...wording import event_command, spans, team_caption, words
from ..finality import final, now_utc, round_deadlines
from ..folder import EVENT_TOML, EventFolder
from ..ledger import read_ledger
from .team_matches import SeededFrom, teams_of

STAGE_WORDS = {"swiss": "Swiss", "round-robin": "round robin"}
"""An earlier stage's format as the director reads it ("Swiss team 4")."""


@dataclass(frozen=True)
class Seeding:
    """What a knockout takes from the stage it is seeded from: the team labels best first
    (its top ``--top``), their names there (label -> name) and the record for event.toml."""

    labels: list[str]
    names: dict[str, str]
    seeded_from: SeededFrom
    players: pd.DataFrame
    """The stage's registered players (player, name, label): the knockout's, unless
    ``--players`` names others."""


def seeding_from(seed_from: str | os.PathLike, top: int | None, knockout: Path,
                 force: bool = False, now: pd.Timestamp | None = None) -> Seeding:
    """The seeding a knockout at ``knockout`` takes from the finished stage at
    ``seed_from``: its top ``top`` teams (default: all) by final position. Refused for a
    stage that is no team Swiss or round robin, not finished, or (unless ``force``) still
    in its correction time (art. 48)."""
    from .teams import TeamLeague  # teams.py links to this module for its site

    stage = EventFolder.open(seed_from)
    plan = stage.plan
    if not isinstance(plan.event_format, TeamLeague):
        raise InvalidPlanError(f"--seed-from {str(seed_from)!r}: a knockout is seeded from a "
                               "team Swiss or round robin")
    if stage.rounds_scored() != list(range(1, plan.rounds + 1)):
        raise InvalidPlanError(f"--seed-from {str(seed_from)!r} is not finished: "
                               f"{spans('round', range(1, plan.rounds + 1))} must all be "
                               "scored")
    correcting = correction_end(stage, now)
    if correcting is not None and not force:
        raise InvalidPlanError(
            f"--seed-from {str(seed_from)!r}: {plan.name!r} is still in its correction time "
            f"(art. 48) until {correcting:%Y-%m-%d %H:%M} UTC, so its final positions may "
            "still change; nothing was written. Seed the knockout after that time, or add "
            "--force to seed it from the positions as they stand now")
    final_order = stage.read(plan.rounds, "team_standings").sort_values("position")
    teams = teams_of(stage)
    label = dict(zip(teams["team"].astype(int), teams["label"].astype(str), strict=True))
    name = dict(zip(teams["label"].astype(str), teams["name"].astype(str), strict=True))
    order = [int(t) for t in final_order["team"]]
    if top is not None and not 2 <= top <= len(order):
        raise InvalidPlanError(f"--top {top}: the stage has {len(order)} teams; between 2 "
                               f"and {len(order)} may go through")
    order = order[:top]
    record = SeededFrom(_relative(Path(seed_from), knockout), plan.name, plan.format,
                        tuple(order))
    players = stage.players()
    registered = pd.DataFrame({"player": players["player"].astype(str),
                               "name": players["name"].astype(str),
                               "label": players["team"].astype(int).map(label)})
    return Seeding([label[t] for t in order], name, record, registered)


def correction_end(stage: EventFolder, now: pd.Timestamp | None = None) -> pd.Timestamp | None:
    """When the last correction time of ``stage``'s rounds ends (art. 48), or ``None``
    when every round is final."""
    ledger = read_ledger(stage)
    now = now or now_utc()
    open_rounds = set(stage.rounds_scored()) - final(stage, ledger, now)
    ends = round_deadlines(stage, ledger)
    return max((ends[r] for r in open_rounds if r in ends), default=None)


def _relative(target: Path, start: Path) -> str:
    """``target`` as seen from the folder ``start`` (posix), absolute where no relative
    path leads there (another drive)."""
    try:
        return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()
    except ValueError:
        return target.resolve().as_posix()


def earlier_caption(seeded_from: SeededFrom, team: int, name: str) -> str:
    """"team 1 南京队 (Swiss team 4)": a knockout team with its number in the earlier stage."""
    caption = team_caption(team, name)
    earlier = seeded_from.earlier(team)
    if earlier is None:
        return caption
    return f"{caption} ({STAGE_WORDS.get(seeded_from.format, seeded_from.name)} team {earlier})"


def seeded_lines(folder: EventFolder, now: pd.Timestamp | None = None) -> list[str]:
    """What ``event init`` adds for a knockout seeded from an earlier stage: that stage, each
    team with its number there, a warning while that stage is still in its correction time
    (seeded with ``--force``), and the command that links the earlier site to this one
    (which finds a knockout beside it only)."""
    seeded = folder.plan.options.seeded_from
    if seeded is None:
        return []
    teams = teams_of(folder)
    lines = [f"Seeded from {seeded.name!r} ({seeded.folder}) by its final positions:"]
    lines += [f"  {earlier_caption(seeded, int(t), str(n))}"
              for t, n in zip(teams["team"], teams["name"], strict=True)]
    earlier = Path(os.path.normpath(folder.path / seeded.folder))
    if (earlier / EVENT_TOML).exists():
        end = correction_end(EventFolder.open(earlier), now)
        if end is not None:
            lines.append(f"Warning: {seeded.name!r} is still in its correction time (art. 48) "
                         f"until {end:%Y-%m-%d %H:%M} UTC: a correction there may change its "
                         "final positions, and this seeding does not follow it (seeded with "
                         "--force)")
        if earlier.resolve().parent == folder.path.resolve().parent:  # ``seeded_by``
            command = event_command(earlier.as_posix(), "site")
            lines.append(f"Also: run `{command}` again, so that the earlier stage's site "
                         "links to this knockout's")
    return lines


def stage_note(folder: EventFolder) -> list[str]:
    """``event status``'s line for a knockout seeded from an earlier stage: that stage,
    and each team with its number there."""
    seeded = getattr(folder.plan.options, "seeded_from", None)
    if seeded is None:
        return []
    teams = teams_of(folder)
    seeds = words([earlier_caption(seeded, int(t), str(n))
                   for t, n in zip(teams["team"], teams["name"], strict=True)])
    return [f"Seeded from {seeded.name!r} ({seeded.folder}) by its final positions: {seeds}"]


def stage_links(folder: EventFolder) -> tuple[StageLink, ...]:
    """The other stages a site links to, with the way from this site (DIR/site) to theirs:
    a knockout's stage it was seeded from (its teams with their numbers there), and the
    knockouts beside the folder seeded from it (``seeded_by``)."""
    here = folder.path / "site"
    seeded = getattr(folder.plan.options, "seeded_from", None)
    links = []
    if seeded is not None:
        teams = teams_of(folder)
        links.append(StageLink(
            "seeded_from", seeded.name, _href(folder.path / seeded.folder, here),
            seeded.format, tuple((int(t), str(n), seeded.earlier(int(t)))
                                 for t, n in zip(teams["team"], teams["name"], strict=True))))
    links += [StageLink("seeds", name, _href(path, here), "knockout")
              for path, name in seeded_by(folder)]
    return tuple(links)


def _href(stage: Path, site: Path) -> str:
    """The link from the site folder ``site`` to the index page of ``stage``'s site."""
    return _relative(stage / "site", site) + "/index.html"


def seeded_by(folder: EventFolder) -> list[tuple[Path, str]]:
    """(folder, name) of each event folder beside ``folder`` (in its parent folder) whose
    event.toml says it was seeded from ``folder``: read only, so a knockout's init never
    writes into the earlier stage. A folder that cannot be read is passed over: it is not
    this event's to judge."""
    mine = folder.path.resolve()
    try:
        beside = sorted(p for p in mine.parent.iterdir() if p != mine)
    except OSError:
        return []
    found = []
    for other in beside:
        try:
            text = (other / EVENT_TOML).read_text(encoding="utf-8")
            data = tomllib.loads(text) if "[seeded_from]" in text else {}
            earlier = data.get("seeded_from", {}).get("folder")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
            continue
        if isinstance(earlier, str) and (other / earlier).resolve() == mine:
            found.append((other, str(data.get("name", other.name))))
    return found

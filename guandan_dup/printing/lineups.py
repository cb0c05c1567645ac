"""Lineup forms (出场表, seed 000 art. 30): one A4 page per team and match of a round.

Before a match each team names, on its form, the pair it sends to each room; the director
types the forms into the lineups file of ``event seat --lineups`` (``teams.seating``). So a
form says the round, the match, the team and its opponent, each room's table and the seats
the team takes there (home: E-W in the open room, N-S in the closed one, art. 29.2), in the
order of the file's ``player_1`` and ``player_2``, the team's registered players (only they
may play, art. 19.2), and lines for the captain's signature and the time it was handed in.

The forms are printed from the seated round's matches: ``event seat`` pairs the round
(with each team's first four players), the forms go out, and seating the round again with
the lineups file typed from them keeps the matches (the pairing depends only on the
standings) and the tables' links. Events of players or pairs have no lineups.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..errors import GuandanError
from ..wording import team_caption
from .document import MARGIN, Document
from .seat_list import SEAT_LABELS
from .source import RoundSource

SEATS_OF = {("home", "open"): ("east", "west"), ("home", "closed"): ("north", "south"),
            ("away", "open"): ("north", "south"), ("away", "closed"): ("east", "west")}
"""The seats of a team's pair in a room (art. 29.2), player_1's first (``seating_frame``)."""
ROOM_WORDS = {"open": "Open room 开室", "closed": "Closed room 闭室"}
SIDE_WORDS = {"home": "主队 home", "away": "客队 away"}
KIND_WORDS = {"individual": "individual players", "pairs": "pairs"}
ROW = 20


@dataclass(frozen=True)
class Room:
    """A room of a team's match: its ``room`` (open, closed), table and the pair's seats."""

    room: str
    table: int
    seats: tuple[str, str]


@dataclass(frozen=True)
class LineupForm:
    """One team's form for one match: ``team`` its number, ``caption`` how it is read out
    (``team_caption``), ``roster`` (id, name) of its registered players."""

    round: int
    match: int
    team: int
    caption: str
    side: str
    opponent: str
    rooms: tuple[Room, ...]
    roster: tuple[tuple[str, str], ...]


def lineup_forms(source: RoundSource) -> tuple[list[LineupForm], list[str]]:
    """The forms of the round (by match, home team first) and the notes to tell the
    director (the teams with a bye); refused for events without teams."""
    folder, round_no = source.folder, source.round_no
    plan = folder.plan
    if not plan.event_format.by_team:
        raise GuandanError(
            f"lineup forms (出场表, art. 30) are for team events, and {plan.name!r} is an "
            f"event of {KIND_WORDS.get(plan.kind, plan.kind)}, seated by the movement. "
            "Nothing was printed; print its scoresheets or table cards instead")
    from ..event.formats.team_matches import teams_of

    notes = []
    matches = folder.read(round_no, "matches")
    teams = teams_of(folder)
    name = dict(zip(teams["team"].astype(int), teams["name"].astype(str), strict=True))
    players = folder.players()
    forms = []
    for m in matches.itertuples():
        home = int(m.home)
        if pd.isna(m.away):  # a bye
            notes.append(f"{team_caption(home, name.get(home, ''))} has a bye in round "
                         f"{round_no}: no lineup form")
            continue
        sides = {"home": home, "away": int(m.away)}
        tables = {"open": int(m.open_table), "closed": int(m.closed_table)}
        for side, team in sides.items():
            other = sides["away" if side == "home" else "home"]
            mine = players[players["team"].astype(int) == team]
            forms.append(LineupForm(
                round_no, int(m.match), team, team_caption(team, name.get(team, "")), side,
                team_caption(other, name.get(other, "")),
                tuple(Room(room, tables[room], SEATS_OF[(side, room)]) for room in tables),
                tuple(zip(mine["player"].astype(str), mine["name"].astype(str),
                          strict=True))))
    return forms, notes


def render(source: RoundSource, doc: Document) -> None:
    """Draw the round's lineup forms into ``doc``, one page each; its notes into
    ``doc.notes``."""
    forms, notes = lineup_forms(source)
    doc.notes.extend(notes)
    for form in forms:
        doc.new_page()
        draw(doc, source.plan.name, form)


def draw(doc: Document, event: str, form: LineupForm) -> None:
    """One form on the current page, top to bottom."""
    left, top, width = MARGIN, doc.height - MARGIN, doc.width - 2 * MARGIN
    doc.text(left, top - 20, "出场表 Lineup form", 20, bold=True)
    doc.text(left, top - 38, event, 11, fit=width)
    heading = f"第{form.round}轮 Round {form.round} · 第{form.match}场 Match {form.match}"
    doc.text(left, top - 60, heading, 13, bold=True)
    team = f"{form.caption} ({SIDE_WORDS[form.side]})"
    doc.text(left, top - 84, team, 16, fit=width, bold=True)
    against = f"v 对 {form.opponent}"
    doc.text(left, top - 102, against, 11, fit=width)
    y = top - 130
    for room in form.rooms:
        y = _draw_room(doc, room, left, y, width) - 16
    y = _draw_roster(doc, form.roster, left, y - 4, width)
    _draw_signature(doc, form, left, min(y - 30, MARGIN + 110), width)


def _draw_room(doc: Document, room: Room, x: float, y: float, width: float) -> float:
    """A room's heading and a row per seat with boxes for the player's id and name."""
    sides = "North-South 南北" if room.seats[0] == "north" else "East-West 东西"
    doc.text(x, y, f"{ROOM_WORDS[room.room]} · table 第{room.table}桌 · your pair sits "
             f"{sides}", 12, bold=True)
    doc.text(x + 80, y - 16, "ID 编号", 8)
    doc.text(x + 210, y - 16, "Name 姓名", 8)
    for i, seat in enumerate(room.seats):
        row_top = y - 20 - i * (ROW + 6)
        doc.text(x, row_top - 14, SEAT_LABELS[seat], 11, bold=True)
        doc.box(x + 76, row_top - ROW, 120, ROW)
        doc.box(x + 206, row_top - ROW, width - 206, ROW)
    return y - 20 - 2 * (ROW + 6)


def _draw_roster(doc: Document, roster: tuple[tuple[str, str], ...], x: float, y: float,
                 width: float) -> float:
    """The team's registered players (art. 19.2), a row each; returns the bottom."""
    doc.text(x, y, "Registered players 报名队员 (only they may play 仅限报名队员上场, "
             "art. 19.2)", 10, bold=True)
    top = y - 8
    for i, (player, name) in enumerate(roster):
        row_top = top - i * ROW
        doc.box(x, row_top - ROW, width, ROW, width=0.5)
        doc.text(x + 4, row_top - 14, str(i + 1), 10)
        doc.text(x + 30, row_top - 14, player, 11, fit=140)
        doc.text(x + 180, row_top - 14, name, 11, fit=width - 186)
    return top - len(roster) * ROW


def _draw_signature(doc: Document, form: LineupForm, x: float, y: float,
                    width: float) -> None:
    """The captain's signature, the time handed in, and how the director types it in."""
    half = width / 2
    doc.text(x, y, "Captain 领队签名", 10, bold=True)
    doc.line(x, y - 26, x + half - 20, y - 26)
    doc.text(x + half, y, "Handed in at 提交时间", 10, bold=True)
    doc.line(x + half, y - 26, x + width, y - 26)
    lines = (
        "Hand in 10 minutes before the match, both teams at once 赛前10分钟双方同时提交; in a "
        "knockout the team without the choice of seats first, 15 minutes before.",
        "A change after that needs the chief director 更改须经裁判长同意 (art. 30).",
        f"For the director 裁判: the lineups file's rows of round {form.round}, team "
        f"{form.team}: " + "; ".join(f"room {room.room}, player_1 = {room.seats[0]}, "
                                     f"player_2 = {room.seats[1]}" for room in form.rooms),
    )
    for i, line in enumerate(lines):
        doc.text(x, y - 46 - 12 * i, line, 8, fit=width)

"""Lineup forms (出场表, seed 000 art. 30): a page per team and match, read back from the PDF."""

from __future__ import annotations

import re

import pytest
from event_support import run, seated_event, swiss_cup
from print_support import A4_PORTRAIT, needs_poppler, sizes, texts

from guandan_dup.event import EventFolder
from guandan_dup.event.access import table_links
from guandan_dup.event.formats.team_matches import teams_of
from guandan_dup.printing import print_round

pytestmark = needs_poppler


def page_texts(path) -> list[str]:
    """Each page's words, one space apart."""
    return [" ".join(page.split()) for page in texts(path)]


def in_order(text: str, *parts: str) -> None:
    """Each of ``parts`` is in ``text`` after the one before it."""
    at = 0
    for part in parts:
        at = text.find(part, at)
        assert at >= 0, f"{part!r} is missing or out of order in {text!r}"
        at += len(part)


@pytest.mark.parametrize(("teams", "pages", "byes"), [
    ([4, 5, 4, 6], 4, 0),
    ([4, 4, 6, 5, 4], 4, 1),
])
def test_art30_a_form_per_team_and_match_on_a4_and_a_bye_said(tmp_path, teams, pages, byes):
    _, folder = swiss_cup(tmp_path, teams, 3, dealt=(1,))
    printed = print_round(folder, 1, "lineups", out=tmp_path / "l.pdf")
    assert printed.pages == pages
    assert sizes(printed.path) == [A4_PORTRAIT] * pages
    assert sum("has a bye in round 1: no lineup form" in n for n in printed.notes) == byes


def test_art29_each_form_gives_the_teams_rooms_seats_and_roster(tmp_path):
    _, folder = swiss_cup(tmp_path, [4, 5, 4, 6], 3, dealt=(1,))
    printed = print_round(folder, 1, "lineups", out=tmp_path / "l.pdf")
    matches = folder.read(1, "matches")
    players = folder.players()
    name = dict(zip(teams_of(folder)["team"], teams_of(folder)["name"], strict=True))
    texts = iter(page_texts(printed.path))
    for m in matches.itertuples():
        for side, team, seats in (("主队 home", m.home, ("东 East", "西 West", "北 North",
                                                        "南 South")),
                                  ("客队 away", m.away, ("北 North", "南 South", "东 East",
                                                        "西 West"))):
            text = next(texts)
            assert f"第1轮 Round 1 · 第{m.match}场 Match {m.match}" in text
            assert f"team {team} {name[team]} ({side})" in text
            in_order(text, f"Open room 开室 · table 第{m.open_table}桌", *seats[:2],
                     f"Closed room 闭室 · table 第{m.closed_table}桌", *seats[2:])
            mine = players[players["team"] == team]
            for player, player_name in zip(mine["player"], mine["name"], strict=True):
                assert f"{player} {player_name}" in text
            others = players[players["team"] != team]["player"]
            assert not any(f" {p} " in text for p in others)
            assert "领队签名" in text and "提交时间" in text
            first = seats[0].split()[1].lower()
            assert f"round 1, team {team}: room open, player_1 = {first}," in text


def test_art30_the_command_says_why_an_individual_event_has_no_lineup_forms(tmp_path):
    event = seated_event(tmp_path)
    out = " ".join(run("event", "print", event, "--round", 1, "--what", "lineups",
                       code=1).split())
    assert re.search(r"Error: lineup forms \(出场表, art. 30\) are for team events, and "
                     r"'.*' is an event of individual players, seated by the movement. "
                     "Nothing was printed", out), out
    assert not (event / "print").exists()


def test_art30_seating_again_from_the_filled_forms_keeps_the_forms_and_the_links(tmp_path):
    directory, folder = swiss_cup(tmp_path, [4, 5, 4, 6], 3, dealt=(1,))
    before = page_texts(print_round(folder, 1, "lineups", out=tmp_path / "a.pdf").path)
    links = table_links(directory, 1)
    players = folder.players()
    team = players[players["team"] == 1]["player"].tolist()
    lineups = tmp_path / "lineups.csv"
    lineups.write_text("round,team,room,player_1,player_2\n"
                       f"1,1,open,{team[3]},{team[2]}\n1,1,closed,{team[1]},{team[0]}\n",
                       encoding="utf-8")
    run("event", "seat", directory, "--round", 1, "--lineups", lineups)
    again = EventFolder.open(directory)
    assert page_texts(print_round(again, 1, "lineups", out=tmp_path / "b.pdf").path) == before
    assert table_links(directory, 1) == links
    assert again.read(1, "lineups").iloc[0]["player_1"] == team[3]

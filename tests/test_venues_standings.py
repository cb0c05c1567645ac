"""Issue 24, standings per venue: the standings file's venue column, and every standings
output (the ``standings`` command, the export, the site, the live board and the API) read
for one venue with ranks and positions within it."""

from __future__ import annotations

import httpx
import pandas as pd
import pytest
from event_support import run
from live_support import running
from venue_support import play, venue_event

from guandan_dup.errors import GuandanError
from guandan_dup.event import EventFolder
from guandan_dup.live.board import standings as board_standings
from guandan_dup.scoring.venues import venue_standings


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("venues")
    directory = venue_event(tmp, rounds=2)
    play(directory, tmp, (1, 2))
    return directory


def hand_ranked(field: pd.DataFrame, venue: str) -> list[tuple[str, str, int]]:
    """The slow, obvious reference: walk the field best first, keep the venue's players;
    a player shares the rank of the one above when the two share it in the field."""
    out, rank, last = [], 0, None
    for i, row in enumerate(field.sort_values("position")[lambda t: t["venue"] == venue]
                            .itertuples(), 1):
        if row.rank != last:
            rank, last = i, row.rank
        out.append((row.player, rank, i))
    shared = {r for _, r, _ in out if sum(1 for _, s, _ in out if s == r) > 1}
    return [(p, f"{r}{'=' * (r in shared)}", pos) for p, r, pos in out]


def test_issue24_standings_file_has_the_venue_of_every_player(event):
    folder = EventFolder.open(event)
    standings = folder.read(2, "standings")
    venues = folder.players().set_index("player")["venue"]
    assert standings["player"].map(venues).tolist() == standings["venue"].tolist()


def test_issue24_venue_ranks_are_within_the_venue_ties_kept():
    field = pd.DataFrame({
        "round": 1, "player": list("abcdefg"), "venue": list("XYXXYXX"),
        "rank": [1, 2, 2, 4, 4, 4, 7], "rank_label": ["1", "2=", "2=", "4=", "4=", "4=", "7"],
        "position": range(1, 8)})
    mine = venue_standings(field, "X")
    assert mine[["player", "rank_label", "position"]].to_numpy().tolist() == [
        ["a", "1", 1], ["c", "2", 2], ["d", "3=", 3], ["f", "3=", 4], ["g", "5", 5]]
    assert [tuple(r) for r in mine[["player", "rank_label", "position"]].to_numpy()] == \
        hand_ranked(field, "X")


def test_issue24_venue_ranks_match_the_reference_on_the_event(event):
    field = EventFolder.open(event).read(2, "standings")
    for venue in ("南京", "淮安"):
        mine = venue_standings(field, venue)
        assert [tuple(r) for r in mine[["player", "rank_label", "position"]].to_numpy()] == \
            hand_ranked(field, venue)


def test_issue24_standings_command_with_venue(event):
    out = run("standings", event / "rounds" / "2", "--round", 2, "--venue", "淮安",
              "--to", "csv")
    table = pd.read_csv(pd.io.common.StringIO(out))
    assert set(table["场地 Venue"]) == {"淮安"} and len(table) == 9
    field = EventFolder.open(event).read(2, "standings")
    expected = venue_standings(field, "淮安")  # the event's key is random: ties vary
    assert table["名次 Rank"].astype(str).tolist() == expected["rank_label"].tolist()
    assert table["名次 Rank"].astype(str).iloc[0] in ("1", "1=")
    out = run("standings", event / "rounds" / "2", "--round", 2, "--venue", "上海", code=1)
    assert "Error: venue '上海': expected one of 南京, 淮安" in out


def test_issue24_export_writes_each_venue_standings(event):
    run("event", "export", event)
    exports = event / "exports"
    for venue, count in (("南京", 14), ("淮安", 9)):
        table = pd.read_csv(exports / f"standings-venue-{venue}-round-2.csv")
        assert len(table) == count and set(table["场地 Venue"]) == {venue}
        assert table["名次 Rank"].astype(str).str.rstrip("=").astype(int).min() == 1


def test_issue24_site_has_a_standings_page_per_venue_linked_from_the_index(event, tmp_path):
    run("event", "site", event, "--out", tmp_path / "site", "--quiet")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    page = tmp_path / "site" / "standings" / "round-2-venue-淮安.html"
    assert 'href="standings/round-2-venue-淮安.html"' in index
    html = page.read_text(encoding="utf-8")
    assert '<span id="venue">淮安</span>' in html
    assert html.count('<tr data-search') == 9


def test_issue24_board_figures_for_one_venue(event):
    whole = board_standings(event, 2)
    mine = board_standings(event, 2, venue="南京")
    assert mine["venue"] == "南京"
    assert [r["position"] for r in mine["standings"]] == list(range(1, 15))
    expected = [r["player"] for r in whole["standings"] if r["venue"] == "南京"]
    assert [r["player"] for r in mine["standings"]] == expected
    with pytest.raises(GuandanError, match="venue '上海': expected one of 南京, 淮安"):
        board_standings(event, 2, venue="上海")


def test_issue24_api_standings_with_venue(event):
    with running(event) as base:
        answer = httpx.get(f"{base}/api/v1/rounds/2/standings", params={"venue": "淮安"})
        assert answer.status_code == 200
        rows = answer.json()["standings"]
        assert {r["venue"] for r in rows} == {"淮安"} and len(rows) == 9
        assert [r["position"] for r in rows] == list(range(1, 10)) and rows[0]["rank"] == 1
        unknown = httpx.get(f"{base}/api/v1/rounds/2/standings", params={"venue": "上海"})
        assert unknown.status_code == 404
        assert "expected one of 南京, 淮安" in unknown.json()["error"]

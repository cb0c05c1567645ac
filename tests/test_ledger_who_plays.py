"""Who may play a round: a substitute must not be playing it already (SPEC 10, art. 19.2)."""

import pytest
from event_support import run, swiss_cup
from ledger_support import PLAYERS, context, ledger_of, seating

from guandan_dup.event import EventFolder
from guandan_dup.event.ledger import event_context
from guandan_dup.event.people import people_of
from guandan_dup.ledger import LedgerError

SEATED = {r: frozenset(seating().query("round == @r")[["north", "east", "south", "west"]]
                       .to_numpy().ravel()) for r in (1, 2)}
TEAMS = {p: 1 + i // 4 for i, p in enumerate(PLAYERS)}


@pytest.mark.parametrize(
    ("kind", "player", "replaced", "ok"),
    [
        ("individual", "p02", "p01", False),  # p02 sits at p01's table in round 1
        ("individual", "p09", "p01", False),  # p09 plays at another table of round 1
        ("individual", "p17", "p01", True),   # p17 has the round-1 bye
        ("individual", "x99", "p01", True),   # an outsider
        ("teams", "p02", "p01", False),       # a teammate who plays the round
        ("teams", "p17", "p18", True),        # a teammate who does not play it
    ],
)
def test_spec10_a_substitute_must_not_play_the_round(kind, player, replaced, ok):
    team_of = TEAMS | {"p18": 5} if kind == "teams" else {}
    ctx = context(kind, players=(*PLAYERS, "p18"), team_of=team_of, seated=SEATED)
    entry = ("substitute", 1, dict(player=player, for_player=replaced))
    if ok:
        assert len(ledger_of(entry, ctx=ctx)) == 1
    else:
        with pytest.raises(LedgerError, match=f"value {player!r}: plays in round 1"):
            ledger_of(entry, ctx=ctx)


def test_spec10_the_folder_context_knows_who_is_seated(tmp_path):
    from event_support import seated_event

    directory = seated_event(tmp_path)
    seat = EventFolder.open(directory).read(1, "seating").iloc[0]
    out = run("event", "ledger", "add", directory, "substitute", "--round", 1, "--player",
              seat["east"], "--for", seat["north"], "--reason", "ill", code=1)
    assert f"value {seat['east']!r}: plays in round 1" in out
    assert event_context(EventFolder.open(directory)).seated.keys() == {1}


def test_spec10_a_team_substitute_must_not_play_the_round(tmp_path):
    directory, folder = swiss_cup(tmp_path, [5, 4, 4, 4], 3, dealt=(1,))
    seats = folder.read(1, "seating").iloc[0]
    out = run("event", "ledger", "add", directory, "substitute", "--round", 1, "--player",
              seats["south"], "--for", seats["north"], "--reason", "ill", code=1)
    assert "plays in round 1" in out


def test_spec10_a_substitute_recorded_before_seating_gets_no_seat_of_their_own(tmp_path):
    """The other order of item 8: recorded first, the substitute is not placed by the
    movement (they sit in the seat of the player replaced), so no seating has them twice."""
    from event_support import seated_event, set_results, write

    directory = seated_event(tmp_path, rounds=2)
    results = write(set_results(EventFolder.open(directory), 1), tmp_path / "r1.parquet")
    run("event", "ingest", directory, results, "--round", 1)
    run("event", "score", directory, "--round", 1)
    run("event", "ledger", "add", directory, "substitute", "--round", 2, "--player", "P002",
        "--for", "P001", "--reason", "P001 is ill")
    run("event", "deal", directory, "--round", 2, "--quiet")
    run("event", "seat", directory, "--round", 2)
    seated = set(EventFolder.open(directory).read(2, "seating")[
        ["north", "east", "south", "west"]].to_numpy().ravel())
    assert "P001" in seated and "P002" not in seated


def test_spec10_a_team_substitute_recorded_before_seating_is_in_no_lineup(tmp_path):
    from event_support import team_players

    directory = tmp_path / "cup"
    run("event", "init", directory, "--kind", "teams", "--format", "swiss", "--players",
        team_players(tmp_path / "players.csv", [5, 4, 4, 4]), "--rounds", 2,
        "--boards-per-set", 3)
    run("event", "deal", directory, "--round", 1, "--quiet")
    run("event", "ledger", "add", directory, "substitute", "--round", 1, "--player", "P002",
        "--for", "P001", "--reason", "P001 is ill")  # P001..P005 are team T1
    lineups = tmp_path / "lineups.csv"
    folder = EventFolder.open(directory)
    team = int(folder.players().set_index("player").loc["P001", "team"])
    lineups.write_text(f"round,team,room,player_1,player_2\n1,{team},open,P001,P002\n"
                       f"1,{team},closed,P003,P004\n", encoding="utf-8")
    out = run("event", "seat", directory, "--round", 1, "--lineups", lineups, code=1)
    assert f"name {people_of(folder).player('P002')}, whom the ledger has substitute" in out
    assert not folder.file(1, "lineups").exists()
    run("event", "seat", directory, "--round", 1)
    chosen = folder.read(1, "lineups")
    mine = set(chosen.loc[chosen["team"] == team, ["player_1", "player_2"]].to_numpy().ravel())
    assert mine == {"P001", "P003", "P004", "P005"}

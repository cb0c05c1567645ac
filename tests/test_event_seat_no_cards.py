"""``event seat --no-cards``: the same seating, no table cards (an online platform's
players need none), and an earlier seating's cards of the round taken away."""

from event_support import players_csv, run, seated_event

from guandan_dup.event import EventFolder, create_event, deal_round, seat_event_round


def test_no_cards_seats_the_round_as_with_cards_and_writes_no_cards(tmp_path):
    directory = seated_event(tmp_path)
    rounds = directory / "rounds" / "1"
    seating = (rounds / "seating.parquet").read_bytes()
    byes = (rounds / "byes.parquet").read_bytes()
    assert (rounds / "table-cards.html").exists()
    out = run("event", "seat", directory, "--round", 1, "--no-cards")
    assert "Table cards: none (--no-cards)" in out
    assert f"event print {directory} --round 1 --what table-cards" in out
    assert not (rounds / "table-cards.html").exists()  # an earlier seating's cards go
    kept = [p.name for p in (directory / "history").rglob("*")]
    assert any(name.startswith("rounds-1-table-cards") for name in kept)
    assert (rounds / "seating.parquet").read_bytes() == seating
    assert (rounds / "byes.parquet").read_bytes() == byes


def test_the_library_call_without_cards_then_with_them_draws_them_again(tmp_path):
    folder = create_event(tmp_path / "event", players_csv(tmp_path / "p.csv", 16), 4, 2, 3, 1)
    deal_round(folder, 1)
    seat_event_round(folder, 1, with_cards=False)
    assert not folder.file(1, "table-cards.html").exists()
    assert folder.read(1, "seating") is not None
    seat_event_round(EventFolder.open(folder.path), 1)
    assert "<" in folder.file(1, "table-cards.html").read_text(encoding="utf-8")

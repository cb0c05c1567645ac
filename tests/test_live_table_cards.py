"""Issue 22: the table cards of `event seat` show each table's entry link as a QR code (inline
SVG, nothing fetched) and its PIN; team events show one per room."""

from __future__ import annotations

import re

import segno
from event_support import run, seated_event

from guandan_dup.event import create_event, deal_round, seat_event_round
from guandan_dup.event.entrants import demo_players
from guandan_dup.live import tokens

CARD = re.compile(r'<section class="card" id="table-(\d+)">(.*?)</section>', re.S)


def modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules of a segno SVG path (``M x y`` then ``h n`` runs and ``m dx dy``
    moves, each run on the row its y + 0.5 names), as (row, column)."""
    path = re.search(r' d="([^"]+)"', svg)[1]
    dark, x, y = set(), 0.0, 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark |= {(int(y), int(x) + i) for i in range(int(a))}
            x += float(a)
    return dark


def code_modules(url: str, border: int = 2) -> set[tuple[int, int]]:
    matrix = segno.make(url, error="m", micro=False, mask=0).matrix
    return {(r + border, c + border) for r, row in enumerate(matrix)
            for c, bit in enumerate(row) if bit}


def cards_of(directory, round_no) -> dict[int, str]:
    html = (directory / "rounds" / str(round_no) / "table-cards.html").read_text("utf-8")
    return {int(t): body for t, body in CARD.findall(html)}


def test_each_card_carries_its_tables_link_as_a_qr_code_and_its_pin(tmp_path):
    event = seated_event(tmp_path)
    cards = cards_of(event, 1)
    links = {link.table: link for link in tokens.table_links(event, 1)}
    assert sorted(cards) == sorted(links) == [1, 2, 3, 4]
    for table, body in cards.items():
        link = links[table]
        svg = re.search(r"<svg.*?</svg>", body, re.S)[0]
        assert modules(svg) == code_modules(link.url), f"table {table}'s QR code"
        assert f'<span class="pin">{link.pin}</span>' in body
        assert link.url.rsplit("/t/", 1)[0] + "/t" in body, "the PIN page's address"


def test_the_cards_fetch_nothing(tmp_path):
    html = (seated_event(tmp_path) / "rounds" / "1" / "table-cards.html").read_text("utf-8")
    assert not re.search(r"<(script|img|link|iframe)\b|\bsrc=|url\(", html)


def test_cards_printed_after_a_base_url_is_saved_carry_it(tmp_path):
    event = seated_event(tmp_path, rounds=2)
    run("event", "tokens", event, "--round", 1, "--base-url", "http://192.168.50.1:8000")
    run("event", "ingest", event, results(event), "--round", 1)
    run("event", "score", event, "--round", 1)
    run("event", "deal", event, "--round", 2, "--quiet")
    run("event", "seat", event, "--round", 2)
    for table, body in cards_of(event, 2).items():
        link = tokens.table_links(event, 2)[table - 1]
        assert link.url.startswith("http://192.168.50.1:8000/t/")
        assert modules(re.search(r"<svg.*?</svg>", body, re.S)[0]) == code_modules(link.url)
        assert "http://192.168.50.1:8000/t<" in body


def test_team_cards_carry_one_link_per_room(tmp_path):
    csv = tmp_path / "players.csv"
    labels = [f"T{t}" for t in range(1, 5) for _ in range(4)]
    demo_players(16).assign(team=labels).to_csv(csv, index=False)
    folder = create_event(tmp_path / "cup", csv, None, None, 2, 3, kind="teams",
                          fmt="round-robin")
    deal_round(folder, 1)
    seat_event_round(folder, 1)
    cards = cards_of(folder.path, 1)
    links = {link.table: link for link in tokens.table_links(folder.path, 1)}
    assert sorted(cards) == sorted(links) and len(cards) == 4, "two matches, two rooms each"
    for table, body in cards.items():
        assert modules(re.search(r"<svg.*?</svg>", body, re.S)[0]) == code_modules(
            links[table].url)


def results(event):
    from event_support import set_results, write

    from guandan_dup.event import EventFolder

    return write(set_results(EventFolder.open(event), 1), event.parent / "r1.parquet")


def test_a_revoked_tables_card_is_redrawn_and_the_others_kept(tmp_path):
    event = seated_event(tmp_path)
    before = cards_of(event, 1)
    tokens.revoke(event, 1, 3)
    after = cards_of(event, 1)
    assert {t: after[t] for t in (1, 2, 4)} == {t: before[t] for t in (1, 2, 4)}
    link = tokens.table_links(event, 1)[2]
    assert modules(re.search(r"<svg.*?</svg>", after[3], re.S)[0]) == code_modules(link.url)
    assert f'<span class="pin">{link.pin}</span>' in after[3]
    assert list((event / "history").glob("rounds-1-table-cards.*.html")), "the old page kept"


def test_a_new_base_url_redraws_every_card_already_written(tmp_path):
    event = seated_event(tmp_path)
    tokens.save_base_url(event, "http://172.16.0.9:8080")
    for table, body in cards_of(event, 1).items():
        link = tokens.table_links(event, 1)[table - 1]
        assert link.url.startswith("http://172.16.0.9:8080/t/")
        assert modules(re.search(r"<svg.*?</svg>", body, re.S)[0]) == code_modules(link.url)
        assert "http://172.16.0.9:8080/t<" in body

"""Table cards: one card per table that prints whole, names escaped, byes listed."""

import pandas as pd

from guandan_dup.event.access import links
from guandan_dup.event.cards import to_html
from guandan_dup.event.plan import EventPlan
from guandan_dup.movement import seat_round

PLAN = EventPlan("杯", "individual", 9, tables_per_group=1, sets_per_round=3, boards_per_set=2,
                 rounds=1)
NAMES = {f"p{i}": f"选手{i}" for i in range(1, 10)} | {"p1": "<b>王</b>"}
LINKS = {link.table: link for link in links(b"k" * 32, 1, [1, 2], [], "http://10.0.0.2:8000")}


def test_one_card_per_table_that_prints_whole_with_byes():
    seating = seat_round(list(NAMES), 1)
    html = to_html(PLAN, 1, seating.seating, seating.byes, NAMES, LINKS)
    assert html.count('<section class="card"') == 2
    assert "page-break-inside: avoid" in html and "break-inside: avoid" in html
    assert "&lt;b&gt;王&lt;/b&gt;" in html and "<b>王</b>" not in html
    assert "轮空 Bye: 选手9" in html
    assert "副 boards 1-2, 3-4, 5-6" in html
    assert "第1桌 Table 1 · 第1组 Group 1" in html and "北 North" in html


def test_rotating_partners_show_one_compass_per_set():
    seating = seat_round(list(NAMES)[:8], 1, sets=[1, 2, 3], rotate_partners=True)
    html = to_html(PLAN, 1, seating.seating, pd.DataFrame({"player": []}), NAMES, LINKS)
    assert html.count('<table class="compass">') == 6
    assert "局 Sets 3 · 副 boards 5-6" in html

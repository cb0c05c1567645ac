"""The pairs event (双人赛, SPEC 7): fixed partnerships reseated by standing, 1v2, 3v4, ...
with no repeat of earlier opponents where avoidable."""

from __future__ import annotations

from ...movement import earlier_meetings, pair_byes, pair_order, partnerships, seat_pairs
from .by_standing import ByStanding, seat_by_venue


class Pairs(ByStanding):
    """Pairs in order of standing meet 1v2, 3v4, ...; the better pair North-South."""

    kind = "pairs"
    title = "pairs event"
    pairs = True

    def check_entrants(self, players):
        partnerships(players)  # refuses a pair without exactly two players

    def plan_seating(self, folder, round_no, order, away):
        plan = folder.plan
        earlier = range(1, round_no)
        byes = folder.read_rounds("byes", earlier)
        players = folder.players()
        players = players[~players["player"].isin(away)]
        pair_of = dict(zip(players["player"], players["pair"], strict=True))
        seatings = folder.read_rounds("seating", earlier)
        met = set() if seatings is None else earlier_meetings(seatings, pair_of)
        had_pair_bye = [] if byes is None else pair_byes(byes, pair_of)

        def seat_field(field, venue):
            mine = players if venue is None else players[players["venue"] == venue]
            order_of_pairs = pair_order(
                mine.assign(position=mine["player"].map({p: i for i, p in enumerate(field)})),
                pair_of,
            )
            return seat_pairs(order_of_pairs, partnerships(mine), plan.tables_per_group, met,
                              had_pair_bye, round_no)

        return seat_by_venue(folder, order, seat_field)

"""The individual event (个人赛, SPEC 7): partners change every round, seated by standing."""

from __future__ import annotations

from ...movement import seat_round
from .by_standing import ByStanding, seat_by_venue


class Individual(ByStanding):
    """Places 1..4T of the strict order go to group 1, and so on; a and d against b and c at
    each table; byes to the lowest placed who have had none; partners may rotate within a
    round of three sets."""

    kind = "individual"
    title = "individual event"
    takes = (*ByStanding.takes, "rotate_partners")

    def plan_seating(self, folder, round_no, order, away):
        plan = folder.plan
        byes = folder.read_rounds("byes", range(1, round_no))
        had_bye = [] if byes is None else byes["player"].astype(str).tolist()
        return seat_by_venue(folder, order, lambda field, _venue: seat_round(
            field, plan.tables_per_group, had_bye, round_no, sets=plan.sets_of_round(round_no),
            rotate_partners=plan.rotate_partners))

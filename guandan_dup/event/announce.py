"""``guandan-dup standings DIR`` and ``travellers DIR`` on an event folder: a round's stored
tables, rendered with the people's names, for the director to read out or post.

The tables are the exports' own (``event_format.round_reports``: the standings, a team
event's team standings; a knockout's bracket and places), so what is announced is what is
exported. The publication rule is the exports' too (``publish``): standings that count a set
some table has still to play are refused, and a pending set is left out of the travellers,
since either would tell the late table how its boards went. Out-of-date standings (results
or a ledger decision newer than the scoring) are refused, with the command that scores them.
"""

from __future__ import annotations

import pandas as pd

from ..errors import GuandanError
from ..reports.tables import travellers_document
from ..scoring.venues import venue_slug, venues_of
from ..seats import SEAT_COLUMNS
from ..wording import words
from .decisions import decisions
from .export import ExportContext, team_names, withheld_note
from .finality import final as final_rounds
from .folder import STALE_BECAUSE, EventFolder
from .ledger import effects, read_ledger
from .people import people_of
from .publish import counted_pending, public_sets


def announced_round(folder: EventFolder, round_no: int | None, command: str) -> int:
    """``round_no`` if it is scored, else the latest scored round (``None``); a director's
    message naming the scored rounds otherwise."""
    scored = folder.rounds_scored()
    where = folder.path
    if not scored:
        raise GuandanError(f"no round of {where} is scored yet: score one with "
                           f"`guandan-dup event score {where} --round 1`, then "
                           f"`guandan-dup {command} {where}`")
    if round_no is None:
        return scored[-1]
    folder.plan.check_round(round_no)
    if round_no not in scored:
        raise GuandanError(f"round {round_no} of {where} is not scored (scored: "
                           f"round{'s' if len(scored) > 1 else ''} {words(scored)}); score "
                           f"it with `guandan-dup event score {where} --round {round_no}`")
    return round_no


def check_fresh(folder: EventFolder, round_no: int | None, what: str) -> None:
    """Refuse to announce ``what`` while a scored round up to ``round_no`` (every round
    with ``None``) is out of date, with the paste-ready command that scores it again."""
    scored = folder.rounds_scored()
    stale = [(r, why) for r in scored if (round_no is None or r <= round_no)
             and (why := folder.out_of_date_because(r)) is not None]
    if not stale:
        return
    first, why = stale[0]
    again = [f"`guandan-dup event score {folder.path} --round {r}"
             f"{' --force' if r < scored[-1] else ''}`" for r in scored if r >= first]
    raise GuandanError(f"round {first} {STALE_BECAUSE[why]}, so the {what} would be out of "
                       f"date: score it again first ({again[0]}"
                       + (f", then {words(again[1:])})" if len(again) > 1 else ")"))


def _context(folder: EventFolder, round_no: int) -> ExportContext:
    """What the exports show beside a round's tables: names, decisions, provisional."""
    players = folder.players().astype({"player": "str", "name": "str"})
    ledger = read_ledger(folder)
    posted = decisions(ledger, effects(folder, ledger),
                       public_sets(folder, folder.rounds_scored(), ledger))
    note = "" if round_no in final_rounds(folder, ledger) else "暂定 · provisional"
    return ExportContext(players.set_index("player")["name"], posted, team_names(folder),
                         note)


def _pending(folder: EventFolder, round_no: int) -> dict[int, list[int]]:
    scored = [r for r in folder.rounds_scored() if r <= round_no]
    return counted_pending(scored, folder.plan.sets_of_round, public_sets(folder, scored))


def event_standings(folder: EventFolder, round_no: int | None, fmt: str,
                    venue: str = "") -> str | bytes:
    """The standings after ``round_no`` (default: the latest scored round) as ``fmt``, with
    names: an individual or pairs event's ranking (``venue``: that venue's, ranked within
    it), a team event's team standings (场分, 级差分), a knockout's bracket and places."""
    event_format = folder.plan.event_format
    knockout = event_format.standings_name == "travellers"
    if knockout:
        check_fresh(folder, None, "bracket")
        if venue:
            raise GuandanError("a knockout has no standings by venue: leave out --venue")
        reports = event_format.event_reports(folder, [fmt])
        return _joined(folder, [reports[p] for p in sorted(reports)], fmt, "bracket and places")
    round_no = announced_round(folder, round_no, "standings")
    check_fresh(folder, round_no, "standings")
    waiting = _pending(folder, round_no).get(round_no)
    if waiting:
        raise GuandanError(
            f"round {round_no}'s standings count {_sets(waiting)}, which some tables have "
            "still to play: announced now, they would tell those tables how the boards went. "
            f"Announce them once every table has played (`guandan-dup event status "
            f"{folder.path}` says which tables are missing)")
    reports = event_format.round_reports(folder, round_no, fmt, _context(folder, round_no))
    if not venue:
        return reports.get("standings", reports.get("team-standings"))
    known = venues_of(folder.read(round_no, "standings")
                      if not event_format.by_team else pd.DataFrame())
    if venue not in known:
        raise GuandanError(f"no player of round {round_no}'s standings plays at venue "
                           f"{venue!r}: " + (f"the venues are {words(known)}" if known
                                             else "this event has no venues"))
    return reports[f"standings-venue-{venue_slug(venue)}"]


def _sets(sets: list[int]) -> str:
    return f"set{'s' if len(sets) > 1 else ''} {words(sets)}"


def _joined(folder: EventFolder, parts: list[bytes | str], fmt: str, what: str) -> str | bytes:
    """Several rendered tables one after the other (a knockout's bracket, then places)."""
    if fmt == "xlsx":
        if len(parts) > 1:
            raise GuandanError(f"a knockout's {what} are two workbooks: use --to md, html "
                               f"or csv, or `guandan-dup event export {folder.path} --to xlsx`")
        return parts[0]
    texts = [p.decode("utf-8") if isinstance(p, bytes) else p for p in parts]
    return "\n".join(texts)


def event_travellers(folder: EventFolder, round_no: int | None, fmt: str,
                     set_: int | None = None) -> str | bytes:
    """The travellers of ``round_no`` (default: the latest scored round; one set with
    ``set_``) as ``fmt``, each seat named ("P027 王伟"); a set some table has still to play
    is left out (said under the title). A team event's travellers are its match results."""
    round_no = announced_round(folder, round_no, "travellers")
    check_fresh(folder, round_no, "travellers")
    sets = folder.plan.sets_of_round(round_no)
    if set_ is not None and set_ not in sets:
        raise GuandanError(f"round {round_no} has no set {set_}: its sets are {words(sets)}")
    complete = public_sets(folder, [round_no])
    pending = [s for s in sets if (round_no, s) not in complete]
    if set_ in pending:
        raise GuandanError(f"set {set_} of round {round_no} is still being played at some "
                           "tables: its traveller would tell them how the boards went")
    travellers = folder.read(round_no, "travellers")
    if travellers is None:  # a team event: its matches' results
        if set_ is not None:
            raise GuandanError("a team event's results are by match, every set together: "
                               "leave out --set")
        if pending:
            raise GuandanError(f"round {round_no}'s match results count {_sets(pending)}, "
                               "which some tables have still to play")
        reports = folder.plan.event_format.round_reports(folder, round_no, fmt,
                                                         _context(folder, round_no))
        return reports["match-results"]
    people = people_of(folder)
    travellers = travellers[~travellers["set"].isin(pending)].copy()
    for seat in SEAT_COLUMNS:
        travellers[seat] = [people.side(p) if pd.notna(p) else p for p in travellers[seat]]
    ledger = read_ledger(folder)
    return travellers_document(travellers, round_no, fmt, set_,
                               withheld_note(round_no, pending) if pending else "",
                               effects(folder, ledger).start_levels)

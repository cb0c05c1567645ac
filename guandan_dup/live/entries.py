"""One entry from a table, checked in pure Python against what the round already knows.

A phone sends a set's final levels (``{"id", "set", "ns_level", "ew_level"}``) or one
board's finishing order (``{"id", "set", "board", "finish"}``), and a knockout table the
side that won the extra boards (``{"id", "set", "tiebreak"}``). The server answers within a
few milliseconds even when 500 tables send at once, so nothing here reads a file or builds a
frame: ``load_facts`` reads the folder once per round (seating, names, the sets and boards
of each table, the ledger's start levels of art. 32, the round's deadline of art. 48) into
plain dictionaries (``live.facts``), and ``parse_entry`` and ``derive`` work on those alone.

The rules and their words are ingestion's (SPEC 4 and 5): levels a set of at most K boards
can reach from its start (``results.masks.possible_levels``, said by
``results.validate.unreachable_rule``), finishing orders (``rules.progression``), boards
within their set, boards after a side passed A, a knockout match decided (``knockout``).
The verified sets then go through ``event ingest``'s own path (``event.ingest.take_rows``),
which checks them all again as a file's rows.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from functools import lru_cache

from ..errors import NotationError
from ..knockout.decide import pair_outcome
from ..levels import LEVEL_NAMES, level_from_text
from ..results.masks import possible_levels
from ..results.validate import unreachable_rule
from ..rules.progression import SetState, apply_board, finish_problem, parse_finish
from ..seats import SEAT_COLUMNS
from ..wording import numbered
from .facts import RoundFacts

FIELDS = frozenset({"id", "set", "ns_level", "ew_level", "board", "finish", "tiebreak",
                    "reason", "override"})
MAX_ID = 200
"""An entry id longer than this is no client's id but a mistake."""
EXTRA_BOARDS = ("the levels are equal: a knockout match level after its set is decided by "
                "extra boards (seed 000 art. 49.2); enter the side that won them")


@dataclass(frozen=True)
class Entry:
    """One checked entry: a set's final levels (level indices), one board's finishing
    order, or a knockout's extra-board winner (``NS``/``EW``); ``reason`` and ``override``
    are the director's, when correcting a verified set."""

    id: str | int
    set: int
    ns_level: int | None = None
    ew_level: int | None = None
    board: int | None = None
    finish: str | None = None
    tiebreak: str | None = None
    reason: str | None = None
    override: bool = False

    @property
    def form(self) -> str:
        """``set``, ``board`` or ``tiebreak``."""
        if self.board is not None:
            return "board"
        return "set" if self.ns_level is not None else "tiebreak"

    def to_dict(self) -> dict:
        """The entry as its journal record keeps it (and as two bodies are compared)."""
        out = {"id": self.id, "set": self.set}
        if self.ns_level is not None:
            out |= {"ns_level": LEVEL_NAMES[self.ns_level], "ew_level": LEVEL_NAMES[self.ew_level]}
        if self.board is not None:
            out |= {"board": self.board, "finish": self.finish}
        if self.tiebreak is not None:
            out["tiebreak"] = self.tiebreak
        if self.reason is not None:
            out["reason"] = self.reason
        if self.override:
            out["override"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Entry:
        """The entry of a journal record (``to_dict``'s)."""
        levels = {k: level_from_text(data[k]) for k in ("ns_level", "ew_level") if k in data}
        return cls(data["id"], int(data["set"]), levels.get("ns_level"),
                   levels.get("ew_level"), data.get("board"), data.get("finish"),
                   data.get("tiebreak"), data.get("reason"), bool(data.get("override")))


def problem(field_name: str | None, message: str) -> dict:
    return {"field": field_name, "message": message}


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_entry(facts: RoundFacts, table: int, body) -> tuple[Entry | None, list[dict]]:
    """The entry ``body`` gives for ``table`` of the round, or every problem with it (in
    the words ``event ingest`` uses for the same mistake in a results file).

    A sound set's final levels, the form nearly every entry of a platform's batch takes,
    are taken by ``_sound_levels`` at once; anything else (a problem, another form, a
    level written otherwise) by ``_parse``, which gives the same entry for those (a
    property test holds them equal)."""
    sound = _sound_levels(facts, table, body)
    return (sound, []) if sound is not None else _parse(facts, table, body)


_LEVELS_FORM = frozenset({"id", "set", "ns_level", "ew_level"})
_LEVEL_INDEX = {name: index for index, name in enumerate(LEVEL_NAMES)}


def _sound_levels(facts: RoundFacts, table: int, body) -> Entry | None:
    """The entry of ``{"id", "set", "ns_level", "ew_level"}`` with levels named as
    ``LEVEL_NAMES`` does and nothing wrong; ``None`` for anything else (``_parse``)."""
    if not isinstance(body, dict) or body.keys() != _LEVELS_FORM:
        return None
    entry_id, set_no = body["id"], body["set"]
    if not (isinstance(entry_id, str) and 0 < len(entry_id) <= MAX_ID
            or _whole(entry_id) and len(str(entry_id)) <= MAX_ID):
        return None
    here = facts.tables.get(table)
    if here is None or not _whole(set_no) or set_no not in here.sets:
        return None
    ns, ew = body["ns_level"], body["ew_level"]
    ns = _LEVEL_INDEX.get(ns) if isinstance(ns, str) else None
    ew = _LEVEL_INDEX.get(ew) if isinstance(ew, str) else None
    if ns is None or ew is None or not possible_levels(
            facts.boards_per_set, facts.three_failures_reset,
            facts.start(table, set_no))[ns, ew]:
        return None
    return Entry(entry_id, set_no, ns, ew)


def _parse(facts: RoundFacts, table: int, body) -> tuple[Entry | None, list[dict]]:
    """``parse_entry`` of any body: every problem, in ingestion's words."""
    if not isinstance(body, dict):
        return None, [problem(None, "expected a JSON object: {\"id\", \"set\", \"ns_level\", "
                              "\"ew_level\"} or {\"id\", \"set\", \"board\", \"finish\"}")]
    out = [problem(k, f"is not a field of an entry; expected {', '.join(sorted(FIELDS))}")
           for k in sorted(set(body) - FIELDS)]
    entry_id = body.get("id")
    if entry_id is None or entry_id == "":
        out.append(problem("id", "is missing: every entry carries the client's own id, so a "
                           "resent entry is the same entry (never counted twice)"))
    elif not (_whole(entry_id) or isinstance(entry_id, str)) or len(str(entry_id)) > MAX_ID:
        out.append(problem("id", f"expected text or a whole number of at most {MAX_ID} "
                           f"characters, not {entry_id!r}"))
    here = facts.tables.get(table)
    set_no = body.get("set")
    if here is None:
        tables = sorted(facts.tables)
        out.append(problem("table", f"round {facts.round} has tables "
                           f"{tables[0]}..{tables[-1]}" if tables else
                           f"round {facts.round} has no tables"))
    elif not _whole(set_no):
        out.append(problem("set", f"expected a set number, not {set_no!r}"))
    elif set_no not in here.sets:
        out.append(problem("set", f"value {set_no!r}: table {table} (group {here.group}) plays "
                           f"{numbered('set', here.sets)} in round {facts.round}"))
    given = {k for k in ("ns_level", "ew_level", "board", "finish", "tiebreak") if k in body}
    levels, board = given & {"ns_level", "ew_level"}, given & {"board", "finish"}
    if levels and board:
        out.append(problem("board", "give a set's final levels (ns_level, ew_level) or one "
                           "board's finishing order (board, finish), not both"))
    elif not given:
        out.append(problem(None, "expected a set's final levels (ns_level, ew_level) or one "
                           "board's finishing order (board, finish)"))
    out += [problem(k, f"is missing: {'a set' if k in ('ns_level', 'ew_level') else 'a board'}"
                    " entry needs it") for k in sorted(
        ({"ns_level", "ew_level"} - levels if levels else set())
        | ({"board", "finish"} - board if board else set()))]
    for k in ("reason",):
        if k in body and not isinstance(body[k], str):
            out.append(problem(k, "expected text"))
    if "override" in body and not isinstance(body["override"], bool):
        out.append(problem("override", "expected true or false"))
    if out:
        return None, out
    entry = Entry(entry_id, set_no, reason=body.get("reason") or None,
                  override=bool(body.get("override")))
    start = facts.start(table, set_no)
    if levels:
        entry, found = _levels(facts, entry, body, start)
        out += found
    if board:
        entry, found = _board(facts, entry, body)
        out += found
    if "tiebreak" in body:
        entry, found = _tiebreak(facts, entry, body["tiebreak"])
        out += found
    return (None, out) if out else (entry, [])


def _levels(facts: RoundFacts, entry: Entry, body: dict, start: tuple[int, int]):
    out, found = [], {}
    for k in ("ns_level", "ew_level"):
        text = body[k]
        index = None
        if isinstance(text, str | int) and not isinstance(text, bool):
            with suppress(NotationError):
                index = level_from_text(str(text))
        if index is None:
            out.append(problem(k, f"value {text!r}: unknown level; expected one of "
                               f"{', '.join(LEVEL_NAMES)}"))
        found[k] = index
    if out:
        return entry, out
    ns, ew = found["ns_level"], found["ew_level"]
    k = facts.boards_per_set
    if not possible_levels(k, facts.three_failures_reset, start)[ns, ew]:
        out.append(problem("ns_level/ew_level", f"value '{LEVEL_NAMES[ns]}/{LEVEL_NAMES[ew]}': "
                           + unreachable_rule(k, start, (ns, ew))))
    return Entry(**{**entry.__dict__, "ns_level": ns, "ew_level": ew}), out


def _board(facts: RoundFacts, entry: Entry, body: dict):
    out = []
    board, finish = body["board"], body["finish"]
    boards = facts.boards(entry.set)
    if not _whole(board):
        out.append(problem("board", f"expected a board number, not {board!r}"))
    elif board not in boards:
        k = facts.boards_per_set
        out.append(problem("board", f"value {board!r}: is outside set {entry.set}, which has "
                           f"boards {boards[0]}-{boards[-1]} ({k} board{'s' if k != 1 else ''} "
                           "per set)"))
    why = finish_problem(finish) if isinstance(finish, str) else "expected text such as 'NWSE'"
    if why is not None:
        out.append(problem("finish", f"value {finish!r}: {why}"))
    return Entry(**{**entry.__dict__, "board": board,
                    "finish": str(finish).strip().upper()}), out


def _tiebreak(facts: RoundFacts, entry: Entry, side):
    if not facts.knockout:
        return entry, [problem("tiebreak", "only a knockout match is decided by extra boards "
                               "(seed 000 art. 49.2); this event has no knockout")]
    text = side.strip().upper() if isinstance(side, str) else side
    if text not in ("NS", "EW"):
        return entry, [problem("tiebreak", f"value {side!r}: expected NS or EW: the side that "
                               "won the extra boards")]
    return Entry(**{**entry.__dict__, "tiebreak": text}), []


@dataclass
class SetEntries:
    """What a table entered for one set: its final levels, or its boards; the extra-board
    winner of a knockout match."""

    result: Entry | None = None
    boards: dict[int, Entry] = field(default_factory=dict)
    tiebreak: Entry | None = None

    def take(self, entry: Entry) -> None:
        """A new entry replaces the earlier one of the same set or board: a set's levels
        replace its boards and a board its set's levels (a set is given one way, as in a
        results file); an entry carrying a tiebreak replaces the earlier tiebreak."""
        if entry.form == "set":
            self.result, self.boards = entry, {}
        elif entry.form == "board":
            self.result = None
            self.boards[entry.board] = entry
        if entry.tiebreak is not None:
            self.tiebreak = entry

    def entries(self) -> list[Entry]:
        out = [self.result] if self.result is not None else []
        return out + [self.boards[b] for b in sorted(self.boards)]

    @property
    def empty(self) -> bool:
        return self.result is None and not self.boards


@dataclass(frozen=True)
class Derived:
    """A set's levels so far (level indices) from its entries, whether it is complete
    (every board of the set, or a side passed A, or the final levels given), the boards
    counted and what keeps it from being verified."""

    ns_level: int
    ew_level: int
    played: int
    complete: bool
    problems: tuple[dict, ...] = ()
    boards: tuple[Entry, ...] = ()
    after: tuple[dict, ...] = ()
    """The levels after each board counted, as ``levels()`` gives them."""

    def levels(self) -> dict:
        return {"ns": LEVEL_NAMES[self.ns_level], "ew": LEVEL_NAMES[self.ew_level]}


@lru_cache(maxsize=4096)
def _after(state: SetState, finish: str, three_failures_reset: bool) -> SetState:
    """``apply_board`` of a checked finishing order, remembered: a set's levels are derived
    again from its first board at every entry, from a few thousand distinct (state, order)
    pairs, and deriving them anew was a tenth of the server's time in a round-end burst."""
    return apply_board(state, parse_finish(finish), three_failures_reset)


def derive(facts: RoundFacts, table: int, set_no: int, entered: SetEntries) -> Derived:
    """The set's levels from ``entered`` by SPEC 4, from the table's start levels: boards
    counted from the set's first one while they follow each other."""
    start = facts.start(table, set_no)
    if entered.result is not None:
        r = entered.result
        return Derived(r.ns_level, r.ew_level, 0, True)
    state = SetState.start(*start)
    counted, after_end, after, out = [], [], [], []
    boards = facts.boards(set_no)
    for board in boards:
        entry = entered.boards.get(board)
        if entry is None:
            break
        if state.ended:
            after_end.append(board)
            continue
        state = _after(state, entry.finish, facts.three_failures_reset)
        counted.append(entry)
        after.append({"ns": LEVEL_NAMES[state.ns_level], "ew": LEVEL_NAMES[state.ew_level]})
    out += [problem("board", f"value {b}: is after the end of the set: a side passed A (过A) "
                    "on an earlier board of this set at this table") for b in after_end]
    seen = {e.board for e in counted} | set(after_end)
    gaps = sorted(b for b in entered.boards if b not in seen)
    if gaps and not state.ended:
        waiting = next(b for b in boards if b not in entered.boards)
        out.append(problem("board", f"board {waiting} is not entered yet, so "
                           f"{numbered('board', gaps)} cannot be counted"))
    elif gaps:
        out += [problem("board", f"value {b}: is after the end of the set: a side passed A "
                        "(过A) on an earlier board of this set at this table") for b in gaps]
    complete = bool(counted) and (state.ended or len(counted) == len(boards)) and not out
    return Derived(state.ns_level, state.ew_level, len(counted), complete, tuple(out),
                   tuple(counted), tuple(after))


def pairs_decided(derived: Derived, tiebreak: str | None) -> list[dict]:
    """What keeps a pairs knockout match from being decided (``knockout.decide``'s rules)."""
    _, _, found = pair_outcome({"ns_level": derived.ns_level, "ew_level": derived.ew_level,
                                "tiebreak": tiebreak})
    return [problem(column, EXTRA_BOARDS if column == "tiebreak" and value is None else rule)
            for column, value, rule in found]


def result_rows(facts: RoundFacts, table: int, set_no: int, entered: SetEntries,
                derived: Derived) -> tuple[str, list[dict]]:
    """The set as a results file's rows (SPEC 5): ``("set", [one row])`` from final
    levels, ``("board", rows)`` from boards; the players are the seating's (a substitute
    is the ledger's business), a knockout's tiebreak on the first row (a team match's as
    ``#team``: the team that sat on that side)."""
    here = facts.tables[table]
    base = {"round": facts.round, "group": here.group, "table": table, "set": set_no,
            **dict(zip(SEAT_COLUMNS, here.seats[set_no], strict=True))}
    tiebreak = None if entered.tiebreak is None else entered.tiebreak.tiebreak
    if tiebreak is not None and here.room is not None:
        team = here.room.ns_team if tiebreak == "NS" else here.room.ew_team
        tiebreak = f"#{team}"
    if entered.result is not None:
        row = base | {"ns_level": LEVEL_NAMES[derived.ns_level],
                      "ew_level": LEVEL_NAMES[derived.ew_level]}
        return "set", [row | ({"tiebreak": tiebreak} if tiebreak else {})]
    rows = [base | {"board": e.board, "finish": e.finish} for e in derived.boards]
    if tiebreak:
        rows[0]["tiebreak"] = tiebreak
    return "board", rows

"""The director's console, ``/director``: the round's table x set grid, the queue of sets
waiting for verification or disputed, corrections, the ledger's forms and the round loop's
buttons, so a director can run a whole round from the browser without a terminal.

The way in is the link ``guandan-dup serve`` prints (``/director?token=...``): its token is
exchanged once for an HttpOnly, SameSite=Strict cookie and the browser is sent on to
``/director``, so the token leaves the address bar (and the browser's history of it). Every
form posts to ``/director/<action>`` with the session's CSRF token (``guard.csrf_token``:
an HMAC of the cookie under the folder's secret) and is answered by a redirect back to the
console showing what happened (post, redirect, get: reloading the page repeats nothing).

Each button calls the library function the matching command calls, under the same lock
and with the same arguments, in a worker thread (``run_in_threadpool``: scoring a large
round must not stall the phones' entries): ``event deal``, ``seat``, ``score``,
``export``, ``site``, ``ledger add`` and ``ledger withdraw``; a correction or an entry from a
paper scoresheet goes through the Desk as the director (``Desk.enter``: on a verified set it
becomes a ledger row with its reason), and so does the director's verification. The
messages shown are the command's lines; a refusal is the ``GuandanError``'s text.

A venue's director (``event tokens --venue V``) logs in the same way with its own token and
gets the console of its venue's tables: their grid, queue, links, corrections, verifications
and revocations (``VENUE_ACTIONS``), nothing event-wide; a correction it makes goes through
the Desk as that venue's director, so its ledger row says who made it.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ..errors import GuandanError
from ..event import (
    build_event_site,
    deal_round,
    event_status,
    export_event,
    score_round,
    seat_event_round,
)
from ..event.access import folder_secret
from ..event.export import DEFAULT_FORMATS
from ..event.ledger import add_entry, ledger_lines, read_ledger, withdraw_entry
from ..event.people import people_of
from ..event.transaction import DEFAULT_WAIT, reading, writing
from ..ledger.command import command_line
from ..ledger.describe import listing
from ..ledger.kinds import FIELDS, TEAM_FIELDS
from ..levels import LEVEL_NAMES
from ..wording import pasteable
from . import venue_scope
from .callers import DIRECTOR_COOKIE
from .guard import csrf_ok, csrf_token
from .labels import LABELS, lang_of
from .pages import PRIVATE, folder_of, path_of, render, seated_round
from .tokens import Director, VenueDirector, revoke, role, table_links

KEPT_RESULTS = 50
"""Results of the last actions kept for the page the redirect shows."""
FORM_KINDS = tuple(k for k in FIELDS if k not in ("corrected", "open"))
"""The ledger kinds the ledger form adds; a correction of a verified set is the correction
form's (through the Desk), a withdrawal the withdraw form's."""
NUMBER_FIELDS = {"set": int, "table": int, "scale": int, "minutes": float}
TEXT_FIELDS = ("player", "side", "result", "tables", "for_player", "team", "name", "points",
               "match_points", "level_points", "at")
"""``team`` is text: a team's number, ``#number`` or label, as ``--team`` (docs/teams.md)."""


@dataclass(frozen=True)
class Outcome:
    """What an action did, as the console shows it: its lines, and whether it was refused."""

    lines: tuple[str, ...]
    refused: bool = False
    show_round: int | None = None
    """The round the console shows next (a round just seated), else the one it showed."""


VENUE_ACTIONS = frozenset({"correct", "verify", "revoke"})
"""What a venue's director may do from the console (on its venue's tables only)."""


def _directing(caller: object) -> bool:
    return isinstance(caller, Director | VenueDirector)


def _session(request: Request) -> str | None:
    """The token of the request's cookie, if it still is the director's or a venue
    director's (its caller is then ``request.state.caller``)."""
    token = request.cookies.get(DIRECTOR_COOKIE, "")
    caller = request.app.state.keys.who(token) if token else None
    request.state.caller = caller
    return token if _directing(caller) else None


def _closed(request: Request, bad_token: bool) -> Response:
    """The page for a browser without the director's cookie: how to open the console."""
    L = LABELS[lang_of(request.cookies, request.query_params)]
    how = L["console_how"].format(folder=pasteable(path_of(request)))
    lines = ([L["console_bad_token"]] if bad_token else []) + [how]
    return render(request, "message.html.j2", 401, PRIVATE, title=L["console_closed"],
                  paragraphs=lines)


def _round_of(request: Request, folder) -> int:
    text = request.query_params.get("round", "")
    if text.isdigit() and 1 <= int(text) <= folder.plan.rounds:
        return int(text)
    return seated_round(folder) or 1


def _steps(status, round_no: int) -> dict[str, int]:
    """The round each loop button proposes: the first round not dealt or not seated, the
    console's round to score."""
    not_dealt = [r.round for r in status.rounds if not r.dealt]
    not_seated = [r.round for r in status.rounds if not r.seated]
    return {"deal": not_dealt[0] if not_dealt else round_no,
            "seat": not_seated[0] if not_seated else round_no,
            "score": round_no}


def console_context(request: Request, session: str, round_no: int) -> dict:
    """Everything the console page shows of ``round_no`` (read under the shared lock); for
    a venue's director, its venue's tables only (``venue_scope``)."""
    path = path_of(request)
    desk = request.app.state.desk
    with reading(path) as folder:
        status = event_status(folder)
        ledger = read_ledger(folder)
        rows = listing(ledger, round_no, people_of(folder))
        seated = folder.file(round_no, "seating").exists()
    plan = folder.plan
    fields = TEAM_FIELDS if plan.event_format.by_team else FIELDS
    progress, queue = desk.progress(round_no), desk.queue(round_no)
    tables = sorted({t for t, _ in plan.planned_results(round_no)})
    links = table_links(path, round_no) if seated else []
    venue = request.state.caller if isinstance(request.state.caller, VenueDirector) else None
    if venue is not None:
        progress = venue_scope.only_tables(progress, venue)
        queue = venue_scope.only_items(queue, venue)
        tables = [t for t in tables if t in venue.tables]
        links = [link for link in links if link.table in venue.tables]
    return {
        "folder": folder,
        "round_no": round_no,
        "rounds": list(range(1, plan.rounds + 1)),
        "status": status,
        "round_status": status.rounds[round_no - 1],
        "steps": _steps(status, round_no),
        "csrf": csrf_token(folder_secret(path), session),
        "progress": progress,
        "queue": queue,
        "sets": plan.sets_of_round(round_no),
        "tables": tables,
        "venue": venue,
        "levels": LEVEL_NAMES,
        "kinds": FORM_KINDS,
        "fields": {k: {"required": sorted(fields[k][0]), "optional": sorted(fields[k][1])}
                   for k in FORM_KINDS},
        "ledger_rows": rows,
        "links": links,
        "by_team": plan.event_format.by_team,
    }


def routes() -> list[Route]:
    """The console's routes; the results of its actions are kept here, one store per app."""
    results: OrderedDict[str, Outcome] = OrderedDict()

    async def console(request: Request) -> Response:
        """``GET /director``: the console, or the exchange of ``?token=`` for the cookie."""
        token = request.query_params.get("token")
        if token is not None:
            if not _directing(request.app.state.keys.who(token)):
                return _closed(request, bad_token=True)
            response = RedirectResponse("/director", status_code=303, headers=PRIVATE)
            response.set_cookie(DIRECTOR_COOKIE, token, httponly=True, samesite="strict", path="/")
            return response
        session = _session(request)
        if session is None:
            return _closed(request, bad_token=False)
        folder = folder_of(request)
        round_no = _round_of(request, folder)
        context = await run_in_threadpool(console_context, request, session, round_no)
        done = results.get(request.query_params.get("done", ""))
        return render(request, "console.html.j2", headers=PRIVATE, outcome=done, **context)

    def action(name: str, run: Callable[[Request, FormData, int], Outcome]):
        async def post(request: Request) -> Response:
            session = _session(request)
            form = await request.form()
            if session is None:
                return _closed(request, bad_token=False)
            if not csrf_ok(folder_secret(path_of(request)), session, form.get("csrf")):
                L = LABELS[lang_of(request.cookies, request.query_params)]
                return render(request, "message.html.j2", 403, PRIVATE,
                              title=L["console_title"], paragraphs=[L["csrf_refused"]],
                              link={"href": "/director", "text": L["console_title"]})
            round_no = _form_int(form, "round") or 1
            by = request.state.caller
            try:
                if isinstance(by, VenueDirector) and name not in VENUE_ACTIONS:
                    raise GuandanError(venue_scope.refusal(by, f"the {name} button").body[
                        "error"])
                outcome = await run(request, form, round_no)
            except GuandanError as error:
                outcome = Outcome((str(error),), refused=True)
            except OSError as error:
                outcome = Outcome((_os_error(error),), refused=True)
            finally:  # the action changed the folder's files: the next request sees them
                request.app.state.keys.recheck()
                request.app.state.desk.recheck()
            key = uuid.uuid4().hex
            results[key] = outcome
            while len(results) > KEPT_RESULTS:
                results.popitem(last=False)
            shown = outcome.show_round or _form_int(form, "view") or round_no
            return RedirectResponse(f"/director?round={shown}&done={key}#result",
                                    status_code=303, headers=PRIVATE)

        return Route(f"/director/{name}", post, methods=["POST"])

    return [Route("/director", console, methods=["GET"]),
            *(action(name, run) for name, run in ACTIONS.items())]


def _os_error(error: OSError) -> str:
    """``cannot use 'x': reason``, as the CLI words a file that cannot be read or written."""
    if error.filename is not None:
        return f"cannot use {str(error.filename)!r}: {error.strerror or error}"
    return str(error)


def _form_int(form: FormData, name: str) -> int | None:
    text = str(form.get(name, "")).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise GuandanError(f"{name} {text!r}: expected a whole number") from None


def _step(path: Path, name: str, fn: Callable, /, *args, **kwargs):
    """``fn(folder, ...)`` under the folder's write lock, held as the command ``name``."""
    with writing(path, name, DEFAULT_WAIT) as folder:
        return folder, fn(folder, *args, **kwargs)


async def deal(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event deal DIR --round R``."""
    _, paths = await run_in_threadpool(_step, path_of(request), "event deal", deal_round,
                                       round_no, show_progress=False)
    return Outcome(("Wrote " + ", ".join(map(str, paths)),))


async def seat(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event seat DIR --round R`` (a team event's default lineups: each team's first
    four players; a lineups file is the command's)."""
    folder, seating = await run_in_threadpool(_step, path_of(request), "event seat",
                                              seat_event_round, round_no, None)
    return Outcome((*seating.summary(),
                    f"Table cards: {folder.file(round_no, 'table-cards.html')}"),
                   show_round=round_no)


async def score(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event score DIR --round R [--force] [--override]``, once the Desk has written every
    verified set to the round's results file."""
    path = path_of(request)
    force, override = "force" in form, "override" in form
    command = (f"guandan-dup event score {path} --round {round_no}"
               f"{' --force' if force else ''} --override")
    await run_in_threadpool(request.app.state.desk.store.flush)
    folder, scored = await run_in_threadpool(_step, path, "event score", score_round,
                                             round_no, force=force, override=override,
                                             command=command)
    lines = [f"Warning: {w}" for w in scored.warnings]
    return Outcome((*lines, *folder.plan.event_format.score_lines(folder, scored, round_no)))


async def export(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event export DIR`` (every scored round, the default formats)."""
    folder, exported = await run_in_threadpool(_step, path_of(request), "event export",
                                               export_event, None, list(DEFAULT_FORMATS))
    return Outcome(tuple(exported.lines(folder.exports_dir)))


async def site(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event site DIR [--lang zh|en]`` into DIR/site."""
    lang = str(form.get("lang", "zh"))
    _, index = await run_in_threadpool(_step, path_of(request), "event site",
                                       build_event_site, None, lang=lang, show_progress=False)
    return Outcome((str(index),))


def ledger_fields(form: FormData) -> dict:
    """The ledger columns a ledger form gives (``None`` where left empty), parsed as the
    command's options are."""
    fields: dict = {}
    for name, kind in NUMBER_FIELDS.items():
        text = str(form.get(name, "")).strip()
        try:
            fields[name] = kind(text) if text else None
        except ValueError:
            option = "--" + name.replace("_", "-")
            raise GuandanError(f"{option} {text!r}: expected a number") from None
    for name in TEXT_FIELDS:
        text = str(form.get(name, "")).strip()
        fields[name] = text or None
    fields["variable"] = "variable" in form
    return fields


OPTIONS = {"set": "--set", "table": "--table", "player": "--player", "side": "--side",
           "minutes": "--minutes", "result": "--result", "variable": "--variable",
           "tables": "--tables", "for_player": "--for", "team": "--team", "name": "--name",
           "points": "--points", "match_points": "--match-points",
           "level_points": "--level-points", "scale": "--scale", "at": "--at"}
"""Ledger columns -> the options of ``event ledger add``, in the command's order (the
command line a row records is the one the command would have been given)."""


async def ledger_add(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event ledger add DIR KIND --round R ... --reason WHY``; the row records the command
    line that would have made it."""
    path = path_of(request)
    kind = str(form.get("kind", "")).strip()
    if kind not in FORM_KINDS:
        raise GuandanError(f"unknown ledger kind {kind!r}: expected one of "
                           f"{', '.join(FORM_KINDS)}")
    reason = str(form.get("reason", "")).strip()
    article = str(form.get("article", "")).strip() or None
    override = "override" in form
    fields = ledger_fields(form)
    command = command_line(["event", "ledger", "add"], [
        (None, str(path), None), (None, kind, None), ("--round", round_no, None),
        *((option, fields[name], None) for name, option in OPTIONS.items()),
        ("--reason", reason, None), ("--article", article, None),
        ("--override", override, False)])
    folder, (row, effect) = await run_in_threadpool(
        _step, path, "event ledger add", add_entry, kind, round_no, reason, command=command,
        article=article, override=override, **fields)
    return Outcome(tuple(await run_in_threadpool(_said, folder, row, effect)))


async def ledger_withdraw(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event ledger withdraw DIR ID --reason WHY [--override]``."""
    path = path_of(request)
    row_id = _form_int(form, "id")
    if row_id is None:
        raise GuandanError("give the id of the ledger row to withdraw")
    reason = str(form.get("reason", "")).strip()
    override = "override" in form
    command = command_line(["event", "ledger", "withdraw"], [
        (None, str(path), None), (None, row_id, None), ("--reason", reason, None),
        ("--override", override, False)])
    folder, row = await run_in_threadpool(_step, path, "event ledger withdraw",
                                          withdraw_entry, row_id, reason, command,
                                          override=override)
    return Outcome(tuple(await run_in_threadpool(_said, folder, row)))


def _said(folder, row, effect: str | None = None) -> list[str]:
    """``ledger_lines`` read under the folder's shared lock, as the command says them."""
    with reading(folder.path) as now:
        return ledger_lines(now, row, effect)


def _answer_lines(answer) -> tuple[str, ...]:
    """A Desk answer's words: its problems, one a line, else its message."""
    body = answer.body
    problems = body.get("problems") or []
    if problems:
        return tuple(f"{p.get('field', '')}: {p.get('message', '')}".lstrip(": ")
                     for p in problems)
    return (str(body.get("message") or body.get("error") or body.get("state")
                or answer.status),)


async def correct(request: Request, form: FormData, round_no: int) -> Outcome:
    """The director enters or corrects a table's set result (a paper scoresheet, an error
    both sides agree on): ``Desk.enter`` as the director, with the reason, which a verified
    set's correction records as a ledger row."""
    table, set_no = _form_int(form, "table"), _form_int(form, "set")
    body = {"id": str(uuid.uuid4()), "set": set_no,
            "ns_level": str(form.get("ns_level", "")), "ew_level": str(form.get("ew_level", "")),
            "reason": str(form.get("reason", "")).strip()}
    answer = await request.app.state.desk.enter(round_no, table, body, request.state.caller)
    where = f"Round {round_no} table {table} set {set_no}"
    if answer.status >= 400:
        return Outcome((f"{where}: not accepted", *_answer_lines(answer)), refused=True)
    await run_in_threadpool(request.app.state.desk.store.flush)  # the ledger row, on the page
    levels = f"{body['ns_level']}/{body['ew_level']}"
    return Outcome((f"{where}: {levels} (NS/EW) entered by the {role(request.state.caller)}; "
                    f"now {answer.body.get('state', 'entered')}",))


async def verify(request: Request, form: FormData, round_no: int) -> Outcome:
    """The director verifies a table's set (checked against the paper scoresheet)."""
    table, set_no = _form_int(form, "table"), _form_int(form, "set")
    answer = await request.app.state.desk.verify(round_no, table, set_no, request.state.caller)
    where = f"Round {round_no} table {table} set {set_no}"
    if answer.status >= 400:
        return Outcome((f"{where}: not verified", *_answer_lines(answer)), refused=True)
    return Outcome((f"{where}: verified by the {role(request.state.caller)}",))


async def revoke_table(request: Request, form: FormData, round_no: int) -> Outcome:
    """``event tokens DIR --round R --revoke TABLE``: a lost or misused phone's link and PIN
    stop working; the table gets new ones (shown in the console's list)."""
    table = _form_int(form, "table")
    if table is None:
        raise GuandanError("give the table whose link and PIN to replace")
    by = request.state.caller
    if isinstance(by, VenueDirector) and not by.reaches(table):
        raise GuandanError(f"this is {by.words()}: it cannot replace table {table}'s link")
    await run_in_threadpool(revoke, path_of(request), round_no, table)
    return Outcome((f"Round {round_no} table {table}: new link and PIN (the old ones no "
                    "longer work); give the table its new link or PIN",))


ACTIONS: dict[str, Callable] = {
    "deal": deal,
    "seat": seat,
    "score": score,
    "export": export,
    "site": site,
    "ledger": ledger_add,
    "withdraw": ledger_withdraw,
    "correct": correct,
    "verify": verify,
    "revoke": revoke_table,
}
"""``POST /director/<name>`` -> what it does."""

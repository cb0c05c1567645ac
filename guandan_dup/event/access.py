"""Who may enter results from the tables: table tokens and PINs, the director's token, the
address phones use.

Every table of a round gets an entry link ``BASE/t/TOKEN`` (the QR code on its table card)
and a 6-digit PIN (typed at ``BASE/t`` when the camera fails). Both are derived, never
stored: HMAC-SHA256 under the folder's secret (``live/secret``, 32 random bytes made once,
owner-only) of the round, the table and the table's *generation*, which ``revoke`` bumps.
So cards printed at ``event seat`` stay valid until the director revokes one table (a
phone lost, a link photographed), and revoking one table changes nothing at another.

A PIN is unique among its round's tables. PINs are drawn in the order they were issued
(every table at generation 0, then each revocation in turn), each avoiding every PIN issued
before it in the round, so a table's PIN changes only when that table is revoked, and a
revoked PIN never comes back for another table.

Files, all under the event folder and written through its transaction:

- ``live/secret`` (0600): the HMAC key, hex; made by ``event init`` (or, in a folder made
  before, by the first command that needs it), never replaced.
- ``live/revoked.json``: ``{"ROUND": [TABLE, ...]}``, the revocations in order (a table's
  generation is how often it appears).
- ``live/base-url.txt``: the address phones use (``event tokens --base-url``); by default
  the laptop's LAN address and port 8000 (``lan_address``).
- ``director.token`` (0600): the director's console token, random, made once.

A revocation or a new base URL also redraws the links on the table cards already written
(``rounds/R/table-cards.html``, in the same step), so a card reprinted shows the new link.

The event side derives these because ``event seat`` prints the links on the table cards;
the server (``live.tokens``) adds who a token names. No token is ever logged or printed
except where a director asked for it (``event tokens``, the console URL of ``serve``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..atomic import write_bytes
from ..errors import GuandanError
from ..wording import event_command
from . import cards
from .folder import DIRECTOR_TOKEN, LIVE_SECRET, EventFolder
from .transaction import locked, writing

SECRET = LIVE_SECRET
REVOKED = "live/revoked.json"
BASE_URL = "live/base-url.txt"
DEFAULT_PORT = 8000
TOKEN_BYTES = 18
"""144 bits of HMAC output per table token: 24 urlsafe characters, a small QR code."""


@dataclass(frozen=True)
class TableLink:
    """One table's way in for one round: its PIN, its token and the link carrying it."""

    table: int
    pin: str
    token: str
    url: str


def links(
    secret: bytes, round_no: int, tables: Iterable[int], revocations: Sequence[int],
    base: str,
) -> list[TableLink]:
    """The entry links of ``round_no``'s ``tables`` (ascending) under ``secret``, after the
    round's ``revocations`` (tables, in order); pure, so the cards and the server agree.

    >>> [a, b] = links(b"k" * 32, 1, [2, 1], [], "http://10.0.0.5:8000")
    >>> (a.table, b.table, len(a.pin), a.pin != b.pin, len(a.token))
    (1, 2, 6, True, 24)
    >>> a.url == "http://10.0.0.5:8000/t/" + a.token
    True
    >>> [c, d] = links(b"k" * 32, 1, [1, 2], [2], "http://10.0.0.5:8000")
    >>> (c == a, d.token != b.token, d.pin not in (a.pin, b.pin))
    (True, True, True)
    """
    tables = sorted({int(t) for t in tables})
    present = set(tables)
    issued: dict[int, str] = {}
    used: set[str] = set()
    generation = dict.fromkeys(tables, 0)

    def draw(table: int) -> str:
        counter = 0
        while True:
            digest = _mac(secret, "pin", round_no, table, generation[table], counter)
            pin = f"{int.from_bytes(digest[:8], 'big') % 1_000_000:06d}"
            if pin not in used:
                used.add(pin)
                return pin
            counter += 1

    for table in tables:
        issued[table] = draw(table)
    for table in revocations:
        if table in present:
            generation[table] += 1
            issued[table] = draw(table)  # the old PIN stays in ``used``: never reissued
    base = base.rstrip("/")
    result = []
    for table in tables:
        token = _token(secret, round_no, table, generation[table])
        result.append(TableLink(table, issued[table], token, f"{base}/t/{token}"))
    return result


def _mac(secret: bytes, *parts: object) -> bytes:
    message = "|".join(str(p) for p in parts).encode("ascii")
    return hmac.new(secret, message, hashlib.sha256).digest()


def _token(secret: bytes, round_no: int, table: int, generation: int) -> str:
    digest = _mac(secret, "table", round_no, table, generation)[:TOKEN_BYTES]
    return _urlsafe(digest)


def _urlsafe(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def new_secret() -> bytes:
    """A fresh ``live/secret`` file's bytes: 32 random bytes in hex (``event init``)."""
    return (secrets.token_hex(32) + "\n").encode("ascii")


def folder_secret(path: str | os.PathLike) -> bytes:
    """The folder's HMAC key; made when missing (a folder from before ``serve`` existed)."""
    file = Path(path) / SECRET
    text = _read_or_make(path, file, "make the tables' secret",
                         lambda: new_secret().decode("ascii").strip())
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != 32:
        raise GuandanError(
            f"{str(file)!r} is damaged (expected 64 hex digits): every table link depends "
            "on it. Restore it from a backup; deleting it makes new links and PINs for every "
            "table, so the printed table cards would have to be printed again"
        )
    return secret


def director_token(path: str | os.PathLike) -> str:
    """The director's console token from ``DIR/director.token``, made (0600) when missing."""
    EventFolder.open(path)  # not an event folder: refused before anything is written
    file = Path(path) / DIRECTOR_TOKEN
    token = _read_or_make(path, file, "make the director's token",
                          lambda: secrets.token_urlsafe(32))
    if len(token) < 22:
        raise GuandanError(
            f"{str(file)!r} holds no usable token (at least 22 characters expected); delete "
            "it and run `guandan-dup event tokens` or `serve` again to make a new one"
        )
    return token


def _read_or_make(path: str | os.PathLike, file: Path, why: str,
                  make: Callable[[], str]) -> str:
    """``file``'s text; when it is missing, ``make()``'s line written first, under the
    folder's lock (looked for again there: another process may have made it meanwhile)."""
    text = _read_private(file)
    if text is None:
        with locked(path, why):
            text = _read_private(file)
            if text is None:
                text = make()
                EventFolder.open(path).replace_files({file: (text + "\n").encode("ascii")})
    return text


def _read_private(file: Path) -> str | None:
    try:
        return file.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        return ""  # refused by the caller as damaged


def revocations(path: str | os.PathLike) -> dict[int, list[int]]:
    """The tables revoked in each round, in order (``live/revoked.json``)."""
    file = Path(path) / REVOKED
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        revoked = {int(r): [int(t) for t in tables] for r, tables in data.items()}
    except FileNotFoundError:
        return {}
    except (ValueError, TypeError, AttributeError, UnicodeDecodeError):
        raise GuandanError(
            f"{str(file)!r} is damaged (expected {{\"round\": [table, ...]}}): restore it "
            "from the folder's history/ (live-revoked.*.json)"
        ) from None
    return revoked


def round_links(
    folder: EventFolder, round_no: int, tables: Iterable[int], base: str | None = None
) -> dict[int, TableLink]:
    """Table -> its link for ``round_no``'s ``tables``: what ``event seat`` prints on the
    cards of the seating it is writing (the secret is made if this is the first)."""
    found = links(
        folder_secret(folder.path), round_no, tables,
        revocations(folder.path).get(round_no, []),
        base_url(folder.path) if base is None else base,
    )
    return {link.table: link for link in found}


def seated_tables(folder: EventFolder, round_no: int) -> list[int]:
    """The tables of ``round_no``'s seating; refused for a round not in the plan or not
    seated yet."""
    folder.plan.check_round(round_no)
    seating = folder.read(round_no, "seating")
    if seating is None:
        raise GuandanError(
            f"round {round_no} is not seated yet, so its tables have no links; run "
            f"`{event_command(folder.path, 'seat', round_no)}` first"
        )
    return sorted({int(t) for t in seating["table"]})


def table_links(
    path: str | os.PathLike, round_no: int, base: str | None = None
) -> list[TableLink]:
    """Every seated table's link of ``round_no`` (the ``event tokens`` CSV), table order."""
    folder = EventFolder.open(path)
    links_by_table = round_links(folder, round_no, seated_tables(folder, round_no), base)
    return list(links_by_table.values())


def revoke(path: str | os.PathLike, round_no: int, table: int) -> None:
    """Give ``table`` of ``round_no`` a new token and PIN; its old link and PIN stop working."""
    with writing(path, "event tokens --revoke") as folder:
        tables = seated_tables(folder, round_no)
        if table not in tables:
            raise GuandanError(
                f"round {round_no} has no table {table!r} (its tables are "
                f"{tables[0]}-{tables[-1]}); nothing was revoked"
            )
        revoked = revocations(folder.path)
        revoked.setdefault(round_no, []).append(table)
        text = json.dumps({str(r): t for r, t in sorted(revoked.items())}, indent=1)
        revocation = {folder.path / REVOKED: (text + "\n").encode("utf-8")}
        folder.replace_files(revocation | relinked_cards(folder, [round_no], revoked=revoked))


def base_url(path: str | os.PathLike) -> str:
    """The address phones use: the saved one, else ``http://<LAN address>:8000``."""
    file = Path(path) / BASE_URL
    try:
        saved = file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return f"http://{lan_address()}:{DEFAULT_PORT}"
    return checked_base_url(saved, str(file))


def checked_base_url(url: str, where: str = "--base-url") -> str:
    """``url`` without a trailing slash, refused unless it is an http(s) address with a host
    and no query or fragment (the token is appended as ``/t/TOKEN``).

    >>> checked_base_url("http://192.168.1.20:8000/")
    'http://192.168.1.20:8000'
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment:
        raise GuandanError(
            f"{where}: {url!r} is not an address phones can open; expected "
            "http://HOST:PORT (for example http://192.168.1.20:8000)"
        )
    return url.strip().rstrip("/")


def save_base_url(path: str | os.PathLike, url: str) -> None:
    """Save the address phones use (the links of ``event tokens`` and of the cards)."""
    url = checked_base_url(url)
    with writing(path, "event tokens --base-url") as folder:
        if base_url(path) == url and (folder.path / BASE_URL).exists():
            return
        rounds = range(1, folder.plan.rounds + 1)
        folder.replace_files({folder.path / BASE_URL: (url + "\n").encode("utf-8")}
                             | relinked_cards(folder, rounds, base=url))


def relinked_cards(
    folder: EventFolder, rounds: Iterable[int], base: str | None = None,
    revoked: Mapping[int, list[int]] | None = None,
) -> dict[Path, bytes]:
    """The table cards of the seated ``rounds`` drawn again with their links after a
    revocation or a new base URL (``cards.relink``), to be written in the same step."""
    secret = folder_secret(folder.path)
    revoked = revocations(folder.path) if revoked is None else revoked
    base = base_url(folder.path) if base is None else base
    files = {}
    for round_no in rounds:
        page = folder.file(round_no, "table-cards.html")
        seating = folder.read(round_no, "seating")
        if seating is None or not page.is_file():
            continue
        found = links(secret, round_no, seating["table"], revoked.get(round_no, []), base)
        html = page.read_text(encoding="utf-8")
        files[page] = cards.relink(html, {x.table: x for x in found}).encode("utf-8")
    return files


def lan_address() -> str:
    """This laptop's address on the network it would reach others by, ``127.0.0.1`` when
    it has none: a UDP socket "connected" to a private address picks the outbound
    interface without sending a packet."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        address = probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()
    return address if address and address != "0.0.0.0" else "127.0.0.1"


def links_by_round(path: str | os.PathLike, tables: Mapping[int, Iterable[int]]
                   ) -> dict[int, list[TableLink]]:
    """The links of several rounds' ``tables`` at once, reading the secret and revocations
    once (the server's keys): round -> links, with an empty base (tokens and PINs only)."""
    secret = folder_secret(path)
    revoked = revocations(path)
    return {r: links(secret, r, t, revoked.get(r, []), "") for r, t in tables.items()}


def event_tokens(
    path: str | os.PathLike, round_no: int, revoke_table: int | None = None,
    base: str | None = None,
) -> list[TableLink]:
    """``event tokens``: save ``base`` as the address phones use and revoke ``revoke_table``
    when given, make the director's token when missing; the round's links. A round not
    seated is refused before anything is saved."""
    seated_tables(EventFolder.open(path), round_no)
    if base is not None:
        save_base_url(path, base)
    if revoke_table is not None:
        revoke(path, round_no, revoke_table)
    director_token(path)
    return table_links(path, round_no)


def write_links(found: Iterable[TableLink], out: str | os.PathLike | None = None) -> str:
    """The ``event tokens`` links: as CSV text (``links_csv``) without ``out``; else written
    to ``out`` owner-only (it holds every table's token), by its suffix a workbook (``.xlsx``:
    the PIN a text cell, so Excel shows ``004217`` and not ``4217``, as it does opening the
    CSV) or the CSV. Returns the CSV text either way."""
    found = list(found)
    text = links_csv(found)
    if out is None:
        return text
    if Path(out).suffix.lower() == ".xlsx":
        import pandas as pd

        from .sheet import xlsx_bytes  # openpyxl only when a workbook is asked for

        rows = pd.DataFrame({"table": [x.table for x in found], "pin": [x.pin for x in found],
                             "url": [x.url for x in found]})
        data = xlsx_bytes(rows, "links", frozenset({"pin", "url"}))
    else:
        data = text.encode("utf-8")
    write_bytes(out, data, mode=0o600)
    return text


def links_csv(found: Iterable[TableLink]) -> str:
    """The ``event tokens`` CSV: ``table,pin,url``, one row per table.

    >>> print(links_csv([TableLink(1, "004217", "abc", "http://h:8000/t/abc")]), end="")
    table,pin,url
    1,004217,http://h:8000/t/abc
    """
    rows = ["table,pin,url", *(f"{x.table},{x.pin},{x.url}" for x in found)]
    return "\n".join(rows) + "\n"

"""The kinds of event, one ``EventFormat`` each, chosen once from the plan (as python-chess
picks a variant class).

The folder runs the steps (init, seat, ingest, score, export, site, status, rehearse); the
format says what each step means for its kind of event. A new format is one new module and
one line in ``REGISTRY`` (docs/architecture.md, "Event formats").
"""

from __future__ import annotations

from ...errors import InvalidPlanError
from .base import EventFormat, InitRequest
from .individual import Individual
from .pairs import Pairs
from .pairs_knockout import PairsKnockout
from .team_knockout import TeamKnockout
from .teams import TeamRoundRobin, TeamSwiss

REGISTRY: dict[tuple[str, str], EventFormat] = {
    ("individual", ""): Individual(),
    ("pairs", ""): Pairs(),
    ("pairs", "knockout"): PairsKnockout(),
    ("teams", "swiss"): TeamSwiss(),
    ("teams", "round-robin"): TeamRoundRobin(),
    ("teams", "knockout"): TeamKnockout(),
}
"""(kind, format) -> the format; ``format`` is empty for events reseated by standing."""

KINDS = tuple(dict.fromkeys(kind for kind, _ in REGISTRY))
NOUNS = {"teams": "team"}
"""A kind as it reads before "event" (a team event)."""


def format_problem(kind: object, fmt: object) -> str:
    """Why (``kind``, ``fmt``) names no format, in a plan's words ("" when it names one)."""
    if not isinstance(kind, str) or kind not in KINDS:
        return f"kind = {kind!r}: expected one of {', '.join(KINDS)}"
    if not isinstance(fmt, str):
        return f"format = {fmt!r}: expected a word such as swiss or knockout"
    if (kind, fmt) in REGISTRY:
        return ""
    formats = [f for k, f in REGISTRY if k == kind and f]
    if fmt and any(f == fmt for _, f in REGISTRY):
        kinds = [NOUNS.get(k, k) for k, f in REGISTRY if f == fmt]
        return (f"format = {fmt!r}: only {' and '.join(kinds)} events have it "
                f"({_article(kind)} {kind} event is {_ways(kind)})")
    if not formats:
        return f"format = {fmt!r}: {_article(kind)} {kind} event has none (it is {_ways(kind)})"
    none = ", or none (reseated by standing)" if (kind, "") in REGISTRY else ""
    return f"format = {fmt!r}: expected one of {', '.join(formats)}{none}"


def _article(kind: str) -> str:
    return "an" if kind[:1] in "aeiou" else "a"


def owners_of(key: str) -> str:
    """The kinds of event whose formats have ``key`` in event.toml ("team"), or ""."""
    kinds = dict.fromkeys(NOUNS.get(k, k) for (k, _), f in REGISTRY.items()
                          if key in f.option_keys)
    return " and ".join(kinds)


def _ways(kind: str) -> str:
    return " or ".join("reseated by standing" if not f else f"a {f}"
                       for k, f in REGISTRY if k == kind)


def format_named(kind: str, fmt: str | None = "") -> EventFormat:
    """The format of ``kind`` and ``fmt`` (``None`` or "" for reseated by standing); an
    ``InvalidPlanError`` names the choices otherwise."""
    fmt = fmt or ""
    problem = format_problem(kind, fmt)
    if problem:
        raise InvalidPlanError(problem.replace(" = ", " "))
    return REGISTRY[(kind, fmt)]


__all__ = ["KINDS", "REGISTRY", "EventFormat", "InitRequest", "format_named", "format_problem",
           "owners_of"]

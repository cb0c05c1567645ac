"""CLI commands: event (being written)."""

from .app import app  # noqa: F401

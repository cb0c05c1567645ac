"""CLI commands: scoring (being written)."""

from .app import app  # noqa: F401

"""CLI commands: simulate (being written)."""

from .app import app  # noqa: F401

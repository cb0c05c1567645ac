"""CLI commands: demo (being written)."""

from .app import app  # noqa: F401

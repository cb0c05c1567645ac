"""CLI commands: deals (being written)."""

from .app import app  # noqa: F401

"""CLI commands: movement (being written)."""

from .app import app  # noqa: F401

"""CLI commands: rules (being written)."""

from .app import app  # noqa: F401

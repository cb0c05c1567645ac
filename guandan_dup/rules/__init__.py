"""The game of Guandan: levels through a set, combinations, legal play, tribute.

Pure functions and frozen values only; nothing here knows about files or the CLI.
"""

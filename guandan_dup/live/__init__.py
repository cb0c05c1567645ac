"""The server of the day of the event (issue 22): table entry, console and scoreboard."""

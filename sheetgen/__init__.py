"""sheetgen: roll-and-write sheets and score pads for board games, and their scorer."""

__version__ = "0.1.0"

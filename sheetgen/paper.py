"""Paper sizes and the margin home printers keep (ground: no sheetgen imports)."""

from __future__ import annotations

# mm, portrait. A sheet is designed for A4 and Letter (SHEET_PAPERS); A5 prints it
# scaled down, Legal at full size with more white below and above.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a5": (148.0, 210.0), "legal": (215.9, 355.6)}
SHEET_PAPERS = ("a4", "letter")
MARGIN = 8.0  # mm that home printers keep blank
# the largest sheet that keeps MARGIN on every paper a sheet is designed for
MAX_SHEET = (
    min(PAPERS[p][0] for p in SHEET_PAPERS) - 2 * MARGIN,
    min(PAPERS[p][1] for p in SHEET_PAPERS) - 2 * MARGIN,
)


def paper_name(paper: str) -> str:
    """How a paper size is written for people: A4, A5, Letter, Legal."""
    return paper.upper() if paper.startswith("a") else paper.capitalize()

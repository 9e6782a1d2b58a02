"""Paper sizes and the margin home printers keep (ground: no sheetgen imports)."""

from __future__ import annotations

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm, portrait
MARGIN = 8.0  # mm that home printers keep blank
# the largest sheet that keeps MARGIN on every paper
MAX_SHEET = (min(w for w, _ in PAPERS.values()) - 2 * MARGIN, min(h for _, h in PAPERS.values()) - 2 * MARGIN)

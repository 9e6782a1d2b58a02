"""Imposition: where sheets go on the printed pages (pure geometry, no drawing).

`--per-page 1|2|4` cuts the paper into equal cells (2: two portrait halves of a
landscape page; 4: four quarters of a portrait page). Each cell keeps the printer
margin (paper.MARGIN) on the paper's outer edges and half a GUTTER on the edges it
shares with another cell, where the cut marks go. The sheet is scaled uniformly
(never enlarged) to fit its cell and centred in it.

A sheet stays writable when scaled only while its smallest box and text stay
large enough (MIN_BOX, MIN_TEXT, MIN_HINT below): `check_scale` refuses the rest,
naming what would become too small and the largest --per-page that still works.

Duplex: a printer that turns the paper over an edge that is vertical on the page
(the long edge of a portrait page, the short edge of a landscape one) puts the cell
at column c behind column cols-1-c; over a horizontal edge, behind row rows-1-r and
upside down, so the back cells are also turned by 180 degrees. Either way each cut
sheet's back is upright when that sheet is turned over its vertical side, like a
book page.
"""

from __future__ import annotations

from sheetgen.errors import UsageError
from sheetgen.paper import MARGIN, PAPERS, paper_name
from sheetgen.values import valueclass

PER_PAGE = (1, 2, 4)
GUTTER = 6.0  # mm between two sheets' drawings; the cut line runs down its middle
MIN_BOX = 5.0  # mm: the smallest side of a box to write in, after scaling
MIN_TEXT = 6.0  # pt: the smallest text, after scaling
MIN_HINT = 4.5  # pt: the smallest in-box hint (5.5 pt at full size), after scaling
PT = 72 / 25.4


@valueclass
class Grid:
    """A printed page cut into cells: its size (mm) and the cells' drawable areas."""

    paper: str
    per_page: int
    width: float
    height: float
    cols: int
    rows: int

    def area(self, cell: int) -> tuple[float, float, float, float]:
        """The drawable (x, y, w, h) of a cell (0-based, row by row), mm from the top left."""
        r, c = divmod(cell, self.cols)
        cw, ch = self.width / self.cols, self.height / self.rows
        left = c * cw + (MARGIN if c == 0 else GUTTER / 2)
        right = (c + 1) * cw - (MARGIN if c == self.cols - 1 else GUTTER / 2)
        top = r * ch + (MARGIN if r == 0 else GUTTER / 2)
        bottom = (r + 1) * ch - (MARGIN if r == self.rows - 1 else GUTTER / 2)
        return left, top, right - left, bottom - top

    def scale(self, sheet_w: float, sheet_h: float) -> float:
        """The uniform scale of a sheet in a cell (at most 1: never enlarged)."""
        _, _, w, h = self.area(0)
        return min(1.0, w / sheet_w, h / sheet_h)

    def place(self, cell: int, sheet_w: float, sheet_h: float) -> tuple[float, float, float]:
        """The sheet's top-left corner (mm from the page's) and scale in a cell: centred."""
        x, y, w, h = self.area(cell)
        s = self.scale(sheet_w, sheet_h)
        return x + (w - sheet_w * s) / 2, y + (h - sheet_h * s) / 2, s

    def cut_lines(self) -> list[tuple[float, float, float, float]]:
        """The cell boundaries (x1, y1, x2, y2), from margin to margin."""
        out = []
        for c in range(1, self.cols):
            x = c * self.width / self.cols
            out.append((x, MARGIN, x, self.height - MARGIN))
        for r in range(1, self.rows):
            y = r * self.height / self.rows
            out.append((MARGIN, y, self.width - MARGIN, y))
        return out

    def turns_vertically(self, flip: str) -> bool:
        """Whether the paper is turned over an edge that is vertical on this page."""
        landscape = self.width > self.height
        return (flip == "long") != landscape

    def back_cell(self, cell: int, flip: str) -> tuple[int, bool]:
        """The cell behind `cell` after the printer turns the paper, and whether the
        back side is upside down there (then the sheet drawn in it is turned 180°)."""
        r, c = divmod(cell, self.cols)
        if self.turns_vertically(flip):
            return r * self.cols + (self.cols - 1 - c), False
        return (self.rows - 1 - r) * self.cols + c, True


def grid(paper: str, per_page: int) -> Grid:
    if per_page not in PER_PAGE:
        raise UsageError(f"--per-page: expected one of {', '.join(map(str, PER_PAGE))}, got {per_page}")
    pw, ph = PAPERS[paper]
    if per_page == 2:
        return Grid(paper, 2, ph, pw, 2, 1)
    if per_page == 4:
        return Grid(paper, 4, pw, ph, 2, 2)
    return Grid(paper, 1, pw, ph, 1, 1)


# ------------------------------------------------------------------ which sheet goes where


@valueclass
class Cell:
    page: int  # index of the sheet's page in the document
    copy: int  # 1-based copy number
    turned: bool = False  # drawn upside down (the back of a short/long turn)


@valueclass
class Sheetside:
    """One printed page: a Cell or None (left empty) per cell of the grid."""

    cells: tuple
    back: bool = False

    def key(self) -> tuple:
        """What the page shows, whatever copies it holds: equal keys, equal pages."""
        return tuple(None if c is None else (c.page, c.turned) for c in self.cells)


def sequence(g: Grid, n_pages: int, copies: int, duplex: bool = False, flip: str = "long") -> list[Sheetside]:
    """The printed pages of `copies` sets of `n_pages` sheets, in print order.

    Without duplex the sheets fill the cells in order (copy 1's pages, then copy 2's...).
    With duplex, each copy's pages pair up as front and back of one leaf (an odd last
    page gets an empty back), and `per_page` copies share each leaf: the front page
    holds their page 1, the back page their page 2 in the cells behind them."""
    n = g.per_page
    if not duplex:
        flat = [Cell(p, k) for k in range(1, copies + 1) for p in range(n_pages)]
        return [
            Sheetside(tuple(flat[i : i + n]) + (None,) * (n - len(flat[i : i + n]))) for i in range(0, len(flat), n)
        ]
    out = []
    for first in range(1, copies + 1, n):
        batch = range(first, min(first + n, copies + 1))
        for front_page in range(0, n_pages, 2):
            front = [Cell(front_page, k) for k in batch] + [None] * (n - len(batch))
            back: list = [None] * n
            if front_page + 1 < n_pages:
                for i, k in enumerate(batch):
                    j, turned = g.back_cell(i, flip)
                    back[j] = Cell(front_page + 1, k, turned)
            out += [Sheetside(tuple(front)), Sheetside(tuple(back), back=True)]
    return out


def empty_cells(sides: list[Sheetside]) -> int:
    """Cells left empty on the last printed page (of the last leaf, with duplex: its front)."""
    if not sides:
        return 0
    last = sides[-2] if sides[-1].back else sides[-1]
    return sum(1 for c in last.cells if c is None)


# ------------------------------------------------------------------ still writable when scaled


@valueclass
class Smallest:
    """The smallest thing of a kind on the pages: its size, where, and what."""

    size: float
    page: str
    what: str


def smallest(doc) -> dict[str, Smallest]:
    """The smallest box side (mm), text and in-box hint (pt, as fitted) of a document. A box
    is measured where a pencil goes: what the renderer draws for it (display.drawn), the
    rounded square inside a tick box's cell, not the cell."""
    from sheetgen import text as fonts
    from sheetgen.layout.display import Box, Text, drawn

    found: dict[str, Smallest] = {}

    def keep(kind, size, page, what):
        if kind not in found or size < found[kind].size:
            found[kind] = Smallest(size, page, what)

    for page in doc.pages:
        for p in page.prims:
            if isinstance(p, Box):
                _, _, w, h = drawn(p)
                keep("box", min(w, h), page.id, p.field or f"{p.kind} box")
            elif isinstance(p, Text) and p.text.strip():
                size = fonts.fit_text(p.text, p.font, p.size, p.w * PT, p.h * PT, p.wrap, p.min_size).size
                keep("hint" if p.hint else "text", size, page.id, p.text)
    return found


FLOORS = {"box": (MIN_BOX, "mm"), "text": (MIN_TEXT, "pt"), "hint": (MIN_HINT, "pt")}


def min_scale(found: dict[str, Smallest]) -> float:
    """The smallest scale that keeps every box and text at or above its floor (at most 1:
    a sheet that validates prints at full size)."""
    need = [FLOORS[k][0] / s.size for k, s in found.items() if s.size > 0]
    return min(1.0, max(need, default=0.0))


def _short(text: str, n: int = 30) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def too_small(found: dict[str, Smallest], scale: float) -> list[str]:
    """What falls under its floor at `scale`, in words."""
    out = []
    for kind, s in found.items():
        floor, unit = FLOORS[kind]
        if s.size * scale < floor - 1e-9:
            name = {"box": "box", "text": "text", "hint": "hint in a box"}[kind]
            out.append(
                f"its smallest {name} ({s.page}: '{_short(s.what)}', {s.size:.1f} {unit}) "
                f"would be {s.size * scale:.1f} {unit}, under {floor:g} {unit}"
            )
    return out


def largest_per_page(doc, paper: str, found: dict[str, Smallest]) -> int | None:
    """The largest --per-page at which the document stays writable on `paper`."""
    w, h = _sheet_size(doc)
    need = min_scale(found)
    ok = [n for n in PER_PAGE if grid(paper, n).scale(w, h) >= need - 1e-9]
    return max(ok) if ok else None


def _sheet_size(doc) -> tuple[float, float]:
    return max(p.width for p in doc.pages), max(p.height for p in doc.pages)


def check_scale(doc, paper: str, per_page: int, name: str) -> float:
    """The scale of the document's sheets at `per_page` on `paper`; a UsageError naming
    the smallest box or text and the largest --per-page that works when it is too small."""
    w, h = _sheet_size(doc)
    scale = grid(paper, per_page).scale(w, h)
    if scale >= 1.0:
        return scale
    found = smallest(doc)
    problems = too_small(found, scale)
    if not problems:
        return scale
    best = largest_per_page(doc, paper, found)
    shown = paper_name(paper)
    advice = (
        f"the largest --per-page for {name} on {shown} is {best}"
        if best
        else f"{name} is not writable on {shown} even one sheet a page; try --paper a4, letter or legal"
    )
    option = f"--per-page {per_page}" if per_page > 1 else f"--paper {paper}"
    raise UsageError(f"{option}: {name} on {shown} would print at {scale:.0%}: {'; '.join(problems)}; {advice}")

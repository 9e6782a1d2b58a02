"""A layout as the rest of sheetgen sees it: `Layout` (its pages, elements placed, constants,
theme, what is unverified or a house rule) and the display lists it builds. It is made
by sheetgen.layout.load, which checks it first.
"""

from __future__ import annotations

from sheetgen.errors import LayoutError, Problem
from sheetgen.layout import elements as E
from sheetgen.layout import scanmarks
from sheetgen.layout.display import MIN_TEXT, Document, PageDisplay, dropout
from sheetgen.layout.housenote import HOUSE_NOTE, NOTE_H, NOTE_SIZE, note_prims, taken_by
from sheetgen.values import field, valueclass


class Constants(dict):
    """The layout's constants; reading one the layout lacks is a LayoutError."""

    source = "<layout>"

    def __missing__(self, name):
        raise LayoutError(Problem(f"the layout has no constant '{name}', which the scorer reads", self.source))


@valueclass(frozen=False)
class Page:
    id: str
    title: dict
    elements: list
    house_note: dict | None = None  # the page's own house note, else the layout's
    house_note_in: str | None = None  # the frame the page's house note goes in, else the layout's


@valueclass(frozen=False)
class Layout:
    id: str
    game: str
    title: dict
    description: dict | None
    width: float
    height: float
    players: dict
    theme: dict
    constants: dict  # name -> value
    unverified: list  # key paths of values marked verified: false
    pages: list
    source: str
    by_id: dict = field(default_factory=dict)
    origin: dict = field(default_factory=dict)  # top-level key -> (file, line)
    house_note: dict = field(default_factory=lambda: dict(HOUSE_NOTE))
    house_note_in: str | None = None  # the frame the house note goes in (on a page that has it)
    house: list = field(default_factory=list)  # key paths of the labels marked `house: true`
    digest: str = ""  # tree_hash of the resolved layout tree (what a kept game was scored with)
    # the resolved tree, with the file and line of every key (for `sheetgen show`)
    tree: dict = field(default_factory=dict, repr=False, compare=False)
    scan_marks: bool = False  # its sheets carry the marks `sheetgen scan` reads (layout.scanmarks)
    smallest_text: float = MIN_TEXT  # pt: no text printed smaller (display.raise_text)

    def element(self, eid: str) -> dict:
        try:
            return self.by_id[eid]
        except KeyError:
            raise LayoutError(
                Problem(f"layout '{self.id}' has no element '{eid}', which the {self.game} scorer reads", self.source)
            ) from None

    def has(self, eid: str) -> bool:
        return eid in self.by_id

    def page(self, pid: str) -> Page:
        for p in self.pages:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def env(self, lang: str, players: int | None = None) -> E.Env:
        return E.Env(
            lang,
            self.constants,
            self.theme,
            players or self.players["default"],
            elements=self.by_id,
            unverified=frozenset(self.unverified),
            smallest_text=self.smallest_text,
        )

    def display(self, page: Page, lang: str, players: int | None = None) -> list:
        """The page's display list; when it prints a house value (marked), the house note
        goes in the lowest free place of the sheet (see house_note_prims). Icons printed
        inside tick boxes are tinted (display.dropout)."""
        return dropout(self.build(page, lang, players)[0])

    def document(
        self, lang: str = "en", players: int | None = None, pages: list[str] | None = None, scan_marks: bool = True
    ) -> Document:
        """The display lists of the pages asked for (all by default): what every
        backend (PDF, form fields, reading filled PDFs) consumes. A scannable layout's
        pages carry their scan marks unless `scan_marks` is False."""
        chosen = [p for p in self.pages if pages is None or p.id in pages]
        return Document(
            title=self.title[lang],
            layout_id=self.id,
            game=self.game,
            lang=lang,
            pages=tuple(
                PageDisplay(
                    p.id,
                    self.width,
                    self.height,
                    tuple(self.display(p, lang, players) + (self.scan_prims(p, lang, players) if scan_marks else [])),
                )
                for p in chosen
            ),
        )

    def scan_prims(self, page: Page, lang: str, players: int | None = None) -> list:
        """The page's scan marks (none when the layout is not scannable)."""
        if not self.scan_marks:
            return []
        data = scanmarks.payload(self.id, page.id, players or self.players["default"], lang, self.digest)
        return scanmarks.scan_prims(self.width, self.height, data)

    def build(self, page: Page, lang: str, players: int | None = None) -> tuple[list, list, bool]:
        """(display list, key paths of the house values it prints, whether the house note
        found room: False only when there are marks and no room)."""
        env = self.env(lang, players)
        out, taken = [], self.scan_taken()
        for el in page.elements:
            prims = E.build(el, env)
            taken.append(taken_by(el, prims))
            out += prims
        if not env.marks:
            return out, [], True
        note = self.house_note_prims(page, lang, taken)
        return out + (note or []), list(env.marks), note is not None

    def scan_taken(self) -> list:
        """The places the scan marks keep free, as `taken_by` entries (the house note avoids them)."""
        if not self.scan_marks:
            return []
        return [(x, y, w, h, None) for _, x, y, w, h in scanmarks.reserved(self.width, self.height)]

    def house_note_text(self, page: Page, lang: str) -> str:
        return self.env(lang).t(page.house_note or self.house_note)

    def note_size(self) -> tuple[float, float]:
        """The house note's font size (pt) and line height (mm): NOTE_SIZE, or the
        layout's `smallest_text` when that is larger."""
        size = max(NOTE_SIZE, self.smallest_text)
        return size, NOTE_H * size / NOTE_SIZE

    def note_frame(self, page: Page) -> dict | None:
        """The frame the page's house note goes in (`house_note_in`, the page's or the
        layout's), or None: anywhere on the sheet."""
        fid = page.house_note_in or self.house_note_in
        return next((el for el in page.elements if el["id"] == fid and E.TYPES[el["type"]].container), None)

    def house_note_prims(self, page: Page, lang: str, taken: list) -> list | None:
        """The house note of a page where it overlaps nothing `taken` (housenote.note_prims:
        in the frame `house_note_in` names, else anywhere on the sheet); None when there is
        no room."""
        size, line_h = self.note_size()
        frame = self.note_frame(page)
        return note_prims(self.house_note_text(page, lang), size, line_h, frame, taken, self.width, self.height)

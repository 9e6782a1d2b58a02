"""The reportlab backend: golden PDFs of the Harvest Dice sheets, paper sizes and
margins, pads of many copies, metadata, and byte-identical output."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from sheetgen import __version__
from sheetgen.games import load_layout
from sheetgen.paper import MARGIN, PAPERS
from sheetgen.render import render_pdf
from sheetgen.render.pdf import placement

HARVEST = ["harvest-dice-normal", "harvest-dice-advanced"]
TITLES = {
    ("harvest-dice-normal", "fr"): "Harvest Dice — feuille de joueur",
    ("harvest-dice-normal", "en"): "Harvest Dice — player sheet",
    ("harvest-dice-advanced", "fr"): "Harvest Dice — feuille de joueur (avancé)",
    ("harvest-dice-advanced", "en"): "Harvest Dice — player sheet (advanced)",
}


def read(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("layout_id", HARVEST)
def test_metadata(layout_id, lang):
    meta = read(render_pdf(load_layout(layout_id), lang=lang)).metadata
    assert meta.title == TITLES[layout_id, lang]
    assert meta.subject == layout_id
    assert meta.creator == f"sheetgen {__version__}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_size(paper):
    page = read(render_pdf(load_layout("harvest-dice-normal"), paper=paper)).pages[0]
    w, h = PAPERS[paper]
    assert float(page.mediabox.width) == pytest.approx(w * mm, abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(h * mm, abs=0.01)
    if paper == "letter":
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout_id", HARVEST)
def test_sheet_placed_within_printer_margins(layout_id, paper):
    layout = load_layout(layout_id)
    at = placement(layout, paper)
    pw, ph = PAPERS[paper]
    assert at.left >= MARGIN and at.top >= MARGIN
    assert pw - at.left - layout.width >= MARGIN
    assert ph - at.top - layout.height >= MARGIN
    # centred
    assert at.left == pytest.approx(pw - at.left - layout.width)
    assert at.top == pytest.approx(ph - at.top - layout.height)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_drawn_in_the_margins(paper):
    """Rasterise the page: the 8 mm band along every edge stays white, and the ink
    covers the sheet where placement() says it is."""
    pdfium = pytest.importorskip("pypdfium2")
    layout = load_layout("harvest-dice-advanced")
    data = render_pdf(layout, lang="fr", paper=paper)
    doc = pdfium.PdfDocument(data)
    try:
        dpi = 50
        image = doc[0].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        doc.close()
    w, h = image.size
    px_mm = dpi / 25.4
    band = int(MARGIN * px_mm) - 1  # a pixel inside the band (antialiasing)
    px = image.load()
    dark = [
        (x, y)
        for y in range(h)
        for x in range(w)
        if (x < band or x >= w - band or y < band or y >= h - band) and px[x, y] < 250
    ]
    assert dark == []
    inked = [(x, y) for y in range(h) for x in range(w) if px[x, y] < 200]
    at = placement(layout, paper)
    left, top = at.left * px_mm, at.top * px_mm
    right, bottom = left + layout.width * px_mm, top + layout.height * px_mm
    assert min(x for x, _ in inked) == pytest.approx(left, abs=2)
    assert max(x for x, _ in inked) == pytest.approx(right, abs=2)
    assert min(y for _, y in inked) == pytest.approx(top, abs=2)
    assert max(y for _, y in inked) == pytest.approx(bottom, abs=2)


def test_letter_render_differs_only_by_placement():
    layout = load_layout("harvest-dice-normal")
    a4, letter = render_pdf(layout, paper="a4"), render_pdf(layout, paper="letter")
    assert a4 != letter
    assert read(letter).pages[0].extract_text() == read(a4).pages[0].extract_text()


def test_pad_of_1000_copies():
    data = render_pdf(load_layout("harvest-dice-advanced"), lang="fr", copies=1000)
    # ~560 KB (fonts ~90 KB, then ~0.5 KB per page): a pad of 1000 stays well under 1 MB
    assert len(data) < 750_000
    reader = read(data)
    assert len(reader.pages) == 1000
    # every page places the same Form XObject: the sheet is drawn once
    forms = set()
    for page in (reader.pages[0], reader.pages[499], reader.pages[999]):
        xobjects = page["/Resources"]["/XObject"]
        forms |= {xobjects[name].indirect_reference.idnum for name in xobjects}
        assert page.get_contents().get_data().count(b" Do") == 1
    assert len(forms) == 1


def test_copies_repeat_the_sheet():
    layout = load_layout("harvest-dice-normal")
    one = read(render_pdf(layout, lang="en"))
    three = read(render_pdf(layout, lang="en", copies=3))
    assert len(three.pages) == 3
    texts = {p.extract_text() for p in three.pages}
    assert texts == {one.pages[0].extract_text()}


def test_identical_input_gives_identical_bytes():
    layout = load_layout("harvest-dice-advanced")
    first = render_pdf(layout, lang="en", paper="letter", copies=2)
    # render something else in between: font subsets and caches must not leak
    render_pdf(load_layout("harvest-dice-normal"), lang="fr", copies=3)
    assert render_pdf(layout, lang="en", paper="letter", copies=2) == first


def test_text_is_drawn_in_the_chosen_language():
    layout = load_layout("harvest-dice-normal")
    fr = read(render_pdf(layout, lang="fr")).pages[0].extract_text()
    en = read(render_pdf(layout, lang="en")).pages[0].extract_text()
    for word in ("Potager", "Cochon", "Marché", "Décompte", "Joueur·euse"):
        assert word in fr and word not in en
    for word in ("Garden", "Pig", "Market", "Final score", "Player"):
        assert word in en
    # constants are filled in, not printed as placeholders
    assert "{" not in fr and "{" not in en
    assert "Lignes pleines × 5" in fr and "Full rows × 5" in en


def test_fonts_are_embedded():
    """Nothing depends on fonts installed on the machine: every font is an embedded TrueType."""
    reader = read(render_pdf(load_layout("harvest-dice-advanced"), lang="fr"))
    fonts = {}

    def collect(resources):
        resources = resources.get_object()
        for name, font in (resources.get("/Font") or {}).items():
            fonts[name] = font.get_object()
        for x in (resources.get("/XObject") or {}).values():
            x = x.get_object()
            if "/Resources" in x:
                collect(x["/Resources"])

    collect(reader.pages[0]["/Resources"])
    assert fonts
    for name, font in fonts.items():
        descriptor = font.get("/FontDescriptor")
        assert descriptor is not None, f"{name} ({font.get('/BaseFont')}) is not embedded"
        assert "/FontFile2" in descriptor.get_object(), name
        assert "DejaVu" in font["/BaseFont"]


def test_no_break_spaces_keep_words_together():
    from sheetgen import text as fonts

    text = "Fin de partie\u00a0: on finit la manche"
    narrow = fonts.width("Fin de partie", "sans", 8) + 2
    lines = fonts.wrap(text, "sans", 8, narrow)
    assert lines[0] == "Fin de"
    assert lines[1].startswith("partie\u00a0:")
    assert fonts.wrap("a  b\tc", "sans", 8, 300) == ["a b c"]

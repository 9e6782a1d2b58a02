"""Behavioural tests for sheetgen.icons."""

import io
import itertools
import math

import pytest
from PIL import ImageChops
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from sheetgen.icons import ICON_NAMES, draw_icon, icon_exists

pdfium = pytest.importorskip("pypdfium2")

REQUIRED = {
    # Harvest Dice
    "carrot",
    "salad",
    "tomato",
    "pig",
    "die",
    # Imperial Settlers
    "stone",
    "wood",
    "food",
    "gold",
    "worker",
    "favor",
    "wall",
    "house",
    "granary",
    "bridge",
    "field",
    "points",
    "architect",
    "building",
    "blueprint",
    # River Valley Glassworks
    "glass",
    "overflow",
    "river",
    # Bosk
    "tree",
    "leaf",
    "squirrel",
    "sun",
    "snowflake",
    "wind",
    # Plante Bataille
    "cabbage",
    "corn",
    "card",
    "wheelbarrow",
    "basket",
    "storm",
    # Generic
    "trophy",
    "crown",
    "pencil",
}

PAGE = 300  # page side, points (= pixels at scale 1)
X0 = Y0 = 100  # icon square's bottom-left corner, points
SIZE = 100  # icon side, points
TOL = 2  # anti-aliasing tolerance, pixels


def _canvas(size=(PAGE, PAGE)):
    return Canvas(io.BytesIO(), pagesize=size, invariant=1)


def _render_pages(draw_page_fns):
    """Draw one page per callable, return a list of PIL RGB images (1 px = 1 pt)."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(PAGE, PAGE), invariant=1)
    for fn in draw_page_fns:
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, PAGE, PAGE, stroke=0, fill=1)
        fn(c)
        c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        images = []
        for i in range(len(pdf)):
            page = pdf[i]
            images.append(page.render(scale=1).to_pil().convert("RGB"))
            page.close()
        return images
    finally:
        pdf.close()


def _ink_bbox(img, threshold=245):
    """Bounding box (left, top, right, bottom) of non-white pixels, or None."""
    grey = img.convert("L").point(lambda v: 255 if v < threshold else 0)
    return grey.getbbox()


@pytest.fixture(scope="module")
def rendered():
    def page_for(name):
        return lambda c: draw_icon(c, name, X0, Y0, SIZE)

    return dict(zip(ICON_NAMES, _render_pages([page_for(n) for n in ICON_NAMES])))


def test_names_sorted_unique_and_complete():
    assert list(ICON_NAMES) == sorted(set(ICON_NAMES))
    assert REQUIRED <= set(ICON_NAMES)
    assert all(icon_exists(n) for n in ICON_NAMES)
    assert not icon_exists("no-such-icon")
    assert not icon_exists("")


@pytest.mark.parametrize("name", ICON_NAMES)
def test_every_icon_draws_at_all_print_sizes(name):
    c = _canvas()
    for size in (11.3, 22.7, 56.7, 100):  # 4 mm, 8 mm, 20 mm, 100 pt
        draw_icon(c, name, 10, 10, size)
        draw_icon(c, name, 10, 10, size, color="#7b3fa0")
    c.showPage()
    c.save()


def test_unknown_name_raises_keyerror_without_touching_canvas():
    c = _canvas()
    before = list(c._code)
    with pytest.raises(KeyError) as exc:
        draw_icon(c, "dragon", 0, 0, 50)
    assert exc.value.args[0] == "dragon"
    assert list(c._code) == before


@pytest.mark.parametrize("name", ICON_NAMES)
def test_graphics_state_is_restored(name):
    c = _canvas()
    c.setFillColor(HexColor("#123456"))
    c.setStrokeColor(HexColor("#654321"))
    c.setLineWidth(3.25)
    c.setLineCap(0)
    c.setLineJoin(0)
    c.setDash([2, 1])
    c.setFont("Helvetica", 9)
    before = (
        c._fillColorObj,
        c._strokeColorObj,
        c._lineWidth,
        c._lineCap,
        c._lineJoin,
        c._lineDash,
        c._fontname,
        c._fontsize,
    )
    ops_before = len(c._code)
    draw_icon(c, name, 20, 30, 40, color="#ff0000")
    after = (
        c._fillColorObj,
        c._strokeColorObj,
        c._lineWidth,
        c._lineCap,
        c._lineJoin,
        c._lineDash,
        c._fontname,
        c._fontsize,
    )
    assert after == before
    emitted = " ".join(c._code[ops_before:]).split()
    assert emitted.count("q") == emitted.count("Q") >= 1
    assert emitted[0] == "q" and emitted[-1] == "Q"


@pytest.mark.parametrize("name", ICON_NAMES)
def test_icon_stays_inside_its_square_and_is_not_empty(rendered, name):
    img = rendered[name]
    bbox = _ink_bbox(img)
    assert bbox is not None, f"{name} drew nothing"
    left, top, right, bottom = bbox  # right/bottom are exclusive
    # PDF y=100..200 maps to pixel rows 100..200 on a 300 pt page.
    lo, hi = X0 - TOL, X0 + SIZE + TOL
    assert lo <= left and right <= hi, f"{name} spills horizontally: {bbox}"
    assert lo <= top and bottom <= hi, f"{name} spills vertically: {bbox}"
    # a real pictogram, not a speck: it covers a good part of its square
    assert (right - left) >= SIZE * 0.6 or (bottom - top) >= SIZE * 0.6, bbox


def test_glass_honours_colour_and_others_ignore_it():
    def page(name, color):
        return lambda c: draw_icon(c, name, X0, Y0, SIZE, color=color)

    default, red, tree_plain, tree_red = _render_pages(
        [page("glass", None), page("glass", "#e02020"), page("tree", None), page("tree", "#e02020")]
    )

    def reddish(img):
        r, g, b = img.split()
        mask = ImageChops.multiply(
            r.point(lambda v: 255 if v > 150 else 0),
            ImageChops.multiply(g.point(lambda v: 255 if v < 110 else 0), b.point(lambda v: 255 if v < 110 else 0)),
        )
        return mask.histogram()[255]

    assert reddish(default) == 0
    assert reddish(red) > 500
    assert tree_plain.tobytes() == tree_red.tobytes()


def test_zero_size_draws_nothing():
    c = _canvas()
    n = len(c._code)
    draw_icon(c, "tree", 0, 0, 0)
    assert len(c._code) == n


@pytest.mark.parametrize("name", ["stone", "wood", "food", "glass", "tree"])
def test_tint_mixes_every_colour_and_the_outline_towards_white(name):
    # a dropout icon (sheetgen.layout.display.dropout) is the icon with each colour
    # mixed `tint` of the way towards white: on white paper, every pixel (its anti-aliased
    # edges and overlapping shapes included) is that far lighter than the plain icon's
    plain, tinted = _render_pages(
        [lambda c: draw_icon(c, name, X0, Y0, SIZE), lambda c: draw_icon(c, name, X0, Y0, SIZE, tint=0.6)]
    )
    np = pytest.importorskip("numpy")
    a, b = (255 - np.asarray(img, dtype=float) for img in (plain, tinted))  # darkness, per channel
    assert np.abs(b - 0.4 * a).max() <= 3  # 8-bit colours, rounded twice
    assert a.min(axis=2).max() > 180  # the plain icon's dark outline...
    assert b.min(axis=2).max() < 0.4 * 255 + 3  # ...prints light under a tint


def test_a_tinted_icon_is_not_replayed_as_the_plain_one():
    # drawing an icon again replays its operators (icons._drawn): the tint is part of the key
    c = _canvas()
    drawn = []
    for tint in (0.0, 0.6, 0.0, 0.6):
        start = len(c._code)
        draw_icon(c, "stone", 0, 0, 20, tint=tint)
        drawn.append(c._code[start:])
    assert drawn[0] != drawn[1]
    assert drawn[2] == drawn[0] and drawn[3] == drawn[1]


RESOURCES = ("stone", "wood", "food", "gold")


def _outline(name: str, grey: bool):
    """The silhouette of a resource icon as a cost prints it (dropout tint, in a tick box),
    in colour or toner saving (--grey): its outer contour, at 100 pt."""
    cv2 = pytest.importorskip("cv2")
    np = pytest.importorskip("numpy")
    from sheetgen.layout.display import DROPOUT
    from sheetgen.render.grey import GreyCanvas

    buf = io.BytesIO()
    c = (GreyCanvas if grey else Canvas)(buf, pagesize=(120, 120), invariant=1)
    c.setFillColorRGB(1, 1, 1)
    c.rect(0, 0, 120, 120, stroke=0, fill=1)
    draw_icon(c, name, 10, 10, 100, None, DROPOUT)
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        img = np.asarray(pdf[0].render(scale=1).to_pil().convert("L"))
    finally:
        pdf.close()
    contours, _ = cv2.findContours((img < 250).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _shape(contour) -> tuple[float, float]:
    """(roundness, elongation) of a silhouette: 4πA/P², 1 for a disc; the long side of its
    smallest enclosing rectangle over the short side."""
    import cv2

    area, perimeter = cv2.contourArea(contour), cv2.arcLength(contour, True)
    w, h = cv2.minAreaRect(contour)[1]
    return 4 * math.pi * area / perimeter**2, max(w, h) / min(w, h)


@pytest.mark.parametrize("grey", [False, True])
def test_the_resources_are_told_apart_by_their_shape(grey):
    """Stone, wood, food and gold print pale (dropout) inside the boxes that cost them, and
    all grey with --grey: their outlines differ, not only their colours. The stone is a
    peaked rock, the wood one long log across, the food an upright sheaf, the gold a round
    coin: every two differ in roundness by 0.15 or in elongation by 0.4."""
    shapes = {name: _shape(_outline(name, grey)) for name in RESOURCES}
    for a, b in itertools.combinations(RESOURCES, 2):
        (ra, ea), (rb, eb) = shapes[a], shapes[b]
        assert abs(ra - rb) >= 0.15 or abs(ea - eb) >= 0.4, (a, b, shapes[a], shapes[b])
    assert shapes["gold"][0] > 0.85 and shapes["wood"][1] > 1.8

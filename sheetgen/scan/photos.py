"""The images `sheetgen scan` is given: a photo (JPEG, PNG, WebP, TIFF; its EXIF
orientation applied), or every page of a scanner's PDF (drawn as a viewer shows it) or of
its multi-page TIFF. Their sizes are bounded before anything is decoded.

OpenCV and numpy are the optional extra `scan` (`pip install 'rollwrite[scan]'`):
`need_cv` imports them, or says which extra to install. No module of sheetgen.scan imports them at its top.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

from sheetgen.errors import RecordError, UsageError
from sheetgen.scan.tuning import BLANK_SIDE, PDF_PAGES

MAX_PDF_PAGES = 24  # pages read from one PDF at most: a game's sheets (12 players, 2 pages each)
MAX_PDF_PIXELS = 16e6  # a PDF page is drawn at most this large (at its resolution: `tuning.PdfPages`)
MAX_PDF_TOTAL = 200e6  # pixels of all the pages of one PDF (24 A4 pages at 250 dpi: 146e6)
MAX_PHOTO_PIXELS = 110e6  # an image's pixels at most (a 108-megapixel phone's full-size photo), known before decoding
MAX_PHOTO_SIDE = 30_000  # pixels along either side at most (a strip of a few pixels is no sheet)
# an image of more pixels is read reduced by a whole factor to this many or fewer: the page is
# read at blank.PPMM (8 px/mm), and 24 MP still gives an A4 sheet over twice that, while a
# 108 MP photo read whole needs several copies of 324 MB
READ_PIXELS = 24e6
# what a PDF's streams other than images (page contents, fonts, object and cross-reference
# streams) may inflate to, each and all together; a scanner's PDF holds a few kB of them, and
# pdfium would inflate a "zip bomb" stream whole before drawing a page
MAX_PDF_STREAM = 64 * 1024 * 1024
MAX_PDF_STREAMS = 256 * 1024 * 1024


def need_cv():
    """(cv2, numpy), or the UsageError that names the extra to install."""
    try:
        import cv2
        import numpy
    except ImportError:
        raise UsageError(
            "sheetgen scan needs OpenCV and numpy: pip install 'rollwrite[scan]' (from a clone: pip install '.[scan]')"
        ) from None
    return cv2, numpy


def blank_paper(photo) -> bool:
    """The image shows bare paper: nothing printed or written on it (see `tuning.BlankSide`)."""
    cv2, np = need_cv()
    gray = cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2GRAY)
    scale = min(1.0, 1000 / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    h, w = small.shape
    my, mx = round(h * BLANK_SIDE.edge), round(w * BLANK_SIDE.edge)
    inner = small[my : h - my, mx : w - mx]
    if not inner.size:
        return False
    paper = float(np.percentile(inner, 95))
    return float((inner < paper - BLANK_SIDE.levels).mean()) < BLANK_SIDE.dark


@dataclass
class Photo:
    name: str  # the file name, and the page number of a scanned PDF
    stem: str  # the player's name by default
    rgb: object  # numpy array, H x W x 3
    pdf: str = ""  # a PDF's page: the PDF's file name without its suffix (its pages are paired in turn)
    path: str = ""  # the file as given, and its page (two files of one name in two folders told apart)


def load_photos(path: str) -> list[Photo]:
    """The images in a file: a photo (EXIF orientation applied), or every page image of a PDF
    or a multi-page TIFF."""
    cv2, np = need_cv()
    from PIL import Image, UnidentifiedImageError

    from sheetgen.fileio import MAX_PDF_INPUT, read_input

    try:
        data = read_input(path, MAX_PDF_INPUT)
    except Exception as exc:  # noqa: BLE001 - a missing or unreadable file: one line
        raise RecordError(getattr(exc, "problems", None) or f"{path}: cannot read the file ({exc})") from None
    stem = Path(path).stem
    if data[:1024].lstrip().startswith(b"%PDF-"):
        return _pdf_photos(path, stem, data)
    too_large = (
        f"{path}: an image of over {MAX_PHOTO_PIXELS / 1e6:.0f} megapixels; sheetgen reads no larger: make it smaller"
    )
    try:
        # Pillow's warnings (its own bomb warning over 89 megapixels: MAX_PHOTO_PIXELS is ours; a
        # damaged EXIF block) are not sheetgen's to print: what matters is said as a RecordError
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            im = Image.open(io.BytesIO(data))
            with im:
                _check_size(path, im.width, im.height, too_large)  # (the header's size: nothing decoded yet)
                frames = getattr(im, "n_frames", 1) if im.format == "TIFF" else 1
                if frames > 1:  # a scanner's multi-page TIFF: its pages as a PDF's (not a phone's MPO previews)
                    return _tiff_pages(np, path, stem, im, frames)
                return [Photo(Path(path).name, stem, _rgb(np, im), path=path)]
    except Image.DecompressionBombError:  # (Pillow's own, over twice its limit, on opening)
        raise RecordError(too_large) from None
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise RecordError(f"{path}: not an image or a PDF that sheetgen can read ({exc.__class__.__name__})") from None


def _check_size(path: str, width: int, height: int, too_large: str) -> None:
    """Refuse, before decoding, an image too large in all or along a side."""
    if width * height > MAX_PHOTO_PIXELS:
        raise RecordError(too_large)
    if max(width, height) > MAX_PHOTO_SIDE:
        raise RecordError(
            f"{path}: an image of {width} x {height} pixels; sheetgen reads images of at most "
            f"{MAX_PHOTO_SIDE:,} pixels a side"
        )


def _rgb(np, im):
    """An opened image as RGB uint8: reduced to READ_PIXELS at most, its EXIF orientation
    applied, transparency on white paper."""
    import math

    from PIL import Image, ImageOps

    factor = math.ceil(math.sqrt(im.width * im.height / READ_PIXELS))
    if factor > 1:
        if im.format == "JPEG":  # decoded at a reduced scale straight away
            im.draft("RGB", (im.width // factor, im.height // factor))
        if im.width * im.height > READ_PIXELS:
            if im.mode not in ("L", "RGB", "RGBA", "LA", "I", "F"):
                im = im.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB")
            im = im.reduce(math.ceil(math.sqrt(im.width * im.height / READ_PIXELS)))
    im = ImageOps.exif_transpose(im)
    if "A" in im.getbands() or "transparency" in im.info:  # transparent: on white paper
        im = Image.alpha_composite(Image.new("RGBA", im.size, "white"), im.convert("RGBA"))
    return np.asarray(_eight_bits(np, im).convert("RGB"))


def _tiff_pages(np, path: str, stem: str, im, frames: int) -> list[Photo]:
    """Every page of a multi-page TIFF, named and paired as a PDF's pages are; as bounded."""
    if frames > MAX_PDF_PAGES:
        raise RecordError(f"{path}: {frames} pages; sheetgen reads at most {MAX_PDF_PAGES} sheets from one file")
    out, total = [], 0.0
    for n in range(frames):
        im.seek(n)
        total += im.width * im.height
        if im.width * im.height > MAX_PHOTO_PIXELS or max(im.size) > MAX_PHOTO_SIDE or total > MAX_PDF_TOTAL:
            raise RecordError(f"{path}: its pages are too large to read ({MAX_PDF_TOTAL / 1e6:.0f} megapixels at most)")
        out.append(_page(path, stem, n, _rgb(np, im)))
    return out


def _page(path: str, stem: str, n: int, rgb) -> Photo:
    """Page `n` (from 0) of a PDF or multi-page TIFF: the player `<stem>-<n + 1>`, paired in turn."""
    return Photo(f"{Path(path).name} page {n + 1}", f"{stem}-{n + 1}", rgb, stem, f"{path} page {n + 1}")


def _eight_bits(np, im):
    """An image of 16-bit (or 32-bit, or float) grey levels as 8-bit ones: a scanner's
    16-bit PNG. (Pillow's own conversion clips every level over 255 to white.)"""
    from PIL import Image

    if im.mode not in ("F", "I") and not im.mode.startswith("I;16"):
        return im
    levels = np.asarray(im, dtype=np.float64)
    top = 1.0 if im.mode == "F" and levels.max() <= 1.0 else 255.0 if levels.max() <= 255 else 65535.0
    return Image.fromarray(np.clip(levels * (255.0 / top), 0, 255).astype(np.uint8), "L")


_STREAM = re.compile(rb"stream\r?\n")


def _streams_within_bounds(path: str, data: bytes) -> None:
    """Refuse a PDF whose streams other than images inflate past MAX_PDF_STREAM each or
    MAX_PDF_STREAMS in all, before pdfium inflates them; counted chunk by chunk, never held.
    (An image is decoded by pdfium to the size its dictionary declares, which the page's
    pixel bounds keep in check.)"""
    import zlib

    total = 0
    for found in _STREAM.finditer(data):
        start = found.end()
        head = data[max(0, found.start() - 2048) : found.start()]
        head = head[head.rfind(b"obj") + 1 :] if b"obj" in head else head
        if not head.rstrip().endswith(b">>") or b"/Image" in head or b"/Flate" not in head:
            continue  # not a stream's start, an image, or a stream stored another way
        end = data.find(b"endstream", start)
        body = memoryview(data)[start : end if end >= 0 else len(data)]
        inflate, size = zlib.decompressobj(), 0
        try:
            chunk = inflate.decompress(body, 1 << 20)
            while chunk:
                size += len(chunk)
                if size > MAX_PDF_STREAM or total + size > MAX_PDF_STREAMS:
                    raise RecordError(
                        f"{path}: a stream of the PDF inflates to more than {MAX_PDF_STREAM // (1 << 20)} MB "
                        "(or all of them together to more than "
                        f"{MAX_PDF_STREAMS // (1 << 20)} MB): not a page sheetgen reads"
                    )
                chunk = inflate.decompress(inflate.unconsumed_tail, 1 << 20)
        except zlib.error:
            pass  # damaged data: pdfium says what it makes of it
        total += size


def _pdf_photos(path: str, stem: str, data: bytes) -> list[Photo]:
    """Every page of a PDF as a picture, rendered by pdfium as a viewer shows it: a
    scanner's page image (at its own resolution, within `tuning.PdfPages`; whether it is stored
    whole, in strips or as a fax or JBIG2 image, turned or not), or a sheet marked in a PDF app
    (its drawings and ticked form fields); MAX_PDF_TOTAL pixels in all."""
    import math

    import numpy as np
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    _streams_within_bounds(path, data)
    try:
        pdf = pypdfium2.PdfDocument(data)
        pdf.init_forms()  # ticked form fields are drawn too
    except Exception as exc:  # noqa: BLE001 - pdfium refuses a damaged file in several ways
        raise RecordError(f"{path}: not a readable PDF ({exc.__class__.__name__})") from None
    out = []
    try:
        if len(pdf) > MAX_PDF_PAGES:
            raise RecordError(f"{path}: {len(pdf)} pages; sheetgen reads at most {MAX_PDF_PAGES} sheets from one PDF")
        total = 0.0
        for n in range(len(pdf)):
            page = pdf[n]
            dpi = PDF_PAGES.plain
            seen = []
            for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
                left, bottom, right, top = image.get_bounds()
                seen.append(max(image.get_px_size()) / max(right - left, top - bottom, 1.0) * 72)
            if seen:
                dpi = min(max(max(seen), PDF_PAGES.least), PDF_PAGES.most)
            width, height = page.get_size()
            scale = min(dpi / 72, math.sqrt(MAX_PDF_PIXELS / max(width * height, 1.0)))
            total += width * height * scale * scale
            if total > MAX_PDF_TOTAL:
                raise RecordError(
                    f"{path}: its pages are too large to read ({MAX_PDF_TOTAL / 1e6:.0f} megapixels at most)"
                )
            picture = page.render(scale=scale, may_draw_forms=True).to_pil().convert("RGB")
            out.append(_page(path, stem, n, np.asarray(picture)))
    except RecordError:
        raise
    except Exception as exc:  # noqa: BLE001 - a page pdfium cannot draw
        raise RecordError(f"{path}: not a readable PDF ({exc.__class__.__name__})") from None
    finally:
        pdf.close()
    return out

"""Fonts: DejaVu Sans when the system has it, else Pillow's built-in font; IPAexGothic for what DejaVu cannot draw.

DejaVu is looked up once under /usr/share/fonts (any sub-directory), so the
same picture comes out on every machine that has the usual package.

Japanese (and any other text with characters DejaVu lacks) is drawn per string with the bundled IPAexGothic
(``render/fonts/ipaexg.ttf``, IPA Font License): a string with one such character is drawn and measured wholly in
it, so a line never mixes two typefaces, while ids, numbers and money in their own strings keep DejaVu. A text
DejaVu covers is drawn exactly as before, so English pictures do not change. IPAexGothic has one weight: bold
styles are drawn with it at the same size and a thin outline in the text's own colour, so headings keep their weight.
"""

from __future__ import annotations

import math
import os
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FONT_DIRS = ("/usr/share/fonts",)

_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}


@cache
def _find(filename: str) -> str | None:
    for root_dir in FONT_DIRS:
        if not os.path.isdir(root_dir):
            continue
        # sorted walk: the first match must not depend on directory order
        for dirpath, dirnames, filenames in os.walk(root_dir):
            dirnames.sort()
            if filename in filenames:
                return os.path.join(dirpath, filename)
    return None


def font_path(style: str = "regular") -> str | None:
    """Path of the DejaVu file for a style, or None if it is not installed."""
    path = _find(_FILES[style])
    if path is None and style.startswith("condensed"):
        path = _find(_FILES["bold" if style.endswith("bold") else "regular"])
    if path is None and style != "regular":
        path = _find(_FILES["regular"])
    return path


CJK_FONT = Path(__file__).parent / "fonts" / "ipaexg.ttf"
_MISSING = "\U0010fffd"  # a private-use character no font here has: what DejaVu draws for a glyph it lacks


@cache
def font(size: int, style: str = "regular") -> Font:
    """A font of ``size`` pixels; style is regular, bold, condensed or condensed-bold."""
    size = max(int(size), 1)
    path = font_path(style)
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


@cache
def cjk_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled IPAexGothic at ``size`` pixels."""
    return ImageFont.truetype(str(CJK_FONT), max(int(size), 1))


@cache
def _dejavu_has(ch: str) -> bool:
    # DejaVu draws a missing glyph as its .notdef box: a character whose mask is that box is not in the font
    f = font(32)
    if not isinstance(f, ImageFont.FreeTypeFont):
        return ord(ch) < 128
    mask, missing = f.getmask(ch), f.getmask(_MISSING)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def needs_cjk(text: str) -> bool:
    """Whether ``text`` has a character DejaVu cannot draw (Japanese, say)."""
    return not text.isascii() and not all(_dejavu_has(ch) for ch in set(text) if not ch.isspace())


def face(f: Font, text: str) -> Font:
    """The font to draw ``text`` with: ``f``, or IPAexGothic at its size when DejaVu lacks a character of it."""
    if isinstance(f, ImageFont.FreeTypeFont) and needs_cjk(text):
        return cjk_font(f.size)
    return f


def _bold_stroke(f: Font, used: Font) -> int:
    """The outline that stands in for bold when a bold style gave way to IPAexGothic, which has one weight."""
    if used is f or not isinstance(f, ImageFont.FreeTypeFont) or "Bold" not in str(f.path):
        return 0
    return max(1, round(f.size / 32))


def text_size(f: Font, text: str) -> tuple[int, int]:
    """Width and height of ``text`` as drawn with anchor 'mm' (ink box of the line)."""
    used = face(f, text)
    stroke = _bold_stroke(f, used)
    x0, y0, x1, y1 = used.getbbox(text, stroke_width=stroke) if stroke else used.getbbox(text)
    return int(x1 - x0), int(y1 - y0)


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw`` that draws each text with the font that has its glyphs (see `face`)."""

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None,  # type: ignore[override]
             *args: Any, **kwargs: Any) -> None:
        if isinstance(text, str) and font is not None:
            used = face(font, text)
            stroke = _bold_stroke(font, used)
            if stroke and not kwargs.get("stroke_width"):
                kwargs["stroke_width"], kwargs["stroke_fill"] = stroke, fill
            font = used
        super().text(xy, text, fill, font, *args, **kwargs)


_MASKS: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}
_MASKS_MAX = 4096  # a map has a few hundred labels; a mask is a few KB


class CachedDraw(Draw):
    """``ImageDraw`` whose single-line text keeps each rasterised label for the next picture.

    A map draws the same few hundred labels (hex ids, names, values) every time; rendering their glyphs was a
    quarter of a map's cost. The cached mask is the one Pillow would render (same text, font, anchor, ink and
    sub-pixel start), drawn the way ``ImageDraw.text`` draws it, so the picture is identical.
    """

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,  # type: ignore[override]
             anchor: str | None = None, *args: Any, stroke_width: float = 0, stroke_fill: Any = None,
             **kwargs: Any) -> None:
        if isinstance(text, str) and font is not None:
            used = face(font, text)
            stroke = _bold_stroke(font, used)
            if stroke and not stroke_width:
                stroke_width, stroke_fill = stroke, fill
            font = used
        if args or kwargs or not isinstance(text, str) or "\n" in text or \
                not isinstance(font, ImageFont.FreeTypeFont) or self.fontmode != "L":
            super().text(xy, text, fill, font, anchor, *args, stroke_width=stroke_width, stroke_fill=stroke_fill,
                         **kwargs)
            return
        ink = self._ink(fill)
        if ink is None:
            return
        if stroke_width:
            stroke_ink = ink if stroke_fill is None else self._ink(stroke_fill)
            self._label(xy, text, font, anchor, stroke_ink, stroke_width)
            if ink == stroke_ink:
                return
        self._label(xy, text, font, anchor, ink, 0)

    def _ink(self, fill: Any) -> Any:
        ink, fill_ink = self._getink(fill)
        return fill_ink if ink is None else ink

    def _label(self, xy: tuple[float, float], text: str, font: ImageFont.FreeTypeFont, anchor: str | None, ink: Any,
               stroke_width: float) -> None:
        anchor = anchor or "la"
        x, y = xy
        start = (math.modf(x)[0], math.modf(y)[0])
        key = (font, text, anchor, ink, start, stroke_width)
        hit = _MASKS.get(key)
        if hit is None:
            if len(_MASKS) >= _MASKS_MAX:
                _MASKS.clear()
            hit = font.getmask2(text, "L", None, None, None, stroke_width, anchor, ink, start, stroke_filled=True)
            _MASKS[key] = hit
        mask, offset = hit
        self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)

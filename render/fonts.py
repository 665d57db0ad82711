"""Fonts: DejaVu Sans when the system has it, else Pillow's built-in font.

DejaVu is looked up once under /usr/share/fonts (any sub-directory), so the
same picture comes out on every machine that has the usual package.
"""

from __future__ import annotations

import os
from functools import cache

from PIL import ImageFont

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


@cache
def font(size: int, style: str = "regular") -> Font:
    """A font of ``size`` pixels; style is regular, bold, condensed or condensed-bold."""
    size = max(int(size), 1)
    path = font_path(style)
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def text_size(f: Font, text: str) -> tuple[int, int]:
    """Width and height of ``text`` as drawn with anchor 'mm' (ink box of the line)."""
    x0, y0, x1, y1 = f.getbbox(text)
    return int(x1 - x0), int(y1 - y0)

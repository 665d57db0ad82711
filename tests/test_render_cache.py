"""Labels drawn through the mask cache (render.fonts.CachedDraw) are the pixels Pillow's own ``text`` draws."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import CachedDraw, font

LABELS = [
    ((10.0, 12.5), "B23", {"anchor": "mm"}),
    ((40.3, 30.7), "Tallahassee", {"anchor": "lm", "stroke_width": 2, "stroke_fill": (255, 255, 255)}),
    ((70.6, 60.2), "$40", {"anchor": "mm", "stroke_width": 1}),
    ((5.0, 90.9), "20/40", {}),
    ((100.25, 20.75), "line one\nline two", {"anchor": "la"}),  # several lines: Pillow's own path
]


def draw(make: type[ImageDraw.ImageDraw], twice: bool) -> bytes:
    im = Image.new("RGB", (200, 120), (205, 222, 232))
    d = make(im)
    for _ in range(2 if twice else 1):
        for xy, text, opts in LABELS:
            d.text(xy, text, fill=(30, 30, 30), font=font(14, "bold"), **opts)  # type: ignore[arg-type]
    return im.tobytes()


def test_cached_labels_are_pillows_pixels() -> None:
    assert draw(CachedDraw, twice=False) == draw(ImageDraw.ImageDraw, twice=False)
    # the second drawing comes from the cache: still the same pixels
    assert draw(CachedDraw, twice=True) == draw(ImageDraw.ImageDraw, twice=True)

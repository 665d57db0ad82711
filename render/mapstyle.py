"""The map's look: colours, the supersampling factor, and the sizes of its parts in unit space."""

from __future__ import annotations

from PIL import ImageColor

from .fonts import font_path

SS = 2  # supersampling factor
LONG_SIDE = 1600  # target pixels on the long side of the picture
MARGIN = 14
HEADER = 34

BACKGROUND = (205, 222, 232)  # sea / off the map
HEX_FILL = {
    "white": (240, 233, 212),
    "yellow": (252, 226, 92),
    "green": (124, 193, 104),
    "brown": (201, 142, 90),
    "gray": (190, 190, 190),
    "red": (214, 72, 62),
    "blue": (146, 196, 230),
}
BLOCKED_FILL = (160, 160, 160)  # gray hex with nothing on it: no track may enter
OUTLINE = (118, 118, 118)
TRACK = (20, 20, 20)
BORDER = (24, 44, 84)
ID_TEXT = (90, 90, 90)
FALLBACK_CORP = ("#808080", "#ffffff")
# One colour per train, chosen to stay apart from each other and from the tile colours.
ROUTE_COLORS = ("#e6194b", "#1565c0", "#00a86b", "#ff8c00", "#9c27b0", "#00bcd4", "#795548", "#f06292")
ROUTE_ALPHA = 165

# Unit-space sizes (centre-to-corner = 1).
CITY_R = 0.25
TRACK_W = 0.13
TOWN_BAR = (0.38, 0.12)
TOWN_DOT = 0.11
REV_R = 0.155
EXTRA_R = 0.15
ID_SIZE = 0.165
NAME_SIZE = 0.2
LABEL_SIZE = 0.34
REV_SIZE = 0.19
COST_SIZE = 0.2
ROUTE_W = 0.34
OFF_CELL = (0.5, 0.36)
LEGEND_ROW = 32  # pixels per legend row
HOTEL_HALF = 0.13
OLD_VALUE = (110, 110, 110)  # the ink of a value not in use now (an off-board's or a city's other phase value)
MARK_SIZE = 0.24  # a printed symbol's box (18AL's coal-field pentagon)
MARK_INK = (62, 44, 32)  # coal, brown-black: no text or track ink is near it

# Known bonus markers: kind -> badge text with DejaVu (which has an anchor), and without it.
# Other kinds show their own name (in English: give each kind a badge here).
MARKER_TEXT = {"port": ("⚓+20", "P+20"), "coal": ("⚒+10", "C+10")}  # 18FL's port, 18AL's coal field


def marker_text(kind: str) -> str:
    texts = MARKER_TEXT.get(kind)
    if texts is None:
        return kind
    return texts[0] if font_path("bold") is not None else texts[1]


def _rgb(color: str | tuple[int, int, int]) -> tuple[int, int, int]:
    if isinstance(color, tuple):
        return color
    c = ImageColor.getrgb(color)
    return (c[0], c[1], c[2])


HIGHLIGHT = (224, 0, 150)  # the operating corporation's buildable hexes: a hue no tile or terrain uses

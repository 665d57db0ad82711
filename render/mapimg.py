"""The map picture: board state (and optionally chosen routes) -> PNG bytes.

Each hex is planned once in unit space (see render.geometry): where its
cities and towns sit, the polyline of every track path, and where its
small print goes (name, label, revenue, terrain cost, bonus badges) so that
nothing covers the track. Plans are cached by what determines them, so a
board that changes one tile per turn re-plans one hex.

The picture is drawn on a canvas ``SS`` times larger and reduced at the end:
Pillow draws lines and circles without anti-aliasing, and reducing a
supersampled canvas is the cheapest way to smooth them.

This module puts the picture together (render_map); its parts: mapstyle (colours and sizes), hexplan (track
planning on a hex), smallprint (placing a hex's small print; the plan cache), mapview (which hexes a picture
shows, where they sit), mapdraw (the board's layers), maplegend (header and legend), staticlayer (the printed
board drawn once and reused), rotations (the rotation picture), png (encoding).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.board import Board
from engine.messages import Catalog, M, Text, render

from .fonts import Font, font, text_size
from .hexplan import Rect, hex_layout_of, plan_track
from .mapdraw import Home, RouteDraw, _Canvas, _draw_layers, dead_ends
from .maplegend import _draw_header, _draw_legend, _legend_rows
from .mapstyle import HEADER, HEX_FILL, HIGHLIGHT, LABEL_SIZE, LEGEND_ROW, MARGIN, ROUTE_COLORS, SS, TRACK
from .mapview import focus_hexes, map_geometry, region_hexes
from .png import encode_png
from .rotations import render_rotations
from .smallprint import plan_hex
from .staticlayer import _over_static

# What other modules import from here (the map picture's parts live in the modules above).
__all__ = [
    "HEX_FILL", "HIGHLIGHT", "LABEL_SIZE", "ROUTE_COLORS", "STATIC_LAYER", "TRACK", "Rect", "RouteDraw", "dead_ends",
    "encode_png", "focus_hexes", "hex_layout_of", "map_geometry", "plan_hex", "plan_track", "region_hexes",
    "render_map", "render_rotations",
]

STATIC_LAYER = True  # off: every picture is drawn whole (the tests compare the two)


def _values_by_phase(board: Board, hexes: list[str]) -> bool:
    """Whether any of ``hexes`` prints values by phase (an off-board's boxes, a city's "40/50")."""
    for h in hexes:
        lay = hex_layout_of(board, h)
        if lay.offboard is not None and len(lay.offboard.revenue) > 1:
            return True
        if any(isinstance(c.revenue, dict) and len(c.revenue) > 1 for c in lay.cities):
            return True
    return False


def render_map(board: Board, *, late: bool = False, routes: list[RouteDraw] | None = None,
               corp_colors: dict[str, tuple[str, str]] | None = None, title_text: Text = "",
               hexes: list[str] | None = None, highlight: set[str] | None = None,
               homes: dict[str, Home] | None = None, note: Text | None = None,
               catalog: Catalog | None = None) -> bytes:
    """The board as PNG bytes; with ``routes``, each train's route in its own colour and a legend.

    ``hexes`` limits the picture to those hexes (a crop or a region, drawn larger); ``highlight`` outlines
    hexes (where the operating corporation may build); ``homes`` are the home circles still kept for
    corporations that have not operated (default: corporations with no token on the board), drawn as rings
    whether or not the title puts the token down early; ``note`` replaces the off-board note in the header.
    Texts are drawn in the language of ``catalog`` (English without one).
    """
    if corp_colors is None:
        corp_colors = {c.sym: (c.color, c.text_color) for c in board.title.corporations}
    cv = _Canvas(board, corp_colors, late, hexes)
    if homes is not None:
        cv.homes = homes
    routes = list(routes or [])

    legend_rows = _legend_rows(routes, board, catalog) if routes else []
    row_h = LEGEND_ROW
    legend_w = legend_h = 0.0
    legend_at: tuple[float, float] | None = None
    extra_h = 0
    if legend_rows:
        size = round(row_h * 0.6)
        bold = font(size, "bold")
        # a long route (a D-train's dozen stops) would run the legend off the picture, amounts and all: its label
        # gives up stops from its middle until the row fits the width
        room = cv.width - 2 * MARGIN - 44 - 20 - 28
        legend_rows = [(_fit_label(a, bold, room - text_size(bold, b)[0]), b, c) for a, b, c in legend_rows]
        legend_w = max(text_size(bold, a)[0] + text_size(bold, b)[0] for a, b, _ in legend_rows) + 44 + 20 + 28
        legend_h = row_h * len(legend_rows) + 20
        legend_at = cv.free_box(legend_w, legend_h)
        if legend_at is None:
            # no empty corner on this map: a band under it
            extra_h = math.ceil(legend_h) + MARGIN
            legend_at = (MARGIN, cv.height)

    header: Text = title_text or board.title.title
    if board.title.reconstructed:
        # players must know the map is not the published one (18FR-RCE)
        header = M("{title} — reconstructed board, not the published map", title=header)
    if note is None and _values_by_phase(board, hexes if hexes is not None else list(board.hexes)):
        note = M("off-board values: late (brown)") if late else M("off-board values: early (yellow)")
    elif note is None:
        note = ""  # a region with no value that changes with the phase
    header_text, note_text = render(header, catalog), render(note, catalog)

    def draw(d: ImageDraw.ImageDraw, im: Image.Image) -> None:
        d = _draw_layers(cv, d, im, routes, highlight)
        _draw_header(d, cv.width, header_text, note_text)
        if legend_at is not None:
            _draw_legend(d, legend_at[0], legend_at[1], legend_rows, legend_w, row_h)

    if STATIC_LAYER and SS > 1:
        boxes = [(0, 0, cv.width, MARGIN + HEADER)]
        if legend_at is not None:
            boxes.append((legend_at[0] - 4, legend_at[1] - 4, legend_at[0] + legend_w + 4, legend_at[1] + legend_h + 4))
        return encode_png(_over_static(cv, extra_h, late, routes, highlight, boxes, draw))
    im, d = cv.new_image(extra_h)
    draw(d, im)
    return encode_png(im.reduce(SS) if SS > 1 else im)


def _fit_label(label: str, f: Font, room: float) -> str:
    """A route's stops ("A–B–C–D") shortened from the middle ("A–B–…–D") to fit ``room``; at worst cut short."""
    if text_size(f, label)[0] <= room:
        return label
    parts = label.split("–")
    for keep in range(len(parts) - 2, 0, -1):  # the first stops, then "…" and the last
        text = "–".join([*parts[:keep], "…", parts[-1]])
        if text_size(f, text)[0] <= room:
            return text
    while label and text_size(f, label + "…")[0] > room:
        label = label[:-1]
    return label + "…"

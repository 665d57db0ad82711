"""The rotation picture: a hex with a tile laid in each legal rotation, side by side, to choose one from."""

from __future__ import annotations

import copy
import math

from PIL import Image

from engine.board import Board
from engine.messages import Catalog, M, Text, render

from .fonts import Draw, Font, font, text_size
from .mapdraw import _Canvas, _draw_layers
from .mapstyle import HEADER, HIGHLIGHT, MARGIN, OUTLINE, SS, TRACK
from .mapview import region_hexes
from .png import encode_png
from .smallprint import _wrap


def _hex_panel(board: Board, hex_id: str, corp_colors: dict[str, tuple[str, str]], late: bool,
               long_side: int) -> Image.Image:
    """The hex and its neighbours, unreduced, with the hex outlined: one cell of the rotation picture."""
    cv = _Canvas(board, corp_colors, late, region_hexes(board, hex_id, 1), long_side, 0)
    im, d = cv.new_image(0)
    _draw_layers(cv, d, im, None, {hex_id})
    return im


PANEL = 360  # pixels on the long side of one rotation's picture
CAPTION = 62


def render_rotations(board: Board, hex_id: str, tile: str, choices: list[tuple[int, Text, list[int]]], *,
                     corp_colors: dict[str, tuple[str, str]] | None = None, late: bool = False,
                     title_text: Text = "", catalog: Catalog | None = None) -> bytes:
    """The hex with ``tile`` laid in each legal rotation, side by side and numbered, to choose one from.

    ``choices`` are (rotation, caption, city map) with the caption saying where the track goes; the board itself
    is left as it is (each rotation is drawn on a copy of the hex).
    """
    if corp_colors is None:
        corp_colors = {c.sym: (c.color, c.text_color) for c in board.title.corporations}
    panels: list[tuple[Image.Image, int, str]] = []
    for rotation, words, cmap in choices:
        caption = render(words, catalog)
        trial = copy.copy(board)
        trial.hexes = dict(board.hexes)
        trial.hexes[hex_id] = copy.deepcopy(board.hexes[hex_id])
        trial.supply = {k: list(v) for k, v in board.supply.items()}
        trial.place_tile(hex_id, tile, rotation, cmap)
        panels.append((_hex_panel(trial, hex_id, corp_colors, late, PANEL), rotation, caption))
    cols = min(3, max(1, len(panels)))
    rows = math.ceil(len(panels) / cols) if panels else 1
    pw = max((p.width for p, _, _ in panels), default=PANEL * SS)
    ph = max((p.height for p, _, _ in panels), default=PANEL * SS)
    head = HEADER * SS
    cap = CAPTION * SS
    im = Image.new("RGB", (cols * pw, head + rows * (ph + cap)), (255, 255, 255))
    d = Draw(im)
    heading = title_text or M("Tile #{tile} on {hex}: choose a rotation", tile=tile, hex=hex_id)
    d.text((MARGIN * SS, head / 2), render(heading, catalog), font=font(20 * SS, "bold"), fill=TRACK, anchor="lm")
    for i, (panel, rotation, caption) in enumerate(panels):
        r, c = divmod(i, cols)
        x, y = c * pw, head + r * (ph + cap)
        im.paste(panel, (x, y))
        d.rectangle((x, y, x + pw - 1, y + ph + cap - 1), outline=OUTLINE, width=SS)
        badge = f"r{rotation}"
        fb = font(26 * SS, "bold")
        bw = text_size(fb, badge)[0] + 16 * SS
        d.rounded_rectangle((x + 6 * SS, y + 6 * SS, x + 6 * SS + bw, y + 46 * SS), radius=8 * SS, fill=HIGHLIGHT)
        d.text((x + 6 * SS + bw / 2, y + 26 * SS), badge, font=fb, fill=(255, 255, 255), anchor="mm")
        f = font(17 * SS, "bold")
        lines = _wrap(caption, f, pw - 16 * SS)
        for k, line in enumerate(lines[:2]):
            fk = _fit_regular(line, pw - 16 * SS, 17 * SS)
            d.text((x + pw / 2, y + ph + cap / 2 + (k - (min(2, len(lines)) - 1) / 2) * 24 * SS), line, font=fk,
                   fill=TRACK, anchor="mm")
    return encode_png(im.reduce(SS) if SS > 1 else im)


def _fit_regular(text: str, max_w: float, size: int) -> Font:
    while size > 8 and text_size(font(size, "bold"), text)[0] > max_w:
        size -= 1
    return font(size, "bold")

"""Most of a map picture is the printed board, the same in every picture of a game: empty hexes, terrain, printed
cities and off-boards. It is drawn once per title and view (the hexes shown and the picture's size) and kept
reduced; a picture then redraws only the boxes where it differs from it: the hexes whose state or dead ends
changed, the outlined and home hexes, the routes, the header and the legend. In those boxes every hex whose
drawing reaches them is drawn again, all layers bottom up, on a reused supersampled canvas, so each pixel gets
the drawing it gets when the whole picture is drawn at once; the boxes follow the supersampling grid, so reducing
a box gives the pixels reducing the whole canvas gives. The picture is identical (tests/test_render_static.py).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.board import Board

from .fonts import CachedDraw
from .hexplan import Plan, hex_layout_of
from .mapdraw import RouteDraw, _Canvas, _draw_layers
from .mapstyle import BACKGROUND, SS

_STATIC_KEEP = 6  # static layers kept (whole maps and regions); one is at most a few MB
_CELL = 16  # final pixels: the boxes to redraw are rounded out to cells of this size
_REACH_PAD = 0.25  # unit space beyond a hex's small print that its lines may cover (borders, route joints)


@dataclass
class _Static:
    title: object  # kept so that the id in the key is not reused while the entry lives
    board: Board  # the printed board
    image: Image.Image  # the printed board drawn and reduced, without header
    ends: dict[str, list[int]]
    plans: dict[str, Plan]


_STATIC: dict[tuple, _Static] = {}
_SCRATCH: list[Image.Image] = []  # supersampled canvases to draw on, reused: a fresh one costs page faults
_SCRATCH_KEEP = 2
_LOCK = threading.Lock()


def _static_for(cv: _Canvas) -> _Static:
    key = (id(cv.board.title), cv.kind, tuple(cv.centres), cv.width, cv.height, cv.px)
    with _LOCK:
        hit = _STATIC.pop(key, None)
        if hit is not None and hit.title is cv.board.title:
            _STATIC[key] = hit  # most recently used last
            return hit
    printed = Board(cv.board.title)
    pcv = _Canvas(printed, {}, False, list(cv.centres))
    pcv.homes = {}
    im, d = pcv.new_image(0)
    _draw_layers(pcv, d, im, None, None)
    static = _Static(cv.board.title, printed, im.reduce(SS), pcv.dead_ends(), pcv.plans)
    with _LOCK:
        _STATIC[key] = static
        while len(_STATIC) > _STATIC_KEEP:
            del _STATIC[next(iter(_STATIC))]
    return static


def _changed_hexes(cv: _Canvas, static: _Static, late: bool, routes: list[RouteDraw] | None,
                   highlight: set[str] | None) -> set[str]:
    """The hexes whose drawing differs from the printed board's."""
    board = cv.board
    out = {h for h in cv.centres if board.hexes[h] != static.board.hexes[h]}
    ends = cv.dead_ends()
    out |= {h for h in cv.centres if ends[h] != static.ends[h]}
    out |= {h for h in highlight or () if h in cv.centres}
    out |= {h for h, _ in cv.homes.values() if h in cv.centres}
    out |= {h for r in routes or () for h, _ in r.paths if h in cv.centres}
    if late:  # the late off-board value is the one outlined
        out |= {h for h in cv.centres if (off := hex_layout_of(board, h).offboard) is not None
                and len(off.revenue) > 1}
    return out


def _reach(cv: _Canvas, h: str, *plans: Plan) -> tuple[int, int, int, int]:
    """The box (final pixels) a hex's drawing may cover, for any of these plans of it."""
    c = cv.centres[h]
    x0 = min(p.extent[0] for p in plans) - _REACH_PAD
    y0 = min(p.extent[1] for p in plans) - _REACH_PAD
    x1 = max(p.extent[2] for p in plans) + _REACH_PAD
    y1 = max(p.extent[3] for p in plans) + _REACH_PAD
    return (math.floor((c[0] + x0 * cv.px) / SS) - 2, math.floor((c[1] + y0 * cv.px) / SS) - 2,
            math.ceil((c[0] + x1 * cv.px) / SS) + 2, math.ceil((c[1] + y1 * cv.px) / SS) + 2)


def _over_static(cv: _Canvas, extra_h: int, late: bool, routes: list[RouteDraw] | None,
                 highlight: set[str] | None, boxes: list[tuple[float, float, float, float]],
                 draw: Callable[[ImageDraw.ImageDraw, Image.Image], None]) -> Image.Image:
    """The picture (reduced) drawn over the static layer: ``draw`` draws everything but the background, and
    ``boxes`` (final pixels) are the places besides changed hexes that it draws on (header, legend)."""
    static = _static_for(cv)
    width, base_h = cv.width, cv.height
    height = base_h + extra_h
    cv.height = height
    changed = _changed_hexes(cv, static, late, routes, highlight)
    boxes = boxes + [_reach(cv, h, cv.plans[h], static.plans[h]) for h in changed]
    if extra_h:
        boxes.append((0, base_h, width, height))
    nx, ny = math.ceil(width / _CELL), math.ceil(height / _CELL)
    dirty = [[False] * nx for _ in range(ny)]

    def cells(b: tuple[float, float, float, float]) -> tuple[range, range]:
        return (range(max(0, math.floor(b[0] / _CELL)), min(nx, math.ceil(b[2] / _CELL))),
                range(max(0, math.floor(b[1] / _CELL)), min(ny, math.ceil(b[3] / _CELL))))

    for b in boxes:
        xs, ys = cells(b)
        for y in ys:
            for x in xs:
                dirty[y][x] = True
    # every hex whose drawing reaches a box to redraw is drawn again, all of it
    drawn = []
    for h in cv.centres:
        xs, ys = cells(_reach(cv, h, cv.plans[h]))
        if any(dirty[y][x] for y in ys for x in xs):
            drawn.append(h)
    cv.drawn = drawn
    runs: list[tuple[int, int, int, int]] = []  # runs of dirty cells, as boxes in final pixels
    above: dict[tuple[int, int], int] = {}  # the run of the row above by its columns, to grow it downwards
    for y in range(ny):
        here: dict[tuple[int, int], int] = {}
        x = 0
        while x < nx:
            if not dirty[y][x]:
                x += 1
                continue
            x0 = x
            while x < nx and dirty[y][x]:
                x += 1
            bottom = min((y + 1) * _CELL, height)
            k = above.get((x0, x))
            if k is not None:
                runs[k] = runs[k][:3] + (bottom,)
            else:
                k = len(runs)
                runs.append((x0 * _CELL, y * _CELL, min(x * _CELL, width), bottom))
            here[(x0, x)] = k
        above = here

    size = (width * SS, height * SS)
    with _LOCK:
        reuse = next((i for i, im in enumerate(_SCRATCH) if im.size == size), None)
        canvas = _SCRATCH.pop(reuse) if reuse is not None else Image.new("RGB", size, BACKGROUND)
    try:
        for x0, y0, x1, y1 in runs:
            canvas.paste(BACKGROUND, (x0 * SS, y0 * SS, x1 * SS, y1 * SS))
        draw(CachedDraw(canvas), canvas)
        if extra_h:
            out = Image.new("RGB", (width, height), BACKGROUND)
            out.paste(static.image, (0, 0))
        else:
            out = static.image.copy()
        for x0, y0, x1, y1 in runs:
            out.paste(canvas.reduce(SS, (x0 * SS, y0 * SS, x1 * SS, y1 * SS)), (x0, y0))
    finally:
        with _LOCK:
            _SCRATCH.append(canvas)
            del _SCRATCH[:-_SCRATCH_KEEP]
    return out

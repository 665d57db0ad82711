"""Which hexes a picture shows and where they sit in it: the whole map, a crop around the action, a region."""

from __future__ import annotations

from engine.board import Board
from engine.hexgrid import coords

from . import geometry as geo
from .geometry import HexGeometry
from .mapstyle import HEADER, LONG_SIDE, MARGIN


def map_geometry(board: Board, ids: list[str] | None = None, long_side: int = LONG_SIDE,
                 header: int = HEADER) -> tuple[HexGeometry, tuple[int, int]]:
    """Where the hexes sit in the map picture (final pixels) and the picture's size before any legend band.

    The hex size is chosen so the long side of the picture is LONG_SIDE pixels; ``ids`` (default: the whole
    board) are the hexes the picture shows.
    """
    letters_x = getattr(board, "letters_x", None)
    x0, y0, x1, y1 = geo.bounds(list(board.hexes) if ids is None else ids, board.layout_kind, letters_x)
    bw, bh = x1 - x0, y1 - y0
    size = min((long_side - 2 * MARGIN) / bw, (long_side - 2 * MARGIN - header) / bh)
    width = round(bw * size + 2 * MARGIN)
    height = round(bh * size + 2 * MARGIN + header)
    origin = (MARGIN - x0 * size, MARGIN + header - y0 * size)
    return HexGeometry(board.layout_kind, size, origin, letters_x), (width, height)


def hex_distance(board: Board, a: str, b: str) -> int:
    """Steps between two hexes (doubled coordinates: the long axis counts double)."""
    letters_x = getattr(board, "letters_x", None)
    ax, ay = coords(a, board.layout_kind, letters_x)
    bx, by = coords(b, board.layout_kind, letters_x)
    dx, dy = abs(ax - bx), abs(ay - by)
    if board.layout_kind == "pointy":
        return dy + max(0, (dx - dy) // 2)
    return dx + max(0, (dy - dx) // 2)


def _box_of(board: Board, chosen: set[str]) -> list[str]:
    """Every hex of the board whose centre lies within the bounding box of ``chosen``."""
    g = HexGeometry(board.layout_kind, 1.0, letters_x=getattr(board, "letters_x", None))
    pts = [g.centre(h) for h in chosen]
    x0, x1 = min(p[0] for p in pts) - 1e-6, max(p[0] for p in pts) + 1e-6
    y0, y1 = min(p[1] for p in pts) - 1e-6, max(p[1] for p in pts) + 1e-6
    return [h for h in board.hexes if x0 <= g.centre(h)[0] <= x1 and y0 <= g.centre(h)[1] <= y1]


def region_hexes(board: Board, centre: str, radius: int = 3, *, at_most: float = 1.0) -> list[str]:
    """The hexes within ``radius`` steps of ``centre``, squared off to their bounding box: a zoomed view. With
    ``at_most`` below 1, the radius shrinks (down to 1) until the view shows at most that share of the map's hexes:
    on a small map three steps around a central city are most of the map."""
    while True:
        near = {h for h in board.hexes if hex_distance(board, centre, h) <= radius}
        ids = _box_of(board, near)
        if radius <= 1 or len(ids) <= at_most * len(board.hexes):
            return ids
        radius -= 1


def focus_hexes(board: Board, also: set[str] | None = None, *, keep_if: float = 0.8) -> list[str] | None:
    """The part of the map where the action is: laid tiles and ``also`` (say the operating corporation's stations
    and buildable hexes), with two hexes around. Home tokens alone do not count: 18FL puts them all down at once.

    None when that is most of the map anyway (more than ``keep_if`` of its hexes), so callers draw it whole.
    """
    busy = {h for h, st in board.hexes.items() if st.tile is not None}
    busy |= {h for h in (also or set()) if h in board.hexes}
    if not busy:
        return None
    # two hexes around, so the crop shows where the track leads and not only the hexes themselves
    ring = {h for h in board.hexes if any(hex_distance(board, h, b) <= 2 for b in busy)}
    ids = _box_of(board, busy | ring)
    if len(ids) > keep_if * len(board.hexes):
        return None
    return ids

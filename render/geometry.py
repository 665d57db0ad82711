"""Hex geometry for flat and pointy maps, in one place.

Two coordinate spaces are used:

* unit space: one hex centred on (0, 0) with centre-to-corner distance 1, y
  pointing down (screen convention). Track, cities and labels are laid out
  here, so the same tile plan serves any pixel size.
* map space: pixels. ``HexGeometry`` turns hex ids into pixel centres and
  scales unit points.

Edge numbers follow engine/hexgrid (the 18xx.games convention): pointy 0 =
lower-left, 1 = left, 2 = upper-left, 3 = upper-right, 4 = right, 5 =
lower-right; flat 0 = bottom, 1 = lower-left, ... 5 = lower-right. Both run
clockwise on screen, so only the angle of edge 0 differs between layouts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from engine.hexgrid import coords

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)
APOTHEM = SQRT3 / 2  # centre to edge midpoint, unit space

# Screen angle (degrees, y down) of the direction from the centre to edge 0's midpoint.
_EDGE0_ANGLE = {"pointy": 120.0, "flat": 90.0}


def edge_angle(layout: str, edge: int) -> float:
    return _EDGE0_ANGLE[layout] + 60.0 * (edge % 6)


def _polar(angle_deg: float, radius: float) -> Point:
    a = math.radians(angle_deg)
    return (radius * math.cos(a), radius * math.sin(a))


def edge_mid(layout: str, edge: int) -> Point:
    """Midpoint of a side, unit space."""
    return _polar(edge_angle(layout, edge), APOTHEM)


def edge_dir(layout: str, edge: int) -> Point:
    """Unit vector from the centre towards a side."""
    return _polar(edge_angle(layout, edge), 1.0)


def corner(layout: str, i: int) -> Point:
    """Corner between edge i and edge i+1, unit space."""
    return _polar(edge_angle(layout, i) + 30.0, 1.0)


def corners(layout: str) -> list[Point]:
    return [corner(layout, i) for i in range(6)]


def side(layout: str, edge: int) -> tuple[Point, Point]:
    """The two corners that bound a side."""
    return corner(layout, edge - 1), corner(layout, edge)


def vertex_dirs(layout: str) -> list[Point]:
    """Unit vectors towards the six corners, starting between edges 0 and 1."""
    return [corner(layout, i) for i in range(6)]


def arc(centre: Point, radius: float, a0: float, a1: float, steps: int) -> list[Point]:
    """Points on a circular arc from angle a0 to a1 (radians), inclusive."""
    angles = [a0 + (a1 - a0) * k / steps for k in range(steps + 1)]
    return [(centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)) for a in angles]


def edge_to_edge(layout: str, a: int, b: int, steps: int = 12) -> list[Point]:
    """Track between two sides: straight, gentle arc (two apart) or sharp arc (adjacent).

    The arc meets each side at right angles in its midpoint, so its centre is
    where the two side lines cross: a corner for a sharp curve (radius 1/2),
    or a point sqrt(3) out beyond the side between them for a gentle one
    (radius 3/2).
    """
    a, b = a % 6, b % 6
    d = (b - a) % 6
    pa, pb = edge_mid(layout, a), edge_mid(layout, b)
    if d == 3:
        return [pa, pb]
    if d in (1, 5):
        lo = a if d == 1 else b
        c, r = corner(layout, lo), 0.5
    else:
        mid = (a + 1) % 6 if d == 2 else (b + 1) % 6
        c, r = _polar(edge_angle(layout, mid), SQRT3), 1.5
    t0 = math.atan2(pa[1] - c[1], pa[0] - c[0])
    t1 = math.atan2(pb[1] - c[1], pb[0] - c[0])
    delta = (t1 - t0 + math.pi) % (2 * math.pi) - math.pi  # shorter way round
    pts = arc(c, r, t0, t0 + delta, steps)
    pts[0], pts[-1] = pa, pb  # exact ends so neighbouring tiles meet without a seam
    return pts


def polyline_length(pts: list[Point]) -> float:
    return sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))


def split_half(pts: list[Point]) -> tuple[list[Point], list[Point], Point, Point]:
    """Split a polyline at half its length: (first half, second half, midpoint, unit tangent there)."""
    return split_at(pts, 0.5)


def split_at(pts: list[Point], frac: float) -> tuple[list[Point], list[Point], Point, Point]:
    """Split a polyline at ``frac`` of its length: (first part, second part, the point, unit tangent there)."""
    total = polyline_length(pts)
    acc = 0.0
    for i in range(len(pts) - 1):
        seg = math.dist(pts[i], pts[i + 1])
        if acc + seg >= total * frac and seg > 0:
            t = (total * frac - acc) / seg
            m = (pts[i][0] + t * (pts[i + 1][0] - pts[i][0]), pts[i][1] + t * (pts[i + 1][1] - pts[i][1]))
            tan = ((pts[i + 1][0] - pts[i][0]) / seg, (pts[i + 1][1] - pts[i][1]) / seg)
            return pts[: i + 1] + [m], [m] + pts[i + 1 :], m, tan
        acc += seg
    return pts, pts, pts[-1], (1.0, 0.0)


@cache
def _edge_dirs(layout: str) -> tuple[Point, ...]:
    return tuple(edge_dir(layout, e) for e in range(6))


def inside_hex(layout: str, p: Point, margin: float = 0.0) -> bool:
    """True if p lies inside the unit hex shrunk by ``margin``."""
    limit = APOTHEM - margin
    x, y = p
    return all(x * dx + y * dy <= limit for dx, dy in _edge_dirs(layout))


@dataclass(frozen=True)
class HexGeometry:
    """Pixel placement of a title's hexes.

    ``size`` is the centre-to-corner distance in pixels; ``origin`` is added
    to every centre so the map can sit inside margins.
    """

    layout: str
    size: float
    origin: Point = (0.0, 0.0)
    letters_x: bool | None = None  # whether hex-id letters name columns; None: the layout's usual way

    def doubled_to_px(self, x: float, y: float) -> Point:
        s = self.size
        if self.layout == "pointy":
            px, py = x * SQRT3 * s / 2, y * 1.5 * s
        else:
            px, py = x * 1.5 * s, y * SQRT3 * s / 2
        return (self.origin[0] + px, self.origin[1] + py)

    def centre(self, hex_id: str) -> Point:
        x, y = coords(hex_id, self.layout, self.letters_x)
        return self.doubled_to_px(x, y)

    def to_px(self, centre: Point, p: Point) -> Point:
        return (centre[0] + p[0] * self.size, centre[1] + p[1] * self.size)

    def polygon(self, centre: Point, scale: float = 1.0) -> list[Point]:
        return [self.to_px(centre, (x * scale, y * scale)) for x, y in corners(self.layout)]

    def half_extent(self) -> Point:
        """Half width and half height of one hex in pixels."""
        if self.layout == "pointy":
            return (APOTHEM * self.size, self.size)
        return (self.size, APOTHEM * self.size)


def bounds(hex_ids: list[str], layout: str, letters_x: bool | None = None) -> tuple[float, float, float, float]:
    """Extent of the hexes in unit-size map space (size 1, origin 0): (x0, y0, x1, y1)."""
    g = HexGeometry(layout, 1.0, letters_x=letters_x)
    hx, hy = g.half_extent()
    cs = [g.centre(h) for h in hex_ids]
    return (
        min(c[0] for c in cs) - hx,
        min(c[1] for c in cs) - hy,
        max(c[0] for c in cs) + hx,
        max(c[1] for c in cs) + hy,
    )

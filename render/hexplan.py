"""Track planning on one hex, in unit space (centre to corner = 1): where its cities and towns sit and the
polyline of every track path. The small print is placed around them (render.smallprint).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.board import Board
from engine.tiles import Layout, Node, hex_layout

from . import geometry as geo
from .geometry import Point
from .mapstyle import CITY_R, LABEL_SIZE


def hex_layout_of(board: Board, hex_id: str) -> Layout:
    """``board.layout(hex_id)``, also for preprinted off-boards.

    engine.tiles.hex_layout is cached on the HexDef, and a HexDef with an
    off-board (its revenue is a dict) cannot be hashed; the uncached function
    gives the same Layout, so path indices agree with the engine's.
    """
    try:
        return board.layout(hex_id)
    except TypeError:
        if board.hexes[hex_id].tile is not None:
            raise
        return getattr(hex_layout, "__wrapped__", hex_layout)(board.title.hex(hex_id))


@dataclass(frozen=True)
class Rect:
    cx: float
    cy: float
    w: float
    h: float

    def hits(self, o: Rect) -> bool:
        return abs(self.cx - o.cx) * 2 < self.w + o.w and abs(self.cy - o.cy) * 2 < self.h + o.h

    def corners(self) -> list[Point]:
        x0, x1, y0, y1 = self.cx - self.w / 2, self.cx + self.w / 2, self.cy - self.h / 2, self.cy + self.h / 2
        return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


@dataclass
class Plan:
    """Where everything on one hex goes, in unit space."""

    paths: list[list[Point]]  # one polyline per layout path, same order
    junction: bool
    cities: list[Point]
    towns: list[tuple[Point, Point | None]]  # position, track tangent (bar) or None (dot)
    id_at: Point | None = None  # where the hex id goes, when a city or track covers its usual spot
    name: tuple[Point, list[str], float] | None = None  # centre, lines, font size (unit)
    label: Point | None = None
    label_size: float = LABEL_SIZE  # smaller where the full size would cover track
    revenues: list[tuple[Point, str]] = field(default_factory=list)
    offboard: Point | None = None
    cost: Point | None = None
    extras: list[Point] = field(default_factory=list)  # one per extra token, in order
    hotels: dict[int, Point] = field(default_factory=dict)
    markers: dict[str, Rect] = field(default_factory=dict)
    marks: dict[str, Rect] = field(default_factory=dict)  # printed symbols (HexDef.marks)
    # what the hex's drawing may cover, unit space (x0, y0, x1, y1): the hex and all its small print
    extent: tuple[float, float, float, float] = (-1.0, -1.0, 1.0, 1.0)


def slot_offsets(slots: int) -> list[Point]:
    """Centres of the token circles of one city, relative to the city, unit space."""
    r = CITY_R
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-r, 0.0), (r, 0.0)]
    if slots == 3:
        d = 2 * r / geo.SQRT3
        return [(0.0, -d), (r, d / 2), (-r, d / 2)]
    if slots == 4:
        return [(-r, -r), (r, -r), (-r, r), (r, r)]
    d = r / math.sin(math.pi / slots)
    return [(d * math.cos(2 * math.pi * k / slots - math.pi / 2), d * math.sin(2 * math.pi * k / slots - math.pi / 2))
            for k in range(slots)]


def _city_extent(slots: int) -> tuple[float, float]:
    offs = slot_offsets(slots)
    return (max(abs(x) for x, _ in offs) + CITY_R, max(abs(y) for _, y in offs) + CITY_R)


def _norm(v: Point) -> float:
    return math.hypot(v[0], v[1])


def plan_track(kind: str, lay: Layout) -> Plan:
    """Node positions and path polylines of one hex."""
    exits: dict[Node, list[int]] = {}
    for a, b in lay.paths:
        for x, y in ((a, b), (b, a)):
            if x[0] in ("city", "town") and y[0] == "edge":
                exits.setdefault(x, []).append(y[1])
    # A town on exactly two edge paths sits on the track between them, drawn as a bar across it.
    through: dict[int, tuple[list[Point], list[Point], Point, Point, int]] = {}
    for ti in range(len(lay.towns)):
        ends = exits.get(("town", ti), [])
        n_paths = sum(1 for p in lay.paths if ("town", ti) in p)
        if len(ends) == 2 and n_paths == 2 and ends[0] != ends[1]:
            first, second, mid, tan = geo.split_half(geo.edge_to_edge(kind, ends[0], ends[1]))
            through[ti] = (first, second, mid, tan, ends[0])
    # Two towns on crossing tracks (1830's #56) would both sit where the tracks cross: each moves along its own
    # track, to the side away from the other.
    for ti in list(through):
        for tj in list(through):
            if tj <= ti or math.dist(through[ti][2], through[tj][2]) > 0.35:
                continue
            for me, other in ((ti, tj), (tj, ti)):
                line = geo.edge_to_edge(kind, through[me][4], exits[("town", me)][1])
                splits = [geo.split_at(line, f) for f in (0.28, 0.72)]
                first, second, mid, tan = max(splits, key=lambda sp: math.dist(sp[2], through[other][2]))
                through[me] = (first, second, mid, tan, through[me][4])

    others: list[Node] = [("city", i) for i in range(len(lay.cities))]
    others += [("town", i) for i in range(len(lay.towns)) if i not in through]
    pos: dict[Node, Point] = {}
    # track running side to side past the stops (1830's Altoona bypass) keeps them off its line, so that a route
    # along it is not drawn through the city
    bypass = [geo.split_at(geo.edge_to_edge(kind, a[1], b[1]), f)[2] for a, b in lay.paths
              if a[0] == "edge" and b[0] == "edge" for f in (0.25, 0.5, 0.75)] if others else []
    if len(others) + len(through) <= 1 and not bypass:
        for n in others:
            pos[n] = (0.0, 0.0)
    else:
        waiting: list[Node] = []
        for n in others:
            vx = sum(geo.edge_dir(kind, e)[0] for e in exits.get(n, []))
            vy = sum(geo.edge_dir(kind, e)[1] for e in exits.get(n, []))
            d = _norm((vx, vy))
            if d < 0.3:
                waiting.append(n)
                continue
            r = 0.5 if n[0] == "city" else 0.45
            if n[0] == "city":  # a city of several circles comes in until every circle stays inside the hex
                offsets = slot_offsets(lay.cities[n[1]].slots)
                while r > 0.2 and not all(geo.inside_hex(kind, (vx / d * r + ox, vy / d * r + oy), CITY_R)
                                          for ox, oy in offsets):
                    r -= 0.05
            pos[n] = (vx / d * r, vy / d * r)
        # nodes without a clear direction take the free corner farthest from everything placed
        for n in waiting:
            taken = list(pos.values()) + [t[2] for t in through.values()] + bypass
            taken += [geo.edge_mid(kind, e) for e in lay.exits]
            cands = [(v[0] * 0.5, v[1] * 0.5) for v in geo.vertex_dirs(kind)] + [(0.0, 0.0)]
            pos[n] = max(cands, key=lambda c: min((math.dist(c, t) for t in taken), default=9.0))

    polylines: list[list[Point]] = []
    for a, b in lay.paths:
        if a[0] == "edge" and b[0] == "edge":
            polylines.append(geo.edge_to_edge(kind, a[1], b[1]))
            continue
        line: list[Point] = []
        for e, n in ((a, b), (b, a)):
            if e[0] == "edge" and n[0] == "town" and n[1] in through:
                first, second, _, _, e0 = through[n[1]]
                line = first if e[1] == e0 else second[::-1]
                break
        if not line:
            line = [_node_point(kind, a, pos, through), _node_point(kind, b, pos, through)]
        polylines.append(line)
    cities = [pos[("city", i)] for i in range(len(lay.cities))]
    towns: list[tuple[Point, Point | None]] = []
    for i in range(len(lay.towns)):
        if i in through:
            towns.append((through[i][2], through[i][3]))
        else:
            towns.append((pos[("town", i)], None))
    junction = any(n[0] == "junction" for p in lay.paths for n in p)
    return Plan(polylines, junction, cities, towns)


def _node_point(kind: str, n: Node, pos: dict[Node, Point], through: dict) -> Point:
    if n[0] == "edge":
        return geo.edge_mid(kind, n[1])
    if n in pos:
        return pos[n]
    if n[0] == "town" and n[1] in through:
        return through[n[1]][2]
    return (0.0, 0.0)

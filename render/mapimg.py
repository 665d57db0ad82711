"""The map picture: board state (and optionally chosen routes) -> PNG bytes.

Each hex is planned once in unit space (see render.geometry): where its
cities and towns sit, the polyline of every track path, and where its
small print goes (name, label, revenue, terrain cost, bonus badges) so that
nothing covers the track. Plans are cached by what determines them, so a
board that changes one tile per turn re-plans one hex.

The picture is drawn on a canvas ``SS`` times larger and reduced at the end:
Pillow draws lines and circles without anti-aliasing, and reducing a
supersampled canvas is the cheapest way to smooth them.
"""

from __future__ import annotations

import copy
import io
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image, ImageColor, ImageDraw

from engine.board import Board
from engine.hexgrid import coords
from engine.messages import Catalog, M, Text, render
from engine.tiles import Layout, Node, hex_layout

from . import geometry as geo
from .fonts import CachedDraw, Draw, Font, font, font_path, needs_cjk, text_size
from .geometry import HexGeometry, Point

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

# Known bonus markers: kind -> badge text with DejaVu (which has an anchor), and without it.
# Other kinds show their own name.
MARKER_TEXT = {"port": ("⚓+20", "P+20")}


def marker_text(kind: str) -> str:
    texts = MARKER_TEXT.get(kind)
    if texts is None:
        return kind
    return texts[0] if font_path("bold") is not None else texts[1]


@dataclass(frozen=True)
class RouteDraw:
    """One train's route: the paths it uses, as (hex id, index into board.layout(hex).paths)."""

    label: Text  # the train ("3-train"), in the reader's language when the picture is drawn
    revenue: int
    paths: list[tuple[str, int]] = field(default_factory=list)


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


# -- planning in unit space -------------------------------------------------------------------------------


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
    name: tuple[Point, list[str], float] | None = None  # centre, lines, font size (unit)
    label: Point | None = None
    label_size: float = LABEL_SIZE  # smaller where the full size would cover track
    revenues: list[tuple[Point, str]] = field(default_factory=list)
    offboard: Point | None = None
    cost: Point | None = None
    extras: list[Point] = field(default_factory=list)  # one per extra token, in order
    hotels: dict[int, Point] = field(default_factory=dict)
    markers: dict[str, Rect] = field(default_factory=dict)
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

    others: list[Node] = [("city", i) for i in range(len(lay.cities))]
    others += [("town", i) for i in range(len(lay.towns)) if i not in through]
    pos: dict[Node, Point] = {}
    if len(others) + len(through) <= 1:
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
            pos[n] = (vx / d * r, vy / d * r)
        # nodes without a clear direction take the free corner farthest from everything placed
        for n in waiting:
            taken = list(pos.values()) + [t[2] for t in through.values()]
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


class _Placer:
    """Greedy placement of small print: each item takes the candidate spot that covers least."""

    def __init__(self, kind: str, plan: Plan, lay: Layout) -> None:
        self.kind = kind
        self.points: list[Point] = []
        for line in plan.paths:
            for i in range(len(line) - 1):
                (x0, y0), (x1, y1) = line[i], line[i + 1]
                n = max(1, int(math.dist(line[i], line[i + 1]) / 0.07))
                self.points += [(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(n + 1)]
        self.discs: list[tuple[Point, float]] = []
        for p, c in zip(plan.cities, lay.cities, strict=True):
            self.discs += [((p[0] + dx, p[1] + dy), CITY_R + 0.02) for dx, dy in slot_offsets(c.slots)]
        for p, _ in plan.towns:
            self.discs.append((p, 0.17))
        self.rects: list[Rect] = []
        self.total = 0.0  # cost of everything placed so far
        self.dirs = [geo.edge_dir(kind, e) for e in range(6)]

    def cost(self, r: Rect, inside_weight: float = 2.0, bound: float = math.inf) -> float:
        """How much the rect covers; stops counting once it reaches ``bound``."""
        c = 0.0
        for o in self.rects:
            if r.hits(o):
                c += 10.0
        hx, hy = r.w / 2, r.h / 2
        for (px, py), rad in self.discs:
            nx = min(max(px, r.cx - hx), r.cx + hx)
            ny = min(max(py, r.cy - hy), r.cy + hy)
            if (px - nx) ** 2 + (py - ny) ** 2 < rad * rad:
                c += 10.0
        limit = geo.APOTHEM - 0.02
        dirs = self.dirs
        # quick test with the corner furthest out along each side's normal, then count the corners outside
        if any(r.cx * dx + r.cy * dy + hx * abs(dx) + hy * abs(dy) > limit for dx, dy in dirs):
            for x, y in r.corners():
                if any(x * dx + y * dy > limit for dx, dy in dirs):
                    c += inside_weight
        if c >= bound:
            return c
        pad = TRACK_W / 2
        x0, x1, y0, y1 = r.cx - hx - pad, r.cx + hx + pad, r.cy - hy - pad, r.cy + hy + pad
        return c + sum(1 for x, y in self.points if x0 <= x <= x1 and y0 <= y <= y1)

    def fork(self) -> _Placer:
        """A copy to try a placement on: later rects and costs stay out of this one."""
        other = copy.copy(self)
        other.rects = list(self.rects)
        other.total = 0.0
        return other

    def place(self, w: float, h: float, cands: list[Point], inside_weight: float = 2.0) -> Rect:
        best: Rect | None = None
        best_cost = math.inf
        for cx, cy in cands:
            r = Rect(cx, cy, w, h)
            c = self.cost(r, inside_weight, best_cost)
            if c < best_cost - 1e-9:
                best, best_cost = r, c
                if c == 0:
                    break
        assert best is not None
        if best_cost > 0:
            # nothing preferred is free: search the whole hex, nearest to the first preference
            fx, fy = cands[0]
            for gx, gy in _GRID:
                r = Rect(gx, gy, w, h)
                extra = 0.05 * math.hypot(gx - fx, gy - fy) + 0.3
                c = self.cost(r, inside_weight, best_cost - extra) + extra
                if c < best_cost - 1e-9:
                    best, best_cost = r, c
        self.rects.append(best)
        self.total += best_cost
        return best


_GRID = [(x / 20, y / 20) for y in range(-16, 17, 2) for x in range(-16, 17, 2) if math.hypot(x, y) <= 17]


def id_spot(kind: str) -> Point:
    """Where the hex id goes: under the top corner (pointy) or in the upper-left corner (flat), off the track."""
    return (0.0, -0.78) if kind == "pointy" else (-0.4, -0.7)


def _corner_spots(kind: str, radius: float) -> list[Point]:
    # preference: upper-left first, the usual home of a tile's label
    order = (3, 2, 5, 0, 4, 1) if kind == "pointy" else (2, 1, 3, 5, 0, 4)
    dirs = geo.vertex_dirs(kind)
    return [(dirs[i][0] * radius, dirs[i][1] * radius) for i in order]


def _wrap(name: str, f: Font, max_w: float) -> list[str]:
    """One line, or two of the most even widths, broken at a space (Japanese, which has none: between characters,
    after a 、 where there is one)."""
    if text_size(f, name)[0] <= max_w:
        return [name]
    if " " in name:
        words = name.split(" ")
        splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    elif needs_cjk(name):
        cuts = [i + 1 for i, ch in enumerate(name[:-1]) if ch in "、，"] or range(1, len(name))
        splits = [(name[:i], name[i:]) for i in cuts]
    else:
        return [name]
    best = [name]
    best_w = math.inf
    for first, second in splits:
        w = max(text_size(f, first)[0], text_size(f, second)[0])
        if w < best_w:
            best, best_w = [first, second], w
    return best


@dataclass(frozen=True)
class _Extras:
    """The state-dependent extras of a hex that need a place of their own."""

    extra_cities: tuple[int, ...] = ()
    hotel_towns: tuple[int, ...] = ()
    marker_kinds: tuple[str, ...] = ()


def _ring(p: Point, ex: float, ey: float, w: float, h: float, start_deg: float = 200.0, n: int = 16) -> list[Point]:
    """Spots for a w x h item just outside an ex x ey (half sizes) object at p, going round from start_deg."""
    gap = 0.02
    out = []
    for k in range(n):
        a = math.radians(start_deg + k * 360.0 / n)
        ca, sa = math.cos(a), math.sin(a)
        # distance to leave the object's box along this direction, then the item's own half size
        t_obj = min(ex / abs(ca) if abs(ca) > 1e-9 else math.inf, ey / abs(sa) if abs(sa) > 1e-9 else math.inf)
        t_item = min(w / 2 / abs(ca) if abs(ca) > 1e-9 else math.inf, h / 2 / abs(sa) if abs(sa) > 1e-9 else math.inf)
        t = t_obj + t_item + gap
        out.append((p[0] + t * ca, p[1] + t * sa))
    return out


def _inside(kind: str, pts: list[Point], w: float, h: float) -> list[Point]:
    return [q for q in pts if all(geo.inside_hex(kind, c, 0.02) for c in Rect(q[0], q[1], w, h).corners())]


# Orders in which the groups of small print are tried; the first plan that covers nothing wins,
# else the one that covers least.
_ORDERS = (
    ("small", "label", "name"),
    ("name", "small", "label"),
    ("small", "name", "label"),
    ("label", "name", "small"),
)


def plan_hex(kind: str, px: float, lay: Layout, hex_id: str, name: str | None, cost_text: str | None,
             extras: _Extras) -> Plan:
    """Full plan of one hex for a hex of ``px`` pixels centre-to-corner.

    Placement is greedy, so the order matters: small items are tied to their
    city or town, the name is the widest item, so a few orders are tried.
    """
    best: tuple[float, Plan] | None = None
    for order in _ORDERS:
        total, plan = _plan_once(kind, px, lay, hex_id, name, cost_text, extras, order)
        if best is None or total < best[0] - 1e-9:
            best = (total, plan)
        if total == 0:
            break
    assert best is not None
    return best[1]


def _side_spots(kind: str, radius: float) -> list[Point]:
    """Spots towards the middle of each side (between the corner spots)."""
    return [(geo.edge_dir(kind, e)[0] * radius, geo.edge_dir(kind, e)[1] * radius) for e in (1, 4, 2, 3, 0, 5)]


def _plan_once(kind: str, px: float, lay: Layout, hex_id: str, name: str | None, cost_text: str | None,
               extras: _Extras, order: tuple[str, ...]) -> tuple[float, Plan]:
    plan = plan_track(kind, lay)
    placer = _Placer(kind, plan, lay)
    id_w, id_h = text_size(font(round(ID_SIZE * px)), hex_id)
    id_x, id_y = id_spot(kind)
    placer.rects.append(Rect(id_x, id_y, id_w / px + 0.04, id_h / px + 0.04))
    corners_far = _corner_spots(kind, 0.62)

    if lay.offboard is not None and lay.offboard.visitable:
        n = len(lay.offboard.revenue)
        w, h = OFF_CELL[0] * n + 0.04, OFF_CELL[1] + 0.04
        box = placer.place(w, h, [(0.0, 0.1), (0.0, 0.3), (0.0, -0.2), (0.0, 0.0)])
        plan.offboard = (box.cx, box.cy)

    for group in order:
        if group == "name" and name:
            plan.name = _place_name(kind, px, placer, name, lay.color == "red")
        elif group == "label" and lay.label:
            plan.label, plan.label_size = _place_label(kind, px, placer, lay.label, corners_far)
        elif group == "small":
            _place_small(kind, px, placer, plan, lay, extras)

    if cost_text:
        cw, ch = text_size(font(round(COST_SIZE * px), "bold"), cost_text)
        w, h = cw / px + 0.3, max(ch / px, 0.22) + 0.04
        cands = [(0.0, 0.0)] + _inside(kind, _corner_spots(kind, 0.5), w, h) + [(0.0, 0.3), (0.0, -0.3)]
        r = placer.place(w, h, cands)
        plan.cost = (r.cx, r.cy)
    rects = placer.rects
    plan.extent = (min([-1.0] + [r.cx - r.w / 2 for r in rects]), min([-1.0] + [r.cy - r.h / 2 for r in rects]),
                   max([1.0] + [r.cx + r.w / 2 for r in rects]), max([1.0] + [r.cy + r.h / 2 for r in rects]))
    return placer.total, plan


def _place_label(kind: str, px: float, placer: _Placer, label: str, corners_far: list[Point]) -> tuple[Point, float]:
    """A tile's label (Jax, B, OO) where it covers no track: full size if it fits somewhere, else smaller."""
    best: tuple[float, Rect, float] | None = None
    for k, size in enumerate((LABEL_SIZE, LABEL_SIZE * 0.8, LABEL_SIZE * 0.62)):
        lw, lh = text_size(font(round(size * px), "bold"), label)
        w, h = lw / px + 0.04, lh / px + 0.04
        cands = _inside(kind, corners_far + _corner_spots(kind, 0.5) + _side_spots(kind, 0.5), w, h)
        trial = placer.fork()
        r = trial.place(w, h, cands + _corner_spots(kind, 0.45))
        cost = trial.total + 0.5 * k
        if best is None or cost < best[0]:
            best = (cost, r, size)
        if trial.total == 0:
            break
    assert best is not None
    cost, r, size = best
    placer.total += placer.cost(r)
    placer.rects.append(r)
    return (r.cx, r.cy), size


def _revenue(value: object) -> str:
    """A printed revenue: one number, or the values by phase ("20/40") where it changes with the phase."""
    if isinstance(value, dict):
        return "/".join(str(v) for v in value.values())
    return "" if not value else str(value)


def _place_small(kind: str, px: float, placer: _Placer, plan: Plan, lay: Layout, extras: _Extras) -> None:
    """Revenues, extra tokens, hotels and bonus badges, each beside what it belongs to."""
    corners_far = _corner_spots(kind, 0.62) + _side_spots(kind, 0.6)
    revs = [_revenue(c.revenue) for c in lay.cities]
    shared = len(revs) > 1 and len(set(revs)) == 1 and revs[0] != ""
    d = 2 * REV_R
    if shared:
        # several cities of one value (Jacksonville, OO tiles) show it once
        cands = _inside(kind, corners_far + _corner_spots(kind, 0.45), d, d)
        r = placer.place(d, d, cands or [(0.0, 0.0)])
        plan.revenues.append(((r.cx, r.cy), revs[0]))
    for ci, (p, c) in enumerate(zip(plan.cities, lay.cities, strict=True)):
        ex, ey = _city_extent(c.slots)
        if revs[ci] and not shared:
            r = placer.place(d, d, _inside(kind, _ring(p, ex, ey, d, d), d, d) + corners_far)
            plan.revenues.append(((r.cx, r.cy), revs[ci]))
        for _ in [x for x in extras.extra_cities if x == ci]:
            e = 2 * EXTRA_R
            r = placer.place(e, e, _inside(kind, _ring(p, ex, ey, e, e, 340.0), e, e) or [p])
            plan.extras.append((r.cx, r.cy))

    for ti, ((p, tan), t) in enumerate(zip(plan.towns, lay.towns, strict=True)):
        te = TOWN_BAR[0] / 2 if tan is not None else TOWN_DOT
        if _revenue(t.revenue):
            r = placer.place(d, d, _inside(kind, _ring(p, te, te, d, d), d, d) + corners_far)
            plan.revenues.append(((r.cx, r.cy), _revenue(t.revenue)))
        if ti in extras.hotel_towns:
            e = 2 * HOTEL_HALF
            r = placer.place(e, e, _inside(kind, _ring(p, te, te, e, e, 20.0), e, e) or [p])
            plan.hotels[ti] = (r.cx, r.cy)

    if lay.cities:
        anchor, ex, ey = plan.cities[0], *_city_extent(lay.cities[0].slots)
    elif plan.towns:
        anchor, ex, ey = plan.towns[0][0], 0.15, 0.15
    else:
        anchor, ex, ey = (0.0, 0.0), 0.0, 0.0
    for k in extras.marker_kinds:
        tw, th = text_size(font(round(REV_SIZE * px), "bold"), marker_text(k))
        w, h = tw / px + 0.12, th / px + 0.1
        cands = _inside(kind, _ring(anchor, ex, ey, w, h, 45.0), w, h) + _corner_spots(kind, 0.55)
        plan.markers[k] = placer.place(w, h, cands)


def _place_name(kind: str, px: float, placer: _Placer, name: str, on_red: bool) -> tuple[Point, list[str], float]:
    """Best spot for the location name; long names wrap and, where space is short, shrink a little."""
    best: tuple[float, Rect, list[str], float] | None = None
    options = []
    for k, size in enumerate((NAME_SIZE, NAME_SIZE * 0.88)):
        f = font(round(size * px), "condensed-bold" if on_red else "condensed")
        lines = _wrap(name, f, 1.25 * px)
        w = max(text_size(f, t)[0] for t in lines) / px + 0.05
        h = size * 1.12 * len(lines)
        if kind == "pointy":
            ys = [0.6 - h / 2, -0.58 + h / 2, 0.45 - h / 2, -0.45 + h / 2, 0.3, -0.3, 0.0]
        else:
            ys = [0.72 - h / 2, -0.56 + h / 2, 0.45 - h / 2, -0.4 + h / 2, 0.3, -0.3, 0.0]
        options.append((k, size, lines, w, h, [(x, y) for y in ys for x in (0.0, -0.28, 0.28, -0.42, 0.42)]))
    # preferred spots at both sizes first; the whole-hex search only if none of them is free
    for extra in (False, True):
        for k, size, lines, w, h, cands in options:
            for cx, cy in (_GRID if extra else cands):
                r = Rect(cx, cy, w, h)
                # shrinking or leaving the usual spots costs a little, so they win whenever they fit as well
                penalty = 0.6 * k + (0.3 + 0.05 * math.hypot(cx, cy) if extra else 0)
                bound = best[0] - penalty if best is not None else math.inf
                c = placer.cost(r, 3.0, bound) + penalty
                if best is None or c < best[0] - 1e-9:
                    best = (c, r, lines, size)
        if best is not None and best[0] <= 0.6:
            break
    assert best is not None
    c, r, lines, size = best
    placer.rects.append(r)
    placer.total += c
    return (r.cx, r.cy), lines, size


# Plans by (title object, hex state). The title itself is kept in the value, so its id cannot be reused by
# another title while the entry lives; a variant title with the same name never shares plans.
_PLANS: dict[tuple, tuple[object, Plan]] = {}


def _plan_for(board: Board, hex_id: str, px: float) -> Plan:
    st = board.hexes[hex_id]
    h = board.title.hex(hex_id)
    lay = hex_layout_of(board, hex_id)
    extras = _Extras(
        tuple(ci for _, ci in st.extra_tokens),
        tuple(sorted(st.hotels)),
        tuple(sorted(st.markers)),
    )
    cost_text = None
    if st.tile is None and h.cost:  # still printed: the first tile pays it (1830 G19 on its green upgrade)
        cost_text = board.title.fmt(h.cost)
    key = (id(board.title), board.layout_kind, round(px, 3), hex_id, st.tile, st.rotation, extras, cost_text)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is board.title:
        return hit[1]
    if len(_PLANS) > 20000:
        _PLANS.clear()
    plan = plan_hex(board.layout_kind, px, lay, hex_id, h.name, cost_text, extras)
    _PLANS[key] = (board.title, plan)
    return plan


# -- drawing ----------------------------------------------------------------------------------------------


def _rgb(color: str | tuple[int, int, int]) -> tuple[int, int, int]:
    if isinstance(color, tuple):
        return color
    c = ImageColor.getrgb(color)
    return (c[0], c[1], c[2])


def _disc(d: ImageDraw.ImageDraw, c: Point, r: float, fill: object, outline: object = None, width: int = 0) -> None:
    d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=fill, outline=outline, width=width)


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


# -- which hexes a picture shows -------------------------------------------------------------------------


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


def region_hexes(board: Board, centre: str, radius: int = 3) -> list[str]:
    """The hexes within ``radius`` steps of ``centre``, squared off to their bounding box: a zoomed view."""
    near = {h for h in board.hexes if hex_distance(board, centre, h) <= radius}
    return _box_of(board, near)


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


class _Canvas:
    """The supersampled picture and the geometry that maps hexes onto it."""

    def __init__(self, board: Board, corp_colors: dict[str, tuple[str, str]], late: bool,
                 ids: list[str] | None = None, long_side: int = LONG_SIDE, header: int = HEADER) -> None:
        self.board = board
        self.kind = board.layout_kind
        self.corp_colors = corp_colors
        self.late = late
        ids = list(board.hexes) if ids is None else ids
        frame, (self.width, self.height) = map_geometry(board, ids, long_side, header)
        self.size = frame.size  # final pixels, centre to corner
        self.map_top = MARGIN + header
        self.px = frame.size * SS
        self.geom = HexGeometry(self.kind, self.px, (frame.origin[0] * SS, frame.origin[1] * SS), frame.letters_x)
        self.centres = {h: self.geom.centre(h) for h in ids}
        self.plans = {h: _plan_for(board, h, self.px) for h in ids}
        self.homes: dict[str, tuple[str, int]] = default_homes(board)
        self.drawn: list[str] = list(ids)  # the hexes the layers draw (all, or those a static layer lacks)
        self._ends: dict[str, list[int]] | None = None

    def dead_ends(self) -> dict[str, list[int]]:
        """Each shown hex's dead ends, worked out once for the picture."""
        if self._ends is None:
            layouts: dict[str, Layout] = {}  # each hex's layout read once
            self._ends = {h: dead_ends(self.board, h, layouts) for h in self.centres}
        return self._ends

    def new_image(self, extra_h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        self.height += extra_h
        im = Image.new("RGB", (self.width * SS, self.height * SS), BACKGROUND)
        return im, CachedDraw(im)

    def pt(self, hex_id: str, p: Point) -> Point:
        return self.geom.to_px(self.centres[hex_id], p)

    def u(self, v: float) -> float:
        return v * self.px

    def free_box(self, w: float, h: float) -> tuple[float, float] | None:
        """Top-left (final px) of a w x h box in a map corner no hex touches, if any."""
        hx, hy = self.geom.half_extent()
        boxes = [(c[0] / SS - hx / SS, c[1] / SS - hy / SS, c[0] / SS + hx / SS, c[1] / SS + hy / SS)
                 for c in self.centres.values()]
        x_lo, x_hi = MARGIN, self.width - MARGIN - w
        y_lo, y_hi = self.map_top, self.height - MARGIN - h
        for x, y in ((x_lo, y_hi), (x_hi, y_hi), (x_hi, y_lo), (x_lo, y_lo)):
            if x < x_lo - 0.5 or y < y_lo - 0.5:
                continue
            if all(x + w + 6 < b[0] or b[2] < x - 6 or y + h + 6 < b[1] or b[3] < y - 6 for b in boxes):
                return (x, y)
        return None


def _draw_hexes(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    board = cv.board
    for h in cv.drawn:
        c = cv.centres[h]
        lay = hex_layout_of(board, h)
        color = lay.color
        fill = HEX_FILL.get(color, HEX_FILL["white"])
        if color == "gray" and not lay.paths and not lay.cities and not lay.towns:
            fill = BLOCKED_FILL
        d.polygon(cv.geom.polygon(c), fill=fill)
    # lines, not polygon(width=...): Pillow builds a full-canvas mask for every wide polygon outline
    for h in cv.drawn:
        pts = cv.geom.polygon(cv.centres[h])
        d.line(pts + pts[:1], fill=OUTLINE, width=SS)


def _terrain_icon(d: ImageDraw.ImageDraw, terrain: str | None, c: Point, s: float) -> None:
    """A small glyph for the terrain beside its cost; s is the glyph's half size in pixels."""
    x, y = c
    w = max(1, round(s / 4))
    if terrain in ("water", "river", "lake"):
        for dy in (-s * 0.35, s * 0.35):
            pts = [(x - s + 2 * s * k / 12, y + dy + math.sin(k / 12 * 2 * math.pi) * s * 0.3) for k in range(13)]
            d.line(pts, fill=(40, 110, 190), width=w, joint="curve")
    elif terrain == "swamp":
        base = y + s * 0.7
        for a in (-50, -20, 0, 20, 50):
            r = math.radians(a - 90)
            d.line([(x + a / 60 * s * 0.3, base), (x + a / 60 * s * 0.3 + math.cos(r) * s * 1.2,
                                                  base + math.sin(r) * s * 1.2)], fill=(46, 125, 50), width=w)
        d.line([(x - s * 0.8, base), (x + s * 0.8, base)], fill=(46, 125, 50), width=w)
    elif terrain in ("mountain", "hill", "hills"):
        d.polygon([(x - s, y + s * 0.7), (x, y - s * 0.8), (x + s, y + s * 0.7)], fill=(140, 100, 60))
    else:
        _disc(d, c, s * 0.5, (120, 120, 120))


def _draw_costs(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    f = font(round(cv.u(COST_SIZE)), "bold")
    for h in cv.drawn:
        plan = cv.plans[h]
        if plan.cost is None:
            continue
        hd = cv.board.title.hex(h)
        text = cv.board.title.fmt(hd.cost)
        c = cv.pt(h, plan.cost)
        tw, _ = text_size(f, text)
        icon = cv.u(0.12)
        total = tw + 2 * icon + cv.u(0.05)
        _terrain_icon(d, hd.terrain, (c[0] - total / 2 + icon, c[1]), icon)
        d.text((c[0] + total / 2 - tw / 2, c[1]), text, font=f, fill=(30, 30, 30), anchor="mm")


def _draw_borders(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    w = round(cv.u(0.13))
    for h in cv.drawn:
        for b in cv.board.title.hex(h).borders:
            a, z = geo.side(cv.kind, b.edge)
            pa, pz = cv.pt(h, a), cv.pt(h, z)
            d.line([pa, pz], fill=BORDER, width=w)
            _disc(d, pa, w / 2, BORDER)
            _disc(d, pz, w / 2, BORDER)


def _draw_track(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    w = round(cv.u(TRACK_W))
    for h in cv.drawn:
        plan = cv.plans[h]
        lay = hex_layout_of(cv.board, h)
        if lay.offboard is not None and not lay.offboard.visitable:
            # a stub: track may be built towards it but never run to it, so it ends in a buffer stop
            for a, b in lay.paths:
                e = a if a[0] == "edge" else b
                m = geo.edge_mid(cv.kind, e[1])
                end = (m[0] * 0.45, m[1] * 0.45)
                nx, ny = -m[1] / geo.APOTHEM, m[0] / geo.APOTHEM
                d.line([cv.pt(h, m), cv.pt(h, end)], fill=TRACK, width=w)
                bar = [(end[0] + nx * 0.2, end[1] + ny * 0.2), (end[0] - nx * 0.2, end[1] - ny * 0.2)]
                d.line([cv.pt(h, q) for q in bar], fill=TRACK, width=w)
            continue
        for line in plan.paths:
            d.line([cv.pt(h, p) for p in line], fill=TRACK, width=w, joint="curve")
        if plan.junction:
            _disc(d, cv.pt(h, (0.0, 0.0)), w / 2, TRACK)


def dead_ends(board: Board, hex_id: str, layouts: dict[str, Layout] | None = None) -> list[int]:
    """Sides where this hex's track stops against something that will not continue it.

    That is the edge of the map, an impassable border, or a neighbour with track of its own (a laid tile or
    printed track) but none on the shared side. Track pointing at an empty hex is simply not built yet.
    """
    if layouts is None:
        layouts = {}

    def layout(h: str) -> Layout:
        if h not in layouts:
            layouts[h] = hex_layout_of(board, h)
        return layouts[h]

    lay = layout(hex_id)
    if lay.offboard is not None or not lay.exits:
        return []
    out = []
    for e in sorted(set(lay.exits)):
        other = board.neighbour(hex_id, e)
        if other is None or not board.edge_open(hex_id, e):
            out.append(e)
            continue
        theirs = layout(other)
        if theirs.paths and (e + 3) % 6 not in theirs.exits:
            out.append(e)
    return out


def _draw_dead_ends(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    """A buffer stop short of the side, so track that ends there is not read as joining the neighbour's city."""
    w = round(cv.u(TRACK_W))
    all_ends = cv.dead_ends()
    for h in cv.drawn:
        ends = all_ends[h]
        if not ends:
            continue
        fill = HEX_FILL.get(hex_layout_of(cv.board, h).color, HEX_FILL["white"])
        for e in ends:
            m = geo.edge_mid(cv.kind, e)
            ux, uy = m[0] / geo.APOTHEM, m[1] / geo.APOTHEM
            nx, ny = -uy, ux
            stop = geo.APOTHEM - 0.11
            gap = [(ux * stop + nx * 0.1, uy * stop + ny * 0.1), (ux * (geo.APOTHEM - 0.01) + nx * 0.1,
                   uy * (geo.APOTHEM - 0.01) + ny * 0.1), (ux * (geo.APOTHEM - 0.01) - nx * 0.1,
                   uy * (geo.APOTHEM - 0.01) - ny * 0.1), (ux * stop - nx * 0.1, uy * stop - ny * 0.1)]
            d.polygon([cv.pt(h, q) for q in gap], fill=fill)
            bar = [(ux * stop + nx * 0.17, uy * stop + ny * 0.17), (ux * stop - nx * 0.17, uy * stop - ny * 0.17)]
            d.line([cv.pt(h, q) for q in bar], fill=TRACK, width=max(SS, w * 2 // 3))


HIGHLIGHT = (224, 0, 150)  # the operating corporation's buildable hexes: a hue no tile or terrain uses


def _draw_highlight(cv: _Canvas, d: ImageDraw.ImageDraw, hexes: set[str]) -> None:
    w = max(SS, round(cv.u(0.09)))
    for h in sorted(hexes):
        if h not in cv.centres:
            continue
        pts = cv.geom.polygon(cv.centres[h], 0.93)
        d.line(pts + pts[:1], fill=HIGHLIGHT, width=w, joint="curve")


def _draw_routes(cv: _Canvas, im: Image.Image, routes: list[RouteDraw]) -> None:
    """Each route as one translucent stroke: drawn opaque into a mask, then blended once, so overlaps
    inside a route do not darken."""
    w = round(cv.u(ROUTE_W))
    for i, route in enumerate(routes):
        lines: list[list[Point]] = []
        for h, pi in route.paths:
            plan = cv.plans.get(h)
            if plan is None or not 0 <= pi < len(plan.paths):
                raise ValueError(f"route {route.label!r}: no path {pi} on hex {h}")
            lines.append([cv.pt(h, p) for p in plan.paths[pi]])
        if not lines:
            continue
        # a mask only as large as the route keeps long maps cheap
        x0 = max(0, math.floor(min(p[0] for ln in lines for p in ln) - w))
        y0 = max(0, math.floor(min(p[1] for ln in lines for p in ln) - w))
        x1 = min(im.width, math.ceil(max(p[0] for ln in lines for p in ln) + w))
        y1 = min(im.height, math.ceil(max(p[1] for ln in lines for p in ln) + w))
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        md = ImageDraw.Draw(mask)
        ends: dict[tuple[int, int], int] = {}
        for ln in lines:
            for p in (ln[0], ln[-1]):
                key = (round(p[0]), round(p[1]))
                ends[key] = ends.get(key, 0) + 1
        for ln in lines:
            pts = [(x - x0, y - y0) for x, y in ln]
            md.line(pts, fill=ROUTE_ALPHA, width=w, joint="curve")
            # round off the joints between consecutive paths; the route's own two ends stay square
            for p, q in ((pts[0], ln[0]), (pts[-1], ln[-1])):
                if ends[(round(q[0]), round(q[1]))] > 1:
                    _disc(md, p, w / 2, ROUTE_ALPHA)
        im.paste(_rgb(ROUTE_COLORS[i % len(ROUTE_COLORS)]), (x0, y0, x1, y1), mask)


def _token(d: ImageDraw.ImageDraw, c: Point, r: float, corp: str, colors: tuple[str, str]) -> None:
    fill, text = _rgb(colors[0]), _rgb(colors[1])
    _disc(d, c, r, fill, outline=(0, 0, 0), width=max(1, round(r / 12)))
    f = _fit(corp, r * 1.72, round(r * 0.85))
    d.text(c, corp, font=f, fill=text, anchor="mm")


_FIT: dict[tuple[str, int, int], Font] = {}


def _fit(text: str, max_w: float, max_size: int) -> Font:
    key = (text, round(max_w), max_size)
    f = _FIT.get(key)
    if f is None:
        size = max_size
        while size > 6 and text_size(font(size, "condensed-bold"), text)[0] > max_w:
            size -= 1
        f = _FIT[key] = font(size, "condensed-bold")
    return f


def default_homes(board: Board) -> dict[str, tuple[str, int]]:
    """Home stations still to come when the caller does not say: corporations with no token on the board (city -1:
    a home without a named city, 1830 Erie, shown in the first free city of its hex)."""
    placed: set[str] = {c for st in board.hexes.values() for slots in st.tokens for c in slots if c}
    return {c.sym: (c.home, -1 if c.home_city is None else c.home_city)
            for c in board.title.corporations if c.sym not in placed}


def _reserved_at(board: Board, homes: dict[str, tuple[str, int]]) -> dict[tuple[str, int], list[str]]:
    """Per city, the corporations whose home circle it keeps; a home token already there is shown reserved too."""
    out: dict[tuple[str, int], list[str]] = {}
    for sym, where in homes.items():
        out.setdefault(where, []).append(sym)
    return out


def _draw_reserved(d: ImageDraw.ImageDraw, c: Point, r: float, lw: int, sym: str, color: str) -> None:
    """A home circle kept for a corporation that has not operated yet: a ring and its name in its colour (darkened
    where the colour is too light to read on white, such as a yellow corporation)."""
    col = _rgb(color)
    lum = (0.299 * col[0] + 0.587 * col[1] + 0.114 * col[2]) / 255
    ink = col if lum < 0.6 else tuple(round(v * 0.45) for v in col)
    _disc(d, c, r - 2 * lw, (255, 255, 255), outline=col, width=lw * (2 if lum >= 0.6 else 1))
    d.text(c, sym, font=_fit(sym, r * 1.6, round(r * 0.7)), fill=ink, anchor="mm")


def _draw_nodes(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    board = cv.board
    lw = max(SS, round(cv.u(0.03)))
    r = cv.u(CITY_R)
    homes = _reserved_at(board, cv.homes)
    for h in cv.drawn:
        plan = cv.plans[h]
        lay = hex_layout_of(board, h)
        st = board.hexes[h]
        # a home without a named city (1830 Erie) is shown in the first free city of its hex
        anywhere = list(homes.get((h, None), []))
        for ci, (p, city) in enumerate(zip(plan.cities, lay.cities, strict=True)):
            centres = [cv.pt(h, (p[0] + dx, p[1] + dy)) for dx, dy in slot_offsets(city.slots)]
            for col, grow in ((TRACK, lw), ((255, 255, 255), 0)):
                for c in centres:
                    _disc(d, c, r + grow, col)
                # the circles of one city are joined into one shape
                if len(centres) == 2:
                    (ax, ay), (bx, by) = centres
                    d.rectangle((ax, ay - r - grow, bx, by + r + grow), fill=col)
                elif len(centres) > 2:
                    # around the centre, so that a 2 x 2 city is a square, not a bow tie
                    mx = sum(x for x, _ in centres) / len(centres)
                    my = sum(y for _, y in centres) / len(centres)
                    d.polygon(sorted(centres, key=lambda q: math.atan2(q[1] - my, q[0] - mx)), fill=col)
            tokens = st.tokens[ci] if ci < len(st.tokens) else []
            kept = list(homes.get((h, ci), []))
            if anywhere and not kept and None in (tokens or [None]):
                # a home without a named city (1830 Erie) is shown in the first free city of its hex
                kept.append(anywhere.pop(0))
            waiting = [s for s in kept if s not in tokens]
            for si, c in enumerate(centres):
                corp = tokens[si] if si < len(tokens) else None
                if corp is not None and corp in kept:
                    _draw_reserved(d, c, r, lw, corp, cv.corp_colors.get(corp, FALLBACK_CORP)[0])
                elif corp is not None:
                    _token(d, c, r - lw, corp, cv.corp_colors.get(corp, FALLBACK_CORP))
                elif waiting:
                    sym = waiting.pop(0)
                    _draw_reserved(d, c, r, lw, sym, cv.corp_colors.get(sym, FALLBACK_CORP)[0])
        for (p, tan) in plan.towns:
            c = cv.pt(h, p)
            if tan is None:
                _disc(d, c, cv.u(TOWN_DOT) + lw, (255, 255, 255))
                _disc(d, c, cv.u(TOWN_DOT), TRACK)
            else:
                nx, ny = -tan[1], tan[0]
                hl, hw = TOWN_BAR[0] / 2, TOWN_BAR[1] / 2
                quad = [(p[0] + nx * hl + tan[0] * hw, p[1] + ny * hl + tan[1] * hw),
                        (p[0] + nx * hl - tan[0] * hw, p[1] + ny * hl - tan[1] * hw),
                        (p[0] - nx * hl - tan[0] * hw, p[1] - ny * hl - tan[1] * hw),
                        (p[0] - nx * hl + tan[0] * hw, p[1] - ny * hl + tan[1] * hw)]
                d.polygon([cv.pt(h, q) for q in quad], fill=TRACK)
        for (corp, _ci), p in zip(st.extra_tokens, plan.extras, strict=False):
            _token(d, cv.pt(h, p), cv.u(EXTRA_R), corp, cv.corp_colors.get(corp, FALLBACK_CORP))
        for ti, corp in sorted(st.hotels.items()):
            p = plan.hotels.get(ti)
            if p is None:
                continue
            fill, text = (_rgb(x) for x in cv.corp_colors.get(corp, FALLBACK_CORP))
            c = cv.pt(h, p)
            hs = cv.u(HOTEL_HALF)
            d.rectangle((c[0] - hs, c[1] - hs, c[0] + hs, c[1] + hs), fill=fill, outline=TRACK, width=max(1, lw // 2))
            d.text(c, "H", font=font(round(hs * 1.6), "bold"), fill=text, anchor="mm")
        for kind, corp in sorted(st.markers.items()):
            rect = plan.markers.get(kind)
            if rect is None:
                continue
            fill, text = (_rgb(x) for x in cv.corp_colors.get(corp, FALLBACK_CORP))
            c = cv.pt(h, (rect.cx, rect.cy))
            hw, hh = cv.u(rect.w) / 2, cv.u(rect.h) / 2
            d.rounded_rectangle((c[0] - hw, c[1] - hh, c[0] + hw, c[1] + hh), radius=hh, fill=fill, outline=TRACK,
                                width=max(1, lw // 2))
            d.text(c, marker_text(kind), font=font(round(cv.u(REV_SIZE)), "bold"), fill=text, anchor="mm")


def _draw_text(cv: _Canvas, d: ImageDraw.ImageDraw) -> None:
    board = cv.board
    f_id = font(round(cv.u(ID_SIZE)))
    f_label = font(round(cv.u(LABEL_SIZE)), "bold")
    f_off = font(round(cv.u(0.24)), "bold")
    id_at = id_spot(cv.kind)
    halo = max(1, SS)
    for h in cv.drawn:
        plan = cv.plans[h]
        lay = hex_layout_of(board, h)
        on_red = lay.color == "red"
        fill_rgb = HEX_FILL.get(lay.color, HEX_FILL["white"])
        d.text(cv.pt(h, id_at), h, font=f_id, fill=(255, 235, 230) if on_red else ID_TEXT, anchor="mm")
        if plan.name is not None:
            (nx, ny), lines, size = plan.name
            f = font(round(cv.u(size)), "condensed-bold" if on_red else "condensed")
            step = size * 1.12
            y0 = ny - step * (len(lines) - 1) / 2
            for k, line in enumerate(lines):
                c = cv.pt(h, (nx, y0 + k * step))
                if on_red:
                    d.text(c, line, font=f, fill=(255, 255, 255), anchor="mm")
                else:
                    d.text(c, line, font=f, fill=(20, 20, 20), anchor="mm", stroke_width=halo, stroke_fill=fill_rgb)
        if plan.label is not None and lay.label:
            f = f_label if plan.label_size == LABEL_SIZE else font(round(cv.u(plan.label_size)), "bold")
            d.text(cv.pt(h, plan.label), lay.label, font=f, fill=(20, 20, 20), anchor="mm")
        for p, value in plan.revenues:
            c = cv.pt(h, p)
            _disc(d, c, cv.u(REV_R), (255, 255, 255), outline=TRACK, width=max(1, SS))
            d.text(c, str(value), font=_fit(str(value), cv.u(REV_R) * 1.75, round(cv.u(REV_SIZE))), fill=TRACK,
                   anchor="mm")
        if plan.offboard is not None and lay.offboard is not None:
            _draw_offboard_values(cv, d, h, plan.offboard, lay, f_off)


def _draw_offboard_values(cv: _Canvas, d: ImageDraw.ImageDraw, h: str, p: Point, lay: Layout, f: Font) -> None:
    assert lay.offboard is not None
    values = list(lay.offboard.revenue.items())
    current = 1 if cv.late and len(values) > 1 else 0
    cell_w, cell_h = cv.u(OFF_CELL[0]), cv.u(OFF_CELL[1])
    c = cv.pt(h, p)
    x = c[0] - cell_w * len(values) / 2
    for i, (phase, value) in enumerate(values):
        box = (x + i * cell_w, c[1] - cell_h / 2, x + (i + 1) * cell_w, c[1] + cell_h / 2)
        base = HEX_FILL.get(phase, (255, 255, 255))
        if i == current:
            d.rectangle(box, fill=base, outline=TRACK, width=max(SS, round(cv.u(0.035))))
            d.text(((box[0] + box[2]) / 2, c[1]), str(value), font=f, fill=TRACK, anchor="mm")
        else:
            faded = tuple(round(v * 0.45 + 255 * 0.55) for v in base)
            d.rectangle(box, fill=faded, outline=(120, 120, 120), width=SS)
            d.text(((box[0] + box[2]) / 2, c[1]), str(value), font=f, fill=(110, 110, 110), anchor="mm")


def _legend_rows(routes: list[RouteDraw], board: Board,
                 catalog: Catalog | None = None) -> list[tuple[str, str, tuple[int, int, int] | None]]:
    rows: list[tuple[str, str, tuple[int, int, int] | None]] = []
    for i, r in enumerate(routes):
        rows.append((render(r.label, catalog), board.title.fmt(r.revenue), _rgb(ROUTE_COLORS[i % len(ROUTE_COLORS)])))
    rows.append((render(M("Total"), catalog), board.title.fmt(sum(r.revenue for r in routes)), None))
    return rows


def _draw_legend(d: ImageDraw.ImageDraw, x: float, y: float, rows: list, w: float, row_h: float) -> None:
    f = font(round(row_h * 0.6 * SS))
    fb = font(round(row_h * 0.6 * SS), "bold")
    pad = 10
    d.rounded_rectangle(((x) * SS, y * SS, (x + w) * SS, (y + row_h * len(rows) + 2 * pad) * SS), radius=8 * SS,
                        fill=(255, 255, 255), outline=OUTLINE, width=SS)
    for k, (label, value, color) in enumerate(rows):
        cy = (y + pad + row_h * (k + 0.5)) * SS
        if color is not None:
            d.line([((x + pad) * SS, cy), ((x + pad + 34) * SS, cy)], fill=color, width=round(row_h * 0.45 * SS))
        fk = fb if color is None else f
        d.text(((x + pad + 44) * SS, cy), label, font=fk, fill=TRACK, anchor="lm")
        d.text(((x + w - pad) * SS, cy), value, font=fb, fill=TRACK, anchor="rm")


def render_map(board: Board, *, late: bool = False, routes: list[RouteDraw] | None = None,
               corp_colors: dict[str, tuple[str, str]] | None = None, title_text: Text = "",
               hexes: list[str] | None = None, highlight: set[str] | None = None,
               homes: dict[str, tuple[str, int]] | None = None, note: Text | None = None,
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
        legend_w = max(text_size(font(size, "bold"), a)[0] + text_size(font(size, "bold"), b)[0]
                       for a, b, _ in legend_rows) + 44 + 20 + 28
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
    if note is None:
        note = M("off-board values: late (brown)") if late else M("off-board values: early (yellow)")
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


def _draw_layers(cv: _Canvas, d: ImageDraw.ImageDraw, im: Image.Image, routes: list[RouteDraw] | None,
                 highlight: set[str] | None) -> ImageDraw.ImageDraw:
    """The board's layers, bottom up, for the hexes ``cv.drawn``; returns the draw to go on with."""
    _draw_hexes(cv, d)
    _draw_costs(cv, d)
    _draw_borders(cv, d)
    _draw_track(cv, d)
    _draw_dead_ends(cv, d)
    if highlight:
        _draw_highlight(cv, d, highlight)
    if routes:
        _draw_routes(cv, im, routes)
        d = CachedDraw(im)
    _draw_nodes(cv, d)
    _draw_text(cv, d)
    return d


# -- the static layer ---------------------------------------------------------------------------------------
#
# Most of a map picture is the printed board, the same in every picture of a game: empty hexes, terrain, printed
# cities and off-boards. It is drawn once per title and view (the hexes shown and the picture's size) and kept
# reduced; a picture then redraws only the boxes where it differs from it: the hexes whose state or dead ends
# changed, the outlined and home hexes, the routes, the header and the legend. In those boxes every hex whose
# drawing reaches them is drawn again, all layers bottom up, on a reused supersampled canvas, so each pixel gets
# the drawing it gets when the whole picture is drawn at once; the boxes follow the supersampling grid, so reducing
# a box gives the pixels reducing the whole canvas gives. The picture is identical (tests/test_render_static.py).

STATIC_LAYER = True  # off: every picture is drawn whole (the tests compare the two)
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


def _draw_header(d: ImageDraw.ImageDraw, width: int, title: str, note: str) -> None:
    """The title on the left and the note on the right; on a narrow picture (a crop) the note gives way and the
    title shrinks until it fits, so the two never overlap."""
    y = (MARGIN + HEADER / 2 - 4) * SS
    room = (width - 2 * MARGIN) * SS
    f_note = font(15 * SS)
    note_w = text_size(f_note, note)[0] + 16 * SS
    size = 22
    while size > 11 and text_size(font(size * SS, "bold"), title)[0] > room - note_w and \
            text_size(font(size * SS, "bold"), title)[0] > room:
        size -= 1
    title_w = text_size(font(size * SS, "bold"), title)[0]
    d.text((MARGIN * SS, y), title, font=font(size * SS, "bold"), fill=(25, 25, 25), anchor="lm")
    if title_w + note_w <= room:
        d.text(((width - MARGIN) * SS, y), note, font=f_note, fill=(60, 60, 60), anchor="rm")


def encode_png(im: Image.Image) -> bytes:
    """PNG bytes of a picture reduced to a 256-colour palette.

    Our pictures are a few flat colours plus their anti-aliased edges, so a
    palette loses nothing visible, halves the file and, with light
    compression, encodes several times faster than full RGB.
    """
    pal = im.quantize(256, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()

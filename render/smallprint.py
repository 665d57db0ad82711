"""The small print of a hex (name, label, revenues, terrain cost, extra tokens, hotels, bonus badges), placed
greedily where it covers no track; plans are cached by what determines them, so a board that changes one
tile per turn re-plans one hex.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass

from engine.board import Board
from engine.tiles import Layout

from . import geometry as geo
from .fonts import Font, font, needs_cjk, text_size
from .geometry import Point
from .hexplan import Plan, Rect, _city_extent, hex_layout_of, plan_track, slot_offsets
from .mapstyle import (
    CITY_R,
    COST_SIZE,
    EXTRA_R,
    HOTEL_HALF,
    ID_SIZE,
    LABEL_SIZE,
    MARK_SIZE,
    NAME_SIZE,
    OFF_CELL,
    REV_R,
    REV_SIZE,
    TOWN_BAR,
    TOWN_DOT,
    TRACK_W,
    marker_text,
)

ALL_SIDES = (0, 1, 2, 3, 4, 5)


class _Placer:
    """Greedy placement of small print: each item takes the candidate spot that covers least."""

    def __init__(self, kind: str, plan: Plan, lay: Layout, neighbour_sides: tuple[int, ...] = ALL_SIDES) -> None:
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
        self.neighbour_dirs = [self.dirs[e] for e in neighbour_sides]

    def cost(self, r: Rect, inside_weight: float = 2.0, bound: float = math.inf, depth_weight: float = 0.0) -> float:
        """How much the rect covers; stops counting once it reaches ``bound``. Each corner outside the hex costs
        ``inside_weight``, and how far the rect reaches into a neighbouring hex ``depth_weight`` per unit (the
        edge of the map costs only the corners)."""
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
        if depth_weight and self.neighbour_dirs:
            reach = max(r.cx * dx + r.cy * dy + hx * abs(dx) + hy * abs(dy) for dx, dy in self.neighbour_dirs)
            c += depth_weight * max(0.0, reach - limit)
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


# what a name pays per unit it reaches into a neighbouring hex, beside its corners outside: a name that cannot
# stay in reaches out as little as it can, not into the middle of the neighbour's print
NAME_DEPTH = 20.0

_GRID = [(x / 20, y / 20) for y in range(-16, 17, 2) for x in range(-16, 17, 2) if math.hypot(x, y) <= 17]


def id_spot(kind: str) -> Point:
    """Where the hex id goes: under the top corner (pointy) or in the upper-left corner (flat), off the track."""
    return (0.0, -0.78) if kind == "pointy" else (-0.4, -0.7)


def _id_spots(kind: str) -> list[Point]:
    """The usual spot of the hex id, then the others nearest it: the upper sides, then the lower ones."""
    if kind == "pointy":
        return [id_spot(kind), (-0.42, -0.6), (0.42, -0.6), (0.0, 0.78), (-0.42, 0.6), (0.42, 0.6)]
    return [id_spot(kind), (0.4, -0.7), (-0.4, 0.7), (0.4, 0.7)]


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
    return _narrowest([list(s) for s in splits], f, name)


def _wrap_narrow(name: str, f: Font) -> list[str]:
    """Three lines of the most even widths, for a long name that two lines would carry out of its hex
    ("Saint-Germain & Versailles" beside Paris). Lines break only after a hyphen or before "&" or "(", so a
    name of several words ("New York") stays whole."""
    pieces = [p for p in re.split(r"(?<=-)|\s+(?=[&(])", name) if p]
    if len(pieces) < 3:
        return [name]
    n = len(pieces)
    splits = [[_join(pieces[:i]), _join(pieces[i:j]), _join(pieces[j:])]
              for i in range(1, n - 1) for j in range(i + 1, n)]
    return _narrowest(splits, f, name)


def _join(pieces: list[str]) -> str:
    # a piece ending in a hyphen runs on into the next; the others were separated by a space
    return "".join(p if p.endswith("-") else p + " " for p in pieces).rstrip()


def _narrowest(splits: list[list[str]], f: Font, name: str) -> list[str]:
    """The split whose widest line is narrowest; the name whole where there is no split."""
    best: list[str] = [name]
    best_w = math.inf
    for lines in splits:
        w = max(text_size(f, t)[0] for t in lines)
        if w < best_w:
            best, best_w = lines, w
    return best


@dataclass(frozen=True)
class _Extras:
    """The state-dependent extras of a hex that need a place of their own."""

    extra_cities: tuple[int, ...] = ()
    hotel_towns: tuple[int, ...] = ()
    marker_kinds: tuple[str, ...] = ()
    printed_marks: tuple[str, ...] = ()  # the hex's printed symbols (they never change, but need a place)


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
             extras: _Extras, neighbour_sides: tuple[int, ...] = ALL_SIDES) -> Plan:
    """Full plan of one hex for a hex of ``px`` pixels centre-to-corner.

    Placement is greedy, so the order matters: small items are tied to their
    city or town, the name is the widest item, so a few orders are tried.
    """
    best: tuple[float, Plan] | None = None
    for order in _ORDERS:
        total, plan = _plan_once(kind, px, lay, hex_id, name, cost_text, extras, order, neighbour_sides)
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
               extras: _Extras, order: tuple[str, ...], neighbour_sides: tuple[int, ...]) -> tuple[float, Plan]:
    plan = plan_track(kind, lay)
    placer = _Placer(kind, plan, lay, neighbour_sides)
    id_w, id_h = text_size(font(round(ID_SIZE * px)), hex_id)
    # a city drawn at the top of the hex (1830's green New York) would hide the id: it moves to a free spot
    spots = [Rect(x, y, id_w / px + 0.04, id_h / px + 0.04) for x, y in _id_spots(kind)]
    id_rect = min(spots, key=lambda r: placer.cost(r, 0.0))  # the first of the least covered
    if id_rect is not spots[0]:
        plan.id_at = (id_rect.cx, id_rect.cy)
    placer.rects.append(id_rect)
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
    for m in extras.printed_marks:
        cands = _inside(kind, _ring(anchor, ex, ey, MARK_SIZE, MARK_SIZE, 135.0), MARK_SIZE, MARK_SIZE)
        plan.marks[m] = placer.place(MARK_SIZE, MARK_SIZE, cands + _corner_spots(kind, 0.55))


def _place_name(kind: str, px: float, placer: _Placer, name: str, on_red: bool) -> tuple[Point, list[str], float]:
    """Best spot for the location name; long names wrap and, where space is short, shrink a little."""
    best: tuple[float, Rect, list[str], float] | None = None
    options = []
    for k, size in enumerate((NAME_SIZE, NAME_SIZE * 0.88)):
        f = font(round(size * px), "condensed-bold" if on_red else "condensed")
        wraps = [(0.6 * k, _wrap(name, f, 1.25 * px))]
        narrow = _wrap_narrow(name, f)
        if len(narrow) > len(wraps[0][1]):
            # a third line costs more than a smaller size: it wins only where two lines cannot stay in the hex
            wraps.append((0.6 * k + 0.9, narrow))
        for penalty, lines in wraps:
            w = max(text_size(f, t)[0] for t in lines) / px + 0.05
            h = size * 1.12 * len(lines)
            if kind == "pointy":
                ys = [0.6 - h / 2, -0.58 + h / 2, 0.45 - h / 2, -0.45 + h / 2, 0.3, -0.3, 0.0]
            else:
                ys = [0.72 - h / 2, -0.56 + h / 2, 0.45 - h / 2, -0.4 + h / 2, 0.3, -0.3, 0.0]
            cands = [(x, y) for y in ys for x in (0.0, -0.28, 0.28, -0.42, 0.42)]
            options.append((penalty, size, lines, w, h, cands))
    # preferred spots at both sizes first; the whole-hex search only if none of them is free
    for extra in (False, True):
        for cost_of_form, size, lines, w, h, cands in options:
            for cx, cy in (_GRID if extra else cands):
                r = Rect(cx, cy, w, h)
                # shrinking, a third line or leaving the usual spots costs a little, so they win whenever they fit
                # as well
                penalty = cost_of_form + (0.3 + 0.05 * math.hypot(cx, cy) if extra else 0)
                bound = best[0] - penalty if best is not None else math.inf
                c = placer.cost(r, 3.0, bound, NAME_DEPTH) + penalty
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
        h.marks,
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
    sides = tuple(e for e in range(6) if board.neighbour(hex_id, e) is not None)
    plan = plan_hex(board.layout_kind, px, lay, hex_id, h.name, cost_text, extras, sides)
    _PLANS[key] = (board.title, plan)
    return plan

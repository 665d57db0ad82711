"""Drawing the board's layers on the supersampled canvas, bottom up: hexes, costs, borders, track, dead ends,
outlines, routes, stations and tokens, small print.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.board import Board
from engine.messages import Text
from engine.tiles import Layout

from . import geometry as geo
from .fonts import CachedDraw, Font, font, text_size
from .geometry import HexGeometry, Point
from .hexplan import hex_layout_of, slot_offsets
from .mapstyle import (
    BACKGROUND,
    BLOCKED_FILL,
    BORDER,
    CITY_R,
    COST_SIZE,
    EXTRA_R,
    FALLBACK_CORP,
    HEADER,
    HEX_FILL,
    HIGHLIGHT,
    HOTEL_HALF,
    ID_SIZE,
    ID_TEXT,
    LABEL_SIZE,
    LONG_SIDE,
    MARGIN,
    MARK_INK,
    OFF_CELL,
    OLD_VALUE,
    OUTLINE,
    REV_R,
    REV_SIZE,
    ROUTE_ALPHA,
    ROUTE_COLORS,
    ROUTE_W,
    SS,
    TOWN_BAR,
    TOWN_DOT,
    TRACK,
    TRACK_W,
    _rgb,
    marker_text,
)
from .mapview import map_geometry
from .smallprint import _plan_for, id_spot

# a home station: its hex and city, the city None where the corporation chooses among the hex's (1830 Erie)
Home = tuple[str, int | None]


@dataclass(frozen=True)
class RouteDraw:
    """One train's route: the paths it uses, as (hex id, index into board.layout(hex).paths)."""

    label: Text  # the train ("3-train"), in the reader's language when the picture is drawn
    revenue: int
    paths: list[tuple[str, int]] = field(default_factory=list)


def _disc(d: ImageDraw.ImageDraw, c: Point, r: float, fill: object, outline: object = None, width: int = 0) -> None:
    d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=fill, outline=outline, width=width)


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
        self.homes: dict[str, Home] = default_homes(board)
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


def default_homes(board: Board) -> dict[str, Home]:
    """Home stations still to come when the caller does not say: corporations with no token on the board (city
    None: a home without a named city, 1830 Erie, shown in the first free city of its hex)."""
    placed: set[str] = {c for st in board.hexes.values() for slots in st.tokens for c in slots if c}
    return {c.sym: (c.home, None if c.home_city is None else board.current_city(c.home, c.home_city))
            for c in board.title.corporations if c.sym not in placed}


def _reserved_at(board: Board, homes: dict[str, Home]) -> dict[Home, list[str]]:
    """Per city, the corporations whose home circle it keeps; a home token already there is shown reserved too."""
    out: dict[Home, list[str]] = {}
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
        for mark, rect in plan.marks.items():
            _draw_mark(d, mark, cv.pt(h, (rect.cx, rect.cy)), cv.u(rect.w) / 2, lw)


def _draw_mark(d: ImageDraw.ImageDraw, mark: str, c: Point, r: float, lw: int) -> None:
    """A symbol printed on the hex: 18AL's coal-field pentagon (a dark pentagon, point up); any other mark a dark
    dot, so a new kind shows before it has a drawing of its own."""
    if mark == "pentagon":
        corners = [(c[0] + r * math.cos(math.radians(-90 + 72 * k)), c[1] + r * math.sin(math.radians(-90 + 72 * k)))
                   for k in range(5)]
        d.polygon(corners, fill=MARK_INK, outline=(255, 255, 255), width=max(1, lw // 2))
    else:
        d.ellipse((c[0] - r / 2, c[1] - r / 2, c[0] + r / 2, c[1] + r / 2), fill=MARK_INK)


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
        d.text(cv.pt(h, plan.id_at or id_at), h, font=f_id, fill=(255, 235, 230) if on_red else ID_TEXT, anchor="mm")
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
            _draw_revenue_text(d, c, str(value), _fit(str(value), cv.u(REV_R) * 1.75, round(cv.u(REV_SIZE))),
                               cv.late)
        if plan.offboard is not None and lay.offboard is not None:
            _draw_offboard_values(cv, d, h, plan.offboard, lay, f_off)


def _draw_revenue_text(d: ImageDraw.ImageDraw, c: Point, text: str, f: Font, late: bool) -> None:
    """A revenue in its circle; values by phase ("40/50") show the one in use in ink and the other greyed, as the
    off-board boxes highlight theirs."""
    parts = text.split("/")
    if len(parts) < 2:
        d.text(c, text, font=f, fill=TRACK, anchor="mm")
        return
    current = 1 if late else 0
    pieces = [(part, TRACK if i == current else OLD_VALUE) for i, part in enumerate(parts)]
    pieces = [x for i, piece in enumerate(pieces) for x in ([("/", OLD_VALUE)] if i else []) + [piece]]
    x = c[0] - text_size(f, text)[0] / 2
    for piece, ink in pieces:
        d.text((x, c[1]), piece, font=f, fill=ink, anchor="lm")
        x += text_size(f, piece)[0]


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
            d.text(((box[0] + box[2]) / 2, c[1]), str(value), font=f, fill=OLD_VALUE, anchor="mm")


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

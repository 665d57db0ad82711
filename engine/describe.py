"""Words for where track goes: compass sides and the places a tile's track leads to.

Players choose a rotation by where its track goes ("r2: Jacksonville–Daytona", or "NE–S" towards unnamed
hexes), so autocomplete, refusals and the rotation picture all describe a rotation with these words. The test
of render/geometry checks these names against the drawn directions.
"""

from __future__ import annotations

import math

from .board import Board
from .messages import Join, M, Msg, Text
from .tiles import Layout, Node, tile_layout
from .wording import clauses

# Screen angle (degrees, y down) of side 0's direction, as the map is drawn (render.geometry's convention).
_EDGE0_ANGLE = {"pointy": 120.0, "flat": 90.0}
_EIGHT = ("E", "SE", "S", "SW", "W", "NW", "N", "NE")

# the compass points as words of the reader's language (北東 for NE)
_WORDS = {"N": M("N"), "NE": M("NE"), "E": M("E"), "SE": M("SE"), "S": M("S"), "SW": M("SW"), "W": M("W"),
          "NW": M("NW")}


def compass(layout: str, edge: int) -> str:
    """The compass name of a side (its English letters, as the geometry test reads them): a pointy-topped hex
    has no N or S side, a flat-topped one no E or W side."""
    return _EIGHT[round((_EDGE0_ANGLE[layout] + 60.0 * (edge % 6)) / 45.0) % 8]


def compass_word(layout: str, edge: int) -> Msg:
    """The compass name of a side as a player reads it."""
    return _WORDS[compass(layout, edge)]


def city_sides(kind: str, lay: Layout) -> list[str | None]:
    """Where each city of a tile with several sits, by compass ("NW"), as the map draws it: towards the sides its
    track leaves by. None for a city whose track gives no clear direction or whose direction another city shares,
    and for the one city of a tile. ``kind``: the map's hexes, "pointy" or "flat"."""
    if len(lay.cities) < 2:
        return [None] * len(lay.cities)
    sides: list[str | None] = []
    for city in range(len(lay.cities)):
        x = y = 0.0
        for a, b in lay.paths:
            for node, other in ((a, b), (b, a)):
                if node == ("city", city) and other[0] == "edge":
                    angle = math.radians(_EDGE0_ANGLE[kind] + 60.0 * (other[1] % 6))
                    x, y = x + math.cos(angle), y + math.sin(angle)
        # the drawing's own threshold: a city below it goes to a free corner
        sides.append(_EIGHT[round(math.degrees(math.atan2(y, x)) / 45.0) % 8] if math.hypot(x, y) >= 0.3 else None)
    return [s if s is not None and sides.count(s) == 1 else None for s in sides]


def city_words(board: Board, hex_id: str, city: int) -> Msg | None:
    """How players tell a city from the others of its hex ("NW city", else "city 1"); None on a hex with one."""
    sides = city_sides(board.layout_kind, board.layout(hex_id))
    if len(sides) < 2:
        return None
    side = sides[city]
    return M("{side} city", side=_WORDS[side]) if side else M("city {n}", n=city)


def side_name(board: Board, hex_id: str, edge: int) -> Text:
    """The place across a side if it has a name, else the side's compass direction."""
    other = board.neighbour(hex_id, edge)
    if other is not None:
        name = board.title.hex(other).name
        if name:
            return name
    return compass_word(board.layout_kind, edge)


def _groups(lay: Layout) -> list[list[int]]:
    """Exits that track joins, one list per connected piece of track, each in side order."""
    parent: dict[Node, Node] = {}

    def find(n: Node) -> Node:
        while parent.get(n, n) != n:
            n = parent[n]
        return n

    for a, b in lay.paths:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        parent[find(a)] = find(b)
    pieces: dict[Node, set[int]] = {}
    for a, b in lay.paths:
        for n in (a, b):
            if n[0] == "edge":
                pieces.setdefault(find(n), set()).add(n[1])
    return sorted((sorted(v) for v in pieces.values()), key=lambda g: g[0])


def track_words(board: Board, hex_id: str, lay: Layout) -> Text:
    """Where a layout's track goes from this hex: "Jacksonville–Daytona; NE–S"."""
    parts = [Join(tuple(side_name(board, hex_id, e) for e in group), "–") for group in _groups(lay)]
    return clauses(parts) if parts else M("no track")


def rotation_words(board: Board, hex_id: str, tile: str, rotation: int) -> Msg:
    """A rotation as a player reads it: "r2: Jacksonville–Daytona"."""
    lay = tile_layout(board.title.tiles[tile], rotation)
    return M("r{rotation}: {track}", rotation=rotation, track=track_words(board, hex_id, lay))

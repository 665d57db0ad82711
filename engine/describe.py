"""Words for where track goes: compass sides and the places a tile's track leads to.

Players choose a rotation by where its track goes ("r2: Jacksonville–Daytona", or "NE–S" towards unnamed
hexes), so autocomplete, refusals and the rotation picture all describe a rotation with these words. The test
of render/geometry checks these names against the drawn directions.
"""

from __future__ import annotations

from .board import Board
from .messages import Join, M, Msg, Text
from .tiles import Layout, Node, tile_layout

# Sides by number as the map is drawn, north up (the edge numbering of engine.hexgrid): a pointy-topped hex has
# no N or S side, a flat-topped one no E or W side.
_COMPASS = {"pointy": ("SW", "W", "NW", "NE", "E", "SE"), "flat": ("S", "SW", "NW", "N", "NE", "SE")}


# the compass points as words of the reader's language (北東 for NE)
_WORDS = {"N": M("N"), "NE": M("NE"), "E": M("E"), "SE": M("SE"), "S": M("S"), "SW": M("SW"), "W": M("W"),
          "NW": M("NW")}


def compass(layout: str, edge: int) -> str:
    """The compass name of a side (its English letters, as the geometry test reads them)."""
    return _COMPASS[layout][edge % 6]


def compass_word(layout: str, edge: int) -> Msg:
    """The compass name of a side as a player reads it."""
    return _WORDS[compass(layout, edge)]


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
    return Join(tuple(parts), "; ") if parts else M("no track")


def rotation_words(board: Board, hex_id: str, tile: str, rotation: int) -> Msg:
    """A rotation as a player reads it: "r2: Jacksonville–Daytona"."""
    lay = tile_layout(board.title.tiles[tile], rotation)
    return M("r{rotation}: {track}", rotation=rotation, track=track_words(board, hex_id, lay))

"""The map as play changes it: laid tiles, station tokens, hotels and markers."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Any

from .hexgrid import letters_are_x, neighbour, opposite
from .journal import Tracked
from .tiles import Layout, hex_layout, tile_layout
from .titledata import TitleData


@dataclass
class HexState(Tracked):
    tile: str | None = None  # tile id; None means the preprinted hex
    instance: int = 0  # copy number of that tile, for ids such as "9-3"
    rotation: int = 0
    # station tokens per city, slot order; None is a free slot
    tokens: list[list[str | None]] = field(default_factory=list)
    # tokens beside the tile that take no slot (18FL Terminal Company): (corp, city)
    extra_tokens: list[tuple[str, int]] = field(default_factory=list)
    # hotels per town index (18FL)
    hotels: dict[int, str] = field(default_factory=dict)
    # bonus markers, e.g. {"port": "SAL"} or {"coal": "S&NA"}
    markers: dict[str, str] = field(default_factory=dict)
    # printed city -> the city it has become on the tile, where an upgrade numbered them otherwise (1830's New
    # York #54: a home named by its printed city follows it)
    city_moves: dict[int, int] = field(default_factory=dict)


_TOKENS, _EXTRA = attrgetter("tokens"), attrgetter("extra_tokens")


class Board(Tracked):
    """Mutable map state on top of the title's printed board."""

    def __init__(self, title: TitleData) -> None:
        self.title = title
        self.layout_kind = title.layout
        self.letters_x = letters_are_x(title.layout, title.axes)  # pass to hexgrid.coords with layout_kind
        self.hexes: dict[str, HexState] = {}
        for h in title.hexes:
            self.hexes[h.id] = HexState(tokens=[[None] * c.slots for c in h.cities])
        # free copies of each tile type, lowest copy number first
        self.supply: dict[str, list[int]] = {tid: list(range(t.count)) for tid, t in title.tiles.items()}

    # Track graphs of the current tiles by location rule (engine.graph.track_graph): a cache (leading underscore),
    # so neither journalled nor part of a snapshot or fingerprint.
    @property
    def graph_cache(self) -> dict[Any, Any]:
        cache = self.__dict__.get("_graph_cache")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_graph_cache", cache)
        return cache

    # -- reading ------------------------------------------------------------
    def layout(self, hex_id: str) -> Layout:
        st = self.hexes[hex_id]
        if st.tile is None:
            # the printed layouts, kept with the title data: asked for every hex of every track graph build
            printed = self.title.__dict__.get("_printed_layouts")
            if printed is None:
                printed = self.title.__dict__["_printed_layouts"] = {h.id: hex_layout(h) for h in self.title.hexes}
            return printed[hex_id]
        return tile_layout(self.title.tiles[st.tile], st.rotation)

    def token_key(self) -> tuple:
        """Every station token on the board (slot and beside-tile), as a key for what reachability reads of them.
        Cities in hex order: boards with the same tiles have the same cities, so the hexes are implied."""
        hexes = self.hexes.values()
        # C-level passes (reach asks at every call): each city's slots, and each hex's beside-tile tokens if there
        # are any (mostly none: then the empty tuple)
        return (tuple(map(tuple, chain.from_iterable(map(_TOKENS, hexes)))),
                tuple(map(tuple, map(_EXTRA, hexes))) if any(map(_EXTRA, hexes)) else ())

    def tile_name(self, hex_id: str) -> str:
        """The 18xx.games id of what lies on the hex: "9-3", or "B5-0" if preprinted."""
        st = self.hexes[hex_id]
        return f"{hex_id}-0" if st.tile is None else f"{st.tile}-{st.instance}"

    def neighbour(self, hex_id: str, edge: int) -> str | None:
        n = neighbour(hex_id, edge, self.layout_kind, self.letters_x)
        return n if n in self.hexes else None

    def open_sides(self) -> dict[tuple[str, int], tuple[str, int]]:
        """(hex, edge) -> the hex and edge across, for every side track may cross: a hex is there and no
        impassable border. The printed map's, kept with the title data (as its hex index) since every track
        graph build asks for each side."""
        sides = self.title.__dict__.get("_open_sides")
        if sides is None:
            sides = {}
            for h in self.title.hexes:
                for edge in range(6):
                    other = self.neighbour(h.id, edge)
                    if other is not None and not any(b.edge == edge for b in h.borders):
                        sides[(h.id, edge)] = (other, opposite(edge))
            self.title.__dict__["_open_sides"] = sides
        return sides

    def edge_open(self, hex_id: str, edge: int) -> bool:
        """Track may cross this side: a hex is there and no impassable border."""
        return (hex_id, edge) in self.open_sides()

    def connects_across(self, hex_id: str, edge: int) -> tuple[str, int] | None:
        """The hex and edge on the other side if track there meets track here."""
        across = self.open_sides().get((hex_id, edge))
        if across is None or across[1] not in self.layout(across[0]).exits:
            return None
        return across

    def city_tokens(self, hex_id: str, city: int) -> list[str | None]:
        return self.hexes[hex_id].tokens[city]

    def stations(self, corp: str) -> list[tuple[str, int]]:
        """Cities where the corporation has a station (slot or beside-tile token)."""
        if not any(map(_EXTRA, self.hexes.values())):
            # the usual board, with no token beside a tile: the slots alone, hexes without cities passed over
            return [(hid, ci) for hid, st in self.hexes.items() if st.tokens
                    for ci, slots in enumerate(st.tokens) if corp in slots]
        out: list[tuple[str, int]] = []
        for hid, st in self.hexes.items():
            for ci, slots in enumerate(st.tokens):
                if corp in slots:
                    out.append((hid, ci))
            for c, ci in st.extra_tokens:
                if c == corp and (hid, ci) not in out:
                    out.append((hid, ci))
        return out

    def hotels_of(self, corp: str) -> list[tuple[str, int]]:
        return [(hid, ti) for hid, st in self.hexes.items() for ti, c in st.hotels.items() if c == corp]

    def marker_hexes(self, kind: str) -> dict[str, str]:
        return {hid: st.markers[kind] for hid, st in self.hexes.items() if kind in st.markers}

    # -- changing -----------------------------------------------------------
    def place_tile(self, hex_id: str, tile: str, rotation: int, city_map: list[int]) -> None:
        """Put a tile from the supply on the hex; tokens follow ``city_map``."""
        st = self.hexes[hex_id]
        if st.tile is not None:
            self.supply[st.tile].append(st.instance)
            self.supply[st.tile].sort()
        new_def = self.title.tiles[tile]
        copies = self.supply[tile]
        instance = copies.pop(0) if copies else (self._next_unlimited(tile) if new_def.unlimited else -1)
        if instance < 0:
            raise ValueError(f"no tile {tile} left")
        new_tokens: list[list[str | None]] = [[None] * c.slots for c in new_def.cities]
        for old_ci, slots in enumerate(st.tokens):
            target = new_tokens[city_map[old_ci]]
            for corp in slots:
                if corp is None:
                    continue
                free = target.index(None)
                target[free] = corp
        st.extra_tokens = [(c, city_map[ci]) for c, ci in st.extra_tokens]
        moves = {p: city_map[ci] for p in range(len(self.title.hex(hex_id).cities))
                 if (ci := st.city_moves.get(p, p)) < len(city_map)}
        st.city_moves = {p: ci for p, ci in moves.items() if ci != p}
        st.tile, st.instance, st.rotation, st.tokens = tile, instance, rotation, new_tokens

    def current_city(self, hex_id: str, printed: int) -> int:
        """The city that a printed city of the hex is now (an upgrade may number a tile's cities otherwise)."""
        st = self.hexes.get(hex_id)
        return printed if st is None else st.city_moves.get(printed, printed)

    def _next_unlimited(self, tile: str) -> int:
        used = [st.instance for st in self.hexes.values() if st.tile == tile]
        return max(used, default=-1) + 1

    def clear_tile(self, hex_id: str) -> None:
        """Return the hex to its printed state (18FL Keys hurricane)."""
        st = self.hexes[hex_id]
        if st.tile is not None:
            self.supply[st.tile].append(st.instance)
            self.supply[st.tile].sort()
        h = self.title.hex(hex_id)
        st.tile, st.instance, st.rotation = None, 0, 0
        st.tokens = [[None] * c.slots for c in h.cities]
        st.extra_tokens = []
        st.hotels = {}
        st.city_moves = {}

"""Track on a hex: preprinted or a laid tile at a rotation, and upgrade checks."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from .titledata import CityDef, Endpoint, HexDef, OffboardDef, TileDef, TownDef

COLOR_ORDER = {"white": 0, "yellow": 1, "green": 2, "brown": 3, "gray": 4}

# An endpoint in absolute terms: ("edge", 0..5) | ("city", i) | ("town", i)
# | ("offboard", 0) | ("junction", 0).
Node = tuple[str, int]
Path = tuple[Node, Node]


@dataclass(frozen=True)
class Layout:
    """What is printed or laid on one hex, in absolute edge numbers."""

    color: str
    cities: tuple[CityDef, ...]
    towns: tuple[TownDef, ...]
    offboard: OffboardDef | None
    paths: tuple[Path, ...]
    label: str | None

    @functools.cached_property
    def exits(self) -> frozenset[int]:  # cached: layouts are shared and every graph build asks each hex's
        return frozenset(n[1] for p in self.paths for n in p if n[0] == "edge")

    def connections(self) -> frozenset[tuple[Node, Node]]:
        """Pairs of endpoints joined on this hex, junctions contracted.

        Used for the upgrade rule: every old connection must survive.
        """
        out: set[tuple[Node, Node]] = set()
        junction: dict[int, list[Node]] = {}
        for a, b in self.paths:
            if a[0] == "junction":
                junction.setdefault(a[1], []).append(b)
            elif b[0] == "junction":
                junction.setdefault(b[1], []).append(a)
            else:
                out.add(_pair(a, b))
        for ends in junction.values():
            for a, b in itertools.combinations(ends, 2):
                out.add(_pair(a, b))
        return frozenset(out)


def _pair(a: Node, b: Node) -> tuple[Node, Node]:
    return (a, b) if a <= b else (b, a)


def _endpoint(e: Endpoint, rotation: int) -> Node:
    if e.kind == "edge":
        return ("edge", (e.index + rotation) % 6)
    return (e.kind, e.index)


def _paths(raw: tuple[tuple[Endpoint, Endpoint], ...], rotation: int) -> tuple[Path, ...]:
    return tuple((_endpoint(a, rotation), _endpoint(b, rotation)) for a, b in raw)


# Keyed by object identity: title data is loaded once and kept (load_title is cached), and hashing a
# pydantic model field by field on every lookup was a measurable share of route search time.
_TILE_CACHE: dict[tuple[int, int], tuple[TileDef, Layout]] = {}
_HEX_CACHE: dict[int, tuple[HexDef, Layout]] = {}


def tile_layout(tile: TileDef, rotation: int) -> Layout:
    hit = _TILE_CACHE.get((id(tile), rotation))
    if hit is not None and hit[0] is tile:
        return hit[1]
    layout = Layout(tile.color, tile.cities, tile.towns, None, _paths(tile.paths, rotation), tile.label)
    _TILE_CACHE[(id(tile), rotation)] = (tile, layout)
    return layout


def hex_layout(h: HexDef) -> Layout:
    hit = _HEX_CACHE.get(id(h))
    if hit is not None and hit[0] is h:
        return hit[1]
    layout = Layout(h.color, h.cities, h.towns, h.offboard, _paths(h.paths, 0), h.label)
    _HEX_CACHE[id(h)] = (h, layout)
    return layout


def distinct_rotations(tile: TileDef) -> list[int]:
    """Rotations that give different track (a straight has three, not six)."""
    seen: set[frozenset] = set()
    out = []
    for r in range(6):
        key = frozenset(frozenset(p) for p in tile_layout(tile, r).paths)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def keeps_track(old: Layout, new: Layout) -> bool:
    """True if ``new`` keeps every connection of ``old`` (see ``city_mapping``)."""
    return city_mapping(old, new) is not None


def city_mapping(old: Layout, new: Layout) -> tuple[int, ...] | None:
    """The city of ``new`` each city of ``old`` becomes, such that ``new`` keeps every connection of ``old``; None
    if no mapping does. Cities merge only on a tile with fewer of them (18FL's Jacksonville): where the count stays,
    each keeps its own city, or two stations would be crowded into one circle. Of several mappings, the first in
    the order of the new cities (an old city with no track yet takes the lowest new city left)."""
    n_old, n_new = len(old.cities), len(new.cities)
    old_conn = old.connections()
    if old_conn:
        if n_old and not n_new:
            return None
        if len(old.towns) != len(new.towns):
            return None
    new_conn = new.connections()
    merge = n_new < n_old
    for mapping in itertools.product(range(max(n_new, 1)), repeat=n_old):
        if not merge and len(set(mapping)) < n_old:
            continue
        if all(_pair(_mapped(a, mapping), _mapped(b, mapping)) in new_conn for a, b in old_conn):
            return mapping
    return None


def _mapped(node: Node, mapping: tuple[int, ...]) -> Node:
    return ("city", mapping[node[1]]) if node[0] == "city" else node

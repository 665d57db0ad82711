"""Laying and upgrading tiles: the checks every title shares.

A title narrows them through its rules object (which tiles a hex takes,
extra protections such as 18FL's rule against cutting off a corporation that
has not yet operated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .describe import compass_word, track_words
from .graph import Reach
from .graph import reach as graph_reach
from .messages import M, Msg, Text
from .tiles import COLOR_ORDER, Layout, city_mapping, distinct_rotations, keeps_track, tile_layout
from .wording import color_word

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class TileOption:
    hex: str
    tile: str
    rotation: int
    cost: int
    upgrade: bool


def is_upgrade(game: Game, hex_id: str) -> bool:
    return game.board.layout(hex_id).color != "white"


def next_color(layout: Layout) -> str | None:
    order = ["white", "yellow", "green", "brown", "gray"]
    i = order.index(layout.color) if layout.color in order else -1
    return order[i + 1] if 0 <= i < len(order) - 1 else None


def exit_problem(game: Game, hex_id: str, new: Layout) -> Msg | None:
    """New track may not run off the map, into a hex that cannot take track, or across a closed side."""
    board = game.board
    for e in sorted(new.exits):
        other = board.neighbour(hex_id, e)
        side = compass_word(board.layout_kind, e)
        if other is None:
            return M("track on its {side} side would run off the map or into the sea", side=side)
        if not board.edge_open(hex_id, e) or any(b.edge == (e + 3) % 6 for b in game.data.hex(other).borders):
            return M("the {side} side of {hex} is impassable", side=side, hex=hex_id)
        odef = game.data.hex(other)
        olayout = board.layout(other)
        if (odef.color == "red" or (odef.color == "gray" and not game.rules.track_may_end_at_grey_sides)) and \
                (e + 3) % 6 not in olayout.exits:
            return M("track on its {side} side would run into the blank side of {place}", side=side,
                     place=odef.name or other)
    return None


def tile_problem(
    game: Game, corp: str, hex_id: str, tile_id: str, rotation: int, reach: Reach, *, yellow_only: bool = False
) -> Text | None:
    """Why this lay is illegal for ``corp``, or None."""
    data = game.data
    if not data.has_hex(hex_id):
        return M("There is no hex {hex} on this map.", hex=hex_id)
    hdef = data.hex(hex_id)
    if hdef.color in ("red", "gray", "blue"):
        return M("{hex} cannot take track.", hex=hex_id)
    tdef = data.tiles.get(tile_id)
    if tdef is None:
        return M("There is no tile #{tile} in {title}.", tile=tile_id, title=data.title)
    if not game.board.supply.get(tile_id) and not tdef.unlimited:
        return M("All copies of tile #{tile} are on the map.", tile=tile_id)
    if rotation not in range(6):
        return M("Rotation must be 0 to 5.")
    if tdef.color not in game.phase.tiles:
        return M("{color} tiles are not available in phase {phase}.", color=color_word(tdef.color, capital=True),
                 phase=game.phase.name)
    old = game.board.layout(hex_id)
    special = special_tile_problem(game, hex_id, tile_id, rotation)
    if special:
        return special
    # a title's special upgrade (18FR-RCE rule 21/22) may skip a colour and change the number of towns
    direct = game.rules.direct_upgrade(game, corp, hex_id, tile_id)
    want = next_color(old)
    if tdef.color != want and not direct:
        if old.color == "white":
            return M("{hex} is empty: it takes a yellow tile first.", hex=hex_id)
        return M("{hex} holds a {color} tile: it can only be upgraded to {upgrade}.", hex=hex_id,
                 color=color_word(old.color), upgrade=color_word(want) if want else M("nothing"))
    if yellow_only and tdef.color != "yellow":
        return M("Only a yellow tile may be laid here.")
    label = game.rules.label_problem(game, hex_id, tile_id)
    if label:
        return label
    new = tile_layout(tdef, rotation)
    if direct:
        if not old.exits <= new.exits:
            return _loses_track(rotation, tile_id, hex_id)
    else:
        if len(new.towns) != len(old.towns) or (old.color == "white" and len(new.cities) != len(old.cities)):
            kind = M("a town") if old.towns else (M("a city") if old.cities else M("plain track"))
            return M("{hex} needs a tile with {kind}; #{tile} does not match.", hex=hex_id, kind=kind, tile=tile_id)
        if bool(old.cities) != bool(new.cities):
            return (M("{hex} needs a tile with a city.", hex=hex_id) if old.cities else
                    M("#{tile} has a city; {hex} has none.", tile=tile_id, hex=hex_id))
        if not keeps_track(old, new):
            return _loses_track(rotation, tile_id, hex_id)
    bad = exit_problem(game, hex_id, new)
    if bad:
        return M("Rotation {rotation} of #{tile} is wrong here: {problem}.", rotation=rotation, tile=tile_id,
                 problem=bad)
    if not _connected(game, corp, hex_id, old, new, reach, tile_id, rotation):
        if old.color != "white" and game.rules.new_track_must_connect and not new.cities:
            return M("Rotation {rotation} of #{tile} adds no track connected to {corp}'s stations; an upgrade "
                     "without a city must add connected track.", rotation=rotation, tile=tile_id, corp=corp)
        if reach.hex_edges.get(hex_id) or any(h == hex_id for h, _ in game.board.stations(corp)):
            # the hex is on the network: only this rotation misses it
            return M("Rotation {rotation} of #{tile} is wrong here: its track ({track}) does not meet {corp}'s "
                     "track at {hex}.", rotation=rotation, tile=tile_id, track=track_words(game.board, hex_id, new),
                     corp=corp, hex=hex_id)
        return M("{corp} cannot reach {hex}: new track must extend one of its routes.", corp=corp, hex=hex_id)
    cost = game.rules.lay_cost(game, hex_id)
    if game.corps[corp].cash < cost:
        return M("Building in {hex} costs {cost}; {corp} has {cash}.", hex=hex_id, cost=game.fmt(cost), corp=corp,
                 cash=game.fmt(game.corps[corp].cash))
    return game.rules.tile_lay_problem(game, corp, hex_id, tile_id, rotation)


def _loses_track(rotation: int, tile_id: str, hex_id: str) -> Msg:
    return M("Rotation {rotation} of #{tile} is wrong here: it does not keep all the existing track on {hex}.",
             rotation=rotation, tile=tile_id, hex=hex_id)


def special_tile_problem(game: Game, hex_id: str, tile_id: str, rotation: int) -> Msg | None:
    """Special tiles and the hexes reserved for them (18FR-RCE Paris, Lille, Lyon, ports), and fixed rotations."""
    hdef, tdef = game.data.hex(hex_id), game.data.tiles[tile_id]
    name = hdef.name or hex_id
    if hdef.only_tiles and tile_id not in hdef.only_tiles:
        return M("{place} ({hex}) takes only its own tiles: {tiles}.", place=name, hex=hex_id,
                 tiles=tuple(f"#{t}" for t in hdef.only_tiles))
    if tdef.only_hexes and hex_id not in tdef.only_hexes:
        where = tuple(f"{game.data.hex(h).name or h} ({h})" for h in tdef.only_hexes)
        return M("Tile #{tile} may be laid only in {hexes}.", tile=tile_id, hexes=where)
    if tdef.fixed_rotation is not None and rotation != tdef.fixed_rotation:
        return M("Tile #{tile} has one legal orientation (its text parallel to the bottom edge of the map): "
                 "rotation {fixed}, not {rotation}.", tile=tile_id, fixed=tdef.fixed_rotation, rotation=rotation)
    return None


def _connected(game: Game, corp: str, hex_id: str, old: Layout, new: Layout, reach: Reach, tile_id: str = "",
               rotation: int = 0) -> bool:
    if game.rules.lay_connects(game, corp, hex_id):
        return True
    touched = reach.hex_edges.get(hex_id, frozenset())
    if old.color == "white":
        # or the tile holds a city with the corporation's station (a home on a printed circle, 18AL)
        return bool(new.exits & touched) or any(h == hex_id for h, _ in game.board.stations(corp))
    # an upgrade must leave the corporation some of its track to reach (18FR-RCE rule 10 says no more): track at a
    # side its network meets (a side whose neighbour's track ends against no track is not enough), or a city or
    # town of the hex on its network
    on_net = bool(new.exits & touched) or any(h == hex_id for h, _ in reach.cities) or \
        any(h == hex_id for h, _ in reach.towns)
    if on_net and game.rules.new_track_must_connect and not new.cities:
        return _added_track_connected(game, corp, hex_id, old, new, tile_id, rotation, reach)
    return on_net


def _added_track_connected(game: Game, corp: str, hex_id: str, old: Layout, new: Layout, tile_id: str,
                           rotation: int, reach: Reach) -> bool:
    """Some track the new tile adds can be reached by a walk from one of the corporation's stations (traced like
    a train: no backtracking at a fork, not through a red area or a blocked city), with the tile in place."""
    board = game.board
    kept = {frozenset(p) for p in old.paths}
    added = [pi for pi, p in enumerate(new.paths) if frozenset(p) not in kept]
    # quick refusal: an added path can only be reached at a side whose neighbour's track is on the network, or at
    # a town or junction of this hex on a reached path
    sides = set()
    for e in range(6):
        other = board.neighbour(hex_id, e)
        if other is None or not board.edge_open(hex_id, e):
            continue
        back = (e + 3) % 6
        if any((other, pi) in reach.paths and ("edge", back) in p for pi, p in enumerate(board.layout(other).paths)):
            sides.add(e)
    inner = {n for pi, p in enumerate(old.paths) if (hex_id, pi) in reach.paths for n in p if n[0] != "edge"}
    if not any((n[0] == "edge" and n[1] in sides) or (n[0] != "edge" and n in inner)
               for pi in added for n in new.paths[pi]):
        return False
    st = board.hexes[hex_id]
    saved = (st.tile, st.rotation)
    current_graph = board.graph_cache.get(None)  # kept: the trial tile would evict the real board's graph
    st.tile, st.rotation = tile_id, rotation
    try:
        after = graph_reach(board, corp)
    finally:
        st.tile, st.rotation = saved
        if current_graph is not None:
            board.graph_cache[None] = current_graph
    return any((hex_id, pi) in after.paths for pi in added)


def city_map(game: Game, hex_id: str, tile_id: str, rotation: int) -> list[int]:
    """Where each old city's tokens go on the new tile: the city its track continues into (``city_mapping``)."""
    old = game.board.layout(hex_id)
    new = tile_layout(game.data.tiles[tile_id], rotation)
    mapping = city_mapping(old, new)
    if mapping is None:  # a lay the title allows without keeping the old track: each city keeps its place
        return [min(ci, max(len(new.cities) - 1, 0)) for ci in range(len(old.cities))]
    return list(mapping)


def legal_tiles(game: Game, corp: str, hex_id: str, reach: Reach, *, yellow_only: bool = False) -> list[TileOption]:
    out: list[TileOption] = []
    if not game.data.has_hex(hex_id):
        return out
    old = game.board.layout(hex_id)
    for tid, tdef in game.data.tiles.items():
        if not game.board.supply.get(tid) and not tdef.unlimited:
            continue
        if tdef.color != next_color(old) and not game.rules.direct_upgrade(game, corp, hex_id, tid):
            continue
        for r in distinct_rotations(tdef):
            if tile_problem(game, corp, hex_id, tid, r, reach, yellow_only=yellow_only) is None:
                cost = game.rules.lay_cost(game, hex_id)
                out.append(TileOption(hex_id, tid, r, cost, old.color != "white" or tdef.color != "yellow"))
    return out


def candidate_hexes(game: Game, reach: Reach) -> list[str]:
    """Hexes the network touches, where a lay could be legal."""
    out = set(reach.hex_edges)
    out |= {h for h, _ in reach.cities} | {h for h, _ in reach.towns}
    return sorted(h for h in out if game.data.has_hex(h) and game.data.hex(h).color not in ("red", "gray", "blue")
                  and COLOR_ORDER.get(game.board.layout(h).color, 9) < 4)

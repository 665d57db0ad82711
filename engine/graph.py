"""What one corporation can reach on the track graph. The graph itself, and what a walk on it is, are
``engine.trackgraph``'s (its names are re-exported here).

``reach`` and ``token_distance`` search over *directed segments* (a segment and the end it runs toward) from
the corporation's stations. Searching states instead of whole walks is exact: a shortest walk to any state never
repeats a node, because cutting out the loop leaves a legal walk (it has no extra stops and no new pass-through).
The one rule a state search cannot see, one stop per location, holds for the walks of each choice of the stop
allowed in every location that has several (18FL: Jacksonville's two cities; 1830: double-town and OO hexes); the
union over the choices is found in one search whose states also carry the stops of such locations entered
(``_search_choices``). The argument needs each side of a hex to carry at most one path, which holds in 18FL and
18AL; on a side with two paths of one hex (1830 Altoona) the search may accept a walk that crosses that side twice.
``token_distance`` searches breadth first with side crossings as the step cost; ``reach`` needs no costs, only
which states a walk gets to, and explores each state once (``_reached``).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter

from .board import Board
from .trackgraph import STOP_KINDS, GraphNode, TrackGraph, track_graph

__all__ = ["STOP_KINDS", "CorpView", "GraphNode", "Reach", "TrackGraph", "city_blocked", "corp_view", "reach",
           "token_distance", "track_graph"]

_TOKENS, _EXTRA = attrgetter("tokens"), attrgetter("extra_tokens")


@dataclass(frozen=True)
class CorpView:
    """What one corporation's tokens make of the graph."""

    corp: str
    stations: frozenset[int]  # city nodes holding its station (slot or beside-tile token; hotels are not)
    terminal: tuple[bool, ...]  # a walk may end here but not pass through


def corp_view(graph: TrackGraph, corp: str, from_stations: Iterable[tuple[str, int]] | None = None,
              tokens: tuple | None = None) -> CorpView:
    """``from_stations`` limits where walks start to those of the corporation's stations (18EZ: the home).
    ``tokens``: the board's ``token_key()``, if the caller has it (``reach``): the view is then kept in the
    graph's memo by it, as the reach is."""
    starts = None if from_stations is None else tuple(from_stations)
    if tokens is None:
        hexes = graph.board.hexes.values()
        return _corp_view(graph, corp, starts, list(chain.from_iterable(map(_TOKENS, hexes))),
                          any(map(_EXTRA, hexes)))
    key = ("view", corp, starts, tokens)
    view = graph.memo.get(key)
    if view is None:
        view = graph.memo[key] = _corp_view(graph, corp, starts, tokens[0], bool(tokens[1]))
    return view  # type: ignore[return-value]


def _corp_view(graph: TrackGraph, corp: str, from_stations: tuple[tuple[str, int], ...] | None,
               slots_all: Sequence[Sequence[str | None]], beside: bool) -> CorpView:
    """``slots_all``: the slots of every city of the board, hex by hex (as ``Board.token_key``); ``beside``:
    whether any hex has a token beside its tile."""
    board = graph.board
    hexes = board.hexes
    stations: set[int] = set()
    terminal = list(graph.fixed_terminal)
    fixed = graph.fixed_terminal
    memo = graph.stop_memo
    shape = memo.get("view_cities")
    if shape is None:
        # each city node, and each hex's number of cities: the token key lists the slots of the same cities in the
        # same order when every hex holds a slot list per city of its layout
        shape = memo["view_cities"] = ([nid for nid, _, _ in graph.city_nodes],
                                       tuple(len(lay.cities) for lay in graph._layouts.values()))
    nids, counts = shape  # type: ignore[misc]
    if not beside and tuple(map(len, map(_TOKENS, hexes.values()))) == counts:
        # the usual board (no token beside a tile) in C-level passes over the token key: the cities holding the
        # corporation's token, and of the full ones those closed to it (below, city by city, for the others)
        mine = list(map(operator.contains, slots_all, itertools.repeat(corp)))
        full = map(operator.and_, map(bool, slots_all),
                   map(operator.not_, map(operator.contains, slots_all, itertools.repeat(None))))
        for i in itertools.compress(range(len(nids)), full):
            if fixed[nids[i]] is None:
                terminal[nids[i]] = not mine[i]
        stations = set(itertools.compress(nids, mine))
        if from_stations is not None:
            stations = _start_nodes(graph, from_stations)
        return CorpView(corp, frozenset(stations), tuple(map(bool, terminal)))
    # one pass over the graph's cities (rather than every hex, as ``Board.stations``): the corporation's stations
    # (slot or beside-tile token) and, of the cities that tokens may close, those closed to it (``city_blocked``)
    for nid, hex_id, ci in graph.city_nodes:
        st = hexes[hex_id]
        tokens = st.tokens
        slots = tokens[ci] if ci < len(tokens) else ()
        mine = corp in slots or (bool(st.extra_tokens) and (corp, ci) in st.extra_tokens)
        if mine:
            stations.add(nid)
        if fixed[nid] is None:
            terminal[nid] = bool(slots) and None not in slots and not mine
    if from_stations is not None:
        stations = _start_nodes(graph, from_stations)
    return CorpView(corp, frozenset(stations), tuple(map(bool, terminal)))


def _start_nodes(graph: TrackGraph, from_stations: tuple[tuple[str, int], ...]) -> set[int]:
    out = set()
    for hex_id, ci in from_stations:
        nid = graph.stop_node(hex_id, "city", ci)
        if nid is not None:
            out.add(nid)
    return out


def city_blocked(board: Board, corp: str, hex_id: str, city: int) -> bool:
    """Every slot holds another corporation's token and the corporation has no token there of its own."""
    st = board.hexes[hex_id]
    slots = st.tokens[city] if city < len(st.tokens) else []
    if not slots or None in slots or corp in slots:
        return False
    return (corp, city) not in st.extra_tokens


# -- the state search -------------------------------------------------------------------------------------------
def _stops_here(graph: TrackGraph, view: CorpView, node: int, through_blocked: bool) -> bool:
    """A walk may not pass this terminal node: an off-board, a red city, a city closed to the corporation (unless
    ``through_blocked``)."""
    info = graph.nodes[node]
    if not (through_blocked and info.kind == "city" and city_blocked(graph.board, view.corp, info.hex, info.index)):
        return True
    return graph.board.layout(info.hex).color == "red"


def _groups(graph: TrackGraph, view: CorpView) -> list[list[int]]:
    """The locations holding several stops a walk from the stations may meet (``TrackGraph.exclusive_groups``)."""
    if all(graph.adj[n] for n in view.stations):
        # the groups of the stops with track, the same for every corporation: kept with the graph
        groups = graph.memo.get("track_groups")
        if groups is None:
            groups = graph.memo["track_groups"] = graph.exclusive_groups(itertools.compress(range(len(graph.adj)),
                                                                                            graph.adj))
        return groups  # type: ignore[return-value]
    return graph.exclusive_groups(n for n in range(len(graph.nodes)) if graph.adj[n] or n in view.stations)


def _reached(graph: TrackGraph, view: CorpView) -> tuple[set[int], set[int]]:
    """The nodes and segments of the legal walks from the stations: the keys of ``_search``'s costs, without them.

    Reach asks only what a walk can get to, so the states are explored once each in any order (a stack, of
    ``segment * width + node it runs toward``), and of the states of one segment and direction only those with the
    fewest stops of several-stop locations are kept (``_search_choices``: a walk that has entered fewer such stops
    can go on wherever one with more can). The state argument of the module docstring does not depend on the order
    of the search.
    """
    adj, moves, side, dead, seg_hex = graph.adj, graph.moves, graph.side, graph.dead, graph.seg_hex
    stations, terminal = view.stations, view.terminal
    width = len(graph.nodes)
    groups = _groups(graph, view)
    def onward(seg: int, node: int) -> list[int]:
        """The states a walk standing on ``seg`` at ``node`` goes on to (none where it must stop)."""
        if dead[node] or node in stations or terminal[node] and _stops_here(graph, view, node, False):
            return []
        if side[node]:
            here = seg_hex[seg]
            return [nxt * width + far for nxt, far in zip(adj[node], moves[node], strict=True) if seg_hex[nxt] != here]
        return [nxt * width + far for nxt, far in zip(adj[node], moves[node], strict=True) if nxt != seg]

    stack = [nxt * width + far for st in sorted(stations) for nxt, far in zip(adj[st], moves[st], strict=True)]
    stack.reverse()  # the first station's first segment first, as the search with costs starts
    if not groups:
        seen: set[int] = set()
        while stack:
            key = stack.pop()
            if key not in seen:
                seen.add(key)
                stack += onward(*divmod(key, width))
        return set(stations).union([k % width for k in seen]), {k // width for k in seen}
    bit, rivals = _choice_bits(groups)
    labels: dict[int, list[int]] = {}  # state -> stop sets (none within another)
    states = [(nxt * width + far, bit.get(st, 0)) for st in sorted(stations)
              for nxt, far in zip(adj[st], moves[st], strict=True)]
    states.reverse()
    while states:
        key, stops = states.pop()
        seg, node = divmod(key, width)
        b = bit.get(node)
        if b is not None:
            if stops & rivals[node]:
                continue  # another stop of this location is on the walk
            stops |= b
        have = labels.get(key)
        if have is None:
            labels[key] = [stops]
        elif stops in have or any(not s0 & ~stops for s0 in have):
            continue  # a walk with no more of these stops got here
        else:
            have[:] = [s0 for s0 in have if stops & ~s0]
            have.append(stops)
        states += [(k, stops) for k in onward(seg, node)]
    return set(stations).union([k % width for k in labels]), {k // width for k in labels}


def _search(
    graph: TrackGraph, view: CorpView, through_blocked: bool = False
) -> tuple[dict[int, int], dict[int, int]]:
    """Fewest side crossings to reach each node and each segment along legal walks from the stations.

    Returns (node -> cost, segment -> cost of standing on it). Cities blocked by other corporations are
    passable when ``through_blocked`` (a measuring rule some titles use for token costs).
    """
    node_cost: dict[int, int] = {}
    seg_cost: dict[int, int] = {}
    _search_choices(graph, view, _groups(graph, view), through_blocked, node_cost, seg_cost)
    return node_cost, seg_cost


def _search_choices(graph: TrackGraph, view: CorpView, groups: list[list[int]], through_blocked: bool,
                    node_cost: dict[int, int], seg_cost: dict[int, int]) -> None:
    """The search with costs (a breadth-first search, side crossings costing one) for every choice of one stop per
    location of several stops, in one search (with no such locations, ``groups`` is empty and every state has one
    label).

    A state carries the stops of such locations its walk has entered (a bit each); entering a stop whose location
    already has another entered one is the move an excluded stop forbids. So a state with stops A is reached
    exactly when it is under some choice that includes A, and the costs are those of the best choice. A state
    reached with stops A at cost c makes the same state with more stops at no less cost pointless: from it the
    walk can go wherever from the other. One search instead of one per choice (1830: 2^k for k double-town or OO
    hexes the corporation reaches).
    """
    adj, moves, side, dead = graph.adj, graph.moves, graph.side, graph.dead
    seg_hex = graph.seg_hex
    stations, terminal = view.stations, view.terminal
    bit, rivals = _choice_bits(groups)
    width = len(graph.nodes)
    big = 1 << 30
    labels: dict[int, list[tuple[int, int]]] = {}  # segment * width + node it runs toward -> (stops, crossings)
    queue: deque[tuple[int, int, int, int]] = deque()

    def push(seg: int, far: int, stops: int, cost: int, front: bool) -> None:
        b = bit.get(far)
        if b is not None:
            if stops & rivals[far]:
                return
            stops |= b
        key = seg * width + far
        have = labels.get(key)
        if have is None:
            labels[key] = [(stops, cost)]
        elif not _add_label(have, stops, cost):
            return
        (queue.appendleft if front else queue.append)((seg, far, stops, cost))

    for st in sorted(stations):
        node_cost[st] = 0
        start = bit.get(st, 0)
        for nxt, far in zip(adj[st], moves[st], strict=True):
            push(nxt, far, start, 0, True)
    while queue:
        seg, node, stops, cost = queue.popleft()
        if (stops, cost) not in labels[seg * width + node]:
            continue  # a better label came since
        if cost < node_cost.get(node, big):
            node_cost[node] = cost
        if cost < seg_cost.get(seg, big):
            seg_cost[seg] = cost
        if dead[node] or node in stations:
            continue
        if terminal[node] and _stops_here(graph, view, node, through_blocked):
            continue
        if side[node]:
            here = seg_hex[seg]
            for nxt, far in zip(adj[node], moves[node], strict=True):
                if seg_hex[nxt] != here:
                    push(nxt, far, stops, cost + 1, False)
        else:
            for nxt, far in zip(adj[node], moves[node], strict=True):
                if nxt != seg:
                    push(nxt, far, stops, cost, True)


def _choice_bits(groups: list[list[int]]) -> tuple[dict[int, int], dict[int, int]]:
    """Per stop of a location of several stops: its bit in a walk's set of such stops entered, and the bits of the
    other stops of its location (entering it is forbidden once one of those is entered)."""
    bit: dict[int, int] = {}
    rivals: dict[int, int] = {}
    for g in groups:
        for n in g:
            bit[n] = 1 << len(bit)
        mask = sum(bit[n] for n in g)
        for n in g:
            rivals[n] = mask & ~bit[n]
    return bit, rivals


def _add_label(have: list[tuple[int, int]], stops: int, cost: int) -> bool:
    """Add the label (stops entered, cost) to the labels of one state unless one of them is as good (no more stops at
    no more cost); drop those it is as good as. False if it was not added."""
    for s0, c0 in have:
        if not s0 & ~stops and c0 <= cost:
            return False
    # a label with fewer stops stays even when it costs more: it may go where the new one may not
    have[:] = [(s0, c0) for s0, c0 in have if stops & ~s0 or c0 < cost]
    have.append((stops, cost))
    return True


# -- public API -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reach:
    """The part of the board a corporation's legal walks can use."""

    cities: frozenset[tuple[str, int]]  # (hex, city index) a legal route can visit
    towns: frozenset[tuple[str, int]]
    paths: frozenset[tuple[str, int]]  # (hex, path index in board.layout(hex).paths) on the network
    # what ``hex_edges`` reads: the reached segments, their hexes and sides, the title's sides and hexes (not the
    # graph, which keeps this reach in its memo: no cycle, so a graph goes as soon as it is dropped)
    _segs: frozenset[int] = field(repr=False, compare=False)
    _seg_hex: list[str] = field(repr=False, compare=False)
    _seg_edges: list[tuple[int, ...]] = field(repr=False, compare=False)
    _sides: dict[tuple[str, int], tuple[str, int]] = field(repr=False, compare=False)
    _hexes: Iterable[str] = field(repr=False, compare=False)

    @functools.cached_property
    def hex_edges(self) -> dict[str, frozenset[int]]:
        """Sides of each hex the network touches (also from the neighbour's side). Worked out when first asked
        (a track lay's check asks; the station step, which asks for a reach after each lay, does not)."""
        edges: dict[str, set[int]] = {}
        seg_hex, seg_edges, sides = self._seg_hex, self._seg_edges, self._sides
        for s in self._segs:  # sets: the order of the segments does not matter
            hex_id = seg_hex[s]
            for e in seg_edges[s]:
                here = edges.get(hex_id)
                if here is None:
                    here = edges[hex_id] = set()
                here.add(e)
                across = sides.get((hex_id, e))
                if across is not None:
                    there = edges.get(across[0])
                    if there is None:
                        there = edges[across[0]] = set()
                    there.add(across[1])
        return {h: frozenset(edges[h]) for h in self._hexes if h in edges}


def reach(board: Board, corp: str, *, location: Callable[[str], str | None] | None = None,
          from_stations: Iterable[tuple[str, int]] | None = None) -> Reach:
    graph = track_graph(board, location)
    # The same corporation's reach is asked for several times per action (track lay, the station step, the
    # auto-passes of an import): a memo on the graph, keyed on what the search reads besides the track.
    starts = None if from_stations is None else tuple(from_stations)
    tokens = board.token_key()
    key = ("reach", corp, starts, tokens)
    memo = graph.memo.get(key)
    if memo is None:
        memo = graph.memo[key] = _reach(graph, corp, starts, tokens)
    assert isinstance(memo, Reach)
    return memo


def _reach(graph: TrackGraph, corp: str, from_stations: tuple[tuple[str, int], ...] | None, tokens: tuple) -> Reach:
    view = corp_view(graph, corp, from_stations, tokens)
    node_cost, seg_cost = _reached(graph, view)
    # (hex, index) of each city and town node, None for the rest: kept with the stops
    places = graph.stop_memo.get("reach_places")
    if places is None:
        places = graph.stop_memo["reach_places"] = tuple(
            [(n.hex, n.index) if n.kind == kind else None for n in graph.nodes[:graph._stop_count]]
            for kind in ("city", "town"))
    city_at, town_at = places  # type: ignore[misc]
    stops = [n for n in node_cost if n < graph._stop_count]
    cities = frozenset(filter(None, map(city_at.__getitem__, stops)))
    towns = frozenset(filter(None, map(town_at.__getitem__, stops)))
    paths = frozenset(map(graph.segs.__getitem__, seg_cost))
    board = graph.board
    return Reach(cities, towns, paths, frozenset(seg_cost), graph.seg_hex, graph.seg_edges, board.open_sides(),
                 board.title.hex_ids())


def token_distance(
    board: Board,
    corp: str,
    hex_id: str,
    *,
    node: tuple[str, int] | None = None,
    through_blocked: bool = False,
    location: Callable[[str], str | None] | None = None,
) -> int | None:
    """Fewest hex steps along the corporation's track from one of its stations to ``hex_id``.

    A station on the hex itself gives 0, an adjacent hex 1. The walk follows the same rules as ``reach``.
    ``node`` (("city", i) or ("town", i)) measures to that stop of the hex rather than to any of its track.
    ``through_blocked`` lets the measure pass cities full of other corporations' tokens. None if not connected.
    """
    graph = track_graph(board, location)
    view = corp_view(graph, corp)
    node_cost, seg_cost = _search(graph, view, through_blocked)
    if node is not None:
        nid = graph.stop_node(hex_id, node[0], node[1])
        return None if nid is None else node_cost.get(nid)
    costs = [c for s, c in seg_cost.items() if graph.seg_hex[s] == hex_id]
    costs += [c for n, c in node_cost.items() if graph.nodes[n].hex == hex_id and graph.nodes[n].is_stop]
    return min(costs) if costs else None

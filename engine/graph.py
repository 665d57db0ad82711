"""The track graph of a board, and what one corporation can reach on it.

Model
-----
Every path of every hex (printed or on a laid tile) is one *segment*. Segments meet at *nodes*:

* stops: a city, a town or an off-board of a hex;
* junctions: the centre of a Lawson-style plain tile, where all of its paths meet;
* sides: the side shared by two hexes whose track meets there (``Board.connects_across``). A walk crossing
  a side goes from a segment of one hex to a segment of the other, never back into the hex it came from;
* dead ends: a track end at a side where nothing continues.

A *walk* is what a train, or the trace for track laying and token placement, may follow. It uses no segment and
no side twice, visits no stop twice, and visits at most one stop per *location* (by default the hex: this is how
18FL forbids running between Jacksonville North and South). It never leaves an off-board, a city printed on a red
hex (18AL Nashville and Mobile) or a city whose every slot holds another corporation's token: those can only end
a walk. Junctions may be passed again on other segments (18FL D7: the junction is part of no track segment).
Off-boards marked ``visitable=False`` (18FL stubs A4/A6) cannot be entered at all, so their track is left out.

Reachability
------------
``reach`` and ``token_distance`` search over *directed segments* (a segment and the end it runs toward) from
the corporation's stations, breadth first with side crossings as the step cost. Searching states instead of
whole walks is exact: a shortest walk to any state never repeats a node, because cutting out the loop leaves a
legal walk (it has no extra stops and no new pass-through). The one rule a state search cannot see, one stop
per location, holds for the walks of each choice of the stop allowed in every location that has several (18FL:
Jacksonville's two cities; 1830: double-town and OO hexes); the union over the choices is found in one search
whose states also carry the stops of such locations entered (``_search_choices``). The argument needs each side
of a hex to carry at most one path, which holds in 18FL and 18AL; on a side with two paths of one hex (1830
Altoona) the search may accept a walk that crosses that side twice.
"""

from __future__ import annotations

import copy
import functools
import itertools
import operator
from bisect import bisect_left
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter, itemgetter

from .board import Board
from .tiles import Layout

STOP_KINDS = ("city", "town", "offboard")
_NODE_KEY = attrgetter("kind", "hex", "index")  # a node's key in ``TrackGraph._node_ids``
_TOKENS, _EXTRA = attrgetter("tokens"), attrgetter("extra_tokens")


@dataclass(frozen=True)
class GraphNode:
    """One node of the track graph.

    ``kind`` is "city", "town", "offboard", "junction", "side" or "dead". For stops and junctions ``index`` is
    the index on the hex; for sides and dead ends it is the edge number of ``hex`` (for a side, the first of its
    two hexes in (hex, edge) order; ``other`` names the second).
    """

    kind: str
    hex: str
    index: int
    other: tuple[str, int] | None = None

    @property
    def is_stop(self) -> bool:
        return self.kind in STOP_KINDS


_End = tuple[tuple, "tuple[str, int] | None", "tuple[str, int] | None", "tuple | None"]


def _path_ends(board: Board) -> Callable[[str, Layout], list[tuple[tuple[str, int], _End, _End, tuple[int, ...]]]]:
    """Each path of a hex's layout as (its segment's name (hex, path index), its two ends, the sides it ends at), its
    ends as graph node keys: (key, other, across, dead).

    A stop or junction end is its key. A track end at a side where another hex lies (``Board.open_sides``) is the
    side's key (``other``: its second hex and edge) if track there meets it, else the dead end ``dead``: ``across``
    (the hex and edge over the side) is what a build checks against the layouts of the moment. Everything else
    depends on the hex's layout alone, so it is kept with the title data per (hex, layout): a build after a tile
    lay works out again only which sides meet.
    """
    cache: dict[tuple[str, int], tuple[Layout, list]] = board.title.__dict__.setdefault("_graph_path_ends", {})
    sides = board.open_sides()

    def end(hex_id: str, kind: str, idx: int) -> _End:
        if kind != "edge":
            return (kind, hex_id, idx), None, None, None
        here = (hex_id, idx)
        across = sides.get(here)
        dead = ("dead", hex_id, idx)
        if across is None:
            return dead, None, None, None
        first, second = (here, across) if here < across else (across, here)
        return ("side", *first), second, across, dead

    def ends(hex_id: str, lay: Layout) -> list[tuple[tuple[str, int], _End, _End, tuple[int, ...]]]:
        hit = cache.get((hex_id, id(lay)))
        if hit is not None and hit[0] is lay:
            return hit[1]
        out = []
        for pi, (a, b) in enumerate(lay.paths):
            if a[0] == "edge":
                edges = (a[1], b[1]) if b[0] == "edge" else (a[1],)
            else:
                edges = (b[1],) if b[0] == "edge" else ()
            out.append(((hex_id, pi), end(hex_id, *a), end(hex_id, *b), edges))
        cache[(hex_id, id(lay))] = (lay, out)
        return out

    return ends


@dataclass(frozen=True)
class _Stops:
    """The stop nodes of a board, first in every track graph: each hex's cities, towns and visitable off-board."""

    nodes: tuple[GraphNode, ...]
    node_ids: dict[tuple, int]
    fixed_terminal: list[bool | None]  # see TrackGraph.fixed_terminal
    token_cities: list[int]
    city_nodes: list[tuple[int, str, int]]  # (node, hex, city index)
    hexes: list[str]  # each stop's hex: its location under the general rule
    # what other modules derive from the stops alone (route_check: each stop node's Stop), kept with them
    memo: dict[object, object] = field(default_factory=dict, compare=False)


def _stop_shape(title: dict, lay: Layout) -> int:
    """The number of the layout's arrangement of stops, kept with the title data (``title``: its ``__dict__``)."""
    # by the layout's id, with the layout (kept alive by it, and checked: a copy of the title data, such as a
    # snapshot's, holds the ids of another process)
    kinds: dict[int, tuple[Layout, int]] = title.setdefault("_graph_stop_kinds", {})
    hit = kinds.get(id(lay))
    if hit is not None and hit[0] is lay:
        return hit[1]
    shapes: dict[tuple, int] = title.setdefault("_graph_stop_shapes", {})
    numbers = title.setdefault("_graph_stop_numbers", itertools.count())  # next() is atomic: threads share this
    off = lay.offboard
    key = (len(lay.cities), len(lay.towns), lay.color == "red",
           None if off is None or not off.visitable else off.pass_through)
    shape = shapes.setdefault(key, next(numbers))
    kinds[id(lay)] = (lay, shape)
    return shape


def _stops(board: Board, layouts: dict[str, Layout]) -> _Stops:
    """The stop nodes for these layouts, kept with the title data per arrangement of stops (a tile lay seldom
    changes the stops of its hex: the next build takes them as they are)."""
    title = board.title.__dict__
    kinds: dict[int, tuple[Layout, int]] = title.setdefault("_graph_stop_kinds", {})
    try:  # C-level passes for the usual case: every layout known
        hits = tuple(map(kinds.__getitem__, map(id, layouts.values())))
        known = all(map(operator.is_, map(itemgetter(0), hits), layouts.values()))
    except KeyError:
        known = False
    sig = tuple(map(itemgetter(1), hits)) if known else tuple(_stop_shape(title, lay) for lay in layouts.values())
    cache: dict[tuple, _Stops] = title.setdefault("_graph_stops", {})
    hit = cache.get(sig)
    if hit is not None:
        return hit
    interned: dict[tuple, GraphNode] = title.setdefault("_graph_nodes", {})
    nodes: list[GraphNode] = []
    fixed: list[bool | None] = []
    for hex_id, lay in layouts.items():
        red = lay.color == "red"
        keys = [("city", hex_id, i) for i in range(len(lay.cities))]
        fixed += [True if red else None] * len(lay.cities)
        keys += [("town", hex_id, i) for i in range(len(lay.towns))]
        fixed += [False] * len(lay.towns)
        if lay.offboard is not None and lay.offboard.visitable:
            keys.append(("offboard", hex_id, 0))
            fixed.append(not lay.offboard.pass_through)
        for key in keys:
            node = interned.get(key)
            if node is None:
                node = interned[key] = GraphNode(*key)
            nodes.append(node)
    if len(cache) > 64:
        cache.clear()  # a game goes through a few dozen arrangements of stops at most
    out = cache[sig] = _Stops(tuple(nodes), {(n.kind, n.hex, n.index): i for i, n in enumerate(nodes)}, fixed,
                              [i for i, t in enumerate(fixed) if t is None],
                              [(i, n.hex, n.index) for i, n in enumerate(nodes) if n.kind == "city"],
                              [n.hex for n in nodes])
    return out


class TrackGraph:
    """Segments and nodes of the whole board; the same for every corporation.

    ``location`` maps a hex to the location its stops belong to; stops of one location exclude each other on
    a walk. The default (each hex its own location) is the general rule; a title can merge hexes, such as two
    red hexes of one off-board area, or (None) make each stop of a hex its own location.
    """

    def __init__(self, board: Board, location: Callable[[str], str | None] | None = None, *,
                 previous: tuple[tuple, TrackGraph] | None = None, tiles: tuple | None = None) -> None:
        """``previous``: the (tiles, graph) of the board's last arrangement, ``tiles`` its arrangement now (as
        ``track_graph`` keys them). When a few hexes changed and their stops did not, the build resumes from the
        previous graph at the first hex whose paths may read differently (``_resume``); the graph is the same as a
        build from scratch, ids and order included."""
        self.board = board
        if previous is None or tiles is None or location is not None or not self._resume(previous, tiles):
            self._start()
        self._lay_paths()
        self._finish(location)

    def _start(self) -> None:
        board = self.board
        self._order = list(board.hexes)
        self._layouts = layouts = {h: board.layout(h) for h in self._order}
        # Every hex's stops get a node, even without track, so that node ids of the whole board resolve; they come
        # first, and are the same for every arrangement of tiles with the same stops (``_stops``).
        self._stops = stops = _stops(board, layouts)
        self._stop_count = count = len(stops.nodes)
        self.nodes: list[GraphNode] = list(stops.nodes)
        self._node_ids: dict[tuple, int] = dict(stops.node_ids)
        self.segs: list[tuple[str, int]] = []  # (hex, path index in board.layout(hex).paths)
        self.seg_ends: list[tuple[int, int]] = []
        self.seg_hex: list[str] = []
        self.seg_edges: list[tuple[int, ...]] = []  # the hex's sides the segment ends at
        # node -> incident segments, in construction order; () for a node with none (a node's first segment makes
        # it a list: the empty ones are one shared value, and a resumed build shares the previous graph's)
        self.adj: list[Sequence[int]] = [()] * count
        # node -> the node at the far end of each of its segments (``adj``'s order): the state search's steps. Ids
        # alone (a tuple per step was most of what a build left for the collector to count).
        self.moves: list[Sequence[int]] = [()] * count
        self._sides: list[int] = []  # side nodes, in id order
        self.dead: list[bool] = [False] * count
        # (nodes, segments, sides) as each hex's paths begin, three numbers per hex in one flat list (no tuple per
        # hex for the collector to count)
        self._marks: list[int] = []
        self._from = 0  # the first hex whose paths are still to be laid

    def _resume(self, previous: tuple[tuple, TrackGraph], tiles: tuple) -> bool:
        """Take from the previous graph everything built before the first hex that changed or has track running
        to a changed hex.

        A build lays the hexes' paths in board order, and a hex's paths read only its own layout and, at each side
        its track runs to, whether the hex across has an exit there: before that first hex, the previous build did
        exactly what this one would. Its state there is cut out of the previous graph (``_marks`` says where it
        stood)."""
        (names0, turns0), prev = previous
        names, turns = tiles
        if prev.board.title is not self.board.title or len(names0) != len(names) or "_marks" not in prev.__dict__:
            return False
        changed = list(itertools.compress(range(len(names)), map(operator.or_, map(operator.ne, names0, names),
                                                                  map(operator.ne, turns0, turns))))
        if not changed or len(changed) > 4:
            return False
        board, title = self.board, self.board.title.__dict__
        order, layouts = prev._order, dict(prev._layouts)
        sides = board.open_sides()
        first = min(changed)
        place = title.get("_graph_hex_place")
        if place is None:
            place = title["_graph_hex_place"] = {h: i for i, h in enumerate(order)}
        for i in changed:
            hex_id = order[i]
            lay = board.layout(hex_id)
            if _stop_shape(title, lay) != _stop_shape(title, layouts[hex_id]):
                return False  # its stops changed: node ids shift
            layouts[hex_id] = lay
            for edge in range(6):
                across = sides.get((hex_id, edge))
                # a neighbour's paths read this hex only where it has track running to the side between them
                if across is not None and across[1] in layouts[across[0]].exits:
                    first = min(first, place[across[0]])
        k0, s0, d0 = prev._marks[3 * first:3 * first + 3]
        self._order, self._layouts, self._stops, self._stop_count = order, layouts, prev._stops, prev._stop_count
        self.nodes = prev.nodes[:k0]
        self._node_ids = node_ids = dict(prev._node_ids)
        for key in map(_NODE_KEY, prev.nodes[k0:]):
            del node_ids[key]
        self.segs, self.seg_ends = prev.segs[:s0], prev.seg_ends[:s0]
        self.seg_hex, self.seg_edges = prev.seg_hex[:s0], prev.seg_edges[:s0]
        # Lists of nodes met only before ``first`` are shared: laying the rest never adds to them (a segment of a
        # later hex meets such a node only across a side of a hex that did not change, and did so before too), and
        # a node with no segment yet gets a new list with its first one.
        adj, moves = prev.adj[:k0], prev.moves[:k0]
        # the nodes to cut are the ends of the segments laid from ``first`` on
        for n in set(itertools.chain.from_iterable(prev.seg_ends[s0:])):
            if n < k0:
                segs = adj[n]
                cut = bisect_left(segs, s0)
                adj[n], moves[n] = (segs[:cut], moves[n][:cut]) if cut else ((), ())
        self.adj, self.moves = adj, moves
        self._sides, self.dead = prev._sides[:d0], prev.dead[:k0]
        self._marks, self._from = prev._marks[:3 * first], first
        return True

    def _lay_paths(self) -> None:
        nodes, node_ids, adj, moves, sides, dead = (self.nodes, self._node_ids, self.adj, self.moves, self._sides,
                                                    self.dead)
        segs, seg_ends, seg_hex, seg_edges, marks = self.segs, self.seg_ends, self.seg_hex, self.seg_edges, self._marks
        layouts = self._layouts
        # GraphNodes are values: one of each is kept with the title data and shared by every build (a build
        # after each tile lay was mostly making the same nodes again)
        interned: dict[tuple, GraphNode] = self.board.title.__dict__.setdefault("_graph_nodes", {})

        def add(key: tuple, other: tuple[str, int] | None) -> int:
            """A side, dead end or junction seen for the first time."""
            nid = node_ids[key] = len(nodes)
            node = interned.get(key)
            if node is None:
                node = interned[key] = GraphNode(*key, other)
            nodes.append(node)
            adj.append(())
            moves.append(())
            dead.append(key[0] == "dead")
            if key[0] == "side":
                sides.append(nid)
            return nid

        ends = _path_ends(self.board)
        for hex_id in self._order[self._from:]:
            marks += len(nodes), len(segs), len(sides)
            lay = layouts[hex_id]
            if not lay.paths:
                continue
            for seg, (key0, other0, across0, dead0), (key1, other1, across1, dead1), edges in ends(hex_id, lay):
                # both ends are resolved, in this order, before a path is skipped: node ids follow first sight
                if across0 is not None and across0[1] not in layouts[across0[0]].exits:
                    key0, other0 = dead0, None  # no track meets it across the side
                e0 = node_ids.get(key0)
                if e0 is None and key0[0] not in STOP_KINDS:
                    e0 = add(key0, other0)
                if across1 is not None and across1[1] not in layouts[across1[0]].exits:
                    key1, other1 = dead1, None
                e1 = node_ids.get(key1)
                if e1 is None and key1[0] not in STOP_KINDS:
                    e1 = add(key1, other1)
                if e0 is None or e1 is None:
                    continue  # runs into a stub no train may enter
                sid = len(segs)
                segs.append(seg)
                seg_ends.append((e0, e1))
                seg_hex.append(hex_id)
                seg_edges.append(edges)
                if adj[e0]:
                    adj[e0].append(sid)  # type: ignore[attr-defined]
                    moves[e0].append(e1)  # type: ignore[attr-defined]
                else:
                    adj[e0], moves[e0] = [sid], [e1]
                if e1 != e0:
                    if adj[e1]:
                        adj[e1].append(sid)  # type: ignore[attr-defined]
                        moves[e1].append(e0)  # type: ignore[attr-defined]
                    else:
                        adj[e1], moves[e1] = [sid], [e0]

    def _finish(self, location: Callable[[str], str | None] | None) -> None:
        nodes, stops = self.nodes, self._stops
        # What ends a walk by the track alone: an off-board (unless pass-through, 18FR-RCE Genève) or a city on a
        # red hex; None for the other cities, which end a walk only when blocked by tokens (``corp_view``).
        self.fixed_terminal: list[bool | None] = stops.fixed_terminal + [False] * (len(nodes) - self._stop_count)
        self.token_cities = stops.token_cities
        self.city_nodes = stops.city_nodes
        self.side = [False] * len(nodes)
        for nid in self._sides:
            self.side[nid] = True
        self.location = self._locations(location)
        # What other modules derive from the track and location rule (route links, reach), kept with the graph
        # that ``track_graph`` hands out again while the track is unchanged; its copies share this dict.
        self.memo: dict[object, object] = {}

    @functools.cached_property
    def seg_index(self) -> dict[tuple[str, int], int]:
        """Each segment's id by its (hex, path index)."""
        return {s: i for i, s in enumerate(self.segs)}

    @functools.cached_property
    def side_bit(self) -> dict[int, int]:
        """Resource bits: one per segment, then one per side, so that "no shared track" is one AND (route
        networks ask; a graph built for a tile lay's checks may never be asked)."""
        base = len(self.segs)
        return {nid: 1 << (base + k) for k, nid in enumerate(self._sides)}

    def _locations(self, location: Callable[[str], str | None] | None) -> list[str | None]:
        rest: list[str | None] = [None] * (len(self.nodes) - self._stop_count)  # junctions, sides, dead ends
        stops = self.nodes[:self._stop_count]
        if location is None:
            return self._stops.hexes + rest  # the general rule: each hex its own location
        # a location of None makes each stop of the hex a location of its own (1830: both cities of an OO tile)
        return [location(n.hex) or f"{n.hex}/{n.kind}{n.index}" for n in stops] + rest

    def relocated(self, location: Callable[[str], str | None] | None, places: tuple | None = None) -> TrackGraph:
        """The same track under another location rule: the rule touches nothing but ``location``, so the
        segments and nodes are shared rather than built again (route runs and track checks use different rules).
        ``places``: the rule's reading of every hex (``_places``), if known; the stops' locations are then kept
        with the stops."""
        graph = copy.copy(self)
        if places is None:
            graph.location = self._locations(location)
        else:
            key = ("locations", places)
            prefix = self._stops.memo.get(key)
            if prefix is None:
                prefix = self._stops.memo[key] = self._locations(location)[:self._stop_count]
            graph.location = prefix + [None] * (len(self.nodes) - self._stop_count)  # type: ignore[operator]
        graph.memo = {}
        return graph

    @property
    def stop_memo(self) -> dict[object, object]:
        """A memo for what derives from the board's stops alone: it lasts while tile lays leave the stops as they
        are (graphs of one arrangement of stops share it)."""
        return self._stops.memo

    # -- lookups -----------------------------------------------------------------------------------------------
    def stop_node(self, hex_id: str, kind: str, index: int) -> int | None:
        return self._node_ids.get((kind, hex_id, index))

    def other_end(self, seg: int, node: int) -> int:
        a, b = self.seg_ends[seg]
        return b if a == node else a

    def seg_bit(self, seg: int) -> int:
        return 1 << seg

    def stop_nodes(self) -> list[int]:
        return list(range(self._stop_count))  # the stops come first (``_stops``)

    def exclusive_groups(self, nodes: Iterable[int]) -> list[list[int]]:
        """Locations holding several of the given stops, each as its list of stops."""
        by_loc: dict[str, list[int]] = {}
        for n in nodes:
            loc = self.location[n]
            if loc is not None:
                by_loc.setdefault(loc, []).append(n)
        return [g for g in by_loc.values() if len(g) > 1]


_GRAPHS: OrderedDict[tuple, tuple[object, TrackGraph]] = OrderedDict()
_GRAPHS_KEPT = 16


def _shared_graph(board: Board, location: Callable[[str], str] | None, tiles: tuple,
                  places: tuple | None) -> TrackGraph:
    """A graph for this track from the graphs of the last few arrangements seen on any board.

    Copies of a board (snapshots, an undo's replay, a record replayed again) hold the same track as the board they
    came from: the graph built for one serves them all, bound to each board (whose tokens ``corp_view`` reads).
    Its ``memo`` (route links) is shared with it. A pure memo: it returns what building anew would.
    """
    key = (id(board.title), tuple(board.hexes), tiles, places)
    hit = _GRAPHS.get(key)
    if hit is not None and hit[0] is board.title:
        _GRAPHS.move_to_end(key)
        graph = hit[1]
    else:
        if places is None:
            # the board's last graph, usually one tile lay ago: the build resumes from it where it can
            graph = TrackGraph(board, location, previous=board.graph_cache.get(None), tiles=tiles)
        else:
            graph = _shared_graph(board, None, tiles, None).relocated(location, places)
        _GRAPHS[key] = (board.title, graph)
        if len(_GRAPHS) > _GRAPHS_KEPT:
            _GRAPHS.popitem(last=False)
    if graph.board is not board:
        graph = copy.copy(graph)
        graph.board = board
    if places is None:
        board.graph_cache[None] = (tiles, graph)
    return graph


@dataclass(frozen=True)
class CorpView:
    """What one corporation's tokens make of the graph."""

    corp: str
    stations: frozenset[int]  # city nodes holding its station (slot or beside-tile token; hotels are not)
    terminal: tuple[bool, ...]  # a walk may end here but not pass through


def track_graph(board: Board, location: Callable[[str], str | None] | None = None) -> TrackGraph:
    """The board's graph, built once per arrangement of tiles (legality checks and route runs ask for it at
    almost every action; tokens are read from the board when a corporation's view is taken).

    ``location`` is a function of the hex alone (``RouteHooks.location``): the board keeps one graph per rule,
    a bound method of equal rules objects (route rules are made afresh for every check) being one rule."""
    tiles = _tiles(board)
    rule = _rule_key(location)
    places: tuple | None = None
    if rule is _UNKEYED:
        rule = places = _places(board, location)
    cache = board.graph_cache
    hit = cache.get(rule)
    if hit is not None and hit[0] == tiles:
        graph: TrackGraph = hit[1]
        return graph
    if rule is not places:
        # a rule reads the hexes alone: its reading is kept with the title data
        known: dict[object, tuple | None] = board.title.__dict__.setdefault("_graph_places", {})
        places = known[rule] if rule in known else known.setdefault(rule, _places(board, location))
    graph = _shared_graph(board, None if places is None else location, tiles, places)
    cache[rule] = (tiles, graph)
    return graph


def _places(board: Board, location: Callable[[str], str | None] | None) -> tuple | None:
    """Each hex's location under the rule; None for the general rule (each hex its own location)."""
    if location is None:
        return None
    places = tuple(location(h) for h in board.hexes)
    return None if all(p == h for p, h in zip(places, board.hexes, strict=True)) else places


_TILE, _ROTATION = attrgetter("tile"), attrgetter("rotation")


def _tiles(board: Board) -> tuple[tuple[str | None, ...], tuple[int, ...]]:
    """The board's arrangement of tiles as its graphs are keyed: each hex's tile, and each hex's rotation (two flat
    tuples: asked at every ``track_graph``, and a pair per hex was most of what the collector had to count)."""
    hexes = board.hexes.values()
    return tuple(map(_TILE, hexes)), tuple(map(_ROTATION, hexes))
_UNKEYED = object()


def _rule_key(location: Callable[[str], str | None] | None) -> object:
    """What the board keys its graph for this location rule by: None for the general rule, (function, rules object)
    for a bound method of a value (route rules); otherwise ``_UNKEYED``: by what it makes of the board's hexes."""
    if location is None:
        return None
    func = getattr(location, "__func__", None)
    if func is None:
        return _UNKEYED
    key = (func, location.__self__)  # type: ignore[attr-defined]
    try:
        hash(key)
    except TypeError:
        return _UNKEYED
    return key


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
    stack = [nxt * width + far for st in sorted(stations) for nxt, far in zip(adj[st], moves[st], strict=True)]
    stack.reverse()  # the first station's first segment first, as the search with costs starts
    if not groups:
        seen: set[int] = set()
        while stack:
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            seg, node = divmod(key, width)
            if dead[node] or node in stations:
                continue
            if terminal[node] and _stops_here(graph, view, node, False):
                continue
            if side[node]:
                here = seg_hex[seg]
                stack += [nxt * width + far for nxt, far in zip(adj[node], moves[node], strict=True)
                          if seg_hex[nxt] != here]
            else:
                stack += [nxt * width + far for nxt, far in zip(adj[node], moves[node], strict=True) if nxt != seg]
        return set(stations).union([k % width for k in seen]), {k // width for k in seen}
    bit: dict[int, int] = {}
    rivals: dict[int, int] = {}
    for g in groups:
        for n in g:
            bit[n] = 1 << len(bit)
        mask = sum(bit[n] for n in g)
        for n in g:
            rivals[n] = mask & ~bit[n]
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
        if dead[node] or node in stations:
            continue
        if terminal[node] and _stops_here(graph, view, node, False):
            continue
        if side[node]:
            here = seg_hex[seg]
            states += [(nxt * width + far, stops) for nxt, far in zip(adj[node], moves[node], strict=True)
                       if seg_hex[nxt] != here]
        else:
            states += [(nxt * width + far, stops) for nxt, far in zip(adj[node], moves[node], strict=True)
                       if nxt != seg]
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
    groups = _groups(graph, view)
    if groups:
        _search_choices(graph, view, groups, through_blocked, node_cost, seg_cost)
    else:
        _search_once(graph, view, through_blocked, node_cost, seg_cost)
    return node_cost, seg_cost


def _search_choices(graph: TrackGraph, view: CorpView, groups: list[list[int]], through_blocked: bool,
                    node_cost: dict[int, int], seg_cost: dict[int, int]) -> None:
    """``_search_once`` for every choice of one stop per location of several stops, in one search.

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
    bit: dict[int, int] = {}
    rivals: dict[int, int] = {}
    for g in groups:
        for n in g:
            bit[n] = 1 << len(bit)
        mask = sum(bit[n] for n in g)
        for n in g:
            rivals[n] = mask & ~bit[n]
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
        else:
            for s0, c0 in have:
                if not s0 & ~stops and c0 <= cost:
                    return
            have[:] = [(s0, c0) for s0, c0 in have if s0 & ~stops or c0 < cost]
            have.append((stops, cost))
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


def _search_once(graph: TrackGraph, view: CorpView, through_blocked: bool, node_cost: dict[int, int],
                 seg_cost: dict[int, int]) -> None:
    """The state search where every stop may be on a walk (no location holds several of the stops)."""
    adj, moves, side, dead = graph.adj, graph.moves, graph.side, graph.dead
    seg_hex = graph.seg_hex
    stations, terminal = view.stations, view.terminal
    width = len(graph.nodes)
    big = 1 << 30
    best: dict[int, int] = {}  # segment * width + node it runs toward -> crossings
    queue: deque[tuple[int, int, int]] = deque()
    for st in sorted(stations):
        node_cost[st] = 0
        for nxt, far in zip(adj[st], moves[st], strict=True):
            key = nxt * width + far
            if best.get(key, big) > 0:
                best[key] = 0
                queue.appendleft((nxt, far, 0))
    while queue:
        seg, node, cost = queue.popleft()
        if best[seg * width + node] < cost:
            continue
        if cost < node_cost.get(node, big):
            node_cost[node] = cost
        if cost < seg_cost.get(seg, big):
            seg_cost[seg] = cost
        if dead[node] or node in stations:
            # a station is a starting point already; arriving there again adds nothing new
            continue
        if terminal[node] and _stops_here(graph, view, node, through_blocked):
            continue
        if side[node]:
            # a side is crossed into the other hex, never back into the one the walk came from
            here = seg_hex[seg]
            step = cost + 1
            for nxt, far in zip(adj[node], moves[node], strict=True):
                key = nxt * width + far
                if seg_hex[nxt] != here and best.get(key, big) > step:
                    best[key] = step
                    queue.append((nxt, far, step))
        else:
            for nxt, far in zip(adj[node], moves[node], strict=True):
                key = nxt * width + far
                if nxt != seg and best.get(key, big) > cost:
                    best[key] = cost
                    queue.appendleft((nxt, far, cost))


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

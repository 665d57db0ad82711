"""The track graph of a board: its nodes and segments, built once per arrangement of tiles.

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

A build lays the hexes' paths in board order, so node and segment ids are those of a build from scratch however
the graph was made (resumed from the board's previous graph after a tile lay: ``TrackGraph._resume``); what a
corporation reaches on it is ``engine.graph``'s.
"""

from __future__ import annotations

import copy
import functools
import itertools
import operator
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from .board import Board
from .tiles import Layout

STOP_KINDS = ("city", "town", "offboard")
_NODE_KEY = attrgetter("kind", "hex", "index")  # a node's key in ``TrackGraph._node_ids``


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

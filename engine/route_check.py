"""Checking a submitted route set: the rules of a route, then track realising all the routes, building only the
links the submitted stops use.

The route search reduces the whole track to stops and links first (``route_network.Network``: every link from every
stop, then the track classes); a check only follows links out of the stops it was given. Here the links of a stop
are found the first time a check asks for them and kept with the track graph, like the search's network, until a
tile changes; and the check itself runs on the submitted stops alone (``_Subnet``), so that the stop names its
messages may need are asked for those stops only. The links of one stop are the same list, in the same order, as
the full network's (``Network._links_from`` alone decides them, and which other stops exist does not change the
links between two), so the check chooses the same track as one on the full network would
(``tests/route_oracle.py`` is that checker, and ``tests/test_route_check.py`` compares the two). A route's
realisations are made as the backtracking over them asks (``_realise``), and stop names only for a message. The
same links answer whether a 2-train could run at all (``two_train_runs``, ``two_stops_earn``: the auto-pass checks
of the buy-train step).

An import checks every recorded run once (``records.reader``); a record's routes touch a handful of stops, while
the full network of a late 1830 map links about sixty."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .board import Board
from .graph import TrackGraph, city_blocked, corp_view, track_graph
from .messages import M, Msg
from .route_network import Link, Network
from .route_types import Route, RouteError, RouteHooks, RouteSet, Stop, TrainSpec, check_train_ids

# -- the rules of a submitted route ---------------------------------------------------------------------------------


def called(train: TrainSpec) -> Msg:
    """A train as players call it ("5-train"), never by its id ("5-1"): routes go to trains by kind, so the kind
    names the one a refusal is about."""
    base, plus, chit = train.name.partition("+")  # 18AL: a name chit on the train ("4+Memphis")
    return M("{name}-train ({chit})", name=base, chit=chit) if plus else M("{name}-train", name=base)


def _parse_node(net: Network, train: TrainSpec, node: str) -> int:
    hex_id, sep, part_s = node.rpartition("-")
    if not sep or not part_s.isdigit() or hex_id not in net.board.hexes:
        raise RouteError(M("{train}: {node} is not a stop (expected <hex>-<number>, e.g. B23-0)",
                           train=called(train), node=repr(node)))
    part = int(part_s)
    for i, s in enumerate(net.stops):
        if s.hex == hex_id and s.part == part:
            return i
    raise RouteError(M("{train}: there is no stop {node} with track on the map", train=called(train), node=node))


def _names(net: Network) -> list[str]:
    return [net.rules.stop_name(s, net.board) for s in net.stops]


def _check_stop_set(net: Network, train: TrainSpec, seq: list[int]) -> None:
    """The rules that do not depend on the order of the stops."""
    name = _names(net)
    tid = called(train)
    if len(seq) < 2:
        raise RouteError(M("{train}: a route needs at least two stops", train=tid))
    for k, i in enumerate(seq):
        if i in seq[:k]:
            raise RouteError(M("the {train} visits {stop} twice", train=tid, stop=name[i]))
    for k, i in enumerate(seq):
        for j in seq[:k]:
            if net.graph.location[net.nodes[i]] == net.graph.location[net.nodes[j]]:
                raise RouteError(M("the {train} may not run between {a} and {b}: a route visits one stop per hex",
                                   train=tid, a=name[j], b=name[i]))
    if not any(net.station[i] for i in seq):
        raise RouteError(M("{train}: the route has no {corp} station", train=tid, corp=net.corp), telling=False)
    majors = sum(net.major[i] for i in seq)
    towns = len(seq) - majors
    if not train.fits(majors, towns):
        what = M("cities, towns and off-boards") if train.counted(0, 1) else M("cities and off-boards")
        raise RouteError(M("a {train} may visit {n} {stops}; this route has {count}", train=tid, n=train.distance,
                           stops=what, count=train.counted(majors, towns)))
    if train.scoring_stops(majors, towns) < 2:
        what = M("cities or off-boards") if train.express else M("stops")
        raise RouteError(M("a {train} needs at least two {stops} to score", train=tid, stops=what))


def _order_problem(net: Network, train: TrainSpec, seq: list[int]) -> Msg:
    """Why the stops cannot be run in this order (called once no order of them can be run)."""
    name = _names(net)
    tid = called(train)
    for i in seq[1:-1]:
        s = net.stops[i]
        if net.terminal[i] and (s.kind == "offboard" or (s.kind == "city" and net.board.layout(s.hex).color == "red")):
            return M("{train}: {stop} is an off-board area and may only be at an end of a route", train=tid,
                     stop=name[i])
        if s.kind == "city" and city_blocked(net.board, net.corp, s.hex, s.index):
            return M("{train}: {stop} is full of other corporations' tokens; a route may end there but not "
                     "pass through", train=tid, stop=name[i])
    used_sets = [0]
    for a, b in itertools.pairwise(seq):
        links = [lk for lk in net.links[a] if lk.end == b]
        if not links:
            return M("{train}: no track from {a} to {b} without passing another stop (a train may not skip "
                     "cities or towns)", train=tid, a=name[a], b=name[b])
        used_sets = [u | lk.res for u in used_sets for lk in links if not u & lk.res][:4096]
        if not used_sets:
            return M("the {train} would use track twice between {a} and {b}", train=tid, a=name[a], b=name[b])
    return M("{train}: these stops cannot be run in any order", train=tid)


_MAX_ORDERS = 2000  # realisations tried per route; a route has a handful


# -- links found on demand ------------------------------------------------------------------------------------------


class _LinkFinder:
    """What ``Network._links_from`` reads of a network, and that method: the links a check keeps refer to this
    rather than to the network, which refers to them (no reference cycle, so nothing waits for the collector)."""

    _links_from = Network._links_from

    def __init__(self, graph: TrackGraph, nodes: list[int], local: dict[int, int]) -> None:
        self.graph, self.nodes, self.local = graph, nodes, local


class _StopLinks:
    """``links[i]``: the links out of local stop ``i``, found on first use and kept in ``cache``."""

    def __init__(self, finder: _LinkFinder, cache: dict[int, list[Link]]) -> None:
        self._finder, self._cache = finder, cache

    def __getitem__(self, i: int) -> list[Link]:
        links = self._cache.get(i)
        if links is None:
            links = self._cache[i] = self._finder._links_from(i)
        return links


class _CheckNetwork(Network):
    """The corporation's view of the graph with links found on demand (no track classes: a check needs none)."""

    def __init__(self, board: Board, corp: str, rules: RouteHooks) -> None:
        self.board, self.corp, self.rules = board, corp, rules
        self.graph = graph = track_graph(board, rules.location)
        self.view = corp_view(graph, corp)
        base = graph.memo.get("route_check")
        if base is None:
            # the stop part of ``Network._track_part``, without its links
            self.nodes = [n for n in graph.stop_nodes() if graph.adj[n]]
            self.local = {n: i for i, n in enumerate(self.nodes)}
            made: dict[int, Stop] = graph.stop_memo.setdefault("route_stops", {})  # type: ignore[assignment]
            self.stops = [made.get(n) or made.setdefault(n, self._stop(n)) for n in self.nodes]
            self.major = [0 if s.kind == "town" else 1 for s in self.stops]
            by_id = {s.node_id(): i for i, s in enumerate(self.stops)}
            base = graph.memo["route_check"] = (self.nodes, self.local, self.stops, self.major, by_id, {})
        self.nodes, self.local, self.stops, self.major, self.by_id, cache = base
        self.links = _StopLinks(_LinkFinder(graph, self.nodes, self.local), cache)  # type: ignore[assignment]
        self.station = [n in self.view.stations for n in self.nodes]
        self.terminal = [self.view.terminal[n] for n in self.nodes]

    def parse(self, train: TrainSpec, node: str) -> int:
        """``_parse_node``: the stop a node id names, or its RouteError."""
        i = self.by_id.get(node)
        return _parse_node(self, train, node) if i is None else i


class _Subnet(Network):
    """The stops ``picks`` of a network and the links among them, renumbered.

    A check reads nothing but the submitted stops and the links between them, in the order the full network lists
    them: names (which messages need, and ``_names`` takes for every stop) are asked for these stops alone.
    """

    def __init__(self, full: _CheckNetwork, picks: list[int]) -> None:
        self.board, self.corp, self.rules = full.board, full.corp, full.rules
        self.graph, self.view = full.graph, full.view
        self.nodes = [full.nodes[i] for i in picks]
        self.local = {n: k for k, n in enumerate(self.nodes)}
        self.stops = [full.stops[i] for i in picks]
        self.major = [full.major[i] for i in picks]
        self.station = [full.station[i] for i in picks]
        self.terminal = [full.terminal[i] for i in picks]
        self.links = _SubLinks(full, picks, self.local)  # type: ignore[assignment]


class _SubLinks:
    """A sub-network's links, renumbered, found on first use (a stop-set check asks for none)."""

    def __init__(self, full: _CheckNetwork, picks: list[int], local: dict[int, int]) -> None:
        self._full, self._picks, self._local = full, picks, local
        self._found: dict[int, list[Link]] = {}

    def __getitem__(self, k: int) -> list[Link]:
        links = self._found.get(k)
        if links is None:
            local, nodes = self._local, self._full.nodes
            links = self._found[k] = [Link(local[nodes[lk.end]], lk.res, lk.segs)
                                      for lk in self._full.links[self._picks[k]] if nodes[lk.end] in local]
        return links


class _Options:
    """A route's realisations (``_realisations``), made as they are asked for: a check usually needs the first."""

    def __init__(self, made: Iterator[tuple[tuple[int, ...], tuple[Link, ...], int]]) -> None:
        self._made, self._items = made, []  # type: ignore[var-annotated]
        self._done = False

    def _more(self) -> bool:
        if not self._done:
            item = next(self._made, None)
            if item is not None:
                self._items.append(item)
                return True
            self._done = True
        return False

    def __bool__(self) -> bool:
        return bool(self._items) or self._more()

    def __getitem__(self, i: int) -> tuple[tuple[int, ...], tuple[Link, ...], int]:
        while len(self._items) <= i and self._more():
            pass
        return self._items[i]  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[tuple[tuple[int, ...], tuple[Link, ...], int]]:
        i = 0
        while i < len(self._items) or self._more():
            yield self._items[i]
            i += 1


class _Realisations:
    """The ways to run exactly these stops, (stops in order, links, track), made one by one: the given order first,
    at most ``_MAX_ORDERS``, in the order of the full-network checker (``tests/route_oracle.py``)."""

    def __init__(self, net: Network, seq: list[int]) -> None:
        self.net, self.seq = net, seq
        self.seen: set[tuple[int, ...]] = set()
        self.count = 0
        self.order: list[int] = []
        self.links: list[Link] = []

    def _fresh(self, links: tuple[Link, ...]) -> bool:
        key = tuple(map(id, links))
        if key in self.seen:
            return False
        self.seen.add(key)
        self.count += 1
        return True

    def __iter__(self) -> Iterator[tuple[tuple[int, ...], tuple[Link, ...], int]]:
        net, seq = self.net, self.seq
        if all(not net.terminal[i] for i in seq[1:-1]):
            options = [[lk for lk in net.links[a] if lk.end == b] for a, b in itertools.pairwise(seq)]
            for combo in itertools.product(*options):
                used = 0
                for lk in combo:
                    if used & lk.res:
                        break
                    used |= lk.res
                else:
                    if self._fresh(combo):
                        yield tuple(seq), combo, used
                        if self.count >= _MAX_ORDERS:
                            return
        wanted = set(seq)
        for start in seq:
            self.order.append(start)
            yield from self._extend(wanted, start, 0)
            self.order.pop()
            if self.count >= _MAX_ORDERS:
                return

    def _extend(self, wanted: set[int], cur: int,
                used: int) -> Iterator[tuple[tuple[int, ...], tuple[Link, ...], int]]:
        net, order, links = self.net, self.order, self.links
        if len(order) == len(self.seq):
            if self._fresh(tuple(links)):
                yield tuple(order), tuple(links), used
            return
        if len(order) > 1 and net.terminal[cur]:
            return
        for lk in net.links[cur]:
            if lk.end in wanted and lk.end not in order and not lk.res & used and self.count < _MAX_ORDERS:
                order.append(lk.end)
                links.append(lk)
                yield from self._extend(wanted, lk.end, used | lk.res)
                order.pop()
                links.pop()


def _first_fit(options: list[_Options], routes: list[int], k: int = 0, used: int = 0,
               picks: list[int] | None = None) -> list[int] | None:
    """The first choice of one realisation per route (in ``routes``' order) sharing no track, by backtracking."""
    picks = [] if picks is None else picks
    if k == len(routes):
        return picks
    for oi, (_, _, res) in enumerate(options[routes[k]]):
        if not res & used:
            picks.append(oi)
            if _first_fit(options, routes, k + 1, used | res, picks) is not None:
                return picks
            picks.pop()
    return None


_Wanted = Callable[[tuple[Link, ...]], bool]  # whether a way of running a route is the one asked for


def _preferring(made: Iterator[tuple[tuple[int, ...], tuple[Link, ...], int]], wanted: _Wanted | None,
                ) -> Iterator[tuple[tuple[int, ...], tuple[Link, ...], int]]:
    """The realisations ``made``, the first that is ``wanted`` (if any is) put first."""
    if wanted is None:
        yield from made
        return
    held = []
    for item in made:
        if wanted(item[1]):
            yield item
            yield from held
            yield from made
            return
        held.append(item)
    yield from held


def _realise(net: Network, plans: list[tuple[TrainSpec, list[int]]],
             wanted: Sequence[_Wanted | None] = ()) -> list[tuple[list[int], list[Link]]]:
    """A running order and track for every route, no track used twice overall; RouteError if impossible.
    Realisations are made as the search asks for them, and stop names only for a message. ``wanted``: per route,
    which way to take if it is a way to run it with the others (else any way is taken)."""
    wanted = list(wanted) + [None] * (len(plans) - len(wanted))
    options = [_Options(_preferring(iter(_Realisations(net, seq)), w)) for (_, seq), w in zip(plans, wanted,
                                                                                              strict=True)]
    for (train, seq), opts in zip(plans, options, strict=True):
        if not opts:
            raise RouteError(_order_problem(net, train, seq))
    picks = _first_fit(options, list(range(len(plans))))
    if picks is not None:
        return [(list(options[r][oi][0]), list(options[r][oi][1])) for r, oi in enumerate(picks)]
    raise _sharing_problem(net, plans, options, lambda routes: _first_fit(options, routes))


def _sharing_problem(net: Network, plans: list[tuple[TrainSpec, list[int]]], options: Sequence[Any],
                     fits: Callable[[list[int]], list[int] | None]) -> RouteError:
    """Why the routes cannot all run: the first two that cannot run together (``fits`` finds no realisations of
    theirs on separate track), and where their first realisations would share track."""
    name = _names(net)
    for r1, r2 in itertools.combinations(range(len(plans)), 2):
        if fits([r1, r2]) is None:
            used1 = options[r1][0][2]
            seq2, links2, _ = options[r2][0]
            first, second = called(plans[r1][0]), called(plans[r2][0])
            # two trains of one kind are "the two 2-trains", not "the 2-train and the 2-train"
            pair = M("the two {train}s", train=first) if first == second else \
                M("the {first} and the {second}", first=first, second=second)
            for k, lk in enumerate(links2):
                if lk.res & used1:
                    return RouteError(M("{trains} would share track between {a} and {b}", trains=pair,
                                        a=name[seq2[k]], b=name[seq2[k + 1]]))
            return RouteError(M("{trains} cannot both run without sharing track", trains=pair))
    return RouteError(M("these trains cannot all run without sharing track"))


def _submitted_train(by_id: dict[str, TrainSpec], seen: set[str], corp: str, train_id: str) -> TrainSpec:
    """The train a submitted route names: one of the corporation's, given one route at most (``seen``)."""
    train = by_id.get(train_id)
    if train is None:
        raise RouteError(M("{corp} has no train {train}", corp=corp, train=train_id))
    if train_id in seen:
        raise RouteError(M("train {train} is given two routes", train=train_id))
    seen.add(train_id)
    return train


def check_routes(
    board: Board,
    corp: str,
    trains: Sequence[TrainSpec],
    rules: RouteHooks,
    submitted: Sequence[tuple[str, Sequence[str]]],
    paths: Sequence[Sequence[tuple[str, int]] | None] = (),
    stretches: Sequence[Sequence[Sequence[str]] | None] = (),
) -> RouteSet:
    """Validate routes given as (train id, [node ids]) and price them.

    The stops are taken in the given order if that order can be run; otherwise any order of the same stops that
    can be run is accepted (18xx.games records list a route's nodes in the order its segments were built, not
    always end to end). The returned routes list their stops in running order. Track is found for all routes
    together so that no two trains share any; ``paths`` (per route, its track as (hex, path) pairs, as our log
    records it) is taken where it is a way to run the route, so that a logged run checked again keeps its track;
    so are ``stretches`` (per route, an 18xx.games record's ``connections``: the hexes each stretch from one stop
    to the next crosses, either way round, in any order), as the site picks a route's track by them.
    Raises RouteError naming the broken rule.
    """
    check_train_ids(trains)
    by_id = {t.id: t for t in trains}
    net = _CheckNetwork(board, corp, rules)
    seen: set[str] = set()
    plans: list[tuple[TrainSpec, list[int]]] = []  # stops as the full network numbers them
    for train_id, nodes in submitted:
        train = _submitted_train(by_id, seen, corp, train_id)
        seq = [net.parse(train, node) for node in nodes]
        picks = list(dict.fromkeys(seq))
        _check_stop_set(_Subnet(net, picks), train, [picks.index(i) for i in seq])
        plans.append((train, seq))
    picks = list(dict.fromkeys(i for _, seq in plans for i in seq))
    sub = _Subnet(net, picks)
    local_plans = [(train, [picks.index(i) for i in seq]) for train, seq in plans]
    chosen = _realise(sub, local_plans, _wanted(net.graph.segs, paths, stretches, len(plans)))
    routes: list[Route] = []
    for k, ((train, _), (seq, links)) in enumerate(zip(local_plans, chosen, strict=True)):
        # ``price`` reads the values of the route's own stops only
        values = {i: rules.stop_value(sub.stops[i], corp, train, board) for i in seq}
        route = sub.route(train, seq, links, sub.price(tuple(seq), train, values))  # type: ignore[arg-type]
        if k < len(paths) and paths[k] and [tuple(p) for p in reversed(paths[k])] == list(route.paths):
            route = Route(route.train, route.stops[::-1], route.paths[::-1], route.revenue)  # as it was logged
        routes.append(route)
    return RouteSet(tuple(routes), sum(r.revenue for r in routes))


def _wanted(segs: list[tuple[str, int]], paths: Sequence[Sequence[tuple[str, int]] | None],
            stretches: Sequence[Sequence[Sequence[str]] | None], n: int) -> list[_Wanted | None]:
    """Per route, the way ``check_routes`` should take: on the logged track, else crossing the record's hexes."""
    seg_id = {seg: k for k, seg in enumerate(segs)} if any(paths) else {}
    out: list[_Wanted | None] = []
    for k in range(n):
        given = paths[k] if k < len(paths) else None
        hexes = stretches[k] if k < len(stretches) else None
        if given and all(tuple(p) in seg_id for p in given):
            # the logged walk, either way round: where a route crosses a junction tile twice, the same pieces of
            # track make two walks, paired differently in that tile
            walk = [seg_id[tuple(p)] for p in given]
            ways = (walk, walk[::-1])
            out.append(lambda links, ways=ways: [s for lk in links for s in lk.segs] in ways)
        elif hexes:
            want = sorted(_stretch(list(h)) for h in hexes)
            out.append(lambda links, want=want: len(links) == len(want) and sorted(
                _stretch([segs[s][0] for s in lk.segs]) for lk in links) == want)
        else:
            out.append(None)
    return out


def _stretch(hexes: list[str]) -> tuple[str, ...]:
    """A stretch of track by the hexes it crosses, the same whichever way round it is read."""
    t = tuple(h for i, h in enumerate(hexes) if i == 0 or h != hexes[i - 1])
    return min(t, t[::-1])


def _station_pairs(board: Board, corp: str, rules: RouteHooks) -> Iterator[tuple[_CheckNetwork, int, int]]:
    """Each station with each stop a link joins it to in another location: two-stop walks (links read the same
    either way), each once per station, stations in the network's order."""
    net = _CheckNetwork(board, corp, rules)
    location, nodes = net.graph.location, net.nodes
    for i, here in enumerate(net.station):
        if here:
            for j in dict.fromkeys(lk.end for lk in net.links[i]):
                if location[nodes[j]] != location[nodes[i]]:
                    yield net, i, j


def two_train_runs(board: Board, corp: str, rules: RouteHooks) -> bool:
    """Whether a 2-train could run for the corporation: ``Network.walks([2-train])`` is not empty.

    A 2-train's walk (towns not counted) holds a station; its station and the stop next to it along the walk are a
    walk of their own, and two stops joined by a link are a walk unless they share a location. So this asks only
    the stations' links, which the route checks of the same track keep.
    """
    return any(True for _ in _station_pairs(board, corp, rules))


def two_stops_earn(board: Board, corp: str, train: TrainSpec, rules: RouteHooks) -> bool:
    """Whether the train (one that runs any two stops: a 2-train with towns not counted) earns something on a
    station and a stop next to it: then its best route (``routes.best_routes``) earns something too. False says
    nothing: a longer walk may still earn."""
    for net, i, j in _station_pairs(board, corp, rules):
        values = {k: rules.stop_value(net.stops[k], corp, train, board) for k in (i, j)}
        if net.price((i, j), train, values) > 0:  # type: ignore[arg-type]
            return True
    return False

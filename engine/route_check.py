"""Checking a submitted route set, building only the links its stops use.

``routes.check_routes`` gave the same verdicts, messages and routes, but reduced the whole track to stops and links
first (``routes._Network``: every link from every stop, then the track classes), which a route search needs and a
check does not: a check only follows links out of the stops it was given (``_walks_through``, ``_order_problem``).
Here the links of a stop are found the first time a check asks for them and kept with the track graph, like the
search's network, until a tile changes. The links of one stop are the same list, in the same order, as the full
network's (``_Network._links_from`` alone decides them), so every realisation is found in the same order and the
same track is chosen.

An import checks every recorded run once (``records.reader``); a record's routes touch a handful of stops, while
the full network of a late 1830 map links about sixty.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .graph import corp_view, track_graph
from .messages import M
from .routes import (
    Route,
    RouteError,
    RouteHooks,
    RouteSet,
    TrainSpec,
    _check_stop_set,
    _check_train_ids,
    _Link,
    _Network,
    _parse_node,
    _realise,
)


class _StopLinks:
    """``links[i]``: the links out of local stop ``i``, found on first use and kept in ``cache``."""

    def __init__(self, net: _Network, cache: dict[int, list[_Link]]) -> None:
        self._net, self._cache = net, cache

    def __getitem__(self, i: int) -> list[_Link]:
        links = self._cache.get(i)
        if links is None:
            links = self._cache[i] = self._net._links_from(i)
        return links


class _CheckNetwork(_Network):
    """The corporation's view of the graph with links found on demand (no track classes: a check needs none)."""

    def __init__(self, board: Board, corp: str, rules: RouteHooks) -> None:
        self.board, self.corp, self.rules = board, corp, rules
        self.graph = graph = track_graph(board, rules.location)
        self.view = corp_view(graph, corp)
        base = graph.memo.get("route_check")
        if base is None:
            # the stop part of ``_Network._track_part``, without its links
            self.nodes = [n for n in graph.stop_nodes() if graph.adj[n]]
            self.local = {n: i for i, n in enumerate(self.nodes)}
            self.stops = [self._stop(n) for n in self.nodes]
            self.major = [0 if s.kind == "town" else 1 for s in self.stops]
            base = graph.memo["route_check"] = (self.nodes, self.local, self.stops, self.major, {})
        self.nodes, self.local, self.stops, self.major, cache = base
        self.links = _StopLinks(self, cache)  # type: ignore[assignment]
        self.station = [n in self.view.stations for n in self.nodes]
        self.terminal = [self.view.terminal[n] for n in self.nodes]


def check_routes(
    board: Board,
    corp: str,
    trains: Sequence[TrainSpec],
    rules: RouteHooks,
    submitted: Sequence[tuple[str, Sequence[str]]],
) -> RouteSet:
    """Validate routes given as (train id, [node ids]) and price them: ``routes.check_routes``'s contract.

    The stops are taken in the given order if that order can be run; otherwise any order of the same stops that
    can be run is accepted (18xx.games records list a route's nodes in the order its segments were built, not
    always end to end). The returned routes list their stops in running order. Track is found for all routes
    together so that no two trains share any. Raises RouteError naming the broken rule.
    """
    _check_train_ids(trains)
    by_id = {t.id: t for t in trains}
    net = _CheckNetwork(board, corp, rules)
    seen: set[str] = set()
    plans: list[tuple[TrainSpec, list[int]]] = []
    for train_id, nodes in submitted:
        train = by_id.get(train_id)
        if train is None:
            raise RouteError(M("{corp} has no train {train}", corp=corp, train=train_id))
        if train_id in seen:
            raise RouteError(M("train {train} is given two routes", train=train_id))
        seen.add(train_id)
        seq = [_parse_node(net, train_id, node) for node in nodes]
        _check_stop_set(net, train, seq)
        plans.append((train, seq))
    chosen = _realise(net, plans)
    routes: list[Route] = []
    for (train, _), (seq, links) in zip(plans, chosen, strict=True):
        # ``price`` reads the values of the route's own stops only
        values = {i: rules.stop_value(net.stops[i], corp, train, board) for i in seq}
        routes.append(net.route(train, seq, links, net.price(tuple(seq), train, values)))  # type: ignore[arg-type]
    return RouteSet(tuple(routes), sum(r.revenue for r in routes))

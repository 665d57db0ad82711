"""The full-network route checker: a route set checked on the links of every stop of the corporation's network, as
the engine checked routes before ``engine.route_check`` (links found on demand, for the stops a check names). Kept as
the reference the faster checker is compared with (``tests/test_route_check.py``): the same routes, revenues and
track, or the same refusal with the same message."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.board import Board
from engine.route_check import (
    _MAX_ORDERS,
    _check_stop_set,
    _order_problem,
    _parse_node,
    _sharing_problem,
    _submitted_train,
)
from engine.route_network import Link, Network
from engine.route_types import Route, RouteError, RouteHooks, RouteSet, TrainSpec, check_train_ids


def check_routes(
    board: Board,
    corp: str,
    trains: Sequence[TrainSpec],
    rules: RouteHooks,
    submitted: Sequence[tuple[str, Sequence[str]]],
) -> RouteSet:
    """``engine.route_check.check_routes`` on the full network: every link of every stop, found up front."""
    check_train_ids(trains)
    by_id = {t.id: t for t in trains}
    net = Network(board, corp, rules)
    seen: set[str] = set()
    plans: list[tuple[TrainSpec, list[int]]] = []
    for train_id, nodes in submitted:
        train = _submitted_train(by_id, seen, corp, train_id)
        seq = [_parse_node(net, train, node) for node in nodes]
        _check_stop_set(net, train, seq)
        plans.append((train, seq))
    chosen = _realise(net, plans)
    routes: list[Route] = []
    for (train, _), (seq, links) in zip(plans, chosen, strict=True):
        values = [rules.stop_value(s, corp, train, board) for s in net.stops]
        routes.append(net.route(train, seq, links, net.price(tuple(seq), train, values)))
    return RouteSet(tuple(routes), sum(r.revenue for r in routes))


def _walks_through(net: Network, seq: list[int]) -> list[tuple[tuple[int, ...], tuple[Link, ...], int]]:
    """Ways to run exactly these stops: (stops in order, links, track), the given order first."""
    out: list[tuple[tuple[int, ...], tuple[Link, ...], int]] = []
    seen: set[tuple[int, ...]] = set()

    def add(order: tuple[int, ...], links: tuple[Link, ...], used: int) -> None:
        key = tuple(id(lk) for lk in links)
        if key not in seen and len(out) < _MAX_ORDERS:
            seen.add(key)
            out.append((order, links, used))

    middle_ok = all(not net.terminal[i] for i in seq[1:-1])
    if middle_ok:
        options = [[lk for lk in net.links[a] if lk.end == b] for a, b in itertools.pairwise(seq)]
        for combo in itertools.product(*options):
            used = 0
            for lk in combo:
                if used & lk.res:
                    break
                used |= lk.res
            else:
                add(tuple(seq), combo, used)
            if len(out) >= _MAX_ORDERS:
                break
    wanted = set(seq)
    order: list[int] = []
    links: list[Link] = []

    def extend(cur: int, used: int) -> None:
        if len(order) == len(seq):
            add(tuple(order), tuple(links), used)
            return
        if len(order) > 1 and net.terminal[cur]:
            return
        for lk in net.links[cur]:
            if lk.end in wanted and lk.end not in order and not lk.res & used and len(out) < _MAX_ORDERS:
                order.append(lk.end)
                links.append(lk)
                extend(lk.end, used | lk.res)
                order.pop()
                links.pop()

    for start in seq:
        order.append(start)
        extend(start, 0)
        order.pop()
    return out


def _realise(net: Network, plans: list[tuple[TrainSpec, list[int]]]) -> list[tuple[list[int], list[Link]]]:
    """A running order and track for every route, no track used twice overall; RouteError if impossible."""
    options = [_walks_through(net, seq) for _, seq in plans]
    for (train, seq), opts in zip(plans, options, strict=True):
        if not opts:
            raise RouteError(_order_problem(net, train, seq))

    def solve(routes: list[int]) -> list[int] | None:
        picks: list[int] = []

        def go(k: int, used: int) -> bool:
            if k == len(routes):
                return True
            for oi, (_, _, res) in enumerate(options[routes[k]]):
                if not res & used:
                    picks.append(oi)
                    if go(k + 1, used | res):
                        return True
                    picks.pop()
            return False

        return picks if go(0, 0) else None

    picks = solve(list(range(len(plans))))
    if picks is not None:
        return [(list(options[r][oi][0]), list(options[r][oi][1])) for r, oi in enumerate(picks)]
    raise _sharing_problem(net, plans, options, solve)



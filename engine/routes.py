"""Train routes: the route set of highest revenue (``best_routes``), and the names other modules use for routes.

The rooms: ``route_types`` (trains, stops, routes, the title hooks), ``route_network`` (points 1-3 below),
``route_walks`` (point 4), ``route_search`` (points 5 and 7), ``route_sets`` (point 6 and the budget),
``route_check`` (checking a submitted route set), ``route_text`` (routes typed by a player).

Algorithm
---------
1. The board becomes a ``TrackGraph`` (see ``engine.graph``): segments (tile paths) joined at stops, junctions
   and hex sides.
2. *Links*: from every stop, a depth-first search follows track through junctions and sides only, up to the
   next stop. A link is the track between two consecutive stops of a route, as a bitset with one bit per
   segment and per side. Of the links between the same two stops, one whose track strictly contains another's
   is dropped: a route set using it could use the smaller one instead, with the same revenue.
3. *Track classes*: track bits used by exactly the same links form one class. Two routes share track exactly
   when they share a class, and a route's classes are its links' classes side by side; a dense 18FL map has
   about 40 classes, so "no shared track" is one AND of small integers.
4. *Walks of one train*: a depth-first search over stop sequences from every stop (``kind_walks``) follows the
   rules of a walk: no track, stop or location twice, nothing passed through an off-board or a blocked city, at
   most the train's number of counted stops, and a station somewhere on it (a lower bound on the stops still needed
   to reach a station prunes walks that could not get one in time). It branches on the next stop, not on the track
   to it: a sequence carries its *realisations*, the ways of laying it on track of which none uses a superset of
   another's track (junction meshes join two stops by up to half a dozen tracks; revenue depends on the stops
   alone). A walk is found from one end only: once the searches from a stop are done, later ones may pass it but
   not end there (an off-board then drops out of them altogether). A branch is cut when its value plus an
   optimistic bound cannot reach the mark (the best counted stops and every free town reachable without passing a
   visited stop, on track the walk so far leaves free, in the best of the parts the rest can enter by its first
   step, as it cannot come back through the stop it leaves; of the stops the rest can only end at, such as
   off-boards and stops with one way left in, one at most), and when a sequence with the same stops and end on no
   more track was extended already (its value and count are the same, and it has no more choices). It finds a
   train's best walk, or every walk earning at least a floor.
5. *The maximum* (``solve``): each train kind's best walk alone bounds what that train adds to any set (``ub``);
   trains picking their best walk on the track left, in every order of the kinds, give a set that is a lower bound
   (``lb``). A better set gives train i a walk earning at least ``lb + 1 - others(i)``, where ``others(i)`` bounds
   the other trains together (the sum of their ``ub``, or with three or more trains the exact maximum of the others,
   solved the same way). Only those walks are listed; of the walks visiting the same stops, one on more track than
   another is dropped. Two trains (``_best_pair``) need no combining: in a better set one of them earns within
   half the gap between ``lb`` and the sum of their bests (its *high* walks), so those are listed, and each train's
   walks are searched beside the other's high walks: every walk found is paired at once with the best high walk
   clear of its track (a bit-sliced index, as below), raising the mark, and a branch is cut when no high walk clear
   of its track could lift it over the mark. Each better set is looked for once: the second search leaves out the
   walks the first found every set of (its train's high walks), so the second train's high walks need earn only
   the mark less what is left, and are listed after the first search, at a floor raised by what it added to the
   mark; of two trains of one kind, the worse walk of a set is searched beside the better.
6. *Combination* (three trains or more): each train prices the listed walks through the title's hooks
   (``RouteHooks``): stop values and a route bonus; cities and off-boards are multiplied by the train's multiplier,
   towns are added (for an express, ignored). Trains pricing every walk alike (a 5 and a 6) share one list sorted by
   revenue, and each keeps the set of positions it may run. A bit-sliced index (per class, the positions of the
   walks using it) turns "the best route clear of this track" into a few ORs and a lowest-set-bit. A branch and
   bound picks one route or none per train, most valuable trains first, cutting a branch when its revenue plus every
   later train's best route clear of the track used cannot beat the best set found (a cheaper cap first: for each
   class of a later train's best route, its best route avoiding that class). Identical trains take routes in
   non-decreasing list order, so each unordered choice is tried once. If no set beats ``lb``, the greedy set is the
   maximum. On equal totals the first set found in this fixed order wins, so the same position always gives the
   same answer (two identical trains: the first runs the better walk).
7. *Budget*: every stage spends steps from one budget (``DEFAULT_BUDGET``, at most about 130 ms; steps, not time, so the
   answer is deterministic). A search that runs out answers with the best set found so far, legal but marked
   ``proven=False``; the bot says so and logs the position. So that such an answer is a good one, the search of a
   train beside the other's high walks still takes a few steps once the budget is spent (``_PAIR_LAST_RESORT``):
   it pairs the walks listed so far rather than leaving the greedy set, which on late 18FL maps was often $100 short.

The graph, stops, links and classes depend on the track alone: they are built once per arrangement of track
(``graph.track_graph``) and reused by every corporation and turn until a tile changes.

Checking a submitted route set (``route_check.check_routes``) uses the same links, found for the submitted stops
only.

Hooks price a route by its set of stops; ``route_bonus`` must not depend on the order of ``stops``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .route_network import Network
from .route_search import solve
from .route_sets import Budget
from .route_types import (
    GenericRules,
    Route,
    RouteError,
    RouteHooks,
    RouteSet,
    Stop,
    TrainSpec,
    check_train_ids,
    phase_value,
    train_spec,
)

__all__ = ["DEFAULT_BUDGET", "GenericRules", "Route", "RouteError", "RouteHooks", "RouteSet", "Stop", "TrainSpec",
           "best_routes", "phase_value", "train_spec"]

DEFAULT_BUDGET = 30_000
"""Search steps (walk extensions, walks listed or paired, branch-and-bound nodes) one ``best_routes`` may take before
it answers with the best set found so far, marked not proven. At most about 130 ms on the development machine;
counted in steps, not time, so that the same position always gives the same answer."""


def best_routes(board: Board, corp: str, trains: Sequence[TrainSpec], rules: RouteHooks, *,
                budget: int | None = None) -> RouteSet:
    """The route set of highest total revenue (one route or none per train, no shared track).

    ``proven`` on the result is False when the search ran out of ``budget`` steps (default ``DEFAULT_BUDGET``) first:
    the set is the best found and legal, but a better one may exist.
    """
    check_train_ids(trains)
    net = Network(board, corp, rules)
    steps = Budget(DEFAULT_BUDGET if budget is None else budget)
    picked = solve(net, list(trains), steps)
    routes = [net.route(train, seq, links, revenue, station_first=True)
              for train, (revenue, seq, links, _) in zip(trains, picked, strict=True) if seq]
    return RouteSet(tuple(routes), sum(r.revenue for r in routes), proven=not steps.spent)

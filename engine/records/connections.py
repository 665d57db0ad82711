"""Old 18xx.games route objects that name only their track (``connections``, maybe ``hexes``): the stop node ids
they visit, choosing among a hex's stops by which choice is a legal route."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from ..game import Game
from ..messages import M
from ..routes import RouteError
from .ids import IdError

Checker = Callable[..., Any]  # engine.route_check.check_routes, or a wrapper of it


def nodes_from_connections(game: Game, corp: str, route: dict[str, Any], check: Checker) -> list[str]:
    """Stop node ids of an old route object that has only ``connections`` (and maybe ``hexes``).

    A stop hex with one stop is unambiguous; where a hex has several, each choice is tried until the route is
    legal for our engine (by ``check``, the route checker).
    """
    hexes: list[str] = []
    fixed: dict[str, list[int]] = {}
    for crossed, parts in _segments(route):
        if parts is not None:
            fixed.setdefault(crossed[0], []).extend(parts)
        hexes += [crossed[0], crossed[-1]]
    for h in route.get("hexes") or []:
        hexes.append(str(h))
    stops = list(dict.fromkeys(hexes))
    choices: list[list[str]] = []
    for h in stops:
        if h not in game.board.hexes:
            raise IdError(M("route hex {hex} is not on the map", hex=h))
        if h in fixed:
            choices.append([f"{h}-{p}" for p in dict.fromkeys(fixed[h])])
            continue
        lay = game.board.layout(h)
        n = len(lay.cities) + len(lay.towns) + (1 if lay.offboard is not None else 0)
        choices.append([f"{h}-{p}" for p in range(max(n, 1))])
    train = str(route["train"])
    specs = game.rules.train_specs(game, corp)
    rules = game.rules.route_rules(game)
    combos = list(itertools.product(*choices))
    for combo in combos:
        nodes = [n for group in combo for n in (group if isinstance(group, list) else [group])]
        if len(combos) == 1:
            return nodes  # nothing to choose: the run's own check (``_route_check``) judges it
        try:
            check(game.board, corp, specs, rules, [(train, nodes)])
        except (RouteError, ValueError):
            continue
        return nodes
    raise IdError(M("no legal route of train {train} through {stops}", train=train, stops=tuple(stops)))


def stretches(route: dict[str, Any]) -> list[list[str]]:
    """A route object's track from stop to stop, each stretch as the hexes it crosses (a local train has none)."""
    return [crossed for crossed, parts in _segments(route) if len(crossed) > 1 or parts is not None]


def _segments(route: dict[str, Any]) -> Iterator[tuple[list[str], tuple[int, int] | None]]:
    """Each segment of ``connections``: the hexes it names and, for a stretch inside one tile (``"E5 0.1"``), the
    two stops' parts; a local train's one city is a segment of one hex."""
    for seg in route.get("connections") or []:
        if not seg:
            continue
        if seg[0] == "local" and len(seg) == 2:
            yield [str(seg[1])], None
        elif len(seg) == 1 and " " in str(seg[0]):
            hex_id, pair = str(seg[0]).split(" ", 1)
            a_, b_ = (int(x) for x in pair.split("."))
            yield [hex_id], (a_, b_)
        else:
            yield [str(h) for h in seg], None

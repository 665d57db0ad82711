"""Old 18xx.games route objects that name only their track (``connections``, maybe ``hexes``): the stop node ids
they visit, choosing among a hex's stops by which choice is a legal route."""

from __future__ import annotations

import itertools
from collections.abc import Callable
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
    for seg in route.get("connections") or []:
        if not seg:
            continue
        if seg[0] == "local" and len(seg) == 2:
            hexes.append(str(seg[1]))
            continue
        if len(seg) == 1 and " " in str(seg[0]):
            hex_id, pair = str(seg[0]).split(" ", 1)
            a_, b_ = (int(x) for x in pair.split("."))
            fixed.setdefault(hex_id, []).extend([a_, b_])
            hexes.append(hex_id)
            continue
        hexes += [str(seg[0]), str(seg[-1])]
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

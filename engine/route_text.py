"""Routes a player writes: "G22-F23-E24; J5-K6".

A route per running train, separated by ``;``; the stops of a route in running order, separated by ``-`` (or the
dash the bot prints, ``–``). A stop is a hex id (any case) or a printed name that names one hex or one stop ("Tampa",
"Jacksonville N"). Players think of a route as their 4-train's or their 2-train's, not of the order the corporation
holds its trains in: the routes are given to the trains in every way (the corporation's order first), and where a
hex holds several stops (two cities of an OO tile, Jacksonville's two) the hex id stands for any of them. Every such
reading is checked with the engine's own route rules (``route_check.check_routes``, the same check as a recorded
``run_routes``) and the one earning most is taken. When none can be run, the refusal is the rule check's for the
first (the routes on the trains in the corporation's order): which train, which stop and why; a reading through a
city without the corporation's station (the other city of a two-city hex) gives way to the first whose refusal says
more (a town skipped, track used twice).

The result is the priced route set (stops in running order); its routes' node ids make the ``RunRoutes`` action,
which the operating round checks again, with the rule that a corporation runs for its maximum.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from .errors import GameError
from .messages import MN, M
from .route_check import check_routes
from .routes import RouteError, RouteSet, Stop
from .wording import or_list

if TYPE_CHECKING:
    from .game import Game

_ROUTES = re.compile(r"[;\n]")
_STOPS = re.compile(r"\s*[-–—]\s*")
_DOUBLE_NAME = re.compile(r"\s*&\s*|\s+and\s+", re.IGNORECASE)  # "New York & Newark", "Dunkirk and Buffalo"
_MAX_READINGS = 256  # readings tried (trains for the routes, stops for hexes with several): a handful as a rule


def _stops_of_hex(game: Game, hex_id: str) -> list[Stop]:
    """Every stop of the hex, numbered as route node ids number them (cities, then towns, then the off-board)."""
    lay = game.board.layout(hex_id)
    out = [Stop("city", hex_id, i, i) for i in range(len(lay.cities))]
    out += [Stop("town", hex_id, i, len(lay.cities) + i) for i in range(len(lay.towns))]
    if lay.offboard is not None and lay.offboard.visitable:
        out.append(Stop("offboard", hex_id, 0, len(lay.cities) + len(lay.towns)))
    return out


def _written_names(game: Game) -> dict[str, list[str]]:
    """What each hex is called on the map, as printed: its name, each place of a double name ("New York" of "New
    York & Newark"), and its label where that label is on no other hex ("NY"; not "OO" or "B", kinds of tile)."""
    labels = Counter((h.label or "").strip() for h in game.data.hexes)
    out: dict[str, list[str]] = {}
    for hex_id in game.board.hexes:
        hdef = game.data.hex(hex_id)
        name = (hdef.name or "").strip()
        written = [name] if name else []
        parts = [p.strip() for p in _DOUBLE_NAME.split(name) if p.strip()] if name else []
        written += parts if len(parts) > 1 else []
        label = (hdef.label or "").strip()
        if len(label) > 1 and labels[label] == 1:
            written.append(label)
        out[hex_id] = written
    return out


def _names(game: Game) -> dict[str, list[list[Stop]]]:
    """Lower-case name -> the stop choices it may mean (one list per hex or stop carrying that name): the names of
    ``_written_names``, printed names first, and each stop of a hex with several by its own name."""
    out: dict[str, list[list[Stop]]] = {}
    extra: dict[str, list[list[Stop]]] = {}
    names = _written_names(game)
    for hex_id in game.board.hexes:
        stops = _stops_of_hex(game, hex_id)
        if not stops:
            continue
        written = names[hex_id]
        name = (game.data.hex(hex_id).name or "").strip().lower()
        for k, w in enumerate(written):
            (out if k == 0 and name else extra).setdefault(w.lower(), []).append(stops)
        if len(stops) > 1:
            for s in stops:
                stop_name = str(game.rules.stop_name(game, s)).strip().lower()
                if stop_name and stop_name != name:
                    out.setdefault(stop_name, []).append([s])
    for key, found in extra.items():
        out.setdefault(key, found)
    return out


def _resolve(game: Game, word: str, names: dict[str, list[list[Stop]]], route_no: int) -> list[Stop] | None:
    """The stops a word may mean, or None if it names nothing."""
    key = " ".join(word.split())
    if key.upper() in game.board.hexes:
        stops = _stops_of_hex(game, key.upper())
        if not stops:
            raise GameError(M("Route {n}: {hex} has no city, town or off-board.", n=route_no, hex=key.upper()))
        return stops
    found = names.get(key.lower())
    if not found:
        bare = [h for h in game.board.hexes if (game.data.hex(h).name or "").strip().lower() == key.lower()]
        if bare:  # a printed place with no stop (its track only passes through)
            raise GameError(M("Route {n}: {hex} has no city, town or off-board.", n=route_no,
                              hex=f"{key} ({bare[0]})"))
        return None
    if len(found) > 1:
        hexes = tuple(dict.fromkeys(s[0].hex for s in found))
        raise GameError(M("Route {n}: {name} names several hexes ({hexes}); write the hex id.", n=route_no,
                          name=key, hexes=hexes))
    return found[0]


def _route_words(game: Game, text: str, names: dict[str, list[list[Stop]]], route_no: int) -> list[list[Stop]]:
    """A route's stops, each as the stops it may mean. A name with a dash in it ("Wilkes-Barre") is read whole."""
    words = [w for w in _STOPS.split(text.strip())]
    if any(not w for w in words):
        raise GameError(M("Route {n}: a stop is missing between two dashes: {route}", n=route_no, route=text.strip()))
    out: list[list[Stop]] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            stops = _resolve(game, "-".join(words[i:j]), names, route_no)
            if stops is not None:
                out.append(stops)
                i = j
                break
        else:
            near = difflib.get_close_matches(words[i].lower(), list(names), n=3, cutoff=0.6)
            if near:
                raise GameError(M("Route {n}: {stop} is not a hex id or the name of a place on the map; did you mean "
                                  "{names}?", n=route_no, stop=words[i], names=or_list([_printed(game, k)
                                                                                        for k in near])))
            raise GameError(M("Route {n}: {stop} is not a hex id or the name of a place on the map.", n=route_no,
                              stop=words[i]))
    return out


def _printed(game: Game, key: str) -> str:
    """A lower-case name key as the map prints it."""
    return next((w for names in _written_names(game).values() for w in names if w.lower() == key), key)


def routes_from_text(game: Game, corp: str, text: str) -> RouteSet:
    """The routes a player wrote for ``corp``'s trains, checked by the route rules (GameError saying what is wrong)."""
    parts = [p for p in _ROUTES.split(text) if p.strip()]
    if not parts:
        raise GameError(M("Write your routes as stops by hex id or name joined by '-', one train's route after "
                          "another separated by ';' (e.g. G22-F23-E24; J5-K6)."))
    trains = game.rules.train_specs(game, corp)
    if len(parts) > len(trains):
        raise GameError(MN("{corp} has one train ({trains}) but {k} routes were given.",
                           "{corp} has {n} trains ({trains}) but {k} routes were given.", corp=corp, n=len(trains),
                           trains=tuple(t.name for t in trains), k=len(parts)))
    names = _names(game)
    routes = [_route_words(game, p, names, k + 1) for k, p in enumerate(parts)]
    for k, route in enumerate(routes):
        if len(route) < 2:
            raise GameError(M("Route {n}: a route needs at least two stops, joined by '-'.", n=k + 1))
    rules = game.rules.route_rules(game)
    choices = [stops for route in routes for stops in route]
    # the trains each route may run on: trains alike (same kind, ids aside) give the same readings, so one is tried
    kinds: dict[tuple[object, ...], tuple[int, ...]] = {}
    for order in itertools.permutations(range(len(trains)), len(routes)):
        kinds.setdefault(tuple(replace(trains[k], id="") for k in order), order)
    best: RouteSet | None = None
    first_error: RouteError | None = None
    readings = itertools.product(kinds.values(), itertools.product(*choices))
    for order, reading in itertools.islice(readings, _MAX_READINGS):
        it = iter(reading)
        submitted = [(trains[order[k]].id, [next(it).node_id() for _ in route]) for k, route in enumerate(routes)]
        try:
            found = check_routes(game.board, corp, trains, rules, submitted)
        except RouteError as e:
            if first_error is None or (e.telling and not first_error.telling):
                first_error = e
            continue
        if best is None or found.revenue > best.revenue:
            best = found
    if best is None:
        assert first_error is not None
        raise GameError(first_error.msg)
    return best

"""Routes: hand-computed 18FL scenarios, submitted-route checks, and best_routes against a brute force."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from engine.board import Board
from engine.hexgrid import neighbour
from engine.route_check import check_routes
from engine.routes import (
    GenericRules,
    Route,
    RouteError,
    RouteSet,
    Stop,
    TrainSpec,
    best_routes,
    train_spec,
)
from engine.tiles import keeps_track, tile_layout
from engine.titledata import TitleData, load_title
from engine.titles.g18fl_routes import FLRouteRules, rules_for_phase
from engine.titles.g18fl_routes import train_spec as fl_train
from tests.reference import RECORDS

TITLE = load_title("18FL")
EARLY = FLRouteRules(late=False)
LATE = FLRouteRules(late=True)


def lay(board: Board, hex_id: str, tile: str, exits: set[int]) -> None:
    """Lay ``tile`` on ``hex_id`` turned so that its exits are exactly ``exits``."""
    tiles = board.title.tiles
    for rot in range(6):
        if tile_layout(tiles[tile], rot).exits == frozenset(exits):
            n_new = len(tiles[tile].cities)
            board.place_tile(hex_id, tile, rot, [0] * len(board.hexes[hex_id].tokens) if n_new else [])
            return
    raise AssertionError(f"#{tile} has no rotation with exits {sorted(exits)}")


def token(board: Board, hex_id: str, corp: str, city: int = 0) -> None:
    slots = board.hexes[hex_id].tokens[city]
    slots[slots.index(None)] = corp


def nodes(rs: RouteSet) -> list[list[str]]:
    return [r.node_ids() for r in rs.routes]


def as_set(route: Route) -> frozenset[str]:
    return frozenset(route.node_ids())


@pytest.fixture
def board() -> Board:
    return Board(TITLE)


# -- positions ---------------------------------------------------------------------------------------------------


def tampa_both_ways(board: Board) -> None:
    """ACL at Tampa (30). North: #9 F21, #9 E22, Palatka D23 (#4, 10), St. Augustine C24 (#4, 10, dead end).
    South: #9 H21, Punta Gorda I22 (#4, 10)."""
    token(board, "G20", "ACL")
    lay(board, "F21", "9", {0, 3})
    lay(board, "E22", "9", {0, 3})
    lay(board, "D23", "4", {0, 3})
    lay(board, "C24", "4", {0, 3})
    lay(board, "H21", "9", {2, 5})
    lay(board, "I22", "4", {2, 5})


def orlando_line(board: Board) -> None:
    """ACL at Tampa (30) -> #8 F21 -> Orlando #6o (20) -> #9 E24 -> Daytona D25 (#4, 10)."""
    token(board, "G20", "ACL")
    lay(board, "F21", "8", {0, 4})
    lay(board, "F23", "6o", {1, 3})
    lay(board, "E24", "9", {0, 3})
    lay(board, "D25", "4", {0, 3})


def havana(board: Board) -> None:
    """FEC at Miami (30) -> #9 L27 -> #8 M26 -> Key West #58 (10) -> Havana (60/100)."""
    token(board, "K28", "FEC")
    lay(board, "L27", "9", {0, 3})
    lay(board, "M26", "8", {1, 3})
    lay(board, "M24", "58", {4, 0})


def jax_junction_loop(board: Board) -> None:
    """SAL at Jacksonville South (30). Brown junction #545 on C22 joins South (edge 3), St. Augustine C24
    (edge 4), Palatka D23 (edge 5) and B21 (edge 2). C24 and D23 (towns, 10 each) are joined to each other, so a
    train can leave C22's junction to C24, come back through D23 and pass the junction again towards B21 and
    Lake City B19 (town, 10)."""
    token(board, "B23", "SAL", 0)
    lay(board, "C22", "545", {2, 3, 4, 5})
    lay(board, "C24", "3", {0, 1})
    lay(board, "D23", "3", {2, 3})
    lay(board, "B21", "8", {5, 1})
    lay(board, "B19", "4", {4, 1})


# -- simple revenue ------------------------------------------------------------------------------------------------


def test_one_train_hand_counted(board: Board) -> None:
    tampa_both_ways(board)
    rs = best_routes(board, "ACL", [fl_train("2-0", "2")], EARLY)
    # towns are free: one city and three towns for a 2-train
    assert rs.revenue == 10 + 10 + 30 + 10
    assert nodes(rs) == [["C24-0", "D23-0", "G20-0", "I22-0"]]
    route = rs.routes[0]
    assert route.train == "2-0" and route.revenue == 60
    assert route.paths == (("C24", 0), ("D23", 1), ("D23", 0), ("E22", 0), ("F21", 0), ("G20", 1), ("G20", 0),
                           ("H21", 0), ("I22", 0))
    # with the line south gone, the route starts at its station
    board.place_tile("I22", "3", 0, [])
    rs = best_routes(board, "ACL", [fl_train("2-0", "2")], EARLY)
    assert nodes(rs) == [["G20-0", "D23-0", "C24-0"]] and rs.revenue == 50
    assert rs.routes[0].paths == (("G20", 1), ("F21", 0), ("E22", 0), ("D23", 0), ("D23", 1), ("C24", 0))


def test_two_trains_take_separate_track(board: Board) -> None:
    tampa_both_ways(board)
    rs = best_routes(board, "ACL", [fl_train("2-0", "2"), fl_train("2-1", "2")], EARLY)
    assert rs.revenue == 90
    assert sorted(nodes(rs)) == [["G20-0", "D23-0", "C24-0"], ["G20-0", "I22-0"]]
    paths = [set(r.paths) for r in rs.routes]
    assert not paths[0] & paths[1]
    # a third train finds no track left: it runs nothing (it may share Tampa, but not track)
    rs3 = best_routes(board, "ACL", [fl_train("2-0", "2"), fl_train("2-1", "2"), fl_train("3-0", "3")], EARLY)
    assert rs3.revenue == 90 and len(rs3.routes) == 2


def test_no_trains_or_no_station_runs_nothing(board: Board) -> None:
    tampa_both_ways(board)
    assert best_routes(board, "ACL", [], EARLY) == RouteSet((), 0)
    assert best_routes(board, "SAL", [fl_train("2-0", "2")], EARLY) == RouteSet((), 0)
    board.hexes["D23"].hotels[0] = "SAL"  # a hotel is no station
    assert best_routes(board, "SAL", [fl_train("2-0", "2")], EARLY).revenue == 0


def test_train_length_counts_cities_and_offboards_not_towns(board: Board) -> None:
    havana(board)
    rs = best_routes(board, "FEC", [fl_train("2-0", "2")], EARLY)
    assert nodes(rs) == [["K28-0", "M24-0", "N23-0"]]
    assert rs.revenue == 30 + 10 + 60
    assert best_routes(board, "FEC", [fl_train("2-0", "2")], LATE).revenue == 30 + 10 + 100  # record: 140


def test_city_may_not_be_skipped(board: Board) -> None:
    orlando_line(board)
    # a 2-train from Tampa must stop at Orlando, so it cannot reach Daytona
    rs = best_routes(board, "ACL", [fl_train("2-0", "2")], EARLY)
    assert nodes(rs) == [["G20-0", "F23-0", "D25-0"]] and rs.revenue == 60
    # count every city: with Orlando full, only Tampa-Orlando remains, ending there
    token(board, "F23", "SAL")
    rs = best_routes(board, "ACL", [fl_train("4-0", "4")], EARLY)
    assert nodes(rs) == [["G20-0", "F23-0"]] and rs.revenue == 50


def test_towns_count_for_1830_style_trains(board: Board) -> None:
    tampa_both_ways(board)
    two = TrainSpec("2-0", "2", 2, towns_count=True)
    rs = best_routes(board, "ACL", [two], GenericRules())
    assert rs.revenue == 40  # Tampa and one town
    three = TrainSpec("3-0", "3", 3, towns_count=True)
    assert best_routes(board, "ACL", [three], GenericRules()).revenue == 50


def test_unlimited_train(board: Board) -> None:
    tampa_both_ways(board)
    # 1830's diesel: towns count, but there is no limit
    d = TrainSpec("D-0", "D", None, towns_count=True)
    assert best_routes(board, "ACL", [d], GenericRules()).revenue == 60  # I22-G20-D23-C24
    assert best_routes(board, "ACL", [TrainSpec("3-0", "3", 3, towns_count=True)], GenericRules()).revenue == 50


def test_diesel_multiplier_doubles_cities_not_towns(board: Board) -> None:
    orlando_line(board)
    four_d = TrainSpec("4D-0", "4D", 4, multiplier=2)
    rs = best_routes(board, "ACL", [four_d], GenericRules())
    assert rs.revenue == 2 * (30 + 20) + 10


# -- off-boards, stubs and blocking ------------------------------------------------------------------------------


def test_offboard_values_by_phase() -> None:
    assert rules_for_phase(TITLE, "4").late is False
    assert rules_for_phase(TITLE, "5").late is True
    assert rules_for_phase(TITLE, "6/3E").late is True
    with pytest.raises(KeyError):
        rules_for_phase(TITLE, "7")


def test_stubs_a4_a6_are_never_stops(board: Board) -> None:
    token(board, "B5", "L&N")
    board.place_tile("B5", "15", 0, [0])
    lay(board, "B3", "9", {1, 4})
    rs = best_routes(board, "L&N", [fl_train("2-0", "2"), fl_train("2-1", "2")], EARLY)
    assert nodes(rs) == [["B5-0", "B1-0"]]
    assert rs.revenue == 30 + 40
    assert not any(h in ("A4", "A6") for r in rs.routes for h, _ in r.paths)
    with pytest.raises(RouteError, match="no stop A4-0"):
        check_routes(board, "L&N", [fl_train("2-0", "2")], EARLY, [("2-0", ["B5-0", "A4-0"])])


def test_blocked_city_may_end_a_route(board: Board) -> None:
    orlando_line(board)
    token(board, "F23", "SAL")
    rs = best_routes(board, "ACL", [fl_train("3-0", "3")], EARLY)
    assert nodes(rs) == [["G20-0", "F23-0"]]
    with pytest.raises(RouteError, match="full of other corporations' tokens"):
        check_routes(board, "ACL", [fl_train("3-0", "3")], EARLY, [("3-0", ["G20-0", "F23-0", "D25-0"])])
    # the Terminal Company token beside the tile is ACL's own: it may run through again
    board.hexes["F23"].extra_tokens.append(("ACL", 0))
    assert best_routes(board, "ACL", [fl_train("3-0", "3")], EARLY).revenue == 60


# -- junctions, Jacksonville -----------------------------------------------------------------------------------


def test_one_train_may_pass_a_junction_twice(board: Board) -> None:
    jax_junction_loop(board)
    rs = best_routes(board, "SAL", [fl_train("2-0", "2")], EARLY)
    assert rs.revenue == 30 + 10 + 10 + 10
    route = rs.routes[0]
    assert as_set(route) == {"B23-0", "C24-0", "D23-0", "B19-0"}
    c22 = [p for p in route.paths if p[0] == "C22"]
    assert len(c22) == 4 and len(set(c22)) == 4  # all four junction paths, none twice
    checked = check_routes(board, "SAL", [fl_train("2-0", "2")], EARLY,
                           [("2-0", ["B23-0", "C24-0", "D23-0", "B19-0"])])
    assert checked.revenue == 60


def test_trains_may_share_a_junction_but_not_its_paths(board: Board) -> None:
    jax_junction_loop(board)
    lay(board, "C20", "9", {2, 5})  # B19 is reached only through C22's junction; add a second way in from C20
    rs = best_routes(board, "SAL", [fl_train("2-0", "2"), fl_train("2-1", "2")], EARLY)
    # every route leaves South by the same path into C22: the second train has nothing
    assert len(rs.routes) == 1 and rs.revenue == 60


def test_jacksonville_north_to_south_is_forbidden(board: Board) -> None:
    token(board, "B23", "SAL", 0)
    token(board, "B23", "SR", 1)
    lay(board, "C22", "80", {1, 2, 3})
    lay(board, "B21", "80", {3, 4, 5})
    # the only other stop is the other half of Jacksonville
    assert best_routes(board, "SAL", [fl_train("2-0", "2")], EARLY).revenue == 0
    assert best_routes(board, "SR", [fl_train("2-0", "2")], EARLY).revenue == 30 + 30  # Jax N - Savannah
    with pytest.raises(RouteError, match="between Jacksonville S \\(B23\\) and Jacksonville N \\(B23\\)"):
        check_routes(board, "SAL", [fl_train("2-0", "2")], EARLY, [("2-0", ["B23-0", "B23-1"])])
    # the grey #489 merges both halves into one city: the rule has nothing left to forbid
    board.place_tile("B23", "489", 4, [0, 0])
    assert board.hexes["B23"].tokens == [["SAL", "SR", None]]


# -- 3E, hotels, port ---------------------------------------------------------------------------------------------


def test_3e_doubles_cities_and_ignores_towns(board: Board) -> None:
    orlando_line(board)
    rs = best_routes(board, "ACL", [fl_train("6-0", "3E")], LATE)
    assert rs.revenue == 2 * (30 + 20)
    assert as_set(rs.routes[0]) >= {"G20-0", "F23-0"}
    regular = best_routes(board, "ACL", [fl_train("3-0", "3")], LATE)
    assert regular.revenue == 30 + 20 + 10


def test_3e_needs_two_cities_or_offboards(board: Board) -> None:
    tampa_both_ways(board)
    assert best_routes(board, "ACL", [fl_train("6-0", "3E")], LATE).revenue == 0
    with pytest.raises(RouteError, match="needs at least two cities or off-boards"):
        check_routes(board, "ACL", [fl_train("6-0", "3E")], LATE, [("6-0", ["G20-0", "D23-0"])])
    # towns do not count toward its three cities either
    havana(board)
    rs = best_routes(board, "FEC", [fl_train("6-0", "3E")], LATE)
    assert rs.revenue == 2 * (30 + 100)


def test_hotels(board: Board) -> None:
    orlando_line(board)
    board.hexes["D25"].hotels[0] = "ACL"
    two = [fl_train("2-0", "2")]
    assert best_routes(board, "ACL", two, EARLY).revenue == 30 + 20 + 10 + 10
    assert best_routes(board, "ACL", two, LATE).revenue == 30 + 20 + 10 + 20
    assert best_routes(board, "ACL", [fl_train("6-0", "3E")], LATE).revenue == 2 * (30 + 20)
    board.hexes["D25"].hotels[0] = "SAL"  # someone else's hotel is worth nothing to ACL
    assert best_routes(board, "ACL", two, LATE).revenue == 60


def test_port_bonus(board: Board) -> None:
    tampa_both_ways(board)
    board.hexes["G20"].markers["port"] = "ACL"
    rs = best_routes(board, "ACL", [fl_train("2-0", "2"), fl_train("2-1", "2")], EARLY)
    assert [r.revenue for r in rs.routes] == [70, 60]  # each route visiting Tampa gets +20
    board.hexes["G20"].markers["port"] = "FEC"
    assert best_routes(board, "ACL", [fl_train("2-0", "2")], EARLY).revenue == 60


# -- check_routes ----------------------------------------------------------------------------------------------


def test_check_routes_prices_a_legal_set(board: Board) -> None:
    tampa_both_ways(board)
    trains = [fl_train("2-0", "2"), fl_train("2-1", "2")]
    rs = check_routes(board, "ACL", trains, EARLY, [("2-0", ["I22-0", "G20-0"]), ("2-1", ["C24-0", "D23-0", "G20-0"])])
    assert rs.revenue == 90
    assert nodes(rs) == [["I22-0", "G20-0"], ["C24-0", "D23-0", "G20-0"]]
    assert rs.routes[1].paths == (("C24", 0), ("D23", 1), ("D23", 0), ("E22", 0), ("F21", 0), ("G20", 1))
    assert check_routes(board, "ACL", trains, EARLY, []) == RouteSet((), 0)


@pytest.mark.parametrize(
    ("submitted", "message"),
    [
        ([("9-9", ["G20-0", "D23-0"])], "ACL has no train 9-9"),
        ([("2-0", ["G20-0", "D23-0"]), ("2-0", ["G20-0", "I22-0"])], "given two routes"),
        ([("2-0", ["G20-0"])], "at least two stops"),
        ([("2-0", ["G20-0", "X1-0"])], "not a stop"),
        ([("2-0", ["G20-x"])], "not a stop"),
        ([("2-0", ["G20-0", "G20-0"])], "^the 2-train visits Tampa \\(G20\\) twice$"),
        ([("2-0", ["D23-0", "C24-0"])], "no ACL station"),
        ([("2-0", ["I22-0", "G20-0", "D23-0"]), ("2-1", ["G20-0", "D23-0"])],
         "the two 2-trains would share track between Tampa \\(G20\\) and Palatka \\(D23\\)"),
        ([("2-0", ["G20-0", "C24-0"])], "no track from Tampa \\(G20\\) to St. Augustine \\(C24\\)"),
    ],
)
def test_check_routes_names_the_broken_rule(board: Board, submitted: list, message: str) -> None:
    tampa_both_ways(board)
    trains = [fl_train("2-0", "2"), fl_train("2-1", "2")]
    with pytest.raises(RouteError, match=message):
        check_routes(board, "ACL", trains, EARLY, submitted)


def test_check_routes_too_many_stops(board: Board) -> None:
    # SR: Savannah - Jacksonville North - Lake City (town) - Tallahassee: three cities and off-boards
    token(board, "B23", "SR", 1)
    lay(board, "B21", "9", {1, 4})
    lay(board, "B19", "4", {1, 4})
    lay(board, "B17", "9", {1, 4})
    route = ["A22-0", "B23-1", "B19-0", "B15-0"]
    with pytest.raises(RouteError, match="may visit 2 cities and off-boards; this route has 3"):
        check_routes(board, "SR", [fl_train("2-0", "2")], EARLY, [("2-0", route)])
    assert check_routes(board, "SR", [fl_train("3-0", "3")], EARLY, [("3-0", route)]).revenue == 30 + 30 + 10 + 20
    assert best_routes(board, "SR", [fl_train("2-0", "2")], EARLY).revenue == 30 + 30 + 10  # 2 of the 3
    orlando_line(board)
    with pytest.raises(RouteError, match="may visit 2 cities, towns and off-boards; this route has 3"):
        check_routes(board, "ACL", [TrainSpec("2-0", "2", 2, towns_count=True)], EARLY,
                     [("2-0", ["G20-0", "F23-0", "D25-0"])])


def test_check_routes_takes_the_stops_in_a_runnable_order(board: Board) -> None:
    # 18xx.games lists a route's nodes in the order its segments were built, so Havana may come second
    havana(board)
    rs = check_routes(board, "FEC", [fl_train("4-0", "4")], EARLY, [("4-0", ["K28-0", "N23-0", "M24-0"])])
    assert nodes(rs) == [["K28-0", "M24-0", "N23-0"]] and rs.revenue == 100
    # the given order wins when it can be run
    rs = check_routes(board, "FEC", [fl_train("4-0", "4")], EARLY, [("4-0", ["N23-0", "M24-0", "K28-0"])])
    assert nodes(rs) == [["N23-0", "M24-0", "K28-0"]]


def test_check_routes_reused_track_by_one_train(board: Board) -> None:
    # C24 and D23 are joined twice: directly, and through C22's junction. Three visits would need one twice.
    jax_junction_loop(board)
    rs = check_routes(board, "SAL", [fl_train("2-0", "2")], EARLY, [("2-0", ["B23-0", "D23-0", "C24-0"])])
    assert rs.revenue == 50


def test_check_routes_agrees_with_best(board: Board) -> None:
    tampa_both_ways(board)
    havana(board)
    trains = [fl_train("2-0", "2"), fl_train("3-0", "3")]
    best = best_routes(board, "ACL", trains, EARLY)
    again = check_routes(board, "ACL", trains, EARLY, [(r.train, r.node_ids()) for r in best.routes])
    assert again.revenue == best.revenue
    assert [r.revenue for r in again.routes] == [r.revenue for r in best.routes]


# -- generic rules on a small title of our own --------------------------------------------------------------------


def tiny_title(middle: dict) -> TitleData:
    """18FL's components on a four-hex row: station city B1 (20), ``middle`` at B3, city B5 (50), town B7."""
    raw = TITLE.model_dump()
    raw["hexes"] = [
        {"id": "B1", "color": "yellow", "cities": [{"revenue": 20}], "paths": [[{"edge": 4}, {"city": 0}]]},
        dict(middle, id="B3"),
        {"id": "B5", "color": "yellow", "cities": [{"revenue": 50}],
         "paths": [[{"edge": 1}, {"city": 0}], [{"edge": 4}, {"city": 0}]]},
        {"id": "B7", "color": "yellow", "towns": [{"revenue": 10}], "paths": [[{"edge": 1}, {"town": 0}]]},
    ]
    return TitleData.model_validate(raw)


def test_offboard_is_never_passed_through() -> None:
    t = tiny_title({"color": "red", "offboard": {"revenue": {"yellow": 40, "brown": 60}},
                    "paths": [[{"edge": 1}, {"offboard": 0}], [{"edge": 4}, {"offboard": 0}]]})
    b = Board(t)
    token(b, "B1", "ACL")
    rs = best_routes(b, "ACL", [TrainSpec("4-0", "4", 4)], GenericRules())
    assert nodes(rs) == [["B1-0", "B3-0"]] and rs.revenue == 60
    assert best_routes(b, "ACL", [TrainSpec("4-0", "4", 4)], GenericRules(late=True)).revenue == 80
    # B5's corporation may run to the off-board from the other side, and may start and end at off-boards
    token(b, "B5", "SR")
    assert nodes(best_routes(b, "SR", [TrainSpec("4-0", "4", 4)], GenericRules())) == [["B3-0", "B5-0", "B7-0"]]
    with pytest.raises(RouteError, match="off-board area and may only be at an end"):
        check_routes(b, "ACL", [TrainSpec("4-0", "4", 4)], GenericRules(), [("4-0", ["B1-0", "B3-0", "B5-0"])])


def test_city_on_a_red_hex_is_a_terminal() -> None:
    # 18AL Nashville/Mobile: an off-board area with a station circle
    t = tiny_title({"color": "red", "cities": [{"revenue": 40}],
                    "paths": [[{"edge": 1}, {"city": 0}], [{"edge": 4}, {"city": 0}]]})
    b = Board(t)
    token(b, "B1", "ACL")
    rs = best_routes(b, "ACL", [TrainSpec("4-0", "4", 4)], GenericRules())
    assert nodes(rs) == [["B1-0", "B3-0"]]
    # a station in the red city starts routes both ways but never runs through it
    token(b, "B3", "SR")
    rs = best_routes(b, "SR", [TrainSpec("2-0", "2", 2), TrainSpec("2-1", "2", 2)], GenericRules())
    assert sorted(nodes(rs)) == [["B3-0", "B1-0"], ["B3-0", "B5-0", "B7-0"]]


def test_generic_train_spec_from_title() -> None:
    assert train_spec(TITLE, "6-3", "3E") == TrainSpec("6-3", "3E", 3, multiplier=2)
    assert train_spec(TITLE, "6-3", "3E", express=True).express
    assert train_spec(TITLE, "4-0", "4") == TrainSpec("4-0", "4", 4)
    assert fl_train("6-3", "3E") == TrainSpec("6-3", "3E", 3, multiplier=2, express=True)
    with pytest.raises(KeyError):
        fl_train("7-0", "7")


def test_stop_node_ids() -> None:
    assert Stop("city", "B23", 1).node_id() == "B23-1"
    assert Stop("town", "X5", 0, part=2).node_id() == "X5-2"
    assert Stop("town", "X5", 0, part=2) == Stop("town", "X5", 0)


def test_deterministic(board: Board) -> None:
    jax_junction_loop(board)
    tampa_both_ways(board)
    trains = [fl_train("2-0", "2"), fl_train("2-1", "2"), fl_train("3-0", "3")]
    first = best_routes(board, "ACL", trains, EARLY)
    assert all(best_routes(board, "ACL", trains, EARLY) == first for _ in range(3))


# -- real games: every run of an 18xx.games record -----------------------------------------------------------------



def _effective(actions: list[dict]) -> list[dict]:
    """The actions still in force after undo/redo (18xx-games-format.md, section 8)."""
    kept: list[dict | None] = [None] * len(actions)
    stack: list[list[tuple[int, dict]]] = []
    index_of = {a.get("id"): i for i, a in enumerate(actions)}
    for i, a in enumerate(actions):
        if a["type"] == "undo":
            if "action_id" in a:
                start = 0 if a["action_id"] == 0 else 1 + index_of[a["action_id"]]
            else:
                live = [j for j in range(i) if kept[j] is not None and kept[j]["type"] != "message"]
                start = live[-1] if live else 0
            group = []
            for j in range(start, i):
                if kept[j] is not None and kept[j]["type"] != "message":
                    group.append((j, kept[j]))
                    kept[j] = None
            stack.append(group)
        elif a["type"] == "redo":
            for j, b in stack.pop():
                kept[j] = b
        else:
            if a["type"] != "message":
                stack.clear()
            kept[i] = a
    return [a for a in kept if a is not None]


@dataclass
class RecordedRun:
    action: dict
    corp: str
    trains: list[TrainSpec]
    rules: FLRouteRules
    checked: RouteSet  # check_routes of the recorded stops, on the board as it stood
    best: RouteSet  # best_routes on that board


def replay_record(path: Path) -> tuple[Board, list[RecordedRun]]:
    """Replay the map side of an 18FL record (tiles, tokens, hotels, port, phase switches), checking every
    run_routes on the board as it stood; returns the final board and the runs."""
    title = TITLE
    sym = {c.record_sym: c.sym for c in title.corporations}
    board = Board(title)
    for c in title.corporations:
        token(board, c.home, c.sym, c.home_city)
    where: dict[str, str] = {}
    variant: dict[str, str] = {}
    late = hurricane = False
    operating: str | None = None
    runs: list[RecordedRun] = []
    for a in _effective(json.loads(path.read_text())["actions"]):
        kind = a["type"]
        if a.get("entity_type") == "corporation":
            operating = sym[a["entity"]]
        if kind == "lay_tile":
            h, tid = a["hex"], a["tile"].rsplit("-", 1)[0]
            n_new = len(title.tiles[tid].cities)
            board.place_tile(h, tid, a["rotation"], [min(i, n_new - 1) for i in range(len(board.hexes[h].tokens))])
            where[a["tile"]] = h
        elif kind == "place_token":
            inst, ci = a["city"].rsplit("-", 1)
            h = where.get(inst, inst.rsplit("-", 1)[0])
            corp = sym[a.get("tokener") or a["entity"]]
            if a["entity"] == "TC":
                board.hexes[h].extra_tokens.append((corp, int(ci)))
            else:
                token(board, h, corp, int(ci))
        elif kind == "hex_token":
            board.hexes[a["hex"]].hotels[0] = sym[a["entity"]]
        elif kind == "assign" and a["entity"] == "POSC":
            assert operating is not None
            board.hexes[a["target"]].markers["port"] = operating
        elif kind == "buy_train":
            v = variant[a["train"]] = a.get("variant") or variant.get(a["train"]) or a["train"].split("-")[0]
            if v == "5" and not late:
                late = True
                for st in board.hexes.values():
                    st.markers.pop("port", None)
            if v in ("6", "3E") and not hurricane:
                hurricane = True
                board.clear_tile("M24")
                board.clear_tile("M26")
        elif kind == "run_routes" and a["routes"]:
            corp, rules = sym[a["entity"]], FLRouteRules(late=late)
            trains = [fl_train(r["train"], variant[r["train"]]) for r in a["routes"]]
            checked = check_routes(board, corp, trains, rules, [(r["train"], r["nodes"]) for r in a["routes"]])
            runs.append(RecordedRun(a, corp, trains, rules, checked, best_routes(board, corp, trains, rules)))
    return board, runs


@pytest.mark.skipif(not RECORDS.exists(), reason="reference records not available")
@pytest.mark.parametrize("name", ["18FL-4p-bankrupt.json", "18FL-2p-short.json"])
def test_every_recorded_run_is_legal_and_optimal(name: str) -> None:
    _, runs = replay_record(RECORDS / name)
    for run in runs:
        recorded = [r["revenue"] for r in run.action["routes"]]
        assert [r.revenue for r in run.checked.routes] == recorded, (run.action["id"], run.corp)
        # the site trusts the players' routes; in these games they found the maximum every time
        assert run.best.revenue == sum(recorded), (run.action["id"], run.corp, [r.node_ids() for r in run.best.routes])
    assert len(runs) == (20 if "4p" in name else 0)


# -- property: best_routes equals a brute force ---------------------------------------------------------------


Walk = tuple[tuple[tuple[str, str, int], ...], frozenset]


def brute_walks(board: Board, corp: str) -> set[Walk]:
    """Every walk between two stops, traced directly on the board (independent of engine.graph):
    (stops in order, track used: (hex, path) pairs and crossed sides)."""

    def blocked(h: str, ci: int) -> bool:
        slots = board.hexes[h].tokens[ci]
        return bool(slots) and None not in slots and corp not in slots and (corp, ci) not in board.hexes[h].extra_tokens

    def stop_ok(h: str, node: tuple[str, int]) -> bool:
        lay_ = board.layout(h)
        return node[0] != "offboard" or (lay_.offboard is not None and lay_.offboard.visitable)

    def terminal(h: str, node: tuple[str, int]) -> bool:
        return node[0] == "offboard" or (node[0] == "city" and (board.layout(h).color == "red" or blocked(h, node[1])))

    walks: set[Walk] = set()

    def arrive(h: str, end: tuple[str, int], used: frozenset, stops: tuple, hexes: frozenset) -> None:
        kind = end[0]
        if kind == "edge":
            across = board.connects_across(h, end[1])
            if across is None:
                return
            side = frozenset({(h, end[1]), across})
            if side in used:
                return
            h2, e2 = across
            for pj, (a, b) in enumerate(board.layout(h2).paths):
                for here, there in ((a, b), (b, a)):
                    if here == ("edge", e2) and (h2, pj) not in used:
                        arrive(h2, there, used | {side, (h2, pj)}, stops, hexes)
            return
        if kind == "junction":
            leave(h, end, used, stops, hexes)
            return
        if not stop_ok(h, end) or h in hexes:
            return
        stops = stops + ((kind, h, end[1]),)
        walks.add((stops, used))
        if not terminal(h, end):
            leave(h, end, used, stops, hexes | {h})

    def leave(h: str, node: tuple[str, int], used: frozenset, stops: tuple, hexes: frozenset) -> None:
        for pj, (a, b) in enumerate(board.layout(h).paths):
            for here, there in ((a, b), (b, a)):
                if here == node and (h, pj) not in used:
                    arrive(h, there, used | {(h, pj)}, stops, hexes)

    for h in board.hexes:
        lay_ = board.layout(h)
        starts = [("city", i) for i in range(len(lay_.cities))] + [("town", i) for i in range(len(lay_.towns))]
        starts += [("offboard", 0)] if lay_.offboard is not None and lay_.offboard.visitable else []
        for node in starts:
            leave(h, node, frozenset(), ((node[0], h, node[1]),), frozenset({h}))
    return walks


def brute_price(board: Board, corp: str, train: TrainSpec, stops: tuple, late: bool) -> int | None:
    """18FL revenue of a walk for a train, or None if the train may not run it."""
    stations = set(board.stations(corp))
    if len(stops) < 2 or not any(s[0] == "city" and (s[1], s[2]) in stations for s in stops):
        return None
    majors = [s for s in stops if s[0] != "town"]
    towns = [s for s in stops if s[0] == "town"]
    counted = len(majors) + (len(towns) if train.towns_count and not train.express else 0)
    if train.distance is not None and counted > train.distance:
        return None
    if (len(majors) if train.express else len(stops)) < 2:
        return None

    def value(kind: str, h: str, i: int) -> int:
        lay_ = board.layout(h)
        if kind == "city":
            return lay_.cities[i].revenue
        if kind == "offboard":
            assert lay_.offboard is not None
            return lay_.offboard.revenue["brown" if late else "yellow"]
        hotel = (20 if late else 10) if board.hexes[h].hotels.get(i) == corp else 0
        return lay_.towns[i].revenue + hotel

    rev = train.multiplier * sum(value(*s) for s in majors)
    rev += 0 if train.express else sum(value(*s) for s in towns)
    if any(s[0] == "city" and board.hexes[s[1]].markers.get("port") == corp for s in stops):
        rev += 20
    return rev


def brute_routes(board: Board, corp: str, trains: list[TrainSpec], late: bool) -> int:
    """Best total by exhaustive search over every combination of brute-force walks."""
    walks = brute_walks(board, corp)
    options = []
    for train in trains:
        opts = []
        for stops, used in walks:
            rev = brute_price(board, corp, train, stops, late)
            if rev:
                opts.append((rev, used))
        options.append(opts)
    best = 0

    def search(k: int, used: frozenset, total: int) -> None:
        nonlocal best
        if k == len(trains):
            best = max(best, total)
            return
        search(k + 1, used, total)
        for rev, res in options[k]:
            if not res & used:
                search(k + 1, used | res, total + rev)

    search(0, frozenset(), 0)
    return best


def node_ids(stops: tuple) -> list[str]:
    # 18FL hexes carry one kind of stop each, so the part index is the stop's own index
    return [f"{h}-{i}" for _, h, i in stops]


PLAIN = ["8", "9", "80", "81", "82", "83", "544", "545", "546"]
TOWN = ["3", "4", "58", "141", "142", "143", "146"]
CITY_TILES = {"F23": ["6o", "443o", "63"], "J27": ["6fl", "443fl", "611"], "G20": ["405", "431"],
              "K28": ["405", "431"], "B5": ["15"], "B15": ["15"], "B23": ["487", "488", "489"]}
HOMES = {"ACL": ("G20", 0), "FEC": ("K28", 0), "L&N": ("B5", 0), "TPS": ("B15", 0), "SAL": ("B23", 0),
         "SR": ("B23", 1)}
CORPS = list(HOMES)


def random_position(rng: random.Random, radius: int | None = None) -> tuple[Board, str, list[TrainSpec], bool]:
    """A corporation's neighbourhood tiled outward from its home, mostly turned to meet the track already there."""
    board = Board(TITLE)
    corp = rng.choice(CORPS)
    if radius is None:
        radius = rng.choice([2, 3, 4, 5, 6])
    home = HOMES[corp][0]
    order, seen = [home], {home}
    for _ in range(radius):
        for h in list(order):
            for e in range(6):
                n = neighbour(h, e, "pointy")
                if n in board.hexes and n not in seen:
                    seen.add(n)
                    order.append(n)
    for h in order:
        hd = TITLE.hex(h)
        if not hd.buildable or rng.random() < 0.1:
            continue
        if h in CITY_TILES:
            choices = CITY_TILES[h]
        elif hd.towns:
            choices = TOWN
        elif hd.cities:
            continue
        else:
            choices = PLAIN
        tile = rng.choice(choices)
        if not board.supply[tile]:
            continue

        def score(rot: int, tile: str = tile, h: str = h) -> int:
            """Exits meeting track count 2, facing a hex still to be tiled 1, facing nothing -5."""
            total = 0
            for e in tile_layout(TITLE.tiles[tile], rot).exits:
                n = board.neighbour(h, e)
                if n is None or not board.edge_open(h, e):
                    total -= 5
                elif (e + 3) % 6 in board.layout(n).exits:
                    total += 2
                elif TITLE.hex(n).buildable and board.hexes[n].tile is None:
                    total += 1
            return total

        rots = [r for r in range(6) if keeps_track(board.layout(h), tile_layout(TITLE.tiles[tile], r))]
        if not rots:
            continue
        rng.shuffle(rots)
        rot = rots[0] if rng.random() < 0.15 else max(rots, key=score)
        n_new = len(TITLE.tiles[tile].cities)
        board.place_tile(h, tile, rot, [min(i, n_new - 1) for i in range(len(board.hexes[h].tokens))])
    for c, (h, ci) in HOMES.items():
        ci = min(ci, len(board.hexes[h].tokens) - 1)
        if c == corp or rng.random() < 0.3:
            slots = board.hexes[h].tokens[ci]
            if None in slots:
                slots[slots.index(None)] = c
    cities = [(h, ci) for h in order for ci in range(len(board.hexes[h].tokens))]
    for h, ci in cities:
        r = rng.random()
        slots = board.hexes[h].tokens[ci]
        if r < 0.15 and None in slots:
            slots[slots.index(None)] = rng.choice(CORPS)
        elif r < 0.35:
            board.hexes[h].extra_tokens.append((corp, ci))
    for h in order:
        if TITLE.hex(h).towns and rng.random() < 0.3:
            board.hexes[h].hotels[0] = rng.choice([corp, "SR"])
        if TITLE.hex(h).cities and rng.random() < 0.15:
            board.hexes[h].markers["port"] = corp
    kinds = [fl_train("", v) for v in ("2", "3", "4", "5", "6", "3E")]
    kinds += [TrainSpec("", "2t", 2, towns_count=True), TrainSpec("", "3t", 3, towns_count=True),
              TrainSpec("", "4D", 4, multiplier=2), TrainSpec("", "D", None)]
    n_trains = rng.choice([1, 2, 2, 2, 3])
    trains = [TrainSpec(f"t{i}", k.name, k.distance, k.multiplier, k.express, k.towns_count)
              for i, k in enumerate(rng.choice(kinds) for _ in range(n_trains))]
    return board, corp, trains, rng.random() < 0.5


def check_against_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    board, corp, trains, late = random_position(rng)
    rules = FLRouteRules(late=late)
    best = best_routes(board, corp, trains, rules)
    assert best.proven
    assert best.revenue == brute_routes(board, corp, trains, late), (corp, trains)
    # the answer is itself a legal, correctly priced set
    again = check_routes(board, corp, trains, rules, [(r.train, r.node_ids()) for r in best.routes])
    assert again.revenue == best.revenue
    assert [r.revenue for r in again.routes] == [r.revenue for r in best.routes]
    for a, b in itertools.combinations(best.routes, 2):
        assert not set(a.paths) & set(b.paths)
    # check_routes accepts exactly the walks the brute force finds legal, at the same price
    train = trains[0]
    walks = sorted(brute_walks(board, corp))
    for stops, _ in rng.sample(walks, min(len(walks), 15)):
        expected = brute_price(board, corp, train, stops, late)
        if expected is None:
            with pytest.raises(RouteError):
                check_routes(board, corp, [train], rules, [(train.id, node_ids(stops))])
        else:
            assert check_routes(board, corp, [train], rules, [(train.id, node_ids(stops))]).revenue == expected


@pytest.mark.parametrize("seed", range(100))
def test_best_routes_equals_brute_force(seed: int) -> None:
    check_against_brute_force(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 1100))
def test_best_routes_equals_brute_force_soak(seed: int) -> None:
    check_against_brute_force(seed)


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_a_search_out_of_budget_answers_a_legal_set_marked_not_proven(seed: int) -> None:
    rng = random.Random(seed)
    board, corp, trains, late = random_position(rng, radius=4)
    rules = FLRouteRules(late=late)
    exact = best_routes(board, corp, trains, rules)
    for budget in (0, 50, 400):
        found = best_routes(board, corp, trains, rules, budget=budget)
        assert found.revenue <= exact.revenue
        if found.proven:
            assert found.revenue == exact.revenue
        again = check_routes(board, corp, trains, rules, [(r.train, r.node_ids()) for r in found.routes])
        assert again.revenue == found.revenue
    assert not best_routes(board, corp, trains, rules, budget=0).proven or not exact.routes


def test_a_search_beside_listed_walks_still_pairs_them_once_the_budget_is_spent() -> None:
    """Issue 11: when the budget runs out while a train's high walks are listed, the search of the other train
    beside them still takes a few steps (``_PAIR_LAST_RESORT``), so an answer out of budget pairs the walks listed
    so far instead of falling back to the greedy set (on late 18FL maps that set was often $100 short)."""
    from engine.route_network import Network
    from engine.route_search import _kind
    from engine.route_sets import Budget
    from engine.route_walks import Partner, kind_walks

    for seed in range(40):
        board, corp, trains, late = long_trains_position(seed)
        net = Network(board, corp, FLRouteRules(late=late))
        a, b = _kind(trains[0]), _kind(trains[1])
        listed = kind_walks(net, a, 0, 1, True, Budget(1 << 40))
        if listed:
            break
    partner = Partner(0, listed)
    spent = Budget(0)
    kind_walks(net, b, 0, 1, True, spent, partner)
    assert partner.best is not None and spent.spent
    walk, beside = partner.best
    assert not walk[3] & beside[3] and walk[0] + beside[0] > 0


def test_the_budget_is_counted_in_steps_so_answers_repeat() -> None:
    rng = random.Random(11)
    board, corp, trains, late = random_position(rng, radius=6)
    rules = FLRouteRules(late=late)
    runs = [best_routes(board, corp, trains, rules, budget=300) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]


# -- property: the bounded search equals listing every walk ----------------------------------------------------------


def every_walk_maximum(board: Board, corp: str, trains: list[TrainSpec], rules: GenericRules) -> int:
    """The maximum by listing every walk any of the trains may run and combining them with no floor (the search
    before bounds): independent of the greedy set, the per-train floors and the walk-search bound."""
    from engine.route_network import Network
    from engine.route_search import _kind
    from engine.route_sets import Budget, all_options, branch_and_bound

    net = Network(board, corp, rules)
    walks = net.walks(trains)
    kinds = [_kind(t) for t in trains]
    unique = list(dict.fromkeys(kinds))
    by_kind = all_options(net, walks, unique, dict.fromkeys(unique, 1))
    opts = [by_kind[k] for k in kinds]
    picks = branch_and_bound(opts, kinds, 0, Budget(1 << 60))
    if picks is None:
        return 0
    return sum(o.pricing.revenue[p] for o, p in zip(opts, picks, strict=True) if p is not None)


def long_trains_position(seed: int) -> tuple[Board, str, list[TrainSpec], bool]:
    """A random neighbourhood (as in random_position) run by two or three long trains, where walks are many."""
    rng = random.Random(seed)
    board, corp, _, late = random_position(rng, radius=rng.choice([4, 5, 6]))
    kinds = [fl_train("", v) for v in ("4", "5", "6", "3E")] + [TrainSpec("", "4D", 4, multiplier=2),
                                                                TrainSpec("", "5t", 5, towns_count=True)]
    picked = [rng.choice(kinds) for _ in range(rng.choice([2, 2, 3]))]
    return board, corp, [replace(k, id=f"t{i}") for i, k in enumerate(picked)], late


@pytest.mark.parametrize("seed", range(12))
def test_best_routes_equals_every_walk_maximum_with_long_trains(seed: int) -> None:
    board, corp, trains, late = long_trains_position(seed)
    rules = FLRouteRules(late=late)
    best = best_routes(board, corp, trains, rules, budget=1 << 40)
    assert best.proven and best.revenue == every_walk_maximum(board, corp, trains, rules), (corp, trains)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12, 400))
def test_best_routes_equals_every_walk_maximum_with_long_trains_soak(seed: int) -> None:
    test_best_routes_equals_every_walk_maximum_with_long_trains(seed)


@pytest.mark.slow
def test_best_routes_on_captured_game_positions_equals_every_walk_maximum() -> None:
    """Every record run_routes point and self-played route run (benchmarks/route_positions.py: a few games per
    title) whose walks can all be listed: the proven answer equals the maximum over every walk."""
    from benchmarks.route_positions import all_positions

    checked = 0
    for positions in all_positions(games=4).values():
        for p in positions:
            best = best_routes(p.board, p.corp, p.trains, p.rules, budget=1 << 40)
            assert best.proven
            from engine.route_network import Network

            if len(p.trains) > 1 and len(Network(p.board, p.corp, p.rules).walks(p.trains)) > 40_000:
                continue  # too many walks to list in a test
            assert best.revenue == every_walk_maximum(p.board, p.corp, p.trains, p.rules), p.label()
            checked += 1
    assert checked > 100


@pytest.mark.slow
def test_best_routes_on_hard_18fl_self_play_positions_equals_every_walk_maximum() -> None:
    """The hard case of issue 11: late self-played 18FL maps (junction meshes, long trains, many free towns) where a
    search needs thousands of steps (a tenth of the default budget does not prove them; the positions the default
    budget does not prove are mostly too large to list every walk of). Searched without a budget, the answer equals
    the maximum over every walk."""
    from benchmarks.route_positions import all_positions
    from engine.route_network import Network
    from engine.routes import DEFAULT_BUDGET

    checked = 0
    for p in all_positions(games=30, only=["18FL"])["18FL"]:
        if len(p.trains) < 2 or best_routes(p.board, p.corp, p.trains, p.rules, budget=DEFAULT_BUDGET // 10).proven:
            continue
        if len(Network(p.board, p.corp, p.rules).walks(p.trains)) > 20_000:
            continue  # too many walks to list in a test
        best = best_routes(p.board, p.corp, p.trains, p.rules, budget=1 << 40)
        assert best.proven and best.revenue == every_walk_maximum(p.board, p.corp, p.trains, p.rules), p.label()
        checked += 1
        if checked == 12:
            break
    assert checked == 12

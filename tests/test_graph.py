"""Track graph, reachability and token distance on real 18FL boards."""

from __future__ import annotations

import random

import pytest

from engine.board import Board
from engine.graph import TrackGraph, city_blocked, corp_view, reach, token_distance, track_graph
from engine.titledata import load_title
from tests.reference import RECORDS
from tests.test_routes import brute_walks, lay, orlando_line, random_position, token

TITLE = load_title("18FL")


@pytest.fixture
def board() -> Board:
    return Board(TITLE)


def tampa_line(board: Board) -> None:
    """ACL at Tampa; #9 F21, #9 E22, town #4 at Palatka D23."""
    token(board, "G20", "ACL")
    lay(board, "F21", "9", {0, 3})
    lay(board, "E22", "9", {0, 3})
    lay(board, "D23", "4", {0, 3})


def test_graph_nodes_and_segments(board: Board) -> None:
    g = TrackGraph(board)
    # every printed path except the two unvisitable stubs is a segment
    printed = sum(len(board.layout(h).paths) for h in board.hexes)
    assert len(g.segs) == printed - 2
    assert ("A4", 0) not in g.seg_index and ("A6", 0) not in g.seg_index
    assert g.stop_node("A4", "offboard", 0) is None
    assert g.stop_node("A22", "offboard", 0) is not None
    # Savannah's track meets Jacksonville North's at one side node
    sav = g.seg_index[("A22", 0)]
    jax_n = g.seg_index[("B23", 3)]  # edge 2 -> city 1
    shared = set(g.seg_ends[sav]) & set(g.seg_ends[jax_n])
    assert len(shared) == 1 and g.nodes[shared.pop()].kind == "side"
    # two stops on Jacksonville form an exclusive group
    assert [sorted(g.nodes[n].index for n in grp) for grp in g.exclusive_groups(g.stop_nodes())] == [[0, 1]]


def test_reach_home_only(board: Board) -> None:
    token(board, "G20", "ACL")
    r = reach(board, "ACL")
    assert r.cities == {("G20", 0)}
    assert r.towns == frozenset()
    assert r.paths == {("G20", 0), ("G20", 1)}
    # Tampa's own sides, and the neighbours' sides facing them although those hexes have no track yet
    assert r.hex_edges == {"G20": {3, 5}, "F21": {0}, "H21": {2}}


def test_reach_follows_laid_track(board: Board) -> None:
    tampa_line(board)
    r = reach(board, "ACL")
    assert r.cities == {("G20", 0)}
    assert r.towns == {("D23", 0)}
    assert {h for h, _ in r.paths} == {"G20", "F21", "E22", "D23"}
    assert r.hex_edges["D23"] == {0, 3}
    assert r.hex_edges["C24"] == {0}  # the next hex, reached through Palatka's far side


def test_reach_nothing_without_station(board: Board) -> None:
    tampa_line(board)
    board.hexes["D23"].hotels[0] = "ACL"  # a hotel is not a station
    assert reach(board, "SAL") == reach(board, "FEC")
    r = reach(board, "SAL")
    assert not r.cities and not r.towns and not r.paths and not r.hex_edges


def test_blocked_city_is_an_end_not_a_passage(board: Board) -> None:
    orlando_line(board)
    assert reach(board, "ACL").towns == {("D25", 0)}
    token(board, "F23", "SAL")
    assert city_blocked(board, "ACL", "F23", 0)
    assert not city_blocked(board, "SAL", "F23", 0)
    r = reach(board, "ACL")
    assert ("F23", 0) in r.cities  # a route may end there
    assert r.towns == frozenset()
    assert not any(h in ("E24", "D25") for h, _ in r.paths)
    assert ("F23", 1) not in r.paths  # Orlando's far exit is not on ACL's network
    # the blocking corporation itself runs through Orlando both ways
    r_sal = reach(board, "SAL")
    assert r_sal.cities == {("F23", 0), ("G20", 0)} and r_sal.towns == {("D25", 0)}


def test_terminal_company_token_unblocks(board: Board) -> None:
    orlando_line(board)
    token(board, "F23", "SAL")
    board.hexes["F23"].extra_tokens.append(("ACL", 0))
    assert not city_blocked(board, "ACL", "F23", 0)
    assert reach(board, "ACL").towns == {("D25", 0)}
    # an extra token is a station in its own right: FEC there reaches both ways, but Tampa is full
    board.hexes["F23"].extra_tokens.append(("FEC", 0))
    r = reach(board, "FEC")
    assert r.cities == {("F23", 0), ("G20", 0)} and r.towns == {("D25", 0)}
    assert ("G20", 1) in r.paths  # the track into Tampa (edge 3)...
    assert ("G20", 0) not in r.paths  # ...but Tampa is full of ACL: its other exit is out of FEC's reach


def jax_loop(board: Board) -> None:
    """SAL at Jacksonville South, SR at North; track from South round by C22 and B21 back into North."""
    token(board, "B23", "SAL", 0)
    token(board, "B23", "SR", 1)
    lay(board, "C22", "80", {1, 2, 3})
    lay(board, "B21", "80", {3, 4, 5})


def test_reach_jacksonville_north_and_south_exclude_each_other(board: Board) -> None:
    jax_loop(board)
    r = reach(board, "SAL")
    assert ("B23", 1) not in r.cities
    assert ("B23", 2) not in r.paths and ("B23", 3) not in r.paths  # North's own track
    assert ("B21", 1) in r.paths  # the path of B21 that runs into North is SAL's track up to the side
    r = reach(board, "SR")
    assert r.cities == {("B23", 1)}
    assert ("B23", 0) not in r.paths and ("B23", 1) not in r.paths


def test_reach_location_rule_is_pluggable(board: Board) -> None:
    tampa_line(board)
    assert reach(board, "ACL", location=lambda h: h) == reach(board, "ACL")
    # a title whose location joins two hexes (as two red hexes of one off-board area) keeps them apart
    r = reach(board, "ACL", location=lambda h: "T" if h in ("G20", "D23") else h)
    assert r.towns == frozenset()
    assert ("D23", 0) not in r.paths and ("E22", 0) in r.paths


def test_stubs_are_never_entered(board: Board) -> None:
    token(board, "B5", "L&N")
    board.place_tile("B5", "15", 0, [0])
    assert board.layout("B5").exits == {1, 2, 3, 4}
    r = reach(board, "L&N")
    assert not any(h in ("A4", "A6") for h, _ in r.paths)
    assert r.cities == {("B5", 0)}
    assert {2, 3} <= r.hex_edges["B5"]


def test_token_distance(board: Board) -> None:
    tampa_line(board)
    assert token_distance(board, "ACL", "G20") == 0
    assert token_distance(board, "ACL", "F21") == 1
    assert token_distance(board, "ACL", "E22") == 2
    assert token_distance(board, "ACL", "D23") == 3
    assert token_distance(board, "ACL", "D23", node=("town", 0)) == 3
    assert token_distance(board, "ACL", "C24") is None  # no track there
    assert token_distance(board, "ACL", "H21") is None
    assert token_distance(board, "SAL", "D23") is None  # no station at all


def test_token_distance_counts_hexes_along_track_not_crow_flight(board: Board) -> None:
    # Tampa to Orlando is one hex as the crow flies, but the track runs through F21
    orlando_line(board)
    assert token_distance(board, "ACL", "F23", node=("city", 0)) == 2
    assert token_distance(board, "ACL", "D25", node=("town", 0)) == 4


def test_token_distance_and_blocked_cities(board: Board) -> None:
    orlando_line(board)
    token(board, "F23", "SAL")
    assert token_distance(board, "ACL", "F23") == 2
    assert token_distance(board, "ACL", "D25") is None
    assert token_distance(board, "ACL", "D25", through_blocked=True) == 4


def test_token_distance_prefers_the_nearest_station(board: Board) -> None:
    orlando_line(board)
    board.hexes["F23"].extra_tokens.append(("ACL", 0))
    assert token_distance(board, "ACL", "D25") == 2
    assert token_distance(board, "ACL", "F21") == 1


# -- property: reach and token distance agree with walks traced by brute force ------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_reach_and_distance_equal_brute_force(seed: int) -> None:
    board, corp, _, _ = random_position(random.Random(seed))
    stations = {("city", h, ci) for h, ci in board.stations(corp)}
    walks = [(stops, used) for stops, used in brute_walks(board, corp) if stations & {stops[0], stops[-1]}]
    r = reach(board, corp)
    seen = {s for stops, _ in walks for s in stops} | stations
    assert r.cities == {(h, i) for k, h, i in seen if k == "city"}
    assert r.towns == {(h, i) for k, h, i in seen if k == "town"}
    on_walks = {p for _, used in walks for p in used if isinstance(p, tuple)}
    assert on_walks <= r.paths
    for stop in sorted(seen):
        kind, h, i = stop
        if kind == "offboard":
            continue
        crossings = [sum(1 for p in used if isinstance(p, frozenset)) for stops, used in walks if stop in (stops[0],
                     stops[-1])]
        expected = 0 if stop in stations else min(crossings)
        assert token_distance(board, corp, h, node=(kind, i)) == expected, stop


def test_graph_is_reused_while_the_track_is_unchanged_and_reads_each_boards_tokens(board: Board) -> None:
    tampa_line(board)
    g1 = track_graph(board)
    assert track_graph(board) is g1
    other = Board(TITLE)
    tampa_line(other)
    token(other, "F23", "ACL")  # a station only on the other board
    g2 = track_graph(other)
    assert g2.board is other and g2.segs == g1.segs and g2.memo is g1.memo
    assert corp_view(g2, "ACL").stations != corp_view(g1, "ACL").stations
    lay(board, "H21", "9", {2, 5})  # new track: a new graph with the new segment
    g3 = track_graph(board)
    assert g3 is not g1 and ("H21", 0) in g3.seg_index and ("H21", 0) not in g1.seg_index
    # what a fresh build gives
    fresh = TrackGraph(board)
    assert (g3.segs, g3.seg_ends, g3.nodes) == (fresh.segs, fresh.seg_ends, fresh.nodes)


_GRAPH_PARTS = ("nodes", "_node_ids", "segs", "seg_ends", "seg_hex", "seg_edges", "adj", "moves", "seg_index",
                "fixed_terminal", "token_cities", "city_nodes", "side", "dead", "side_bit", "location")


@pytest.mark.parametrize("record", ["1830-3p-bank", "18AL-4p-bank", "18FL-4p-bankrupt"])
def test_a_graph_resumed_after_a_lay_equals_a_build_from_scratch(record: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """After each tile lay of a real game the board's graph is resumed from the one before it (``_resume``); node
    and segment ids decide which of equal route sets a search finds, so the graph must be the very same."""
    import json

    from engine.records import read_record
    from engine.rounds import operating_round

    path = RECORDS / f"{record}.json"
    if not path.exists():
        pytest.skip(f"{path} is not in shared/")
    resumed: list[bool] = []
    lay_tile = operating_round.lay_tile

    def checked(game, *args, **kwargs):  # type: ignore[no-untyped-def]
        lay_tile(game, *args, **kwargs)
        graph = track_graph(game.board)
        scratch = TrackGraph(game.board)
        for part in _GRAPH_PARTS:
            assert getattr(graph, part) == getattr(scratch, part), part
        resumed.append(graph._from > 0)

    monkeypatch.setattr(operating_round, "lay_tile", checked)
    read_record(json.loads(path.read_text()), routes=False)
    assert sum(resumed) > len(resumed) // 2  # most lays resume rather than build anew


def test_a_state_keeps_a_label_with_fewer_stops_that_costs_more() -> None:
    """The labels of one state in the search over choices of stops: (stops entered, cost). A label with fewer stops
    but a higher cost is not beaten by the new one (it may enter a stop the new one may not) and must stay; one with
    more stops at no less cost is beaten and goes."""
    from engine.graph import _add_label

    have = [(0b01, 5)]
    assert _add_label(have, 0b11, 3)  # more stops, cheaper: both stay
    assert sorted(have) == [(0b01, 5), (0b11, 3)]
    assert not _add_label(have, 0b11, 4)  # beaten by (0b11, 3)
    assert _add_label(have, 0b01, 2)  # as few stops and cheaper: beats both
    assert have == [(0b01, 2)]

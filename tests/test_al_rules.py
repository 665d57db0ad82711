"""18AL scripted scenarios: the private sale, stock turns, market moves, stations, tiles, trains and privates."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from engine.game import Game
from engine.hexgrid import neighbour
from engine.routes import TrainSpec, best_routes
from engine.state import POOL, Train
from engine.titles.g18al import state

P3 = ["Ann", "Bob", "Cy"]


def act(g: Game, **kw: object) -> Game:
    return g.process(dict(kw))


def sell_privates(g: Game) -> None:
    """Each player in turn buys the cheapest private until the bank has none."""
    while any(c.owner is None for c in g.companies.values()):
        who = g.current_entity
        cheapest = g.round.unsold(g)[0]
        act(g, type="buy_company", entity=who, company=cheapest, price=g.rules.private_price(g, cheapest))


def to_first_or(g: Game, corp: str = "ABC", par: int = 90) -> None:
    """Ann floats ``corp`` (Bob and Cy buy shares too), then everyone passes into the first operating round."""
    sell_privates(g)
    buyers = {"Ann": 0, "Bob": 0, "Cy": 0}
    started = False
    while not g.corps[corp].floated:
        who = g.current_entity
        if not started:
            act(g, type="par", entity=who, corporation=corp, price=par)
            started = True
        else:
            act(g, type="buy_shares", entity=who, corporation=corp)
        buyers[who] += 1
        if g.current_entity == who and g.round.kind == "stock":
            act(g, type="pass", entity=who)  # 18AL: the turn stays open for sales after a purchase
    while g.round.kind == "stock":
        act(g, type="pass", entity=g.current_entity)


# -- map -------------------------------------------------------------------------------------------------------
def test_18al_neighbours_follow_title_axes() -> None:
    g = Game("18AL", P3)
    assert g.board.neighbour("A4", 0) == "C4" and g.board.neighbour("A4", 1) == "B3"
    assert g.board.neighbour("B1", 5) == "C2" and g.board.neighbour("G8", 1) == "H7"
    assert g.board.neighbour("A2", 3) is None  # beyond row A: no hex, no endless letters
    # 18FL keeps letters as columns
    assert neighbour("B5", 0, "flat") == "B7"


def test_impassable_side_between_b3_and_d3() -> None:
    g = Game("18AL", P3)
    assert not g.board.edge_open("B3", 0) and not g.board.edge_open("D3", 3)


# -- private sale ----------------------------------------------------------------------------------------------
def test_buy_cheapest_and_bid_rules() -> None:
    g = Game("18AL", P3)
    with pytest.raises(GameError, match="cheapest"):
        act(g, type="buy_company", entity="Ann", company="SNAR", price=40)
    with pytest.raises(GameError, match="buy it"):
        act(g, type="bid", entity="Ann", company="TR", price=25)
    with pytest.raises(GameError, match="at least \\$45"):
        act(g, type="bid", entity="Ann", company="SNAR", price=44)
    act(g, type="bid", entity="Ann", company="NDY", price=500)  # set aside: 100 left of 600
    assert g.current_entity == "Bob"
    act(g, type="pass", entity="Bob")
    act(g, type="pass", entity="Cy")
    with pytest.raises(GameError, match="at most \\$100"):
        act(g, type="bid", entity="Ann", company="M&C", price=105)


def test_single_bidder_takes_private_at_once_after_purchase() -> None:
    g = Game("18AL", P3)
    act(g, type="bid", entity="Ann", company="SNAR", price=50)
    act(g, type="buy_company", entity="Bob", company="TR", price=20)
    assert g.companies["SNAR"].owner == "Ann" and g.player("Ann").cash == 550
    assert g.current_entity == "Cy"  # the player after the buyer


def test_auction_order_and_rebid_after_pass() -> None:
    g = Game("18AL", P3)
    act(g, type="bid", entity="Ann", company="SNAR", price=45)
    act(g, type="bid", entity="Bob", company="SNAR", price=55)
    act(g, type="bid", entity="Cy", company="SNAR", price=60)
    act(g, type="buy_company", entity="Ann", company="TR", price=20)
    # auction starts with the player after the high bidder (Cy): Ann, then Bob
    assert g.current_entity == "Ann"
    act(g, type="pass", entity="Ann")
    act(g, type="bid", entity="Bob", company="SNAR", price=65)
    assert g.current_entity == "Cy"
    act(g, type="pass", entity="Cy")
    act(g, type="bid", entity="Ann", company="SNAR", price=70)  # Ann passed before and bids again
    act(g, type="pass", entity="Bob")
    assert g.current_entity == "Cy"
    act(g, type="pass", entity="Cy")
    assert g.companies["SNAR"].owner == "Ann" and g.player("Ann").cash == 600 - 20 - 70
    assert g.current_entity == "Bob"  # stock turns resume after the buyer of TR


def test_tuscumbia_discount_and_forced_purchase() -> None:
    g = Game("18AL", P3)
    prices = []
    for _ in range(4):
        prices.append(g.rules.private_price(g, "TR"))
        for _ in range(3):
            act(g, type="pass", entity=g.current_entity)
        while g.round.kind != "stock":
            act(g, type="pass", entity=g.current_entity)
    assert prices == [20, 15, 10, 5]
    assert g.round_no == 5 and g.companies["TR"].owner == g.players[g.priority].name


def test_no_sales_in_first_stock_round_and_buy_then_sell_later() -> None:
    g = Game("18AL", P3)
    to_first_or(g)
    assert not g.rules.sales_allowed(g, g.round)
    while g.round.kind != "stock":
        act(g, type="pass", entity=g.current_entity)
    who = g.current_entity
    act(g, type="buy_shares", entity=who, corporation="ABC")
    act(g, type="sell_shares", entity=who, corporation="ABC", count=1)  # buy-sell is allowed
    with pytest.raises(GameError):
        act(g, type="buy_shares", entity=who, corporation="ABC")


# -- floating, home, stations, market -------------------------------------------------------------------------
def test_float_capital_home_and_station_costs() -> None:
    g = Game("18AL", P3)
    to_first_or(g, "ABC", 90)
    abc = g.corps["ABC"]
    assert abc.floated and abc.cash == 900
    assert g.round.kind == "operating" and g.round.corp == "ABC"
    assert "ABC" in g.board.hexes["G6"].tokens[0]  # home placed on the first turn
    assert g.rules.station_cost(g, "ABC") == 40
    assert g.rules.reserved_slots(g, "E6", 0, "ABC") == 1  # TAG's home circle stays free


def test_market_moves_2d() -> None:
    g = Game("18AL", P3)
    m = g.market
    m.place("X", 0, 15)
    m.move_right_or_up("X")
    assert m.positions["X"] == (0, 15)
    m.place("X", 1, 14)
    m.move_right_or_up("X")
    assert m.positions["X"] == (0, 14)
    m.place("X", 3, 0)
    m.move_left_or_down("X")
    assert m.positions["X"] == (4, 0)
    m.place("X", 6, 0)
    m.move_left_or_down("X")
    assert m.positions["X"] == (6, 0)
    assert m.in_zone("X", "y")


def test_yellow_zone_and_privates_in_cert_limit() -> None:
    g = Game("18AL", P3)
    sell_privates(g)
    owners = [c.owner for c in g.companies.values()]
    ann = owners.count("Ann")
    assert g.cert_count("Ann") == ann
    cert = g.certs_of("ABC")[1]
    g.market.place("ABC", 6, 0)
    assert not g.rules.counts_for_cert_limit(g, cert)


# -- tiles -----------------------------------------------------------------------------------------------------
def test_label_tiles() -> None:
    g = Game("18AL", P3)
    assert "G4" in g.rules.label_problem(g, "G4", "57") or g.rules.label_problem(g, "G4", "57")
    assert g.rules.label_problem(g, "G4", "441a") is None
    assert g.rules.label_problem(g, "L5", "57") is None
    assert g.rules.label_problem(g, "L5", "14") is not None
    assert g.rules.label_problem(g, "L5", "443a") is None
    assert g.rules.label_problem(g, "G2", "445") is not None


# -- routes ----------------------------------------------------------------------------------------------------
def test_4d_doubles_cities_and_towns_do_not_count() -> None:
    g = Game("18AL", P3)
    # Oxmoor (H5, gray 30) - lay a straight to reach Tuscaloosa? use the printed Rome/Atlanta area instead:
    g.board.hexes["F1"].tokens[0][0] = "ATN"
    rules = g.rules.route_rules(g)
    plain = best_routes(g.board, "ATN", [TrainSpec("t", "4", 4)], rules)
    diesel = best_routes(g.board, "ATN", [TrainSpec("t", "4D", 4, multiplier=2)], rules)
    assert diesel.revenue == 2 * plain.revenue


def test_coal_and_chit_bonuses() -> None:
    from engine.routes import Stop
    from engine.titles.g18al import ALRouteRules

    g = Game("18AL", P3)
    r = ALRouteRules(coal=("H5", "ABC"), chits=(("Robert E. Lee", ("G8", "G4"), 20),))
    spec = TrainSpec("t", "4", 4)
    assert r.stop_value(Stop("city", "H5", 0), "ABC", spec, g.board) == 40
    assert r.stop_value(Stop("city", "H5", 0), "WRA", spec, g.board) == 30
    stops = (Stop("offboard", "G8", 0), Stop("city", "G4", 0))
    assert r.route_bonus(stops, "ABC", TrainSpec("t", "4+Robert E. Lee", 4), g.board) == 20
    assert r.route_bonus(stops, "ABC", spec, g.board) == 0


# -- trains ----------------------------------------------------------------------------------------------------
def _give(g: Game, corp: str, name: str) -> Train:
    t = next(t for t in g.trains if t.name == name and t.owner is None)
    t.owner = corp
    g.bought_train_types.add(name)
    return t


def test_delayed_obsolescence_of_4_trains() -> None:
    g = Game("18AL", P3)
    for s in ("ABC", "TAG"):
        g.corps[s].floated = True
    a4 = _give(g, "ABC", "4")
    b4 = _give(g, "TAG", "4")
    p4 = _give(g, "TAG", "4")
    p4.owner = POOL
    for name in ("2", "3", "5", "6"):
        for t in [t for t in g.trains if t.name == name and t.owner is None]:
            g.trains.remove(t)
    seven = next(t for t in g.trains if t.name == "7")
    seven.owner = "TAG"
    g.on_train_bought(seven)
    ids = {t.id for t in g.trains}
    assert p4.id not in ids and b4.id not in ids  # pool's and buyer's 4s go at once
    assert a4.id in ids and a4.obsolete
    g.remove_obsolete("ABC")
    assert a4.id not in {t.id for t in g.trains}


def test_hard_rust_option_removes_all_4s() -> None:
    g = Game("18AL", P3, options={"hard_rust_t4": True})
    a4 = _give(g, "ABC", "4")
    seven = next(t for t in g.trains if t.name == "7")
    seven.owner = "TAG"
    g.on_train_bought(seven)
    assert a4.id not in {t.id for t in g.trains}


def test_company_purchase_range_from_phase_3() -> None:
    g = Game("18AL", P3)
    assert g.rules.company_price_range(g, "ABC", "NDY") is None
    g.bought_train_types.add("3")
    assert g.rules.company_price_range(g, "ABC", "NDY") == (60, 180)
    assert g.rules.company_price_range(g, "ABC", "TR") == (10, 30)


def test_options_are_checked() -> None:
    with pytest.raises(GameError):
        Game("18AL", P3, options={"no_such": True})
    g = Game("18AL", P3, options={"LN_home_city_moved": True})
    assert g.rules.home(g, "L&N") == ("C4", 0)
    assert state(g).homes_placed == set()

"""1830 under the rulebook profile, one test group per section of reference/1830/NOTES.md (issue 12)."""

from __future__ import annotations

import copy
import json

import pytest

from engine import Game
from engine.__main__ import main
from engine.errors import GameError
from engine.routes import TrainSpec, best_routes
from engine.selfplay import selfplay
from engine.state import IPO, POOL
from tests.c1830_helpers import (
    act,
    buy_privates,
    diesel_position,
    float_corp,
    game,
    legal,
    pass_round,
    skip_to,
    to_operating,
)
from tests.test_records import fingerprint


def _frozen(g: Game) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    return (fingerprint(g), g.private_bids, g.title_state, len(g.actions), len(g.messages))


def refused(g: Game, kind: str, match: str, **kw: object) -> None:
    before = copy.deepcopy(_frozen(g))
    with pytest.raises(GameError, match=match):
        act(g, kind, **kw)
    assert _frozen(g) == before


# -- Setup ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "cash", "limit"), [(2, 1200, 28), (3, 800, 20), (4, 600, 16), (5, 480, 13),
                                                  (6, 400, 11)])
def test_setup_cash_certificate_limit_and_bank(n: int, cash: int, limit: int) -> None:
    g = game(n)
    assert all(p.cash == cash for p in g.players) and g.cert_limit() == limit
    assert g.bank == 12000 - n * cash
    assert [c.sym for c in sorted(g.companies.values(), key=lambda c: c.value)] == ["SV", "CS", "DH", "MH", "CA",
                                                                                     "BO"]
    assert all(g.corps[s].size == 10 for s in g.corps)


# -- 1. Private auction -----------------------------------------------------------------------------------------


def test_1_2_buy_the_cheapest_or_bid_on_another_with_locked_money() -> None:
    g = game()
    refused(g, "buy_company", "Only the cheapest", company="CS", price=40)
    refused(g, "bid", "cheapest unsold private", company="SV", price=25)
    refused(g, "bid", "at least \\$115", company="MH", price=110)
    act(g, "bid", company="BO", price=600)  # alice: $800, $600 locked on the BO
    act(g, "bid", company="BO", price=605)  # bob
    refused(g, "bid", "at least \\$610", company="BO", price=608)
    act(g, "pass")  # carol
    refused(g, "bid", "at most \\$200", company="CA", price=205)  # alice has $200 not set aside
    act(g, "bid", company="CA", price=200)
    assert g.available_cash("alice") == 0


def test_1_3_the_waterfall_sells_bid_on_privates_after_the_cheapest() -> None:
    g = game()
    act(g, "bid", company="CS", price=45)  # alice: the only bid on CS
    act(g, "bid", company="DH", price=75)  # bob
    act(g, "bid", company="DH", price=80)  # carol
    act(g, "buy_company", company="SV", price=20)  # alice buys SV: CS goes to her at once, DH is auctioned
    assert g.companies["CS"].owner == "alice" and g.player("alice").cash == 800 - 20 - 45
    auction = g.round.auction
    assert auction is not None and auction.company == "DH"
    assert g.current_entity == "bob"  # the rulebook order: the bidders after the high bidder
    act(g, "pass")
    assert g.companies["DH"].owner == "carol" and g.player("carol").cash == 720
    assert g.current_entity == "bob"  # turns resume with the player after the buyer of the cheapest


def test_1_5_passes_lower_the_first_private_until_it_is_free() -> None:
    g = game()
    for _ in range(3):
        act(g, "pass")
    assert g.rules.private_price(g, "SV") == 15
    for _ in range(9):
        act(g, "pass")
    assert g.rules.private_price(g, "SV") == 0
    refused(g, "pass", "must take it")
    assert [a["type"] for a in legal(g)] == ["buy_company"]
    act(g, "buy_company", company="SV", price=0)
    assert g.companies["SV"].owner is not None


def test_1_5_once_the_first_private_is_sold_a_round_of_passes_pays_the_privates() -> None:
    g = game()
    act(g, "buy_company", company="SV", price=20)  # alice
    cash = g.player("alice").cash
    for _ in range(3):
        act(g, "pass")
    assert g.player("alice").cash == cash + 5 and g.round.kind == "stock"


def test_1_6_the_bo_private_brings_the_presidency_and_a_par_choice_and_the_ca_a_prr_share() -> None:
    g = game()
    for _ in range(4):
        act(g, "buy_company", company=g.round.unsold(g)[0], price=g.companies[g.round.unsold(g)[0]].value)
    act(g, "buy_company", company="CA", price=160)  # bob (seat 2)
    assert g.certs_of("PRR", "bob")[0].id == "PRR_1"
    act(g, "buy_company", company="BO", price=220)  # carol
    assert g.corps["B&O"].president == "carol" and g.certs_of("B&O", "carol")[0].president
    assert g.current_entity == "carol" and {a["type"] for a in legal(g)} == {"par"}
    refused(g, "par", "not a par value", corporation="B&O", price=95)
    refused(g, "pass", "must first set the par price")
    act(g, "par", corporation="B&O", price=90)
    assert g.price("B&O") == 90 and g.player("carol").cash == 800 - 70 - 220


# -- 2. Stock round ---------------------------------------------------------------------------------------------


def _sr2() -> Game:
    """Stock round 2 with PRR floated at 100 (alice president, 4 shares; bob 2, carol 1) and B&O started."""
    g = to_operating(game())
    while g.round.kind == "operating":
        legal_now = legal(g)
        act(g, "pass") if any(a["type"] == "pass" for a in legal_now) else g.process(legal_now[0])
    assert g.round.kind == "stock" and g.round_no == 2
    return g


def test_2_no_sales_in_the_first_stock_round_and_a_purchase_ends_that_turn() -> None:
    g = buy_privates(game())
    act(g, "par", corporation="PRR", price=100)
    assert g.current_entity == "bob"  # nothing to sell in stock round 1: the turn ended
    refused(g, "sell_shares", "No shares may be sold", corporation="PRR", count=1)


def test_2_sell_buy_sell_and_no_buying_back_what_was_sold() -> None:
    g = _sr2()
    while g.current_entity != "bob":
        act(g, "pass")
    act(g, "sell_shares", corporation="PRR", count=1)
    refused(g, "buy_shares", "sold PRR this round", corporation="PRR", source="pool")
    act(g, "buy_shares", corporation="B&O", source="ipo")
    act(g, "sell_shares", corporation="PRR", count=1)  # sell again after the purchase
    assert g.shares_held(POOL, "PRR") == 2 and g.shares_held("bob", "PRR") == 0
    refused(g, "buy_shares", "already bought", corporation="B&O", source="ipo")


def test_2_a_private_changes_hands_between_players_only_as_the_buyers_purchase() -> None:
    """NOTES 2: buying a private from another player "uses the turn's one purchase": on the seller's turn the
    buyer makes none, so bob's CS cannot go to carol then (the bot asks the owner on the buyer's turn)."""
    g = _sr2()
    assert g.current_entity == "bob" and g.companies["CS"].owner == "bob"
    refused(g, "buy_company", "only on the buyer's turn", entity="carol", company="CS", price=40)
    act(g, "pass")
    act(g, "buy_company", company="CS", price=40)  # carol's turn: her purchase
    assert g.companies["CS"].owner == "carol"
    refused(g, "buy_shares", "already bought", corporation="PRR", source="ipo")


def test_2_a_sale_that_moves_the_marker_to_the_same_price_says_it_moved() -> None:
    """"price stays $67" read as if the drop had been forgotten or refused: the marker did go down a row."""
    g = _sr2()
    g.market.place("PRR", 5, 6)  # $67, with $67 below it in the column (and below that)
    while g.current_entity != "bob":
        act(g, "pass")
    act(g, "sell_shares", corporation="PRR", count=1)
    assert g.market.positions["PRR"] == (6, 6) and g.price("PRR") == 67
    assert str(g.messages[-1][1]) == "bob sells 1 share of PRR for $67; the price moves down to another $67."


def test_2_a_sale_may_not_put_more_than_half_in_the_pool() -> None:
    g = _sr2()
    for c in g.certs_of("PRR", IPO)[:3]:
        c.owner = "bob"  # bob holds 5 shares
    while g.current_entity != "bob":
        act(g, "pass")
    act(g, "sell_shares", corporation="PRR", count=5)  # the pool may hold 5
    while g.current_entity != "carol":
        act(g, "pass")
    refused(g, "sell_shares", "at most 5 shares of PRR", corporation="PRR", count=1)


def test_2_float_at_60_percent_with_full_capitalisation() -> None:
    g = buy_privates(game())
    float_corp(g, "PRR", 76, passes=False)
    assert g.corps["PRR"].cash == 760 and g.sold_shares("PRR") == 6


def test_2_zones_lift_the_certificate_and_holding_limits() -> None:
    g = _sr2()
    g.market.place("PRR", 6, 4)  # a yellow cell ($54)
    cert = g.certs_of("PRR", "alice")[0]
    assert not g.rules.counts_for_cert_limit(g, cert)
    assert not g.rules.holding_limit_waived(g, "PRR")
    g.market.place("PRR", 6, 3)  # orange ($45): no 60% limit
    assert g.rules.holding_limit_waived(g, "PRR")
    assert not g.rules.multi_buy(g, "PRR", POOL)
    g.market.place("PRR", 6, 1)  # brown ($27): several pool shares in one purchase
    assert g.rules.multi_buy(g, "PRR", POOL) and not g.rules.multi_buy(g, "PRR", IPO)


def test_2_a_player_over_the_certificate_limit_sells_down_before_anything_else() -> None:
    g = _sr2()
    for sym in ("NYC", "C&O", "CPR", "ERIE"):  # set-up: four more corporations running, bob their president
        corp = g.corps[sym]
        corp.par_price, corp.president, corp.floated = 100, "bob", True
        g.market.place(sym, 0, 6)
        g.certs_of(sym, IPO)[0].owner = "bob"
    singles = [c for sym in ("NYC", "C&O", "CPR", "ERIE") for c in g.certs_of(sym, IPO)[:5]]
    while g.cert_count("alice") <= g.cert_limit():
        singles.pop().owner = "alice"  # over the limit, as a presidency change can leave a player
    for cert in g.certs_of("B&O", IPO)[:2]:
        cert.owner = POOL
    g.market.place("B&O", 0, 0)  # yellow: a B&O share would not count toward the limit
    while g.current_entity != "alice":
        act(g, "pass")
    assert {a["type"] for a in legal(g) if a["entity"] == "alice"} == {"sell_shares"}
    refused(g, "buy_shares", "over the limit of 20: sell down to it before you buy", corporation="B&O",
            source="pool")
    act(g, "sell_shares", corporation="NYC", count=1)
    act(g, "buy_shares", corporation="B&O", source="pool")  # at the limit now: the yellow share may follow
    assert g.shares_held("alice", "B&O") == 1


def test_2_a_holding_left_over_60_percent_is_sold_down_at_the_next_turn() -> None:
    g = _sr2()
    for cert in g.certs_of("PRR", IPO)[:4]:
        cert.owner = "alice"  # 70%: bought in the orange zone, kept when the price left it (a sold-out rise)
    assert not g.rules.holding_limit_waived(g, "PRR")
    while g.current_entity != "alice":
        act(g, "pass")
    assert str(g.describe_turn()) == ("alice must sell shares first: alice holds 70% of PRR, over the limit of 60% "
                                      "(SR 2).")
    refused(g, "buy_shares", "alice holds 70% of PRR, over the limit of 60%: sell down to it before you buy",
            corporation="B&O", source="ipo")
    refused(g, "pass", "over the limit of 60%: sell enough to comply before ending your turn")
    act(g, "sell_shares", corporation="PRR", count=1)
    act(g, "pass")


def test_2_brown_zone_several_pool_shares_in_one_purchase() -> None:
    g = _sr2()
    for cert in g.certs_of("PRR", IPO)[:3]:
        cert.owner = POOL
    g.market.place("PRR", 7, 1)  # $20, brown
    while g.current_entity != "carol":
        act(g, "pass")
    act(g, "buy_shares", corporation="PRR", source="pool")
    act(g, "buy_shares", corporation="PRR", source="pool")  # the same purchase goes on
    refused(g, "buy_shares", "already bought", corporation="PRR", source="ipo")
    assert g.shares_held("carol", "PRR") == 3


def test_2_the_presidency_passes_to_the_holder_of_more_shares() -> None:
    g = _sr2()
    for c in g.certs_of("PRR", IPO)[:3]:
        c.owner = "bob"  # bob 5 shares, alice 4
    while g.current_entity != "alice":
        act(g, "pass")
    act(g, "sell_shares", corporation="PRR", count=1)
    assert g.corps["PRR"].president == "bob" and g.certs_of("PRR", "bob")[0].president


def test_2_end_of_round_moves_up_a_corporation_held_wholly_by_players() -> None:
    g = _sr2()
    for c in g.certs_of("PRR", IPO):
        c.owner = "carol"
    g.market.place("PRR", 2, 8)
    before = g.market.positions["PRR"]
    pass_round(g)
    assert g.market.positions["PRR"] == (before[0] - 1, before[1])


# -- 3. Stock market --------------------------------------------------------------------------------------------


def test_3_market_moves_and_edges() -> None:
    g = to_operating(game())
    m = g.market
    m.place("PRR", 0, 18)  # top right corner: a payout stays
    g.rules.move_price_after_run(g, "PRR", 10, "payout")
    assert m.positions["PRR"] == (0, 18)
    m.place("PRR", 2, 15)  # end of a row: up instead of right
    g.rules.move_price_after_run(g, "PRR", 10, "payout")
    assert m.positions["PRR"] == (1, 15)
    m.place("PRR", 3, 0)  # left edge: down instead of left
    g.rules.move_price_after_run(g, "PRR", 0, "withhold")
    assert m.positions["PRR"] == (4, 0)
    m.place("PRR", 7, 0)  # bottom of its column: a sale leaves it there
    g.rules.move_price_on_sale(g, "PRR", 2)
    assert m.positions["PRR"] == (7, 0)


def test_3_operating_order_is_fixed_when_the_round_starts() -> None:
    g = buy_privates(game())
    float_corp(g, "PRR", 67, passes=False)
    float_corp(g, "NYC", 100)
    assert g.round.kind == "operating" and g.round.order == ["NYC", "PRR"]


# -- 4. Operating round: track, tokens, routes, trains, privates ------------------------------------------------


def test_4_home_station_and_terrain_costs() -> None:
    g = to_operating(game(), "B&O")
    assert ("I15", 0) in g.board.stations("B&O")
    cash = g.corps["B&O"].cash
    options = [a for a in legal(g) if a["type"] == "lay_tile" and a["hex"] == "I17"]
    assert options, "the river next to Baltimore takes track"
    g.process(options[0])
    assert g.corps["B&O"].cash == cash - 80


def test_4_one_tile_per_turn_and_blocked_private_hexes() -> None:
    g = to_operating(game())
    assert g.rules.blocker(g, "G15") == "SV"
    assert "blocked by" in str(g.rules.tile_lay_problem(g, "PRR", "G15", "9", 0) or "")
    act(g, "lay_tile", hex="H14", tile="9", rotation=1)
    assert g.round.step != "track"


def test_4_preprinted_water_hexes_pay_on_their_green_upgrade() -> None:
    g = to_operating(game())
    assert g.rules.lay_cost(g, "G19") == 80 and g.rules.lay_cost(g, "E11") == 0
    g.board.place_tile("G19", "54", 0, [0, 1])
    assert g.rules.lay_cost(g, "G19") == 0


def test_4_station_tokens_cost_and_reserved_homes() -> None:
    g = to_operating(game())
    assert g.rules.station_cost(g, "PRR") == 40
    # NYC's home Albany is kept for it: one circle, so nobody else may take it before NYC is home
    assert g.rules.reserved_slots(g, "E19", 0, "PRR") == 1
    # the Erie may choose either Buffalo city: a token there must leave one city free
    assert g.rules.reserved_slots(g, "E11", 0, "PRR") == 0
    g.board.hexes["E11"].tokens[1] = ["NYC"]
    assert g.rules.reserved_slots(g, "E11", 0, "PRR") == 1


def test_4_the_nynh_home_follows_its_city_when_new_york_is_upgraded() -> None:
    g = to_operating(game(), "PRR", par=67)
    for t in g.trains:
        if t.name == "2" or t.id == "3-0":
            t.owner = "B&M"  # set-up: phase 3, green tiles
    g.bought_train_types.update({"2", "3"})
    g.phase_index = next(i for i, ph in enumerate(g.data.phases) if ph.name == "3")
    g.board.hexes["G19"].tokens[1][0] = "PRR"  # set-up: a PRR station in New York's other city
    edge3 = [ci for ci, _ in enumerate(g.board.layout("G19").cities)
             if any(("edge", 3) in p and ("city", ci) in p for p in g.board.layout("G19").paths)]
    assert edge3 == [0] and g.rules.home(g, "NYNH") == ("G19", 0)
    lay = next(o for o in legal(g) if o["type"] == "lay_tile" and o["hex"] == "G19")
    g.process(lay)  # the #54: its cities are numbered the other way round
    now = [ci for ci, _ in enumerate(g.board.layout("G19").cities)
           if any(("edge", 3) in p and ("city", ci) in p for p in g.board.layout("G19").paths)]
    assert now == [1] and g.board.hexes["G19"].tokens[0] == ["PRR"]
    assert g.rules.home(g, "NYNH") == ("G19", 1)  # the city on edge 3 still
    assert g.rules.home_choices(g, "NYNH") == [1]
    assert [g.rules.reserved_slots(g, "G19", c, "C&O") for c in (0, 1)] == [0, 1]


def test_4_an_unplaced_home_keeps_its_token_and_price() -> None:
    """The Erie waits to choose its Buffalo city until E11 has track; meanwhile its home token is its own: a station
    placed elsewhere costs the second token's price, and the last token is never placed elsewhere (a seeded game once
    ended the Erie at -1 tokens when it came home)."""
    g = to_operating(game(), "ERIE")
    assert "ERIE" not in g.rules.homes_placed(g) and not g.board.layout("E11").paths
    assert g.rules.home_pending(g, "ERIE") == 1
    assert g.rules.station_cost(g, "ERIE") == g.data.corporation("ERIE").tokens[1]
    g.corps["ERIE"].tokens_left = 1
    assert g.rules.station_options(g, "ERIE") == []


def test_4_the_erie_places_its_home_once_buffalo_has_track_and_may_not_pass_it() -> None:
    """NOTES 4, a corporation's turn: the home station is placed, free; the Erie only chooses its Buffalo city. A
    tile laid on E11 in its track step made the home due at the token step, where a pass was accepted: the Erie ran
    with no station at all."""
    g = to_operating(game(), "ERIE")
    assert str(g.rules.token_skip_reason(g, g.round)) == \
        "ERIE's home station waits for a tile on E11; it then chooses its city there."
    for t in g.trains:
        if t.name == "2" or t.id == "3-0":
            t.owner = "B&M"  # set-up: phase 3, green tiles for Buffalo's preprinted yellow
    g.bought_train_types.update({"2", "3"})
    g.phase_index = next(i for i, ph in enumerate(g.data.phases) if ph.name == "3")
    lay = next(o for o in legal(g) if o["type"] == "lay_tile" and o["hex"] == "E11")
    g.process(lay)
    assert g.round.step == "token" and g.rules.home_due(g, "ERIE")
    assert not any(a["type"] == "pass" for a in legal(g))
    with pytest.raises(GameError, match="ERIE places its home station in E11 now, free: choose which city"):
        act(g, "pass", "ERIE")
    assert "or pass" not in str(g.describe_turn())
    act(g, "place_token", "ERIE", hex="E11", city=1)
    assert "ERIE" in g.rules.homes_placed(g) and ("E11", 1) in g.board.stations("ERIE")


def test_the_first_6_train_says_the_diesel_is_on_sale_and_its_trade_in() -> None:
    """The phase 6 announcement did not say that Diesels are for sale from then on, nor the $800 trade-in: a table
    found it only in the train step's menu."""
    g = to_operating(game())
    for t in g.trains:
        if t.name in ("2", "3", "4", "5"):
            t.owner = "NYC"  # set-up: the 2s to 5s sold; the bank sells the first 6 next
    g.bought_train_types.update({"2", "3", "4", "5"})
    g.phase_index = next(i for i, ph in enumerate(g.data.phases) if ph.name == "5")
    g.corps["PRR"].cash = 700
    skip_to(g, "buy_train")
    act(g, "buy_train", train="6")
    said = [str(m) for _i, m in g.messages]
    assert "D-trains are on sale from now on, for $1,100 ($800 trading in a 4 or 5 or 6-train)." in said, said[-6:]


def test_4_routes_altoona_through_track_and_off_board_areas() -> None:
    g = to_operating(game())
    rules = g.rules.route_rules(g)
    assert rules.location("I1") == rules.location("J2") and rules.location("A9") == rules.location("A11")
    assert rules.location("F2") != rules.location("I1")
    lay = g.board.layout("H12")
    assert any(a[0] == "edge" and b[0] == "edge" for a, b in lay.paths), "the through track bypasses the city"


def test_4_towns_count_toward_a_trains_distance() -> None:
    g = to_operating(game(), "B&O")
    g.board.place_tile("I17", "9", 1, [])  # set-up: Baltimore - Atlantic City (town) - Philadelphia
    g.board.place_tile("H18", "59", 3, [0, 1])
    next(t for t in g.trains if t.id == "2-0").owner = "B&O"
    skip_to(g, "routes")
    with pytest.raises(GameError, match="2 cities, towns and off-boards; this route has 3"):
        act(g, "run_routes", routes=[{"train": "2-0", "nodes": ["I15-0", "I19-0", "H18-1"]}])
    act(g, "run_routes")
    run = g.actions[-1].routes[0]
    assert len(run.nodes) == 2 and run.revenue == 40  # Baltimore $30 and Atlantic City $10, not $80 with Philadelphia


def test_4_a_corporation_without_a_route_need_not_buy_a_train() -> None:
    g = to_operating(game(), "NYC")
    skip_to(g, "buy_train")  # Albany has no track yet: no route for any train
    assert not g.trains_of("NYC")
    act(g, "pass")
    assert getattr(g.round, "corp", None) != "NYC"  # its turn is over


def test_4_diesel_on_sale_with_the_6_and_trade_ins() -> None:
    g = diesel_position()
    assert {t.name for t in g.next_bank_trains()} == {"6", "D"}
    four = next(t for t in g.trains_of("PRR"))
    trade = [a for a in legal(g) if a.get("exchange")]
    assert trade and trade[0]["price"] == 800
    refused(g, "buy_train", "not one", train="D", price=800, exchange=next(t.id for t in g.trains if t.name == "3"))
    refused(g, "buy_train", "does not sell a D-train", train="D", price=800, exchange=four.id, variant="6")
    act(g, "buy_train", train="D", price=800, exchange=four.id)
    assert four not in g.trains and [t.name for t in g.trains_of("PRR")].count("D") == 1


def test_4_a_diesel_trade_in_is_open_at_the_train_limit() -> None:
    g = diesel_position(at_limit=True)
    assert g.train_limit("PRR") == 2 and g.round.corp == "PRR"
    assert g.round.step == "buy_train"  # the step is not skipped: a trade-in keeps the count
    assert {o.get("exchange") for o in legal(g) if o["type"] == "buy_train"} == {"4-0", "5-0"}
    act(g, "buy_train", train="D", exchange="4-0")
    assert sorted(t.name for t in g.trains_of("PRR")) == ["5", "D"] and g.corps["PRR"].cash == 100


def test_4_the_first_5_closes_the_privates_and_the_bo_closes_with_the_b_and_os_first_train() -> None:
    g = to_operating(game())
    g.rules.on_corp_bought_train(g, "B&O", g.trains[0])
    assert g.companies["BO"].closed and not g.companies["SV"].closed
    g.rules.train_event(g, "close_companies")
    assert all(c.closed for c in g.companies.values())


def test_4_privates_sell_to_corporations_for_half_to_double_from_phase_3_never_the_bo() -> None:
    g = to_operating(game())
    assert g.rules.company_price_range(g, "PRR", "MH") is None
    g.bought_train_types.add("3")
    assert g.rules.company_price_range(g, "PRR", "MH") == (55, 220)
    assert g.rules.company_price_range(g, "PRR", "BO") is None


def test_4_mh_exchange_for_an_nyc_share() -> None:
    g = _sr2()
    while g.current_entity != "alice":
        act(g, "pass")
    act(g, "buy_shares", entity="MH", corporation="NYC", source="ipo")
    assert g.companies["MH"].closed and g.shares_held("alice", "NYC") == 1


def test_4_mh_exchange_between_other_players_turns_of_a_stock_round() -> None:
    g = _sr2()
    assert g.companies["MH"].owner == "alice"
    while g.current_entity == "alice":
        act(g, "pass")
    turn = g.current_entity
    offered = [a for a in legal(g) if a["entity"] == "MH"]
    assert offered and all(a["type"] == "buy_shares" and a["corporation"] == "NYC" for a in offered)
    act(g, "buy_shares", entity="MH", corporation="NYC", source="ipo")
    assert g.companies["MH"].closed and g.shares_held("alice", "NYC") == 1
    # the turn stays with the player whose it was, who has not acted yet
    assert g.current_entity == turn and any(a["type"] == "buy_shares" and a["entity"] == turn for a in legal(g))
    assert not [a for a in legal(g) if a["entity"] == "MH"]


def test_4_mh_exchange_during_another_corporations_operating_turn() -> None:
    g = to_operating(game())
    g.companies["MH"].owner = "bob"  # PRR operates, run by alice
    corp, step = g.current_entity, g.round.step
    assert (corp, g.corps[corp].president) == ("PRR", "alice")
    assert any(a["entity"] == "MH" for a in legal(g))
    act(g, "buy_shares", entity="MH", corporation="NYC", source="ipo")
    assert g.companies["MH"].closed and g.shares_held("bob", "NYC") == 1
    assert (g.current_entity, g.round.step) == (corp, step)


def test_4_cs_lays_its_town_free_without_a_connection() -> None:
    g = to_operating(game())
    g.companies["CS"].owner = "PRR"
    lays = [a for a in legal(g) if a["entity"] == "CS"]
    assert lays and all(a["hex"] == "B20" for a in lays)
    cash = g.corps["PRR"].cash
    g.process(lays[0])
    assert g.corps["PRR"].cash == cash and g.round.step == "track"  # an extra lay: the turn's own lay remains
    h = to_operating(game())
    h.companies["CS"].owner = "PRR"
    act(h, "pass")  # past the track step: the extra lay is still on offer (ruling 7: at any point of the turn)
    assert h.round.step != "track" and [a for a in legal(h) if a["entity"] == "CS"] == lays


def test_4_dh_tile_and_token_need_a_station_token_left() -> None:
    """The D&H lays its #57 and a free station in F16 for the $120: with no station token left the ability is not
    offered (a seeded game once laid the tile and was then stuck at a token it could not place)."""
    g = to_operating(game())
    g.companies["DH"].owner = "PRR"
    g.pay("bank", "PRR", 200)  # the $120 in hand (from the bank: money stays constant)
    lays = [a for a in legal(g) if a["entity"] == "DH"]
    assert lays and {a["hex"] for a in lays} == {"F16"}
    tokens = g.corps["PRR"].tokens_left
    g.corps["PRR"].tokens_left = 0
    assert not [a for a in legal(g) if a["entity"] == "DH"]
    with pytest.raises(GameError, match="DH lays its tile where its ability says: none now"):
        g.process(lays[0])
    g.corps["PRR"].tokens_left = tokens
    g.process(lays[0])
    assert g.round.step == "token" and [a for a in legal(g) if a["type"] == "place_token"] == [
        {"entity": "PRR", "type": "place_token", "hex": "F16", "city": 0}]
    with pytest.raises(GameError, match="There is no city -1 in F16"):  # once taken as the last city
        act(g, "place_token", hex="F16", city=-1)
    refused(g, "pass", "PRR places the DH station in F16 now: it came with the tile")
    cash = g.corps["PRR"].cash
    act(g, "place_token", hex="F16", city=0)
    assert g.corps["PRR"].cash == cash and g.corps["PRR"].tokens_left == tokens - 1


def test_3_a_corporation_floating_during_an_operating_round_operates_from_the_next() -> None:
    g = buy_privates(game())
    mh = g.companies["MH"].owner
    float_corp(g, "PRR", 67, passes=False)
    act(g, "par", corporation="NYC", price=67) if not g.round.bought_this_turn else act(g, "pass")
    while sum(g.shares_held(p.name, "NYC") for p in g.players) < 5:  # five NYC shares sold: one short of floating
        if g.round.kind != "stock":
            break
        if g.round.current_entity(g) != mh and not g.round.bought_this_turn and \
                any(a["type"] == "buy_shares" and a["corporation"] == "NYC" for a in legal(g)):
            act(g, "buy_shares", corporation="NYC", source="ipo")
        else:
            act(g, "pass")
    pass_round(g)
    assert g.round.kind == "operating" and g.round.order == ["PRR"] and not g.corps["NYC"].floated
    g.process({"entity": "MH", "type": "buy_shares", "corporation": "NYC", "source": "ipo"})  # the sixth share
    assert g.corps["NYC"].floated
    while g.round.kind == "operating":
        assert g.round.corp == "PRR"  # the NYC waits for the next round
        skip_to(g, "buy_train")
        act(g, "buy_train", train="2") if not g.trains_of("PRR") else act(g, "pass")


# -- 5. Round sequence and game end -----------------------------------------------------------------------------


def test_5_the_bank_breaks_at_zero_and_the_set_of_operating_rounds_finishes() -> None:
    g = to_operating(game())
    g.pay("bank", "alice", g.bank)
    assert g.bank_broken and not g.finished


def test_5_selfplay_ends_by_a_rule_with_invariants_after_every_action() -> None:
    res = selfplay("1830", 2, 1, max_actions=4000)
    assert res["invariant_violations"] == []
    assert res["finished"] and res["end_reason"] in ("bank", "bankrupt")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_5_selfplay_soak(players: int, seed: int) -> None:
    res = selfplay("1830", players, seed, max_actions=6000)
    assert res["invariant_violations"] == []
    assert res["finished"] and res["end_reason"] in ("bank", "bankrupt")


def test_titles_json_lists_1830_with_players_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["titles", "--json"]) == 0
    entry = next(t for t in json.loads(capsys.readouterr().out) if t["title"] == "1830")
    assert (entry["min_players"], entry["max_players"]) == (2, 6)
    assert set(entry["options"]) == {"optional_6_train", "multiple_brown_from_ipo"}


def test_optional_6_train_adds_a_third_6() -> None:
    assert sum(t.name == "6" for t in game(3, optional_6_train=True).trains) == 3
    assert sum(t.name == "6" for t in game(3).trains) == 2


def test_4_routes_run_through_altoona_on_its_through_track() -> None:
    g = to_operating(game())  # PRR's home fills Altoona's only circle
    for hex_id, tile in (("H10", "57"), ("H14", "9"), ("H16", "57")):
        g.board.place_tile(hex_id, tile, 1, [0] * len(g.board.hexes[hex_id].tokens))
    g.board.hexes["H10"].tokens[0] = ["C&O"]
    best = best_routes(g.board, "C&O", [TrainSpec("2-0", "2", 2)], g.rules.route_rules(g))
    # Pittsburgh to Lancaster past Altoona's full city ($20 + $20) beats Pittsburgh-Altoona ($20 + $10)
    assert best.revenue == 40 and [s.hex for s in best.routes[0].stops] in (["H10", "H16"], ["H16", "H10"])


def test_track_and_tokens_reach_past_both_cities_of_an_oo_tile() -> None:
    """Ruling 6: both cities of an OO tile are separate locations. A walk deciding where track and tokens may go
    follows the route rules, so it may leave one city of E11 and come back into the other round a loop of track."""
    from engine.graph import reach
    from engine.tiles import tile_layout
    from engine.titles import new_game

    g = new_game("1830", ["a", "b", "c"])
    b = g.board
    b.place_tile("E11", "64", 1, [0, 1])  # leave city 0 by edge 3, come back into city 1 by edge 4
    b.place_tile("D12", "7", 5, [])  # the loop: D12 and E13, sharp curves
    b.place_tile("E13", "7", 1, [])
    straight = next(r for r in range(6) if set(tile_layout(g.data.tiles["9"], r).exits) == {2, 5})
    b.place_tile("F12", "9", straight, [])  # beyond city 1
    b.hexes["E11"].tokens[0][0] = "NYC"
    r = g.rules.reach(g, "NYC")
    assert ("E11", 1) in r.cities
    assert "F12" in {h for h, _ in r.paths}
    # under the general rule (one stop per hex) the loop would end at the second city
    general = reach(b, "NYC")
    assert ("E11", 1) not in general.cities and "F12" not in {h for h, _ in general.paths}



def test_an_oo_upgrade_keeps_the_two_cities_apart() -> None:
    """Brown #65 turned so that both of green #59's exits lead into one of its cities keeps the track but would
    crowd two stations into one circle: it is refused (a seeded game once offered it, and laying it crashed). The
    rotation keeping each city's track on its own city is laid, each station in its own city."""
    from engine import track
    from engine.tiles import city_mapping, tile_layout

    g = game(4)
    g.phase_index = next(i for i, ph in enumerate(g.data.phases) if "brown" in ph.tiles)
    b = g.board
    b.place_tile("H18", "59", 1, [0, 1])
    b.hexes["H18"].tokens = [["PRR"], ["B&O"]]
    old = b.layout("H18")
    merged = tile_layout(g.data.tiles["65"], 3)  # its city 0 has both old exits, 1 and 3
    assert city_mapping(old, merged) is None
    reach = g.rules.reach(g, "B&O")
    problem = track.tile_problem(g, "B&O", "H18", "65", 3, reach)
    assert problem is not None and "does not keep all the existing track" in str(problem)
    good = [o for o in track.legal_tiles(g, "B&O", "H18", reach) if o.tile == "65"]
    assert good and all(len(set(city_mapping(old, tile_layout(g.data.tiles["65"], o.rotation)) or ())) == 2
                        for o in good)
    b.place_tile("H18", "65", good[0].rotation, track.city_map(g, "H18", "65", good[0].rotation))
    assert sorted(b.hexes["H18"].tokens) == [["B&O"], ["PRR"]]

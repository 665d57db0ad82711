"""18AL scripted scenarios: the private sale, stock turns, market moves, stations, tiles, trains and privates."""

from __future__ import annotations

import pytest

from engine import Game, new_game
from engine.actions import NameTrain
from engine.errors import GameError
from engine.hexgrid import neighbour
from engine.route_check import check_routes
from engine.routes import TrainSpec, best_routes
from engine.state import BANK, POOL, Train
from engine.titles.g18al import state
from tests.al_helpers import Plan, in_turn, play, score, stock_round
from tests.reference import RECORDS

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
    g = new_game("18AL", P3)
    assert g.board.neighbour("A4", 0) == "C4" and g.board.neighbour("A4", 1) == "B3"
    assert g.board.neighbour("B1", 5) == "C2" and g.board.neighbour("G8", 1) == "H7"
    assert g.board.neighbour("A2", 3) is None  # beyond row A: no hex, no endless letters
    # 18FL keeps letters as columns
    assert neighbour("B5", 0, "flat") == "B7"


def test_impassable_side_between_b3_and_d3() -> None:
    g = new_game("18AL", P3)
    assert not g.board.edge_open("B3", 0) and not g.board.edge_open("D3", 3)


# -- private sale ----------------------------------------------------------------------------------------------
def test_buy_cheapest_and_bid_rules() -> None:
    g = new_game("18AL", P3)
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
    g = new_game("18AL", P3)
    act(g, type="bid", entity="Ann", company="SNAR", price=50)
    act(g, type="buy_company", entity="Bob", company="TR", price=20)
    assert g.companies["SNAR"].owner == "Ann" and g.player("Ann").cash == 550
    assert g.current_entity == "Cy"  # the player after the buyer


def test_auction_order_and_rebid_after_pass() -> None:
    g = new_game("18AL", P3)
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
    g = new_game("18AL", P3)
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
    g = new_game("18AL", P3)
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
    g = new_game("18AL", P3)
    to_first_or(g, "ABC", 90)
    abc = g.corps["ABC"]
    assert abc.floated and abc.cash == 900
    assert g.round.kind == "operating" and g.round.corp == "ABC"
    assert "ABC" in g.board.hexes["G6"].tokens[0]  # home placed on the first turn
    assert g.rules.station_cost(g, "ABC") == 40
    assert g.rules.reserved_slots(g, "E6", 0, "ABC") == 1  # TAG's home circle stays free


def test_market_moves_2d() -> None:
    g = new_game("18AL", P3)
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
    g = new_game("18AL", P3)
    sell_privates(g)
    owners = [c.owner for c in g.companies.values()]
    ann = owners.count("Ann")
    assert g.cert_count("Ann") == ann
    cert = g.certs_of("ABC")[1]
    g.market.place("ABC", 6, 0)
    assert not g.rules.counts_for_cert_limit(g, cert)


# -- tiles -----------------------------------------------------------------------------------------------------
def test_label_tiles() -> None:
    g = new_game("18AL", P3)
    assert "G4" in str(g.rules.label_problem(g, "G4", "57")) or g.rules.label_problem(g, "G4", "57")
    assert g.rules.label_problem(g, "G4", "441a") is None
    assert g.rules.label_problem(g, "L5", "57") is None
    assert g.rules.label_problem(g, "L5", "14") is not None
    assert g.rules.label_problem(g, "L5", "443a") is None
    assert g.rules.label_problem(g, "G2", "445") is not None


# -- routes ----------------------------------------------------------------------------------------------------
def test_4d_doubles_cities_and_towns_do_not_count() -> None:
    g = new_game("18AL", P3)
    # Oxmoor (H5, gray 30) - lay a straight to reach Tuscaloosa? use the printed Rome/Atlanta area instead:
    g.board.hexes["F1"].tokens[0][0] = "ATN"
    rules = g.rules.route_rules(g)
    plain = best_routes(g.board, "ATN", [TrainSpec("t", "4", 4)], rules)
    diesel = best_routes(g.board, "ATN", [TrainSpec("t", "4D", 4, multiplier=2)], rules)
    assert diesel.revenue == 2 * plain.revenue


def test_coal_and_chit_bonuses() -> None:
    from engine.routes import Stop
    from engine.titles.g18al import ALRouteRules

    g = new_game("18AL", P3)
    r = ALRouteRules(coal=("H5", "ABC"), chits=(("Robert E. Lee", ("G8", "G4"), 20),))
    spec = TrainSpec("t", "4", 4)
    assert r.stop_value(Stop("city", "H5", 0), "ABC", spec, g.board) == 40
    assert r.stop_value(Stop("city", "H5", 0), "WRA", spec, g.board) == 30
    stops = (Stop("offboard", "G8", 0), Stop("city", "G4", 0))
    assert r.route_bonus(stops, "ABC", TrainSpec("t", "4+Robert E. Lee", 4), g.board) == 20
    assert r.route_bonus(stops, "ABC", spec, g.board) == 0
    # the route search lists a longer train's walks once for a shorter one only when they price alike: a chit on
    # one of them (or two different chits) sets them apart
    assert r.prices_alike(spec, TrainSpec("u", "5", 5))
    assert not r.prices_alike(TrainSpec("t", "4+Robert E. Lee", 4), TrainSpec("u", "5", 5))
    assert not r.prices_alike(TrainSpec("t", "4+Robert E. Lee", 4), TrainSpec("u", "5+Stonewall Jackson", 5))
    assert not r.prices_alike(spec, TrainSpec("u", "4D", 4, multiplier=2))


# -- trains ----------------------------------------------------------------------------------------------------
def _give(g: Game, corp: str, name: str) -> Train:
    t = next(t for t in g.trains if t.name == name and t.owner is None)
    t.owner = corp
    g.bought_train_types.add(name)
    return t


def test_delayed_obsolescence_of_4_trains() -> None:
    g = new_game("18AL", P3)
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
    g = new_game("18AL", P3, options={"hard_rust_t4": True})
    a4 = _give(g, "ABC", "4")
    seven = next(t for t in g.trains if t.name == "7")
    seven.owner = "TAG"
    g.on_train_bought(seven)
    assert a4.id not in {t.id for t in g.trains}


def test_company_purchase_range_from_phase_3() -> None:
    g = new_game("18AL", P3)
    assert g.rules.company_price_range(g, "ABC", "NDY") is None
    g.bought_train_types.add("3")
    assert g.rules.company_price_range(g, "ABC", "NDY") == (60, 180)
    assert g.rules.company_price_range(g, "ABC", "TR") == (10, 30)


def test_options_are_checked() -> None:
    with pytest.raises(GameError):
        new_game("18AL", P3, options={"no_such": True})
    g = new_game("18AL", P3, options={"LN_home_city_moved": True})
    assert g.rules.home(g, "L&N") == ("C4", 0)
    assert state(g).homes_placed == set()


def test_ipo_shares_cost_par_and_open_market_shares_the_market_value() -> None:
    g = new_game("18AL", P3)
    to_first_or(g, "ABC", 90)
    while g.round.kind != "stock":  # ABC runs nothing: withheld, its price falls below par
        act(g, type="pass", entity=g.current_entity)
    market = g.price("ABC")
    assert market != 90
    who = g.current_entity
    before = g.player(who).cash
    act(g, type="buy_shares", entity=who, corporation="ABC")
    assert before - g.player(who).cash == 90  # rules 1.4: the Initial Offering sells at par
    act(g, type="sell_shares", entity=who, corporation="ABC", count=1)
    act(g, type="pass", entity=who)
    other = g.current_entity
    cash = g.player(other).cash
    act(g, type="buy_shares", entity=other, corporation="ABC", source="pool")
    assert cash - g.player(other).cash == g.price("ABC")  # the Open Market sells at market value


# -- money set aside for bids (3.1(b)) ------------------------------------------------------------------------
def test_bids_stay_open_through_an_operating_round_in_which_nobody_can_pay() -> None:
    g = new_game("18AL", P3)
    act(g, type="bid", entity="Ann", company="SNAR", price=50)
    for who in ("Bob", "Cy", "Ann"):
        act(g, type="pass", entity=who)
    # stock round 1 ended with the bid open; operating round 1.1 came and went without a corporation
    assert [r["kind"] for r in g.finished_rounds] == ["stock", "operating"]
    assert g.round.kind == "stock" and g.round_no == 2
    assert g.private_bids == {"SNAR": [("Ann", 50)]}
    assert g.player("Ann").cash == 600 and g.available_cash("Ann") == 550
    # why no operating round can ever spend bid money: while a private is unsold (the only time bids exist) a stock
    # turn is buy the cheapest private, bid, or pass, so no corporation can start
    with pytest.raises(GameError, match="While the bank holds privates"):
        act(g, type="par", entity=g.current_entity, corporation="ABC", price=90)
    assert {a.type for a in g.legal_actions()} <= {"pass", "buy_company", "bid"}


def _abc_without_trains() -> Game:
    """ABC in operating round 3.1 at its train step with no train and $52: its president Ann must pay the rest.

    Played: ABC spends all but $50 on TAG's 2-train in OR 2.1; TAG then buys a bank train and both of ABC's for $1.
    """
    g = new_game("18AL", P3)
    plan = Plan(trains={"ABC": ("2",), "TAG": ("2",)})
    play(g, plan, lambda g: g.round_no == 2 and in_turn("ABC", "buy_train")(g))
    assert g.round.operated == []  # ABC operates first
    act(g, type="buy_train", entity="ABC", train="2-1", price=g.corps["ABC"].cash - 50)
    act(g, type="pass", entity="ABC")
    play(g, plan, in_turn("TAG", "buy_train"))
    act(g, type="buy_train", entity="TAG", train="2-2")
    act(g, type="buy_train", entity="TAG", train="2-0", price=1)
    act(g, type="buy_train", entity="TAG", train="2-1", price=1)
    play(g, plan, in_turn("ABC", "buy_train"))
    assert g.round_no == 3 and g.corps["ABC"].cash == 52 and g.round.must_raise(g)
    return g


def test_every_player_payment_leaves_money_set_aside_for_bids_alone() -> None:
    """Each way a player pays asks ``Game.available_cash``. No played game has an open bid once corporations
    exist (above), so the bid is written into ``Game.private_bids`` directly to reach each payment."""
    g = _abc_without_trains()
    ann, raisable = g.player("Ann").cash, g.round.raisable(g, "Ann")
    g.private_bids["NDY"] = [("Ann", ann - 40)]  # Ann may spend $40; the train needs $48 from her
    assert g.available_cash("Ann") == 40 and g.round.raisable(g, "Ann") == raisable - (ann - 40)
    assert not any(a.type == "buy_train" and a.train == "2-3" for a in g.legal_actions())
    with pytest.raises(GameError, match="Ann has \\$40 to spend"):
        act(g, type="buy_train", entity="ABC", train="2-3")
    with pytest.raises(AssertionError, match="set aside"):
        g.pay("Ann", BANK, 41)  # the last line of defence: the payment itself
    g.private_bids.clear()
    act(g, type="buy_train", entity="ABC", train="2-3")
    assert g.player("Ann").cash == ann - 48 and g.corps["ABC"].cash == 0

    # stock round 4: shares, a par and a private from another player
    play(g, Plan(trains={}), lambda g: g.round.kind == "stock" and g.current_entity == "Ann")
    g.private_bids["NDY"] = [("Ann", g.player("Ann").cash - 10)]
    with pytest.raises(GameError, match="set aside for your bids"):
        act(g, type="buy_shares", entity="Ann", corporation="TAG")
    with pytest.raises(GameError, match="to spend"):
        act(g, type="par", entity="Ann", corporation="WRA", price=60)
    with pytest.raises(GameError, match="to spend"):
        act(g, type="buy_company", entity="Ann", company="BLC", price=20)
    legal = g.legal_actions()
    assert {a.type for a in legal} <= {"pass", "sell_shares", "buy_company"}
    # a private from another player for any agreed price from $1: only what the free $10 covers is offered
    assert all(a.price <= 10 for a in legal if a.type == "buy_company")
    g.private_bids.clear()
    act(g, type="buy_shares", entity="Ann", corporation="TAG")


# -- game end: bank, $300, scores, tie-break (5, 5.1) -------------------------------------------------------------
def phase3_game(options: dict[str, bool] | None = None) -> Game:
    """The default plan up to stock round 5: phase 3 (two operating rounds per set), ABC and TAG running."""
    g = new_game("18AL", P3, options=options)
    play(g, Plan(), stock_round(5))
    assert g.phase.operating_rounds == 2
    return g


def drain_bank(g: Game, leave: int) -> None:
    """Bring the bank near its end without a long game: all but ``leave`` dollars go, through a public payment, to
    the treasury of M&O, a corporation nobody starts (a treasury counts for no player and M&O never operates)."""
    g.pay(BANK, "M&O", g.bank - leave)


def test_bank_broken_in_an_operating_round_ends_the_game_after_that_round_not_the_set() -> None:
    g = phase3_game()
    plan = Plan()
    play(g, plan, in_turn("ABC", "dividend"))
    assert g.or_set == (1, 2) and g.round.revenue > 10
    drain_bank(g, 10)
    act(g, type="dividend", entity="ABC", kind="payout")
    assert g.bank_broken and g.bank <= 0 and not g.finished
    # the table reads the payout, then that it broke the bank
    said = [str(m) for i, m in g.messages if i == len(g.actions) - 1]
    payout = next(k for k, m in enumerate(said) if m.startswith("ABC pays"))
    broken = next(k for k, m in enumerate(said) if "bank has run out" in m)
    assert payout < broken, said
    play(g, plan, lambda g: g.finished)
    assert g.end_reason == "bank"
    assert g.round.kind == "operating" and g.or_set == (1, 2) and g.round_no == 5  # OR 5.2 is never played
    assert g.round.operated == ["ABC", "TAG"]  # the round itself is completed
    assert g.result() == {p: score(g, p) for p in P3}


def test_bank_broken_in_a_stock_round_ends_the_game_after_it_and_one_operating_round() -> None:
    g = phase3_game()
    drain_bank(g, 10)
    seller = g.current_entity
    sale = next(a for a in g.legal_actions() if a.type == "sell_shares")
    g.process(sale)
    assert g.bank_broken and g.round.kind == "stock" and not g.finished
    plan = Plan()
    play(g, plan, lambda g: g.round.kind == "operating")
    assert g.or_set == (1, 1)  # one operating round, not phase 3's two
    play(g, plan, lambda g: g.finished)
    assert g.end_reason == "bank" and g.round_no == 5 and g.or_set == (1, 1) and g.round.operated == ["ABC", "TAG"]
    assert g.result() == {p: score(g, p) for p in P3}
    assert g.result()[seller] == score(g, seller)


def test_bank_broken_by_the_privates_opening_an_operating_round_ends_the_game_after_that_round() -> None:
    g = phase3_game()
    drain_bank(g, 30)  # less than the privates pay at the start of OR 5.1 (4(a))
    while g.round.kind == "stock":
        g.process({"type": "pass", "entity": g.current_entity})
    assert g.bank_broken and g.round.name == "OR 5.1"
    play(g, Plan(), lambda g: g.finished)
    assert g.end_reason == "bank" and g.finished_rounds[-1]["name"] == "OR 5.1"  # that round, not the set


def test_3_2_b_a_private_sold_on_the_sellers_turn_is_his_action_not_a_pass() -> None:
    g = new_game("18AL", P3)
    play(g, Plan(), stock_round(2))
    while g.current_entity != "Ann":
        g.process({"type": "pass", "entity": g.current_entity})
    g.process({"type": "buy_company", "entity": "Bob", "company": "TR", "price": 10})  # on Ann's turn
    for who in ("Ann", "Bob", "Cy"):
        g.process({"type": "pass", "entity": who})
    assert g.round.kind == "stock" and g.current_entity == "Ann"  # only two passes in a row since her sale
    g.process({"type": "pass", "entity": "Ann"})
    assert g.round.kind == "operating" and g.players[g.priority].name == "Bob"  # after the last to act


def test_3_3_b_over_the_limit_a_player_may_buy_yellow_stock_before_selling_down() -> None:
    g = new_game("18AL", ["Ann", "Bob", "Cy", "Dee", "Eve"])
    play(g, Plan(), stock_round(2))
    while g.current_entity != "Bob":
        g.process({"type": "pass", "entity": g.current_entity})
    g.process({"type": "par", "entity": "Bob", "corporation": "WRA", "price": 60})
    g.process({"type": "pass", "entity": "Bob"})
    g.market.place("WRA", 2, 0)  # set-up: WRA in the yellow zone
    for corp in ("ABC", "TAG"):  # set-up: Ann over the certificate limit, 60% of each
        for c in g.certs_of(corp):
            if g.shares_held("Ann", corp) < 6 and c.owner != "Ann" and not c.president:
                c.owner = "Ann"
        g.update_presidency(corp)
    assert g.cert_count("Ann") > g.cert_limit()
    while g.current_entity != "Ann":
        g.process({"type": "pass", "entity": g.current_entity})
    with pytest.raises(GameError, match="over the limit"):
        g.process({"type": "pass", "entity": "Ann"})
    g.process({"type": "buy_shares", "entity": "Ann", "corporation": "WRA"})  # the purchase first (3.2)
    while g.cert_count("Ann") > g.cert_limit():
        g.process({"type": "sell_shares", "entity": "Ann", "corporation": "ABC", "count": 1})
    g.process({"type": "pass", "entity": "Ann"})


def test_300_ends_the_game_after_the_current_operating_round_and_scores_privates_at_par() -> None:
    g = new_game("18AL", P3)
    plan = Plan(trains={"ABC": ("2", "2", "2"), "TAG": ("2", "2")})  # no 3-train: one OR per set, prices climb
    play(g, plan, lambda g: g.corps["ABC"].started and g.price("ABC") >= 300)
    assert g.round.kind == "operating" and not g.finished and "TAG" not in g.round.operated
    assert state(g).end_after_or == "stock_market"
    number = g.round_no
    play(g, plan, lambda g: g.finished)
    assert g.end_reason == "stock_market" and g.round_no == number and g.round.operated == ["ABC", "TAG"]
    owned = [c for c in g.companies.values() if c.owner in P3 and not c.closed]
    assert owned  # phase 2: the privates are still open and count at par value
    assert g.result() == {p: score(g, p) for p in P3}
    assert g.winner() == ["Ann"]  # ABC's president, with ABC at $300


def _tied_bank_end(options: dict[str, bool] | None, places: tuple[int, int] = (0, 1)) -> Game:
    """The bank breaks in OR 5.1; just before its last action (TAG passes its train step, which moves no money) the
    players in ``places`` of the ranking are made equal by a payment from the bank, then TAG passes (no money moves)."""
    g = phase3_game(options)
    plan = Plan()
    play(g, plan, in_turn("ABC", "dividend"))
    drain_bank(g, 10)
    act(g, type="dividend", entity="ABC", kind="payout")
    play(g, plan, in_turn("TAG", "buy_train"))
    ranking = sorted(g.result().items(), key=lambda kv: -kv[1])
    (_, high), (low_name, low) = ranking[places[0]], ranking[places[1]]
    g.pay(BANK, low_name, high - low)
    while g.current_entity == "TAG":  # the train step, then the private purchase step (4.2(h)) if it applies
        act(g, type="pass", entity="TAG")
    return g


def test_a_tie_stands_without_the_tournament_option() -> None:
    g = _tied_bank_end(None)
    assert g.finished and g.end_reason == "bank" and len(g.winner()) == 2


def test_tournament_tie_break_plays_one_extra_operating_round() -> None:
    g = _tied_bank_end({"tournament_tie_break": True})
    assert not g.finished and state(g).tie_break_played
    assert g.round.kind == "operating" and g.round_no == 5 and g.or_set == (2, 2)  # no stock round before it
    assert any("tie for first place" in str(line) for _, line in g.messages)
    assert g.rules.extra_round_at_end(g, g.round, "bankrupt") is None  # never after a bankruptcy
    play(g, Plan(), lambda g: g.finished)
    assert g.end_reason == "bank" and g.round_no == 5 and g.round.operated == ["ABC", "TAG"]
    assert [r["kind"] for r in g.finished_rounds[-2:]] == ["operating", "operating"]
    assert g.result() == {p: score(g, p) for p in P3}


def test_tournament_tie_break_only_for_first_place() -> None:
    g = _tied_bank_end({"tournament_tie_break": True}, places=(1, 2))
    assert g.finished and len(g.winner()) == 1 and not state(g).tie_break_played


# -- name chits (M&C, Table III) ------------------------------------------------------------------------------------
LEE = "Robert E. Lee"
LINE = ["G4-0", "G6-0", "G8-0"]  # Birmingham - Anniston - Atlanta: the Robert E. Lee's two ends


def _line_revenue(g: Game, train: str) -> int:
    """What ``train`` earns on Birmingham-Anniston-Atlanta with the chits as they are now."""
    rules = g.rules
    return check_routes(g.board, "ABC", rules.train_specs(g, "ABC"), rules.route_rules(g), [(train, LINE)]).revenue


def test_name_chits_are_the_presidents_choice_and_pay_only_on_their_train() -> None:
    g = new_game("18AL", P3)
    plan = Plan(privates={"ABC": ("M&C", 100)})
    play(g, plan, lambda g: state(g).chit_corp == "ABC" and in_turn("ABC", "routes")(g))
    assert g.round_no == 5 and [t.id for t in g.trains_of("ABC")] == ["2-0", "2-2", "3-0"]
    # no chit is on a train until the president puts it there: it earns nothing (the literal rule)
    assert g.rules.placed_chits(g) == {} and _line_revenue(g, "3-0") == 70
    offered = {a for a in g.legal_actions() if a.type == "name_train"}
    assert NameTrain(entity="M&C", chit=LEE, train="3-0") in offered and len(offered) == 6
    act(g, type="name_train", entity="M&C", chit=LEE, train="2-0")
    assert _line_revenue(g, "3-0") == 70  # the chit is on the 2-train, which cannot reach both ends
    act(g, type="name_train", entity="ABC", chit=LEE, train="3-0")  # moved; the corporation may name itself
    assert g.rules.placed_chits(g) == {LEE: "3-0"} and _line_revenue(g, "3-0") == 90
    # the table reads trains by their kind, as on the train cards, not by the engine's ids
    assert str(g.messages[-1][1]) == f"ABC names its 3-train the {LEE} (moved from its 2-train)."
    act(g, type="name_train", entity="M&C", chit=LEE)
    assert str(g.messages[-1][1]) == f"ABC takes the {LEE} chit off its 3-train." and not g.rules.placed_chits(g)
    act(g, type="name_train", entity="M&C", chit=LEE, train="3-0")
    with pytest.raises(GameError, match="at most one name"):
        act(g, type="name_train", entity="M&C", chit="Pan American", train="3-0")
    with pytest.raises(GameError, match="own trains"):
        act(g, type="name_train", entity="M&C", chit="Pan American", train="2-1")
    with pytest.raises(GameError, match="no name chit"):
        act(g, type="name_train", entity="M&C", chit="Dixie Flyer", train="2-0")
    act(g, type="run_routes", entity="ABC", routes=[{"train": "3-0", "nodes": LINE}])
    assert g.round.revenue == 90
    assert "Robert E. Lee on the 3-train" in str(g.rules.charter_notes(g, "ABC")[0])

    # not in another corporation's turn; and a named train sold away leaves its chit on the charter
    play(g, plan, in_turn("TAG", "buy_train"))
    with pytest.raises(GameError, match="own turn"):
        act(g, type="name_train", entity="M&C", chit=LEE, train="2-0")
    act(g, type="buy_train", entity="TAG", train="3-0", price=1)
    assert g.rules.placed_chits(g) == {} and state(g).chit_corp == "ABC"
    assert "Robert E. Lee (on the charter" in str(g.rules.charter_notes(g, "ABC")[0])
    play(g, plan, in_turn("ABC"))
    assert g.or_set == (2, 2)
    act(g, type="name_train", entity="M&C", chit=LEE, train="2-2")  # reusable
    assert g.rules.placed_chits(g) == {LEE: "2-2"}

    # a change of president removes both chits at once
    play(g, plan, lambda g: g.round.kind == "stock")
    bought = 0
    while g.round.kind == "stock" and state(g).chit_corp is not None:
        who = g.current_entity
        if who == "Cy" and not g.round.bought_this_turn:
            act(g, type="buy_shares", entity="Cy", corporation="ABC")
            bought += 1
        else:
            act(g, type="pass", entity=who)
    assert bought == 2 and g.corps["ABC"].president == "Cy"
    assert state(g).chit_corp is None and g.rules.placed_chits(g) == {}
    said = [str(line) for _, line in g.messages]
    removed = next(i for i, t in enumerate(said) if "name chits are removed" in t)
    # said as the swap happens, before the sale's "Cy becomes president of ABC", so it names Cy itself
    assert said[removed] == "ABC's presidency passes to Cy: its name chits are removed from play."
    assert said.index("Cy becomes president of ABC.") > removed
    assert g.replayed().result() == g.result()


def test_name_chits_move_with_the_best_runs_under_the_18xx_games_profile() -> None:
    g = new_game("18AL", P3, options={"rules_profile": "18xx.games"})
    assert g.rules.auto_name_chits and not new_game("18AL", P3).rules.auto_name_chits
    plan = Plan(privates={"ABC": ("M&C", 100)})
    play(g, plan, lambda g: state(g).chit_corp == "ABC" and in_turn("ABC", "routes")(g))
    assert not any(a.type == "name_train" for a in g.legal_actions())
    act(g, type="run_routes", entity="ABC")
    assert g.round.revenue == 90 and g.rules.placed_chits(g)  # the engine placed them for the best run


# -- rulings of issue 15 (each failed before its fix) ------------------------------------------------------------


def test_rule_3_2_a_certificates_of_one_corporation_may_be_sold_one_at_a_time() -> None:
    g = new_game("18AL", P3)
    to_first_or(g)
    while g.round.kind != "stock":
        act(g, type="pass", entity=g.current_entity)
    act(g, type="pass", entity="Bob")
    act(g, type="pass", entity="Cy")
    assert g.current_entity == "Ann" and g.shares_held("Ann", "ABC") == 2 and g.price("ABC") == 80
    cash = g.player("Ann").cash
    act(g, type="sell_shares", entity="Ann", corporation="ABC", count=1)
    assert g.price("ABC") == 75 and g.current_entity == "Ann"
    assert any(a.type == "sell_shares" and a.corporation == "ABC" for a in g.legal_actions())
    act(g, type="sell_shares", entity="Ann", corporation="ABC", count=1)  # the price dropped after the first
    assert g.player("Ann").cash == cash + 80 + 75 and g.price("ABC") == 70
    with pytest.raises(GameError, match="You sold ABC earlier in this stock round|sold"):
        act(g, type="buy_shares", entity="Ann", corporation="ABC")


def test_rule_4_2_5_2_bankruptcy_only_after_every_legal_sale() -> None:
    g = _abc_without_trains()
    for c in g.certs:  # scaffolding: Ann keeps only her ABC, the treasury and her purse are empty
        if c.owner == "Ann" and c.corp == "TAG":
            c.owner = "Bob"
    g.pay("ABC", BANK, g.corps["ABC"].cash)
    g.pay("Ann", BANK, g.player("Ann").cash)
    # one ABC share ($80) cannot pay the $100 train, but it can be sold: bankruptcy must wait for it
    assert g.round.raisable(g, "Ann") == 80 and g.round.cheapest_price(g) == 100
    assert not any(a.type == "bankrupt" for a in g.legal_actions())
    # the prompt says selling cannot cover it, and what follows (not "sell for at least $100 first")
    assert "selling every share Ann may sell would bring that only to $80. Otherwise Ann sells every share that " \
           "may be sold, then goes bankrupt (`/corp bankrupt`)." in str(g.describe_turn()), str(g.describe_turn())
    with pytest.raises(GameError, match="must first sell every share that may be sold \\(now: 1 ABC\\)"):
        act(g, type="bankrupt", entity="ABC")
    act(g, type="sell_shares", entity="Ann", corporation="ABC", count=1)
    assert g.player("Ann").cash == 80 and not g.round.emergency_sales(g, "Ann")
    # with nothing left to sell it says so, not "selling every share ... would bring that only to $80"
    assert str(g.describe_turn()).endswith("Ann pays the $100 missing but has $80, and no share that may be sold. "
                                           "Otherwise Ann goes bankrupt (`/corp bankrupt`).")
    act(g, type="bankrupt", entity="ABC")
    assert g.finished and g.end_reason == "bankrupt" and g.player("Ann").cash == 0
    # she scores only the stock she could not sell (the President's certificate, at the dropped price) and privates
    assert g.net_worth("Ann") == score(g, "Ann") == 2 * g.price("ABC") + sum(
        c.value for c in g.companies.values() if c.owner == "Ann" and not c.closed)


def _ann_must_raise(need: int, tag_shares: int) -> Game:
    """Ann with no cash, her ABC (3 shares, one of them sellable at $80) and ``tag_shares`` of TAG ($60): ABC's
    treasury leaves ``need`` of the $100 train to her."""
    g = _abc_without_trains()
    for c in g.certs:  # scaffolding: the holdings and purses the rule needs
        if c.owner == "Ann" and c.corp == "TAG" and g.shares_held("Ann", "TAG") > tag_shares:
            c.owner = "Bob"
    g.pay("ABC", BANK, g.corps["ABC"].cash - (100 - need))
    g.pay("Ann", BANK, g.player("Ann").cash)
    assert g.round.cheapest_price(g) == 100 and g.price("ABC") == 80 and g.price("TAG") == 60
    return g


def test_rule_4_2_5_2_d_what_is_kept_is_less_than_every_certificate_sold_brought() -> None:
    """(d) holds over all the sales for one train: after a $60 TAG share and an $80 ABC share Ann would keep $65 of
    the $75 she owes, more than the TAG share brought; she sells the second TAG share instead."""
    g = _ann_must_raise(75, 2)
    act(g, type="sell_shares", entity="Ann", corporation="TAG", count=1)
    second = g.price("TAG")
    assert g.player("Ann").cash == 60 and second < 60
    assert g.round.emergency_sales(g, "Ann") == [("TAG", 1)]
    with pytest.raises(GameError, match=r"Ann would keep \$65 once the train is paid, and that must be less than the "
                                        r"least any one certificate sold brought \(\$60\)"):
        act(g, type="sell_shares", entity="Ann", corporation="ABC", count=1)
    act(g, type="sell_shares", entity="Ann", corporation="TAG", count=1)
    act(g, type="buy_train", entity="ABC", train="2-3")
    assert g.player("Ann").cash == 60 + second - 75 < second and g.corps["ABC"].cash == 0


def test_a_forced_purchase_prompt_names_the_train_of_another_corporation_bought_without_a_sale() -> None:
    """"sell shares for at least $75 first" was all it said, while ABC's treasury could buy TAG's train (its president
    agreeing) with no sale at all: the way out a table takes first was not on the prompt."""
    g = _ann_must_raise(75, 2)
    assert any(a.type == "buy_train" and g.train(a.train).owner == "TAG" for a in g.legal_actions())
    assert str(g.describe_turn()).endswith(
        "Ann pays the $75 missing but has $0: sell shares for at least $75 first (`/stock sell`), then buy it. Or ABC "
        "buys another corporation's train without a sale (`/train buy`; its president must agree).")


def test_the_round_summary_keeps_what_a_train_cost_and_who_paid() -> None:
    """"NYNH bought a 4-train from PRR" left out the price of a looting, and a president's forced contribution was
    only in the live lines: the summary is what the table reads back."""
    g = _ann_must_raise(75, 2)
    act(g, type="buy_train", entity="ABC", train=g.trains_of("TAG")[0].id, price=25)
    assert str(g.round.summary[-1]) == "ABC bought a 2-train from TAG for $25"
    g = _ann_must_raise(75, 2)
    act(g, type="sell_shares", entity="Ann", corporation="TAG", count=2)
    act(g, type="buy_train", entity="ABC", train="2-3")
    assert [str(x) for x in g.round.summary[-2:]] == ["ABC bought a 2-train (bank)", "Ann paid $75 of it"]


def test_rule_4_2_5_2_d_a_sale_no_later_sale_can_finish_is_refused() -> None:
    """With one TAG share, selling it first would leave only ABC to cover the last $15, and Ann would keep $65: the
    TAG sale is refused at once, while ABC alone (keeping $5) is allowed. Bankruptcy is not offered."""
    g = _ann_must_raise(75, 1)
    assert g.round.emergency_sales(g, "Ann") == [("ABC", 1)]
    assert not any(a.type == "bankrupt" for a in g.legal_actions())
    with pytest.raises(GameError, match="however Ann went on selling, more would be kept"):
        act(g, type="sell_shares", entity="Ann", corporation="TAG", count=1)
    assert g.player("Ann").cash == 0 and g.shares_held("Ann", "TAG") == 1  # the refusal changed nothing
    act(g, type="sell_shares", entity="Ann", corporation="ABC", count=1)
    with pytest.raises(GameError, match=r"Ann has the \$75 ABC is missing for its train: buy it"):
        act(g, type="bankrupt", entity="ABC")
    with pytest.raises(GameError, match=r"Sell only what the train needs: Ann already has the \$75 missing"):
        act(g, type="sell_shares", entity="Ann", corporation="TAG", count=1)
    act(g, type="buy_train", entity="ABC", train="2-3")
    assert g.player("Ann").cash == 5


def test_rule_4_2_5_2_d_a_sale_of_shares_not_held_is_refused_for_that_reason() -> None:
    """(d)'s search assumes a sale that can be made: one of more shares than held, or none, is refused as such."""
    g = _ann_must_raise(75, 2)
    for count in (15, 0, -1):
        with pytest.raises(GameError, match="cannot sell|at least one share"):
            act(g, type="sell_shares", entity="Ann", corporation="TAG", count=count)
    assert g.player("Ann").cash == 0 and g.shares_held("Ann", "TAG") == 2


def test_rule_4_2_5_2_when_selling_cannot_cover_the_train_the_prompt_says_what_is_left() -> None:
    """Ann may sell one ABC share ($80) toward the $95 missing: the prompt does not ask her to sell for $95 but says
    that ABC's $5 may still buy TAG's train (its president agreeing), else she sells and goes bankrupt."""
    g = _ann_must_raise(95, 1)
    g.certs_of("TAG", "Ann")[0].owner = "Bob"  # scaffolding: ABC is all she holds
    text = str(g.describe_turn())
    assert "Ann pays the $95 missing but has $0, and selling every share Ann may sell would bring that only to " \
           "$80. ABC may still buy another corporation's train (`/train buy`; its president must agree). " \
           "Otherwise Ann sells every share that may be sold, then goes bankrupt (`/corp bankrupt`)." in text, text
    assert any(a.type == "buy_train" and a.train == g.trains_of("TAG")[0].id for a in g.legal_actions())


def test_rule_4_2_5_2_a_after_the_presidents_sales_only_the_cheapest_train_is_bought() -> None:
    """The corporation may arrange a purchase from another corporation instead of the president's money, not after
    it: once Ann has sold for the train, TAG's 2-train (which ABC's $25 could pay) is no longer offered."""
    g = _ann_must_raise(75, 2)
    tag_train = g.trains_of("TAG")[0].id
    assert any(a.type == "buy_train" and a.train == tag_train for a in g.legal_actions())  # instead of selling
    act(g, type="sell_shares", entity="Ann", corporation="ABC", count=1)
    assert not any(a.type == "buy_train" and a.train == tag_train for a in g.legal_actions())
    with pytest.raises(GameError, match=r"Ann has sold shares toward the cheapest train: ABC buys that train now, "
                                        r"for \$100, with Ann paying the rest"):
        act(g, type="buy_train", entity="ABC", train=tag_train, price=25)
    act(g, type="buy_train", entity="ABC", train="2-3")
    assert g.player("Ann").cash == 5 and g.corps["ABC"].cash == 0


RECORD_3P = str(RECORDS / "18AL-3p-bankrupt.json")


@pytest.mark.skipif(not __import__("os").path.exists(RECORD_3P), reason="reference records not available")
def test_rule_4_2_1_j_an_upgrade_without_a_city_must_add_connected_track() -> None:
    import json

    from engine import track
    from engine.graph import reach
    from engine.records import read_record

    with open(RECORD_3P) as f:
        g = read_record(json.load(f), before=126, routes=False).game
    assert g.current_entity == "ABC" and g.round.step == "track" and g.board.hexes["F7"].tile == "8"
    r = reach(g.board, "ABC")
    assert any(h == "F7" for h in r.hex_edges)  # ABC's network runs over the #8 in F7
    options = {(o.tile, o.rotation) for o in track.legal_tiles(g, "ABC", "F7", r)}
    assert ("29", 1) in options  # #29 adds a curve joined to ABC's track
    assert ("16", 0) not in options  # #16's added curve touches nothing ABC reaches
    with pytest.raises(GameError, match="adds no track connected to ABC's stations"):
        act(g, type="lay_tile", entity="ABC", hex="F7", tile="16", rotation=0)
    act(g, type="lay_tile", entity="ABC", hex="F7", tile="29", rotation=1)

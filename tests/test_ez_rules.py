"""18EZ Level 2: one test (or a few) per rulebook section, named after it; the worked examples T1-T7 of the
reference NOTES. Real engine, real actions; positions are reached by play or, for the map, by putting tiles down."""

from __future__ import annotations

import pytest

from engine import Game, new_game, stock
from engine.errors import GameError
from engine.invariants import violations
from engine.routes import TrainSpec, best_routes
from engine.state import BANK, IPO, POOL
from engine.tiles import tile_layout
from engine.titles.g18ez import spi
from tests.ez_helpers import act, float_in_first_round, pass_turn, put, to_step

P3 = ["Ann", "Bob", "Cy"]


def sdr2(starts: list[tuple[str, int]], players: list[str] = P3) -> Game:
    """A game in its second share dealing round after ``starts`` floated in the first."""
    g = new_game("18EZ", players)
    float_in_first_round(g, starts)
    while g.round.kind != "stock":
        to_step(g, g.round.corp, "buy_train")
        pass_turn(g)
    return g


# -- 1.1 components -------------------------------------------------------------------------------------------
def test_1_1_six_railroads_no_privates_and_the_level_2_trains() -> None:
    g = new_game("18EZ", P3)
    assert len(g.corps) == 6 and not g.companies
    counts = {td.name: td.count for td in g.data.trains}
    assert counts == {"2": 6, "3": 5, "4": 4, "5": 3, "6": 5}
    assert g.data.bank == 6000 and g.bank == 6000 - 1200
    assert g.data.provenance and "RECONSTRUCTED" in g.data.provenance["status"]


@pytest.mark.parametrize(("n", "cash", "limit"), [(2, 600, 25), (3, 400, 16), (4, 300, 12), (5, 240, 10),
                                                   (6, 200, 8)])
def test_1_1_starting_cash_1200_split_and_1_5_certificate_limits(n: int, cash: int, limit: int) -> None:
    g = new_game("18EZ", [f"P{i}" for i in range(n)])
    assert [p.cash for p in g.players] == [cash] * n and sum(p.cash for p in g.players) == 1200
    assert g.cert_limit() == limit


# -- 1.2 the first share dealing round ------------------------------------------------------------------------
def test_1_2_first_round_one_action_turns_priority_card_and_pars() -> None:
    g = new_game("18EZ", P3)
    assert g.current_entity == "Ann" and "Priority Bid Card" in str(g.messages[0][1])
    with pytest.raises(GameError, match="not a starting value"):
        act(g, type="par", entity="Ann", corporation="PS&W", price=110)
    with pytest.raises(GameError, match="has not started"):
        act(g, type="buy_shares", entity="Ann", corporation="PS&W")
    bank = g.bank
    act(g, type="par", entity="Ann", corporation="PS&W", price=100)
    assert g.player("Ann").cash == 200 and g.bank == bank + 200  # 2 x par, to the bank
    assert g.current_entity == "Bob"  # one purchase is the whole turn
    act(g, type="buy_shares", entity="Bob", corporation="PS&W")
    assert g.player("Bob").cash == 300  # IPO shares cost the par
    with pytest.raises(GameError, match="No shares may be sold"):
        act(g, type="sell_shares", entity="Cy", corporation="PS&W", count=1)
    pars = sorted(c.price for c in g.rules.par_cells(g))
    assert pars == [50, 60, 70, 80, 90, 100]


# -- 1.3 / 1.6 / 1.7 floating ---------------------------------------------------------------------------------
def test_1_3_float_at_half_from_the_ipo_and_1_6_treasury_at_the_end_of_the_round() -> None:
    g = new_game("18EZ", P3)
    act(g, type="par", entity="Ann", corporation="PS&W", price=80)
    for who in ("Bob", "Cy"):
        act(g, type="buy_shares", entity=who, corporation="PS&W")
    assert not g.corps["PS&W"].floated  # 4 of 10 shares
    act(g, type="buy_shares", entity="Ann", corporation="PS&W")
    corp = g.corps["PS&W"]
    assert corp.floated and corp.cash == 0  # not yet: at the end of the round
    assert spi(g).is_parked("PS&W") and g.price("PS&W") == 80
    for _ in range(3):
        pass_turn(g)
    assert g.round.kind == "operating"
    assert corp.cash == 800 and corp.tokens_left == 1  # 10 x par; two markers, the home one placed
    assert spi(g).positions["PS&W"] == (2, 0)  # the $80 par cell
    assert violations(g) == []


# -- 1.4 presidency -------------------------------------------------------------------------------------------
def test_1_4_presidency_changes_hands_for_two_shares() -> None:
    g = new_game("18EZ", P3)
    act(g, type="par", entity="Ann", corporation="M&YR", price=50)
    act(g, type="buy_shares", entity="Bob", corporation="M&YR")
    pass_turn(g)
    pass_turn(g)
    act(g, type="buy_shares", entity="Bob", corporation="M&YR")
    assert g.corps["M&YR"].president == "Ann"  # a tie keeps the president
    pass_turn(g)
    pass_turn(g)
    act(g, type="buy_shares", entity="Bob", corporation="M&YR")
    assert g.corps["M&YR"].president == "Bob"
    assert g.certs_of("M&YR")[0].owner == "Bob" and g.shares_held("Ann", "M&YR") == 2
    assert len(g.certs_of("M&YR", "Ann")) == 2  # two 10% certificates in exchange


# -- 1.5 holding limit ---------------------------------------------------------------------------------------
def test_1_5_no_more_than_60_percent_of_a_railroad() -> None:
    g = new_game("18EZ", ["Ann", "Bob"])
    act(g, type="par", entity="Ann", corporation="BCRR", price=50)
    for _ in range(4):
        pass_turn(g)  # Bob
        act(g, type="buy_shares", entity="Ann", corporation="BCRR")
    assert g.shares_held("Ann", "BCRR") == 6
    pass_turn(g)
    with pytest.raises(GameError, match="at most 60%"):
        act(g, type="buy_shares", entity="Ann", corporation="BCRR")


# -- 1.6 end of the round and priority (T1) -------------------------------------------------------------------
def test_1_6_priority_goes_to_the_player_after_the_last_to_act_t1() -> None:
    g = new_game("18EZ", ["Tom", "Dick", "Harry"])
    act(g, type="par", entity="Tom", corporation="BR&N", price=60)  # Tom buys
    pass_turn(g)  # Dick
    pass_turn(g)  # Harry
    pass_turn(g)  # Tom
    assert g.round.kind == "stock" and g.round.number == 2  # nothing floated: no OR, next SDR
    assert g.current_entity == "Dick"


# -- 1.8 buy-sell or sell-buy ---------------------------------------------------------------------------------
def test_1_8_buy_then_sell_but_never_buy_sell_buy() -> None:
    g = sdr2([("PS&W", 60), ("BR&N", 60)])
    who = g.current_entity
    held = next(c for c in ("PS&W", "BR&N") if g.shares_held(who, c) and g.corps[c].president != who) \
        if any(g.shares_held(who, c) and g.corps[c].president != who for c in ("PS&W", "BR&N")) else None
    assert held is not None
    other = "BR&N" if held == "PS&W" else "PS&W"
    act(g, type="buy_shares", entity=who, corporation=other)
    act(g, type="sell_shares", entity=who, corporation=held, count=1)
    with pytest.raises(GameError, match="already bought"):
        act(g, type="buy_shares", entity=who, corporation=other)


def test_1_8_sell_then_buy_ends_the_turn_never_sell_buy_sell() -> None:
    g = sdr2([("PS&W", 60), ("BR&N", 60)])
    who = g.current_entity
    mine = [c for c in ("PS&W", "BR&N") if g.shares_held(who, c) and g.corps[c].president != who]
    act(g, type="sell_shares", entity=who, corporation=mine[0], count=1)
    other = "BR&N" if mine[0] == "PS&W" else "PS&W"
    act(g, type="buy_shares", entity=who, corporation=other)
    assert g.current_entity != who  # sell, then buy: the turn is over


def test_1_5_over_the_certificate_limit_sell_down_before_ending_the_turn_q18() -> None:
    six = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    g = sdr2([("PS&W", 50), ("BR&N", 50), ("M&R", 50)], players=six)
    who = g.current_entity
    assert who is not None and g.cert_limit() == 8
    for sym in ("PS&W", "BR&N", "M&R"):  # set-up: as if a presidency change had left him over the limit
        for cert in g.certs_of(sym, IPO):
            if g.cert_count(who) <= 8 and g.shares_held(who, sym) < 5:
                cert.owner = who
    assert g.cert_count(who) == 9
    assert str(g.describe_turn()).startswith(f"{who} must sell shares first: {who} holds 9 certificates, over the "
                                             "limit of 8 (SDR 2).")  # no "or pass": passing is refused
    with pytest.raises(GameError, match="over the limit of 8: sell enough"):
        act(g, type="pass", entity=who)
    assert not any(a.type in ("buy_shares", "par") for a in g.legal_actions())
    sale = next(a for a in g.legal_actions() if a.type == "sell_shares" and a.count == 1)
    g.process(sale)
    act(g, type="pass", entity=who)
    assert g.current_entity != who


# -- 1.10 selling ---------------------------------------------------------------------------------------------
def test_1_10_no_sale_of_shares_bought_in_this_round() -> None:
    g = sdr2([("PS&W", 60)])
    who = g.current_entity
    before = g.shares_held(who, "PS&W")
    act(g, type="buy_shares", entity=who, corporation="PS&W")
    with pytest.raises(GameError, match="bought 1 share of PS&W in this share dealing round"):
        act(g, type="sell_shares", entity=who, corporation="PS&W", count=before + 1)
    assert g.shares_held(who, "PS&W") == before + 1  # nothing changed
    if before:
        legal = [a for a in g.legal_actions() if a.type == "sell_shares"]
        assert max(a.count for a in legal if a.corporation == "PS&W") <= before


def test_1_10_no_rebuy_after_a_sale_in_the_same_round() -> None:
    g = sdr2([("PS&W", 60)])
    who = next(p for p in P3 if g.shares_held(p, "PS&W") and g.corps["PS&W"].president != p)
    while g.current_entity != who:
        pass_turn(g)
    act(g, type="sell_shares", entity=who, corporation="PS&W", count=1)
    with pytest.raises(GameError, match="sold PS&W this round"):
        act(g, type="buy_shares", entity=who, corporation="PS&W")


def test_1_10_presidents_certificate_only_when_another_holds_20_percent() -> None:
    g = new_game("18EZ", P3)
    act(g, type="par", entity="Ann", corporation="RR6", price=50)
    act(g, type="buy_shares", entity="Bob", corporation="RR6")
    act(g, type="buy_shares", entity="Cy", corporation="RR6")
    for _ in range(3):
        pass_turn(g)
    # SDR 2 (RR6 has not floated: Q2, sold at par)
    assert g.round.number == 2 and g.current_entity == "Ann"
    with pytest.raises(GameError, match="another player holds at least 2 shares"):
        act(g, type="sell_shares", entity="Ann", corporation="RR6", count=1)
    pass_turn(g)
    act(g, type="buy_shares", entity="Bob", corporation="RR6")  # Bob now holds 20%
    pass_turn(g)  # Bob ends his turn (he might have sold after buying)
    pass_turn(g)  # Cy
    act(g, type="sell_shares", entity="Ann", corporation="RR6", count=2)
    assert g.corps["RR6"].president == "Bob" and g.shares_held(POOL, "RR6") == 2
    assert g.shares_held("Bob", "RR6") == 2 and g.certs_of("RR6")[0].owner == "Bob"


def test_1_10_at_most_half_of_a_railroad_in_the_open_market() -> None:
    g = sdr2([("M&R", 50)], players=["Ann", "Bob"])
    seller = next(p for p in ("Ann", "Bob") if g.corps["M&R"].president != p)
    assert g.shares_held(seller, "M&R") >= 1
    for cert in g.certs_of("M&R", IPO)[:5]:
        cert.owner = POOL  # set-up: five shares already in the open market
    while g.current_entity != seller:
        pass_turn(g)
    with pytest.raises(GameError, match="at most 5 shares of M&R"):
        act(g, type="sell_shares", entity=seller, corporation="M&R", count=1)


# -- 1.11 share value in a share dealing round ----------------------------------------------------------------
def test_1_11_down_one_row_per_share_sold_stopping_at_the_bottom_t2() -> None:
    g = new_game("18EZ", P3)
    m = spi(g)
    m.place("M&YR", 2, 4)  # $120 in the fragment's middle column (its bottom is $90)
    assert g.price("M&YR") == 120
    g.rules.move_price_on_sale(g, "M&YR", 4)
    assert g.price("M&YR") == 90 and m.positions["M&YR"] == (5, 4)  # three rows, the fourth step is lost
    assert 4 * 120 == 480


def test_1_11_tokens_arriving_together_stack_by_previous_value_then_column() -> None:
    g = new_game("18EZ", P3)
    m = spi(g)
    m.place("BCRR", 5, 3)  # already in the target cell: stays on top
    m.place("PS&W", 4, 3)  # $90
    m.place("BR&N", 3, 2)  # $90 too, farther left
    m.place("M&R", 2, 3)  # $110
    event = ("sale", 1)
    m.move_together("BR&N", 5, 2, event)  # lands elsewhere ($70)
    m.move_together("PS&W", 5, 3, event)
    m.move_together("M&R", 5, 3, event)
    assert m.stacks[(5, 3)] == ["BCRR", "M&R", "PS&W"]  # M&R came from $110, PS&W from $90
    m.place("BR&N", 3, 3)  # $100
    m.place("M&YR", 4, 4)  # $100, farther right
    m.move_together("BR&N", 5, 3, ("sale", 2))
    m.move_together("M&YR", 5, 3, ("sale", 2))  # not moved: a different column
    assert m.stacks[(5, 3)][-1] == "BR&N"


def test_1_11_one_turns_sales_of_two_railroads_arrive_together_q1() -> None:
    g = sdr2([("PS&W", 70), ("BR&N", 70), ("M&R", 70)])
    m = spi(g)
    who = g.current_entity
    assert who is not None
    for sym in ("PS&W", "BR&N"):
        g.certs_of(sym, IPO)[0].owner = who  # set-up: shares held from an earlier round
    m.place("PS&W", 3, 1)  # $80, top of the stack
    m.place("BR&N", 3, 1)  # $80, under it
    m.place("M&R", 4, 1)  # $70, already there
    act(g, type="sell_shares", entity=who, corporation="BR&N", count=1)  # declared first
    act(g, type="sell_shares", entity=who, corporation="PS&W", count=1)
    # one sale: newcomers under M&R, among themselves in their previous stack order, not the declared order
    assert m.stacks[(4, 1)] == ["M&R", "PS&W", "BR&N"]
    assert m.operating_order(["PS&W", "BR&N", "M&R"]) == ["M&R", "PS&W", "BR&N"]


def test_1_11_three_sold_from_one_stack_keep_their_order_whatever_the_declared_order_q1() -> None:
    g = sdr2([("PS&W", 70), ("BR&N", 70), ("M&R", 70)])
    m = spi(g)
    who = g.current_entity
    assert who is not None
    for sym in ("PS&W", "BR&N", "M&R"):
        g.certs_of(sym, IPO)[0].owner = who  # set-up: shares held from an earlier round
        m.place(sym, 3, 1)  # $80: PS&W on top, then BR&N, then M&R
    for sym in ("BR&N", "PS&W", "M&R"):  # declared in another order
        act(g, type="sell_shares", entity=who, corporation=sym, count=1)
    # each keeps its place in the stack it left, though the ones above M&R had left before it moved
    assert m.stacks[(4, 1)] == ["PS&W", "BR&N", "M&R"]
    assert m.operating_order(["M&R", "BR&N", "PS&W"]) == ["PS&W", "BR&N", "M&R"]


def test_1_11_sold_out_railroads_rise_at_the_end_of_the_round() -> None:
    g = new_game("18EZ", ["Ann", "Bob"])
    float_in_first_round(g, [("BCRR", 50)])
    # set-up: every share with the players
    for c in g.certs_of("BCRR", IPO):
        c.owner = "Bob"
    g.corps["BCRR"].president = "Ann" if g.shares_held("Ann", "BCRR") >= g.shares_held("Bob", "BCRR") else "Bob"
    g.update_presidency("BCRR")
    while g.round.kind != "stock":
        to_step(g, "BCRR", "buy_train")
        pass_turn(g)
    before = spi(g).positions["BCRR"]
    pass_turn(g)
    pass_turn(g)
    after = spi(g).positions["BCRR"]
    assert after == (before[0] - 1, before[1])


# -- 2.1 operating order (T3) ---------------------------------------------------------------------------------
def test_2_1_operating_order_value_then_column_then_stack_t3() -> None:
    g = new_game("18EZ", P3)
    m = spi(g)
    m.place("BCRR", 2, 4)  # $120 in the left column
    m.place("PS&W", 3, 5)  # $120 in the middle column, on top
    m.place("BR&N", 3, 5)
    m.place("M&R", 4, 6)  # $120 in the right column
    assert {g.price(s) for s in ("BCRR", "PS&W", "BR&N", "M&R")} == {120}  # as in the example
    assert m.operating_order(["BCRR", "PS&W", "BR&N", "M&R"]) == ["M&R", "PS&W", "BR&N", "BCRR"]


# -- 2.3 / 2.4 track ------------------------------------------------------------------------------------------
def _opened(corp: str = "PS&W", par: int = 100, players: list[str] = P3) -> Game:
    g = new_game("18EZ", players)
    float_in_first_round(g, [(corp, par)])
    assert g.round.kind == "operating" and g.round.corp == corp
    return g


def test_2_3_home_tile_first_and_one_lay_per_turn() -> None:
    g = _opened()
    assert "PS&W" in g.board.hexes["F6"].tokens[0]  # home station on the printed circle
    assert g.round.step == "track"
    with pytest.raises(GameError, match="must lay a yellow city tile on its home hex F6"):
        pass_turn(g)
    # the prompt does not offer the pass it refuses
    assert "lay a yellow tile." in str(g.describe_turn()) and "or pass" not in str(g.describe_turn())
    assert str(g.rules.tile_lay_problem(g, "PS&W", "F4", "9", 1)) == "PS&W's first tile must go on its home hex F6 " \
        "(rule 2.3)."
    with pytest.raises(GameError, match="cannot reach F4"):
        act(g, type="lay_tile", entity="PS&W", hex="F4", tile="9", rotation=1)
    assert {a.hex for a in g.legal_actions() if a.type == "lay_tile"} == {"F6"}
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    assert g.board.hexes["F6"].tokens[0] == ["PS&W"]
    assert g.round.step != "track"  # one lay per turn


def test_2_3_tiles_match_the_hex_type_and_metropolis_takes_only_its_own() -> None:
    g = _opened()
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    to_step(g, "PS&W", "track")
    with pytest.raises(GameError, match="needs a tile with a town"):
        act(g, type="lay_tile", entity="PS&W", hex="F8", tile="9", rotation=1)
    with pytest.raises(GameError, match="F8 needs a tile with a town; #57 does not match"):
        act(g, type="lay_tile", entity="PS&W", hex="F8", tile="57", rotation=1)
    g.phase_index = 1  # green: a Metropolis tile is still refused on Purple Springs
    with pytest.raises(GameError, match="Tile #716 is only for the hexes labelled 'M'"):
        act(g, type="lay_tile", entity="PS&W", hex="F6", tile="716", rotation=0)
    g.phase_index = 0
    with pytest.raises(GameError, match="needs a tile with"):
        act(g, type="lay_tile", entity="PS&W", hex="F4", tile="4", rotation=1)
    act(g, type="lay_tile", entity="PS&W", hex="F8", tile="4", rotation=1)
    assert g.board.hexes["F8"].tile == "4" and g.rules.label_problem(g, "F12", "14") is not None


def test_2_3_track_is_traced_from_the_home_station() -> None:
    g = _opened()
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    # set-up: a second station far away, on track of its own
    put(g, "I13", "57", {1, 4})
    g.board.hexes["I13"].tokens[0][0] = "PS&W"
    r = g.rules.reach(g, "PS&W")
    assert any(h == "F6" for h, _ in r.cities) and not any(h == "I13" for h, _ in r.cities)
    assert "I11" not in r.hex_edges  # next to the second station only


def test_2_3_no_track_off_the_grid_and_2_4_grey_hexes_never_upgrade() -> None:
    g = _opened()
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    to_step(g, "PS&W", "track")
    with pytest.raises(GameError, match="off the map"):
        act(g, type="lay_tile", entity="PS&W", hex="F4", tile="8", rotation=2)  # sides 2 and 4: E3 is no hex
    with pytest.raises(GameError, match="cannot take track"):
        act(g, type="lay_tile", entity="PS&W", hex="D6", tile="9", rotation=0)


def test_2_3_track_may_dead_end_against_a_grey_hex() -> None:
    g = _opened()
    rot = next(r for r in range(6) if tile_layout(g.data.tiles["57"], r).exits == {2, 5})
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=rot)  # towards E5
    to_step(g, "PS&W", "track")
    d6 = g.board.neighbour("E5", 3)
    assert d6 == "D6" and g.data.hex(d6).color == "gray" and 0 not in g.board.layout(d6).exits
    act(g, type="lay_tile", entity="PS&W", hex="E5", tile="8", rotation=3)  # sides 3 and 5: a dead end at D6
    assert g.board.hexes["E5"].tile == "8"


def test_2_4_upgrades_wait_for_their_phase_and_towns_and_metropolis_upgrade() -> None:
    g = _opened()
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    put(g, "F8", "4", {1, 4})
    put(g, "F10", "9", {1, 4})
    to_step(g, "PS&W", "track")
    with pytest.raises(GameError, match="Green tiles are not available in phase 2"):
        act(g, type="lay_tile", entity="PS&W", hex="F8", tile="141", rotation=0)
    g.phase_index = 1  # the first 3-train was sold
    legal = {(a.hex, a.tile) for a in g.legal_actions() if a.type == "lay_tile"}
    assert ("F12", "716") in legal and ("F6", "14") in legal
    assert any(h == "F8" and t in ("141", "142", "143", "144") for h, t in legal)
    assert not any(h == "F12" and t != "716" for h, t in legal)


# -- 2.5 stations ---------------------------------------------------------------------------------------------
def test_2_5_two_stations_home_free_second_40_and_home_circles_kept() -> None:
    g = _opened()
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    put(g, "F8", "4", {1, 4})
    put(g, "F10", "9", {1, 4})
    put(g, "C9", "57", {0, 3})  # BR&N's home, not yet operated
    to_step(g, "PS&W", "token")
    opts = {h for h, _c, cost in g.rules.station_options(g, "PS&W")}
    assert opts == {"F12"} and g.rules.station_cost(g, "PS&W") == 40
    cash = g.corps["PS&W"].cash
    act(g, type="place_token", entity="PS&W", hex="F12", city=0)
    assert g.corps["PS&W"].cash == cash - 40 and g.corps["PS&W"].tokens_left == 0
    assert g.rules.reserved_slots(g, "C9", 0, "PS&W") == 1


# -- 2.6 routes (T6, T7) --------------------------------------------------------------------------------------
def _west_line(g: Game) -> None:
    put(g, "F4", "9", {1, 4})
    put(g, "F6", "57", {1, 4})
    put(g, "F8", "4", {1, 4})
    put(g, "F10", "9", {1, 4})


def test_2_6_a_4_train_runs_from_west_through_purple_springs_t6() -> None:
    g = new_game("18EZ", P3)
    _west_line(g)
    put(g, "F6", "14", {1, 4, 0, 3})  # green Purple Springs
    g.board.hexes["F6"].tokens[0][0] = "PS&W"
    res = best_routes(g.board, "PS&W", [TrainSpec("t", "4", 4, towns_count=True)], g.rules.route_rules(g))
    assert res.revenue == 30 + 30 + 10 + 40  # West, Purple Springs, Town W, Metropolis
    stops = [s.hex for s in res.routes[0].stops]
    assert stops in (["F2", "F6", "F8", "F12"], ["F12", "F8", "F6", "F2"])


def test_2_6_towns_count_toward_the_train_and_a_full_city_blocks_t7() -> None:
    g = new_game("18EZ", P3)
    _west_line(g)
    g.board.hexes["F6"].tokens[0][0] = "PS&W"
    g.board.hexes["F12"].tokens[0][0] = "BR&N"
    rules = g.rules.route_rules(g)
    two = best_routes(g.board, "BR&N", [TrainSpec("t", "2", 2, towns_count=True)], rules)
    assert two.revenue == 40 + 10  # Metropolis and Town W: the town is one of the two
    three = best_routes(g.board, "BR&N", [TrainSpec("t", "3", 3, towns_count=True)], rules)
    assert three.revenue == 40 + 10 + 20  # ends at Purple Springs: yellow, one circle, PS&W's
    put(g, "F6", "14", {1, 4, 0, 3})
    four = best_routes(g.board, "BR&N", [TrainSpec("t", "4", 4, towns_count=True)], rules)
    assert four.revenue == 40 + 10 + 30 + 30  # green: a free circle, BR&N passes through to West


# -- 2.7 dividends and share value (T4) -----------------------------------------------------------------------
def test_2_7_ipo_shares_pay_the_treasury_pool_shares_pay_nobody_t4() -> None:
    g = _opened("M&YR", 60)
    act(g, type="lay_tile", entity="M&YR", hex="C15", tile="57", rotation=0)
    holders = {p: g.shares_held(p, "M&YR") for p in P3}
    g.certs_of("M&YR", IPO)[0].owner = POOL  # set-up: one share in the open market
    ipo = g.shares_held(IPO, "M&YR")
    rnd = g.round
    assert rnd.step == "buy_train"
    rnd.revenue, rnd.step = 100, "dividend"  # set-up: as if its trains had run for $100
    cash = {p: g.player(p).cash for p in P3}
    treasury, bank = g.corps["M&YR"].cash, g.bank
    before = spi(g).positions["M&YR"]
    act(g, type="dividend", entity="M&YR", kind="payout")
    for p in P3:
        assert g.player(p).cash - cash[p] == 10 * holders[p]
    assert g.corps["M&YR"].cash - treasury == 10 * ipo
    assert bank - g.bank == 10 * (sum(holders.values()) + ipo)  # the pool share's $10 stays in the bank
    assert spi(g).positions["M&YR"] == (before[0], before[1] + 1)


def test_2_7_share_value_moves_right_up_left_down_and_stops_at_200() -> None:
    g = new_game("18EZ", P3)
    m = spi(g)
    m.place("BR&N", 5, 0)  # $50, the bottom-left corner
    values = []
    for _ in range(20):  # pay out: right along the row, up at its end, never past $200
        g.rules.move_price_after_run(g, "BR&N", 10, "payout")
        values.append(g.price("BR&N"))
    assert values[:10] == list(range(60, 160, 10)) and values[10] == 160 and values[-1] == 200
    assert m.positions["BR&N"] == (0, 10)
    for _ in range(25):  # withhold: left, down at the row's start, never below $50
        g.rules.move_price_after_run(g, "BR&N", 10, "withhold")
    assert m.positions["BR&N"] == (5, 0) and g.price("BR&N") == 50


def test_2_7_no_income_in_the_first_turn_drops_the_value() -> None:
    g = _opened("BCRR", 70)
    act(g, type="lay_tile", entity="BCRR", hex="F18", tile="57", rotation=1)
    assert g.price("BCRR") == 60  # no train: nothing paid, one space left


# -- 2.8 trains -----------------------------------------------------------------------------------------------
def test_2_8_bank_trains_in_order_and_the_first_4_removes_the_2s() -> None:
    g = _opened("PS&W", 100)
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    offered = {a.train for a in g.legal_actions() if a.type == "buy_train"}
    assert offered == {"2-0"}
    for t in g.trains:
        if t.name == "2":
            t.owner = "BR&N"
        if t.name == "3":
            t.owner = "M&R"
    g.corps["PS&W"].cash = 1000
    g.bought_train_types.update({"2", "3"})
    act(g, type="buy_train", entity="PS&W", train="4-0", price=300)
    assert not any(t.name == "2" for t in g.trains) and g.phase.name == "4"


def test_2_8_a_railroad_without_a_route_need_not_own_a_train() -> None:
    g = _opened("PS&W", 100)
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    assert g.round.step == "buy_train"
    assert not g.rules.must_own_train(g, g.round)
    pass_turn(g)  # no route: passing is allowed
    assert g.round.kind == "stock"


# -- 2.9 / 2.10 / 2.11 forced purchase, forced sales, bankruptcy --------------------------------------------------
def _forced(cash: int = 20) -> Game:
    g = _opened("PS&W", 100)
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    put(g, "F4", "9", {1, 4})  # a route to West: a train is required
    g.corps["PS&W"].cash = cash
    g.bank += 1000 - cash
    for t in g.trains:
        if t.name == "2" and t.id != "2-5":
            t.owner = "BR&N" if t.id < "2-3" else "M&R"  # set-up: the bank has one 2-train left
    for sym, pres in (("BR&N", "Bob"), ("M&R", "Cy")):
        g.corps[sym].floated, g.corps[sym].president = True, pres
        g.certs_of(sym)[0].owner = pres  # their presidents, who would agree to sell a train
    g.round._must_own = None
    return g


def test_2_9_forced_purchase_cheapest_train_and_another_railroad_only_below_it() -> None:
    g = _forced(20)
    rnd = g.round
    assert rnd.must_raise(g) and rnd.cheapest_price(g) == 80
    pres = g.corps["PS&W"].president
    with pytest.raises(GameError, match="must cost less than the cheapest available train, \\$80"):
        act(g, type="buy_train", entity="PS&W", train="2-0", price=80)
    assert g.corps["PS&W"].cash == 20 and g.train("2-0").owner == "BR&N"  # nothing changed
    cash = g.player(pres).cash
    act(g, type="buy_train", entity="PS&W", train="2-0", price=79)
    assert g.train("2-0").owner == "PS&W" and g.corps["PS&W"].cash == 0
    assert g.player(pres).cash == cash - 59  # exactly the shortfall


def test_2_9_the_president_pays_exactly_the_shortfall_for_the_bank_train() -> None:
    g = _forced(20)
    pres = g.corps["PS&W"].president
    cash = g.player(pres).cash
    act(g, type="buy_train", entity="PS&W", train="2-5", price=80)
    assert g.player(pres).cash == cash - 60 and g.corps["PS&W"].cash == 0


def test_2_10_forced_sales_only_what_is_needed_and_keeping_the_presidency() -> None:
    g = _forced(0)
    assert g.corps["PS&W"].president == "Ann" and g.shares_held("Ann", "PS&W") == 3
    ipo = g.certs_of("PS&W", IPO)
    ipo[0].owner, ipo[1].owner = "Ann", "Bob"  # set-up: Ann holds 4 shares, Bob 2
    g.bank += g.player("Ann").cash
    g.player("Ann").cash = 0
    price = g.price("PS&W")
    assert price >= 80
    legal = {(a.corporation, a.count) for a in g.legal_actions() if a.type == "sell_shares"}
    assert legal == {("PS&W", 1)}  # one share is enough; three would cost her the presidency
    # how many would do, not how many fewer (it said "with 1 share fewer" and, of four shares, "with 3 shares fewer")
    for count in (2, 3):
        with pytest.raises(GameError, match=r"Sell only what the train needs: 1 share would already bring Ann the "
                                            r"\$80 missing\."):
            act(g, type="sell_shares", entity="Ann", corporation="PS&W", count=count)
    assert "lose its presidency" in str(stock.sell_problem(g, "Ann", "PS&W", 3, keep_presidency_of="PS&W") or "")
    act(g, type="sell_shares", entity="Ann", corporation="PS&W", count=1)
    act(g, type="buy_train", entity="PS&W", train="2-5", price=80)
    assert g.player("Ann").cash == price - 80 and g.train("2-5").owner == "PS&W"
    assert violations(g) == []


def test_2_10_a_first_small_sale_does_not_bar_selling_more_of_that_railroad_2_11() -> None:
    g = _forced(0)
    g.train("2-5").owner = "M&R"  # set-up: the cheapest train in the bank is a 3, $180
    for c in g.certs_of("PS&W", IPO)[:3]:
        c.owner = "Ann"  # Ann holds 6 shares and the presidency
    g.bank += g.player("Ann").cash - 20
    g.player("Ann").cash = 20
    assert g.round.cheapest_price(g) == 180 and g.price("PS&W") == 90  # two shares raise $90 + $80
    act(g, type="sell_shares", entity="Ann", corporation="PS&W", count=1)  # still short: she may sell more
    assert "bankrupt" not in {a.type for a in g.legal_actions()}
    with pytest.raises(GameError, match="can still raise enough"):
        act(g, type="bankrupt", entity="PS&W")
    act(g, type="sell_shares", entity="Ann", corporation="PS&W", count=1)
    three = next(t for t in g.depot() if t.name == "3")
    act(g, type="buy_train", entity="PS&W", train=three.id, price=180)
    assert three.owner == "PS&W" and not g.finished and violations(g) == []


def test_2_11_bankruptcy_ends_the_game_at_once() -> None:
    g = _forced(0)
    pres = g.corps["PS&W"].president
    assert pres is not None
    g.bank += g.player(pres).cash
    g.player(pres).cash = 0
    for c in g.certs:
        if c.owner == pres and not c.president:
            c.owner = IPO  # set-up: he has nothing he may sell
    act(g, type="bankrupt", entity="PS&W")
    assert g.finished and g.end_reason == "bankrupt"
    assert pres in g.result()  # everyone is scored (Q8)
    assert violations(g) == []


# -- 2.12 end of the game and scoring (T5) --------------------------------------------------------------------
def test_2_12_net_worth_is_cash_plus_shares_at_value_t5() -> None:
    g = new_game("18EZ", P3)
    m = spi(g)
    for sym, (r, c), n in (("BR&N", (0, 10), 6), ("M&R", (0, 5), 6), ("M&YR", (3, 10), 4), ("BCRR", (3, 6), 2)):
        m.place(sym, r, c)
        g.corps[sym].par_price = 100
        for cert in g.certs_of(sym, IPO)[1:n + 1]:
            cert.owner = "Ann"
    prices = [g.price(s) for s in ("BR&N", "M&R", "M&YR", "BCRR")]
    assert prices == [200, 150, 170, 130]
    g.bank -= 1846 + 100 - 400
    g.player("Ann").cash = 1846 + 100  # IOUs count as cash
    assert g.net_worth("Ann") == 6 * 200 + 6 * 150 + 4 * 170 + 2 * 130 + 1946 == 4986


def test_2_12_bank_broken_in_a_share_dealing_round_ends_after_the_next_set() -> None:
    g = new_game("18EZ", P3)
    act(g, type="par", entity="Ann", corporation="PS&W", price=100)
    for who in ("Bob", "Cy", "Ann"):
        act(g, type="buy_shares", entity=who, corporation="PS&W")
    g.bank = 500  # set-up: too little for PS&W's $1000 capital
    for _ in range(3):
        pass_turn(g)
    assert g.bank_broken and g.bank == -500 and g.corps["PS&W"].cash == 1000  # paid on in IOUs
    assert g.round.kind == "operating" and not g.finished
    act(g, type="lay_tile", entity="PS&W", hex="F6", tile="57", rotation=1)
    pass_turn(g)
    assert g.finished and g.end_reason == "bank"


def test_2_12_unfloated_shares_count_at_par() -> None:
    g = new_game("18EZ", P3)
    act(g, type="par", entity="Ann", corporation="RR6", price=90)
    assert g.net_worth("Ann") == 400 - 180 + 2 * 90
    assert BANK == "bank"

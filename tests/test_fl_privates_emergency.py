"""18FL private bonuses, emergency money raising and bankruptcy (rules 3.3, 8.4)."""

from __future__ import annotations

import pytest

from engine import Game
from engine.errors import GameError
from engine.invariants import violations
from tests.fl_helpers import act, drafted, drive, finish_turn, pass_all, sal_broke_at_its_train_step, sal_operating


def test_tallahassee_railroad_lays_an_extra_yellow_tile_and_closes() -> None:
    g = sal_operating()
    assert g.companies["TR"].owner == "alice"  # alice presides SAL
    act(g, "lay_tile", "SAL", hex="C24", tile="4", rotation=2)
    act(g, "lay_tile", "SAL", hex="C22", tile="9", rotation=0)
    assert g.round.step == "track"  # the president holds TR: the step waits for it
    with pytest.raises(GameError, match="Green tiles|yellow"):
        act(g, "lay_tile", "TR", hex="B23", tile="487", rotation=4)
    act(g, "lay_tile", "TR", hex="D25", tile="4", rotation=2)
    assert g.companies["TR"].closed
    assert g.board.tile_name("D25") == "4-1"
    assert g.round.step == "token"
    assert not violations(g)


def test_terminal_company_adds_a_free_station_beside_a_city_tile() -> None:
    g = sal_operating()
    assert g.companies["TC"].owner == "carol"
    act(g, "pass", "SAL")
    assert g.round.step == "token"
    with pytest.raises(GameError, match="not an empty hex"):
        act(g, "place_token", "TC", hex="F23", city=0)  # untiled Orlando
    cash = g.corps["SAL"].cash
    act(g, "place_token", "TC", hex="K28", city=0)
    assert g.board.hexes["K28"].extra_tokens == [("SAL", 0)]
    assert g.board.hexes["K28"].tokens == [["FEC"]]  # takes no slot
    assert g.corps["SAL"].cash == cash and g.corps["SAL"].tokens_left == 3
    assert ("K28", 0) in g.board.stations("SAL")
    assert g.companies["TC"].closed
    # logged for the corporation it went to, as a record names it, though the move named none
    assert g.action_log()[-1] == {"type": "place_token", "entity": "TC", "hex": "K28", "city": 0,
                                  "corporation": "SAL"}


def test_president_pays_the_difference_for_a_required_train() -> None:
    g = sal_operating()
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    assert g.round.step == "buy_train"
    with pytest.raises(GameError, match="Shares may be sold in an operating round only"):
        act(g, "sell_shares", "alice", corporation="SAL", count=1)
    g.pay("SAL", "bank", g.corps["SAL"].cash - 30)  # as if spent on track earlier
    alice = g.player("alice").cash
    with pytest.raises(GameError, match="only to raise missing cash"):  # alice's $85 covers the $70 (8.4.1)
        act(g, "sell_shares", "alice", corporation="SAL", count=1)
    act(g, "buy_train", "SAL", train="2")
    assert g.corps["SAL"].cash == 0
    assert g.player("alice").cash == alice - 70
    assert not violations(g)


def test_bankrupt_president_leaves_and_the_game_goes_on() -> None:
    g = sal_broke_at_its_train_step()
    with pytest.raises(GameError, match="Sell shares"):
        act(g, "buy_train", "SAL", train="2")
    # SAL has not operated: its shares cannot be sold, so nothing can be raised
    assert any(a.type == "bankrupt" for a in g.legal_actions())
    act(g, "bankrupt", "SAL")
    assert g.player("alice").bankrupt and not g.finished
    sal = g.corps["SAL"]
    assert sal.president is None and sal.frozen  # bob holds one share only
    assert g.certs_of("SAL")[0].owner == "pool"
    assert g.companies["TR"].closed
    assert "alice" not in g.acting_players()
    assert g.round.kind == "stock"  # SAL's turn ended; the OR had no one else
    assert not violations(g)
    assert g.current_entity != "alice"


def test_bankruptcy_is_refused_while_money_can_still_be_raised() -> None:
    g = sal_operating()
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    g.pay("SAL", "bank", g.corps["SAL"].cash - 50)
    with pytest.raises(GameError, match=r"alice has the \$50 SAL is missing for its train: buy it"):
        act(g, "bankrupt", "SAL")


def _sal_without_a_train(sal_cash: int, alice_cash: int):  # type: ignore[no-untyped-def]
    """OR 2: SAL at its train step with no train (its 2-train passed to ACL as scaffolding), the treasury and
    alice's cash set as given; alice holds a share of SR, which has operated."""
    from engine.state import BANK
    from tests.fl_helpers import drive, two_corps

    g = two_corps()
    drive(g, lambda g: g.round_no >= 2 and g.round.kind == "operating" and g.current_entity == "SAL"
          and g.round.step == "buy_train")
    g.train("2-0").owner = "ACL"
    g.pay("SAL", BANK, g.corps["SAL"].cash - sal_cash)
    alice = g.player("alice").cash
    if alice > alice_cash:
        g.pay("alice", BANK, alice - alice_cash)
    else:
        g.pay(BANK, "alice", alice_cash - alice)
    assert g.round.must_raise(g) and g.shares_held("alice", "SR") == 1
    return g


def test_rule_8_4_3_bankrupt_only_after_every_legal_sale() -> None:
    g = _sal_without_a_train(sal_cash=0, alice_cash=0)
    assert "bankrupt" not in {a.type for a in g.legal_actions()}
    with pytest.raises(GameError, match="must first sell every share that may be sold"):
        act(g, "bankrupt", "SAL")
    price = g.price("SR")
    act(g, "sell_shares", "alice", corporation="SR", count=1)  # still short of the $100 train
    act(g, "bankrupt", "SAL")
    assert g.player("alice").bankrupt and g.corps["SAL"].cash == price  # the sale's proceeds stay for the train
    assert g.price("SR") < price  # and the sale moved the price, as any sale does
    assert not violations(g)


def _frozen_sal() -> Game:
    """alice, SAL's president, goes bankrupt buying its train: SAL is left without a president (carol holds one share),
    its President's certificate in the pool."""
    g = _sal_without_a_train(sal_cash=0, alice_cash=0)
    act(g, "sell_shares", "alice", corporation="SR", count=1)
    act(g, "bankrupt", "SAL")
    assert g.corps["SAL"].president is None and g.corps["SAL"].frozen
    return g


def test_rule_8_4_3_a_frozen_corporations_trains_stay_in_place() -> None:
    g = _frozen_sal()
    g.train("2-0").owner = "SAL"  # set-up: SAL keeps a train
    drive(g, lambda g: g.round.kind == "operating" and g.round.step == "buy_train" and g.current_entity != "SAL")
    buyer = g.current_entity
    assert not [a for a in g.legal_actions() if a.type == "buy_train" and a.train == "2-0"]
    with pytest.raises(GameError, match="SAL has no president to agree to a sale"):
        act(g, "buy_train", buyer, train="2-0", price=1)
    assert g.train("2-0").owner == "SAL"


def test_rule_8_4_3_a_frozen_corporation_over_its_limit_discards_once_it_has_a_president() -> None:
    g = _frozen_sal()
    for t in [t for t in g.depot() if t.name in ("2", "3")][:5]:
        t.owner = "SAL"  # set-up: more trains than SAL's limit, as a phase change can leave it
    assert len(g.trains_of("SAL")) > g.train_limit("SAL")
    g.check_train_limits()
    assert "SAL" not in g.pending_discards  # nobody to choose: the game does not wait for a discard
    drive(g, lambda g: g.round.kind == "stock" and g.current_entity == "carol")
    g.pay("bank", "carol", 100)  # set-up: the price of a share
    act(g, "buy_shares", "carol", corporation="SAL", source="ipo")  # carol's second share: she takes the presidency
    assert g.corps["SAL"].president == "carol" and g.pending_discards == ["SAL"]
    act(g, "discard_train", "SAL", train=g.trains_of("SAL")[0].id)
    assert not violations(g)


def test_rule_8_4_1_stock_is_sold_only_to_raise_missing_cash() -> None:
    g = _sal_without_a_train(sal_cash=0, alice_cash=1045)  # the 2-train costs $100: alice covers it
    assert not any(a.type == "sell_shares" for a in g.legal_actions())
    with pytest.raises(GameError, match="only to raise missing cash"):
        act(g, "sell_shares", "alice", corporation="SR", count=1)
    g = _sal_without_a_train(sal_cash=30, alice_cash=20)  # $50 short: the sale is allowed
    assert any(a.type == "sell_shares" and a.corporation == "SR" for a in g.legal_actions())
    act(g, "sell_shares", "alice", corporation="SR", count=1)
    act(g, "buy_train", "SAL", train="2")
    assert g.corps["SAL"].cash == 0 and g.trains_of("SAL")
    assert not violations(g)


def test_rule_8_4_2_the_president_contributes_only_cash_on_hand_toward_another_corporations_train() -> None:
    g = _sal_without_a_train(sal_cash=0, alice_cash=0)
    act(g, "sell_shares", "alice", corporation="SR", count=1)  # legal: raising money for a bank train
    assert g.player("alice").cash > 0
    assert not any(a.type == "buy_train" and a.train == "2-1" for a in g.legal_actions())
    with pytest.raises(GameError, match="may contribute only \\$0"):
        act(g, "buy_train", "SAL", train="2-1", price=50)
    # with cash he had before any sale, he may pay toward it (up to its face value)
    g = _sal_without_a_train(sal_cash=0, alice_cash=60)
    act(g, "buy_train", "SAL", train="2-1", price=60)
    assert g.train("2-1").owner == "SAL" and g.player("alice").cash == 0
    # the table is told where the money came from, as for a bank train
    said = [str(m) for i, m in g.messages if i == len(g.actions) - 1]
    assert said[:1] == ["alice contributes $60 to SAL."], said
    assert not violations(g)


def test_rule_3_3_a_bonus_used_first_ends_the_corporations_own_lays_or_token() -> None:
    g = sal_operating()  # alice presides SAL and holds TR; carol holds TC
    act(g, "lay_tile", "TR", hex="C22", tile="9", rotation=0)  # the bonus tile before SAL's own lay
    assert g.round.step == "token"  # it ended SAL's track building: no tile of its own, nor an upgrade of that one
    assert "TR" in g.round.company_uses
    assert g.rules.lay_allowance_problem(g, g.round, "yellow") is not None
    act(g, "place_token", "TC", hex="K28", city=0)  # a bonus station first, which would make SAL's token cheaper
    assert not [a for a in g.legal_actions() if a.entity == "SAL" and a.type != "pass"]
    # the prompt no longer offers the token it would refuse
    assert str(g.describe_turn()) == "alice, for SAL (OR 1.1): use POSC, or pass."
    with pytest.raises(GameError, match="own token comes before the bonus tokens"):
        act(g, "hex_token", "SAL", hex="C24")


def test_rule_3_3_the_tallahassee_tile_comes_after_the_lays_whoever_owns_it() -> None:
    from tests.fl_helpers import drafted, pass_all

    g = drafted(picks=["POSC", "TR", "TC"])
    assert g.companies["TR"].owner == "bob" and g.current_entity == "bob"  # TR brings the Priority Deal
    act(g, "pass", "bob")
    act(g, "pass", "carol")
    act(g, "par", "alice", corporation="SAL", price=100)
    act(g, "buy_shares", "bob", corporation="SAL")
    pass_all(g)
    assert g.current_entity == "SAL" and g.corps["SAL"].president == "alice"
    act(g, "lay_tile", "SAL", hex="C24", tile="4", rotation=2)
    act(g, "lay_tile", "SAL", hex="C22", tile="9", rotation=0)
    assert g.round.step == "track"  # the bonus comes after the corporation's own lays
    assert any(a.entity == "TR" for a in g.legal_actions())
    # bob's private lays it, not alice: "lay a tile with TR, or pass" read as if she could
    assert str(g.describe_turn()) == "alice, for SAL (OR 1.1): a tile with TR (its owner's move), or pass."
    act(g, "lay_tile", "TR", hex="D25", tile="4", rotation=2)
    assert g.companies["TR"].closed and g.round.step == "token"
    # the same for a bonus token: carol's Terminal Company may follow SAL's own hotel
    act(g, "hex_token", "SAL", hex="C24")
    assert g.round.step == "token"
    act(g, "place_token", "TC", hex="K28", city=0)
    assert g.companies["TC"].closed and ("K28", 0) in g.board.stations("SAL")
    assert not violations(g)


def test_a_lay_off_the_map_and_a_pick_with_a_price_are_refused_by_name() -> None:
    g = new_fl_draft()
    chooser = g.round.order[0]
    with pytest.raises(GameError, match="face value, \\$20, not −\\$50"):
        act(g, "bid", chooser, price=-50, company="TR")
    assert g.companies["TR"].owner is None and len(g.actions) == 3
    g = sal_operating()
    for hex_id in ("Z99", "A1"):
        with pytest.raises(GameError, match=f"no hex {hex_id} on this map"):
            act(g, "lay_tile", "SAL", hex=hex_id, tile="9", rotation=0)
    assert g.round.step == "track" and not g.round.lays


def new_fl_draft():  # type: ignore[no-untyped-def]
    from engine import new_game

    g = new_game("18FL", ["alice", "bob", "carol"], seed=1)
    for p in ("alice", "bob", "carol"):
        act(g, "bid", p, price=0)
    return g


def test_rule_8_4_3_a_bankrupt_presidents_corporation_goes_to_the_next_tied_holder_after_him() -> None:
    """5.4 ties "earliest in Stock Round order after the current President": bob (seat 2) goes bankrupt as SR's
    president while alice (seat 1) and carol (seat 3) hold two shares each: carol, the next after him, presides."""
    g = drafted()  # seats: alice, bob, carol
    act(g, "par", "alice", corporation="L&N", price=70)
    act(g, "buy_shares", "bob", corporation="L&N")
    pass_all(g)
    act(g, "lay_tile", "L&N", hex="B3", tile="9", rotation=1)
    act(g, "lay_tile", "L&N", hex="B7", tile="4", rotation=1)
    finish_turn(g, "L&N")
    drive(g, lambda g: g.phase.name == "4" and g.round.kind == "stock")
    for p in ("alice", "bob", "carol"):  # set-up: cash enough for the shares below, as if earned
        g.pay("bank", p, max(0, 400 - g.player(p).cash))
    while g.pending_discards:
        act(g, "discard_train", g.current_entity, train=g.trains_of(g.current_entity)[0].id)
    while g.current_entity != "bob":
        act(g, "pass", g.current_entity)
    act(g, "par", "bob", corporation="SR", price=70, size=10)
    for _ in range(2):
        act(g, "buy_shares", "carol", corporation="SR")
        act(g, "buy_shares", "alice", corporation="SR")
        if g.current_entity == "bob":
            act(g, "pass", "bob")
    assert {p: g.shares_held(p, "SR") for p in ("alice", "bob", "carol")} == {"alice": 2, "bob": 2, "carol": 2}
    pass_all(g)
    drive(g, lambda g: g.round.kind == "operating" and g.current_entity == "SR" and g.round.step == "track")
    while g.round.step != "buy_train":
        act(g, "pass", "SR")
    g.pay("SR", "bank", g.corps["SR"].cash)  # set-up: neither SR nor bob can pay for a train
    g.pay("bob", "bank", g.player("bob").cash)
    while not any(a.type == "bankrupt" for a in g.legal_actions()):
        g.process(next(a for a in g.legal_actions() if a.type == "sell_shares"))
    act(g, "bankrupt", "SR")
    assert g.player("bob").bankrupt and g.corps["SR"].president == "carol"
    assert not violations(g)

"""18FL operating rounds: track, tokens and hotels, routes, dividends, trains (rules 7 and 8)."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from tests.fl_helpers import act, finish_turn, pass_all, sal_operating


def test_two_yellow_tiles_or_one_upgrade() -> None:
    g = sal_operating()
    assert g.round.step == "track"
    act(g, "lay_tile", "SAL", hex="C22", tile="9", rotation=0)
    assert g.board.tile_name("C22") == "9-0"
    with pytest.raises(GameError, match="two yellow tiles or one upgrade"):
        act(g, "lay_tile", "SAL", hex="B23", tile="487", rotation=4)  # green is not available anyway
    act(g, "lay_tile", "SAL", hex="D21", tile="9", rotation=0)
    # two yellow lays done; TR (alice's) could still add one, so the step waits for a pass
    assert g.round.step == "track"
    with pytest.raises(GameError, match="two yellow tiles"):
        act(g, "lay_tile", "SAL", hex="C24", tile="4", rotation=2)


def test_refusals_explain_and_change_nothing() -> None:
    g = sal_operating()
    before = g.board.layout("K26")
    with pytest.raises(GameError, match="cannot reach K26"):
        act(g, "lay_tile", "SAL", hex="K26", tile="9", rotation=1)
    with pytest.raises(GameError, match="Green tiles are not available"):
        act(g, "lay_tile", "SAL", hex="B23", tile="487", rotation=4)
    with pytest.raises(GameError, match="town"):
        act(g, "lay_tile", "SAL", hex="C24", tile="9", rotation=2)
    with pytest.raises(GameError, match="only for the hexes labelled"):
        act(g, "lay_tile", "SAL", hex="C22", tile="6o", rotation=0)
    with pytest.raises(GameError, match="Legal here"):
        act(g, "lay_tile", "SAL", hex="C22", tile="9", rotation=1)
    with pytest.raises(GameError, match="decided by its president alice"):
        act(g, "lay_tile", "SR", hex="C22", tile="9", rotation=0)
    assert g.board.layout("K26") == before and len(g.actions) == 11


def test_legal_tile_helper_lists_only_lays_that_process() -> None:
    g = sal_operating()
    lays = [a for a in g.legal_actions() if a.type == "lay_tile"]
    assert lays and {a.hex for a in lays} >= {"C22", "C24"}
    for a in lays:
        g.replayed().process(a)  # every listed lay is accepted


def test_hotel_cost_is_twenty_per_hex_and_one_token_per_turn() -> None:
    g = sal_operating()
    act(g, "lay_tile", "SAL", hex="C24", tile="4", rotation=2)
    act(g, "pass", "SAL")
    assert g.round.step == "token"
    cash = g.corps["SAL"].cash
    act(g, "hex_token", "SAL", hex="C24")
    assert g.board.hexes["C24"].hotels == {0: "SAL"}
    assert g.corps["SAL"].cash == cash - 20
    assert g.corps["SAL"].tokens_left == 2


def test_trainless_corporation_earns_nothing_moves_left_and_must_buy() -> None:
    g = sal_operating(price=100)
    act(g, "pass", "SAL")  # track
    act(g, "pass", "SAL")  # token
    assert g.round.step == "buy_train"
    assert g.price("SAL") == 90
    with pytest.raises(GameError, match="must own a train"):
        act(g, "pass", "SAL")
    act(g, "buy_train", "SAL", train="2")
    assert [t.id for t in g.trains_of("SAL")] == ["2-0"]
    # one bank train of a type per turn and no other corporation has trains: the turn ends by itself
    assert g.round.kind == "stock"


def test_route_revenue_dividend_and_price_moves() -> None:
    g = sal_operating(price=70)
    act(g, "lay_tile", "SAL", hex="C24", tile="4", rotation=2)
    act(g, "lay_tile", "SAL", hex="D25", tile="4", rotation=2)
    act(g, "pass", "SAL")
    act(g, "hex_token", "SAL", hex="C24")
    act(g, "pass", "SAL")  # the step stays open for the unused bonus tokens (rules 3.3: they come after)
    act(g, "buy_train", "SAL", train="2")
    pass_all(g)
    assert g.current_entity == "SAL" and g.round.step == "track"
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    assert g.round.step == "routes"
    best = g.round.best(g)
    # Jacksonville S 30 + St. Augustine 10 (+10 hotel) + Daytona 10: a 2-train reaches one city only, so it
    # runs B23 through both towns to the end of track (towns are free)
    assert best.revenue == 30 + 20 + 10
    price = g.price("SAL")
    alice = g.player("alice").cash
    act(g, "run_routes", "SAL")
    assert g.actions[-1].routes  # the log keeps the concrete routes
    act(g, "dividend", "SAL", kind="payout")
    assert g.player("alice").cash == alice + 2 * 12  # $60 / 5 shares, president holds 2
    assert g.price("SAL") == price  # $60 paid is below the $65 price: no move


def test_phase_three_starts_with_the_first_three_train_and_one_bank_train_per_type() -> None:
    g = sal_operating(price=100)
    g.corps["SAL"].cash = 0
    g.pay("bank", "SAL", 1000)
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    act(g, "buy_train", "SAL", train="2")
    with pytest.raises(GameError):
        act(g, "buy_train", "SAL", train="2")
    assert g.phase.name == "2"


def test_whole_game_replays_to_the_same_state() -> None:
    from engine.record import from_record, to_record
    from engine.selfplay import selfplay

    res = selfplay("18FL", 3, 4, max_actions=200)
    game = res["game"]
    again = from_record(to_record(game))
    assert again.result() == game.result()
    assert again.messages == game.messages
    assert [vars(p) for p in again.players] == [vars(p) for p in game.players]


def test_finish_turn_helper_moves_on() -> None:
    g = sal_operating()
    finish_turn(g, "SAL")
    assert g.round.kind == "stock"


def test_station_costs_twenty_per_hex_along_track() -> None:
    from tests.fl_helpers import drafted

    g = drafted()
    act(g, "par", "alice", corporation="ACL", price=100)
    act(g, "buy_shares", "bob", corporation="ACL")
    pass_all(g)
    assert g.current_entity == "ACL"
    act(g, "lay_tile", "ACL", hex="F21", tile="8", rotation=4)
    act(g, "lay_tile", "ACL", hex="F23", tile="6o", rotation=0)
    act(g, "pass", "ACL")  # alice holds TR; she declines it
    assert g.round.step == "token"
    assert ("F23", 0, 40) in g.rules.station_options(g, "ACL")
    with pytest.raises(GameError, match="Options: Orlando"):
        act(g, "place_token", "ACL", hex="B15", city=0)
    cash = g.corps["ACL"].cash
    act(g, "place_token", "ACL", hex="F23", city=0)
    assert g.board.hexes["F23"].tokens == [["ACL"]]
    assert g.corps["ACL"].cash == cash - 40 and g.corps["ACL"].tokens_left == 2

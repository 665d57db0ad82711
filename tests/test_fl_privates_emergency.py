"""18FL private bonuses, emergency money raising and bankruptcy (rules 3.3, 8.4)."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from engine.invariants import violations
from tests.fl_helpers import act, sal_operating


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


def test_president_pays_the_difference_for_a_required_train() -> None:
    g = sal_operating()
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    assert g.round.step == "buy_train"
    with pytest.raises(GameError, match="Shares may be sold in an operating round only"):
        act(g, "sell_shares", "alice", corporation="SAL", count=1)
    g.pay("SAL", "bank", g.corps["SAL"].cash - 30)  # as if spent on track earlier
    alice = g.player("alice").cash
    with pytest.raises(GameError, match="has not operated"):
        act(g, "sell_shares", "alice", corporation="SAL", count=1)
    act(g, "buy_train", "SAL", train="2")
    assert g.corps["SAL"].cash == 0
    assert g.player("alice").cash == alice - 70
    assert not violations(g)


def test_bankrupt_president_leaves_and_the_game_goes_on() -> None:
    g = sal_operating()
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    g.pay("SAL", "bank", g.corps["SAL"].cash)
    g.pay("alice", "bank", g.player("alice").cash)
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
    with pytest.raises(GameError, match="can still raise|not in an emergency"):
        act(g, "bankrupt", "SAL")

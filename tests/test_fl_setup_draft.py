"""18FL setup and the sealed private draft (rules 3.1-3.3)."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.errors import GameError
from engine.game import seat_order
from tests.fl_helpers import P3, act, drafted


def test_setup_cash_bank_privates_and_home_tokens() -> None:
    g = new_game("18FL", P3, seed=3)
    assert [p.cash for p in g.players] == [300, 300, 300]
    assert g.bank == 8000 - 900
    assert list(g.companies) == ["TR", "POSC", "TC"]  # FECCTC needs four players
    assert g.board.hexes["B23"].tokens == [["SAL"], ["SR"]]
    assert g.board.hexes["K28"].tokens == [["FEC"]]
    assert all(c.tokens_left == 3 for c in g.corps.values())
    assert g.cert_limit() == 15
    assert new_game("18FL", ["a", "b"]).cert_limit() == 21


def test_player_count_and_options_are_checked() -> None:
    with pytest.raises(GameError, match="2 to 4 players"):
        new_game("18FL", ["a"])
    with pytest.raises(GameError, match="two-player"):
        new_game("18FL", P3, options={"two_player_share_limit": True})
    with pytest.raises(GameError, match="Unknown option"):
        new_game("18FL", P3, options={"nonsense": 1})
    assert new_game("18FL", ["a", "b"], options={"two_player_share_limit": True}).holding_limit_percent() == 70


def test_seat_order_is_a_deterministic_shuffle() -> None:
    assert seat_order(P3, 7) == seat_order(P3, 7)
    assert sorted(seat_order(P3, 7)) == sorted(P3)


def test_sealed_bids_are_hidden_until_all_are_in() -> None:
    g = new_game("18FL", P3)
    act(g, "bid", "bob", price=10)
    assert sorted(g.acting_players()) == ["alice", "carol"]
    assert [str(line) for _, line in g.messages if "bob" in str(line)] == ["bob has made a sealed bid."]
    assert g.player("bob").cash == 300  # nobody pays before the reveal
    act(g, "bid", "carol", price=5)
    act(g, "bid", "alice", price=5)
    # everyone pays their bid; order: bob (10), then the $5 tie in seat order
    assert [g.player(n).cash for n in P3] == [295, 290, 295]
    assert g.round.order == ["bob", "alice", "carol"]
    assert g.acting_players() == ["bob"]


def test_bad_bids_are_refused_and_change_nothing() -> None:
    g = new_game("18FL", P3)
    with pytest.raises(GameError, match=r"\$0, \$5 or \$10"):
        act(g, "bid", "alice", price=7)
    act(g, "bid", "alice", price=0)
    with pytest.raises(GameError, match="already bid"):
        act(g, "bid", "alice", price=5)
    with pytest.raises(GameError, match="sealed bid"):
        act(g, "bid", "bob", price=0, company="TR")
    assert len(g.actions) == 1


def test_picks_pay_face_value_and_tr_buyer_gets_priority() -> None:
    g = drafted(bids={"carol": 10}, picks=["POSC", "TR", "TC"])
    # order: carol (10), alice, bob
    assert g.companies["POSC"].owner == "carol"
    assert g.companies["TR"].owner == "alice"
    assert g.companies["TC"].owner == "bob"
    assert g.player("carol").cash == 300 - 10 - 40
    assert g.player("bob").cash == 300 - 70
    assert g.round.kind == "stock"
    assert g.current_entity == "alice"  # TR buyer starts the stock round


def test_fecctc_comes_with_a_fec_share_and_fec_floats_on_presidency() -> None:
    players = ["a", "b", "c", "d"]
    g = drafted(players, picks=["FECCTC", "TR", "POSC", "TC"])
    assert g.companies["FECCTC"].owner == "a"
    assert g.shares_held("a", "FEC") == 1
    starter = g.current_entity
    assert starter == "b"
    act(g, "par", "b", corporation="FEC", price=70)
    fec = g.corps["FEC"]
    assert fec.floated and fec.cash == 5 * 70
    assert fec.president == "b"

"""18FL stock rounds and corporations (rules 5 and 6)."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from tests.fl_helpers import act, drafted, pass_all


def test_par_buy_and_float_at_three_shares_with_five_times_capital() -> None:
    g = drafted()
    p1 = g.current_entity
    act(g, "par", p1, corporation="SAL", price=90)
    assert g.player(p1).cash == 300 - 20 - 180  # TR then the President's certificate
    assert not g.corps["SAL"].floated
    p2 = g.current_entity
    act(g, "buy_shares", p2, corporation="SAL")
    assert g.corps["SAL"].floated and g.corps["SAL"].cash == 450
    assert g.bank == 8000 - 900 + 20 + 40 + 70 + 180 + 90 - 450


def test_one_certificate_per_turn_and_par_values() -> None:
    g = drafted()
    p1 = g.current_entity
    with pytest.raises(GameError, match="not a starting value"):
        act(g, "par", p1, corporation="SAL", price=65)
    with pytest.raises(GameError, match="has not started"):
        act(g, "buy_shares", p1, corporation="SR")
    act(g, "par", p1, corporation="SAL", price=70)
    assert g.current_entity != p1  # the turn ended with the purchase


def test_no_sales_before_operating_and_round_end_priority() -> None:
    g = drafted()
    order = [g.current_entity]
    act(g, "par", order[0], corporation="SAL", price=70)
    second = g.current_entity
    act(g, "buy_shares", second, corporation="SAL")
    third = g.current_entity
    act(g, "pass", third)
    assert g.current_entity == order[0]
    with pytest.raises(GameError, match="has not operated"):
        act(g, "sell_shares", order[0], corporation="SAL", count=1)
    # then all pass: the priority goes to the first of the final run of passes
    pass_all(g)
    assert g.round.kind == "operating"
    assert g.players[g.priority].name == third


def test_holding_and_certificate_limits() -> None:
    g = drafted(["a", "b"], picks=["TR", "POSC"])
    p = g.current_entity
    other = "b" if p == "a" else "a"
    act(g, "par", p, corporation="SAL", price=70)  # 40%
    act(g, "pass", other)
    act(g, "buy_shares", p, corporation="SAL")  # 60%
    act(g, "pass", other)
    with pytest.raises(GameError, match="at most 60%"):
        act(g, "buy_shares", p, corporation="SAL")

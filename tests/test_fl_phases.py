"""18FL trains and phases: conversion, rusting, limits, privates closing, the Keys (rules 2, 7.1, 7.2.2, 8)."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from engine.invariants import violations
from tests.fl_helpers import act, at_step, drafted, drive, two_corps


def test_phase_three_brings_green_tiles_and_two_ors_after_the_next_stock_round() -> None:
    g = two_corps()
    drive(g, lambda g: g.phase.name == "3")
    assert "green" in g.phase.tiles
    assert g.or_set[1] == 1  # the current set keeps its length
    drive(g, lambda g: g.round.kind == "stock")
    drive(g, lambda g: g.round.kind == "operating")
    assert g.or_set == (1, 2)
    assert not violations(g)


def test_voluntary_conversion_pays_five_times_current_value() -> None:
    g = two_corps()
    drive(g, lambda g: g.phase.name == "3")
    drive(g, at_step("SAL", "convert"))
    price, cash = g.price("SAL"), g.corps["SAL"].cash
    act(g, "convert", "SAL")
    sal = g.corps["SAL"]
    assert sal.size == 10 and sal.cash == cash + 5 * price
    assert g.percent_of("SAL", g.shares_held("alice", "SAL")) == 20  # the President's certificate is now 20%
    assert len(g.certs_of("SAL", "ipo")) >= 5
    assert not violations(g)


def test_first_four_train_scraps_twos_and_lowers_limits() -> None:
    g = two_corps()
    drive(g, lambda g: g.phase.name == "4")
    assert not any(t.name == "2" for t in g.trains)
    assert g.train_limit("SAL") in (1, 3)  # 5-share 1, 10-share 3
    assert not violations(g)


def test_phase_four_par_needs_a_declared_size() -> None:
    g = two_corps()
    drive(g, lambda g: g.phase.name == "4")
    with pytest.raises(GameError, match="declare the size"):
        g.rules.par_size(g, "TPS", None)
    assert g.rules.par_size(g, "TPS", 10) == 10
    assert g.rules.par_size_choices(g, "TPS") == [5, 10]


def test_phase_five_closes_privates_removes_port_and_converts_everyone() -> None:
    g = two_corps()
    drive(g, at_step("SAL", "token"))
    # bob holds POSC: the port goes to the operating corporation
    act(g, "assign", "POSC", target="B23")
    assert g.board.hexes["B23"].markers == {"port": "SAL"}
    assert g.companies["POSC"].closed
    drive(g, lambda g: g.phase.name == "5")
    assert all(c.closed for c in g.companies.values())
    assert g.board.hexes["B23"].markers == {}
    assert all(c.size == 10 for c in g.corps.values())
    assert g.phase.late_values
    assert not violations(g)


def test_phase_six_hurricane_clears_the_keys_and_scraps_threes() -> None:
    g = two_corps()
    drive(g, lambda g: g.phase.name == "5")
    # build the Keys by hand through the board (no corporation reaches them here)
    g.board.place_tile("M26", "8", 1, [])
    g.board.place_tile("M24", "58", 4, [])
    g.board.hexes["M24"].hotels[0] = "SAL"
    drive(g, lambda g: g.phase.name == "6/3E")
    assert g.board.hexes["M24"].tile is None and g.board.hexes["M26"].tile is None
    assert g.board.hexes["M24"].hotels == {}
    assert not any(t.name == "3" for t in g.trains)
    assert "gray" in g.phase.tiles


def test_three_e_is_a_variant_of_the_six_card() -> None:
    g = two_corps()
    drive(g, lambda g: bool(g.depot()) and g.depot()[0].name == "6")

    def can_buy(g: object) -> bool:
        ent = g.current_entity  # type: ignore[attr-defined]
        return g.round.kind == "operating" and g.round.step == "buy_train" and \
            len(g.trains_of(ent)) < g.train_limit(ent)  # type: ignore[attr-defined]

    drive(g, can_buy)
    corp = g.current_entity
    offered = {t.variant for t in g.next_bank_trains()}
    assert offered == {"6", "3E"}
    g.pay("bank", corp, 600)
    act(g, "buy_train", corp, train="6", variant="3E")
    t = [t for t in g.trains_of(corp) if t.name == "6"][0]
    assert t.variant == "3E" and g.phase.name == "6/3E"
    spec = [s for s in g.rules.train_specs(g, corp) if s.id == t.id][0]
    assert spec.express and spec.multiplier == 2 and spec.distance == 3


def test_bank_break_ends_the_game_after_the_set_of_operating_rounds() -> None:
    g = two_corps()
    drive(g, lambda g: g.round.kind == "operating" and g.round.number == 1 and g.phase.name == "3")
    g.pay("bank", "alice", g.bank)  # the bank is now empty
    assert g.bank_broken
    assert not g.finished
    drive(g, lambda g: g.finished)
    assert g.end_reason == "bank"
    assert g.finished_rounds[-1]["kind"] == "operating"


def test_net_worth_counts_only_floated_corporations() -> None:
    g = drafted()
    act(g, "par", "alice", corporation="SAL", price=70)
    act(g, "par", "bob", corporation="SR", price=70)
    act(g, "buy_shares", "carol", corporation="SAL")
    assert g.corps["SAL"].floated and not g.corps["SR"].floated
    assert g.net_worth("alice") == g.player("alice").cash + 2 * 70
    assert g.net_worth("bob") == g.player("bob").cash  # SR has not floated: its shares count nothing

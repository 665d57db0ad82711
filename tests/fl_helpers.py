"""Shared helpers for 18FL scenario tests: build positions through real actions."""

from __future__ import annotations

from typing import Any

from engine.game import Game

P3 = ["alice", "bob", "carol"]


def act(game: Game, type_: str, entity: str, **fields: Any) -> Game:
    return game.process({"type": type_, "entity": entity, **fields})


def drafted(players: list[str] | None = None, bids: dict[str, int] | None = None,
            picks: list[str] | None = None, **kw: Any) -> Game:
    """A game past the private draft: everyone bids 0 unless told, and picks in order."""
    players = players or P3
    g = Game("18FL", players, seed=kw.pop("seed", 1), options=kw.pop("options", None))
    bids = bids or {}
    for p in players:
        act(g, "bid", p, price=bids.get(p, 0))
    picks = picks or list(g.companies)
    for sym in picks:
        act(g, "bid", g.round.order[len(g.round.picked)], price=0, company=sym)
    return g


def pass_all(game: Game) -> None:
    """Everyone passes until the stock round ends."""
    start = game.round
    while game.round is start and not game.finished:
        act(game, "pass", game.current_entity)


def sal_operating(price: int = 100) -> Game:
    """Three players; alice (TR) starts SAL, bob buys a share; OR 1 with SAL at its track step."""
    g = drafted()
    act(g, "par", "alice", corporation="SAL", price=price)
    act(g, "buy_shares", "bob", corporation="SAL")
    pass_all(g)
    assert g.round.kind == "operating" and g.current_entity == "SAL"
    return g


def finish_turn(game: Game, corp: str) -> None:
    """Pass every optional step until ``corp``'s turn ends (buying the cheapest train if it must)."""
    while game.current_entity == corp:
        step = game.round.step
        if step == "routes":
            act(game, "run_routes", corp)
        elif step == "dividend":
            act(game, "dividend", corp, kind="payout")
        elif step == "buy_train" and not game.trains_of(corp):
            act(game, "buy_train", corp, train=game.next_bank_trains()[0].id)
        else:
            act(game, "pass", corp)

"""Shared helpers for 18FL scenario tests: build positions through real actions."""

from __future__ import annotations

from typing import Any

from engine import Game, new_game

P3 = ["alice", "bob", "carol"]


def act(game: Game, type_: str, entity: str, **fields: Any) -> Game:
    return game.process({"type": type_, "entity": entity, **fields})


def drafted(players: list[str] | None = None, bids: dict[str, int] | None = None,
            picks: list[str] | None = None, **kw: Any) -> Game:
    """A game past the private draft: everyone bids 0 unless told, and picks in order."""
    players = players or P3
    g = new_game("18FL", players, seed=kw.pop("seed", 1), options=kw.pop("options", None))
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


def sal_broke_at_its_train_step() -> Game:
    """``sal_operating``, SAL at its train step with no train, and neither SAL nor alice, its president, with any
    money (set-up: paid to the bank); SAL has not operated, so alice can sell nothing: she may go bankrupt."""
    g = sal_operating()
    act(g, "pass", "SAL")
    act(g, "pass", "SAL")
    g.pay("SAL", "bank", g.corps["SAL"].cash)
    g.pay("alice", "bank", g.player("alice").cash)
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


def two_corps(players: list[str] | None = None) -> Game:
    """alice runs SAL, bob SR and carol ACL (all floated, 5-share), at the start of OR 1."""
    g = drafted(players)
    act(g, "par", "alice", corporation="SAL", price=70)
    act(g, "par", "bob", corporation="SR", price=70)
    act(g, "par", "carol", corporation="ACL", price=70)
    act(g, "buy_shares", "alice", corporation="SR")
    act(g, "buy_shares", "bob", corporation="ACL")
    act(g, "buy_shares", "carol", corporation="SAL")
    pass_all(g)
    return g


def drive(game: Game, until: Any, max_steps: int = 2000) -> None:
    """Play plain moves (bank funds every train purchase) until ``until(game)`` holds.

    Corporations skip track and tokens, run and withhold, and buy the next bank
    train whenever the rules let them; players pass in stock rounds.
    """
    for _ in range(max_steps):
        if until(game):
            return
        if game.finished:
            raise AssertionError(f"the game ended ({game.end_reason}) first")
        ent = game.current_entity
        if game.pending_discards:
            act(game, "discard_train", ent, train=game.trains_of(ent)[0].id)
            continue
        rnd = game.round
        if rnd.kind == "stock":
            act(game, "pass", ent)
            continue
        step = rnd.step
        if step == "dividend" and len(game.trains_of(ent)) >= game.train_limit(ent) and game.depot():
            # test scaffolding: free a slot as if an old train had been discarded earlier, so trains keep selling
            game.trains_of(ent)[0].owner = "pool"
        if step == "convert":
            act(game, "convert", ent)
        elif step == "routes":
            act(game, "run_routes", ent)
        elif step == "dividend":
            act(game, "dividend", ent, kind="withhold")
        elif step == "buy_train":
            bank = [t for t, src in rnd.available_trains(game) if src == "bank"]
            if bank and len(game.trains_of(ent)) < game.train_limit(ent):
                game.pay("bank", ent, max(0, bank[0].price - game.corps[ent].cash))
                act(game, "buy_train", ent, train=bank[0].id, variant=bank[0].variant)
            elif game.trains_of(ent):
                act(game, "pass", ent)
            else:
                t = rnd.available_trains(game)[0][0]
                game.pay("bank", ent, max(0, t.price - game.corps[ent].cash))
                act(game, "buy_train", ent, train=t.id, variant=t.variant)
        else:
            act(game, "pass", ent)
    raise AssertionError("drive() did not reach its goal")


def at_step(corp: str, step: str) -> Any:
    return lambda g: g.round.kind == "operating" and g.current_entity == corp and g.round.step == step

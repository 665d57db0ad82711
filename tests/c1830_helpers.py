"""Short ways to reach 1830 positions through real actions (tests/test_1830_rules.py)."""

from __future__ import annotations

from typing import Any

from engine import Game, new_game
from engine.actions import dump_action

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def game(players: int = 3, **options: Any) -> Game:
    return new_game("1830", NAMES[:players], seed=1, options=options)


def act(g: Game, kind: str, entity: str | None = None, **kw: Any) -> Game:
    """Process one action; the entity defaults to whoever acts now."""
    return g.process({"type": kind, "entity": entity or g.current_entity, **kw})


def legal(g: Game) -> list[dict[str, Any]]:
    return [dump_action(a) for a in g.legal_actions()]


def buy_privates(g: Game, bo_par: int = 100) -> Game:
    """Each player in turn buys the cheapest private; the B&O private's buyer sets the B&O par."""
    while g.round.selling_privates(g) or g.rules.pending_par(g):
        if g.rules.pending_par(g):
            act(g, "par", corporation="B&O", price=bo_par)
            continue
        cheapest = g.round.unsold(g)[0]
        act(g, "buy_company", company=cheapest, price=g.rules.private_price(g, cheapest))
    return g


def pass_round(g: Game) -> None:
    """Everyone passes until the stock round ends."""
    kind = g.round.kind
    while g.round.kind == kind == "stock" and not g.finished:
        act(g, "pass")


def float_corp(g: Game, corp: str, par: int = 100, passes: bool = True) -> None:
    """The player to act starts ``corp`` (unless its par is set) and everyone buys IPO shares of it in turn until
    it floats."""
    if not g.corps[corp].started:
        act(g, "par", corporation=corp, price=par)
    while not g.corps[corp].floated:
        if g.round.bought_this_turn:
            act(g, "pass")
            continue
        options = [a for a in legal(g) if a["type"] == "buy_shares" and a["corporation"] == corp]
        if options:
            g.process(options[0])
        else:
            act(g, "pass")
    if g.round.bought_this_turn:
        act(g, "pass")
    if passes:
        pass_round(g)


def to_operating(g: Game, corp: str = "PRR", par: int = 100) -> Game:
    """Privates sold, ``corp`` floated in stock round 1; the first operating round starts."""
    buy_privates(g)
    float_corp(g, corp, par)
    return g


def diesel_position(at_limit: bool = False) -> Game:
    """PRR at its train step with one 4-train and $900, the 2s to 5s and the first 6 sold (to NYC): the bank sells
    the second 6 and the Diesel. ``at_limit``: in phase 6, PRR also holds a 5-train, its limit of 2."""
    g = to_operating(game())
    own = ("4-0", "5-0") if at_limit else ("4-0",)
    for t in g.trains:
        if t.name in ("2", "3", "4", "5") or t.id == "6-0":
            t.owner = "PRR" if t.id in own else "NYC"
    g.bought_train_types.update({"2", "3", "4", "5", "6"})
    if at_limit:
        g.phase_index = next(i for i, ph in enumerate(g.data.phases) if ph.name == "6")
    g.corps["PRR"].cash = 900
    skip_to(g, "buy_train")
    return g


def skip_to(g: Game, step: str) -> None:
    """Pass the operating corporation's steps until ``step``."""
    while g.round.step != step:
        if g.round.step == "routes":
            act(g, "run_routes")
        elif g.round.step == "dividend":
            act(g, "dividend", kind="payout")
        else:
            act(g, "pass")

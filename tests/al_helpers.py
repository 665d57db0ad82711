"""A scripted 18AL player for scenario tests: plain, deterministic moves that build a position through real actions.

The same policy drives an engine ``Game`` (tests/test_al_rules.py) and a game played through the bot's service
(tests/test_service.py): it only reads the game and returns the next action as a dict.

The default plan, three players: the first seat starts ABC at $90 and the second TAG at $70 in the first stock
round after the privates are sold (cheapest first, in seat order, so the first seat holds TR and M&C); everyone
buys shares until both float, then passes. ABC builds Anniston-Atlanta and Birmingham (the Robert E. Lee's two
ends), TAG runs Gadsden-Rome on printed track; both pay out. ABC buys two 2-trains and TAG three, then ABC the
first 3-train (operating round 4.1): phase 3, two operating rounds per set from stock round 5.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.actions import dump_action
from engine.game import Game

# ABC's track: Anniston (57, towards F5 and H7), H7 (8, Anniston-Atlanta), F5 (8), Birmingham (441a, towards F5)
ABC_TRACK = (("G6", "57", 2), ("H7", "8", 2), ("F5", "8", 5), ("G4", "441a", 4))


@dataclass
class Plan:
    starts: tuple[tuple[str, int], ...] = (("ABC", 90), ("TAG", 70))  # seat i starts starts[i]
    track: dict[str, tuple[tuple[str, str, int], ...]] = field(default_factory=lambda: {"ABC": ABC_TRACK})
    # the bank trains each corporation buys, in order: the next one when the bank sells that type (one per turn)
    trains: dict[str, tuple[str, ...]] = field(default_factory=lambda: {"ABC": ("2", "2", "3"), "TAG": ("2", "2", "2")})
    privates: dict[str, tuple[str, int]] = field(default_factory=dict)  # corp -> (private, price) to buy
    withhold: set[str] = field(default_factory=set)


def _legal(game: Game) -> list[dict[str, Any]]:
    return [dump_action(a) for a in game.legal_actions()]


def _first(legal: list[dict[str, Any]], **match: Any) -> dict[str, Any] | None:
    return next((a for a in legal if all(a.get(k) == v for k, v in match.items())), None)


def next_action(game: Game, plan: Plan) -> dict[str, Any]:
    """The plan's next move for whoever acts now (always one of the engine's legal actions)."""
    legal = _legal(game)
    who = game.current_entity
    assert who is not None and legal, game.describe_turn()
    if game.pending_discards:
        return legal[0]
    rnd = game.round
    if rnd.kind == "stock":
        return _stock_move(game, plan, who, legal)
    return _operating_move(game, plan, who, legal)


def _stock_move(game: Game, plan: Plan, who: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    rnd = game.round
    if getattr(rnd, "auction", None) is not None:
        return _first(legal, type="pass") or legal[0]
    if rnd.selling_privates(game):
        return _first(legal, type="buy_company") or _first(legal, type="pass") or legal[0]
    if rnd.bought_this_turn:
        return _first(legal, type="pass") or legal[0]
    seat = [p.name for p in game.players].index(who)
    if seat < len(plan.starts):
        corp, price = plan.starts[seat]
        par = _first(legal, type="par", corporation=corp, price=price)
        if par is not None:
            return par
    for corp, _price in plan.starts:
        c = game.corps[corp]
        if c.started and not c.floated:
            buy = _first(legal, type="buy_shares", corporation=corp, source="ipo")
            if buy is not None:
                return buy
    return _first(legal, type="pass") or legal[0]


def _operating_move(game: Game, plan: Plan, corp: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    rnd = game.round
    want = plan.privates.get(corp)
    if want is not None:
        buy = _first(legal, type="buy_company", entity=corp, company=want[0], price=want[1])
        if buy is not None:
            return buy
    step = rnd.step
    if step == "track":
        for hex_id, tile, rotation in plan.track.get(corp, ()):
            if game.board.hexes[hex_id].tile is None:
                lay = _first(legal, type="lay_tile", entity=corp, hex=hex_id, tile=tile, rotation=rotation)
                if lay is not None:
                    return lay
                break
        return _first(legal, type="pass", entity=corp) or legal[0]
    if step == "routes":
        return _first(legal, type="run_routes", entity=corp) or legal[0]
    if step == "dividend":
        return _first(legal, type="dividend", kind="withhold" if corp in plan.withhold else "payout") or legal[0]
    if step == "buy_train":
        wanted = plan.trains.get(corp, ())
        owned = len(game.trains_of(corp))
        if owned < len(wanted):
            for a in legal:
                if a["type"] == "buy_train" and a["entity"] == corp and game.train(a["train"]).owner is None and \
                        game.train(a["train"]).name == wanted[owned] and a.get("price", 0) <= game.corps[corp].cash:
                    return a
        return _first(legal, type="pass", entity=corp) or legal[0]
    return _first(legal, type="pass", entity=corp) or legal[0]


def play(game: Game, plan: Plan, until: Callable[[Game], bool], max_steps: int = 3000) -> Game:
    """Play the plan's moves until ``until(game)`` holds (checked before each move)."""
    for _ in range(max_steps):
        if until(game):
            return game
        assert not game.finished, f"the game ended ({game.end_reason}) before the position was reached"
        game.process(next_action(game, plan))
    raise AssertionError("the position was not reached")


def in_turn(corp: str, step: str | None = None) -> Callable[[Game], bool]:
    """Until: ``corp`` operates (at ``step``)."""
    return lambda g: g.round.kind == "operating" and g.round.corp == corp and (step is None or g.round.step == step)


def stock_round(number: int) -> Callable[[Game], bool]:
    return lambda g: g.round.kind == "stock" and g.round_no == number


def score(game: Game, player: str) -> int:
    """5.1 by hand: cash, shares at market value, own privates at par value."""
    shares = sum(c.shares * game.price(c.corp) for c in game.certs if c.owner == player)
    privates = sum(c.value for c in game.companies.values() if c.owner == player and not c.closed)
    return game.player(player).cash + shares + privates

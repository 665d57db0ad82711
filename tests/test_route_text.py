"""Routes a player types (``engine.route_text``): given to the trains that run them best, whatever the order."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameError
from engine.game import Game
from engine.route_text import routes_from_text
from engine.selfplay import choose
from engine.titles import new_game


def _fec_running() -> Game:
    """18FL, seed 3: FEC holds a 2-train and a 3-train (in that order) and runs both, the 3-train on more stops."""
    game = new_game("18FL", ["ann", "ben", "cid"], seed=3)
    rng = random.Random(3)
    while len(game.actions) < 96:
        game.process(choose(rng, game.legal_actions(), game))
    assert game.round.step == "routes" and game.round.corp == "FEC"
    return game


def test_routes_are_given_to_the_trains_that_run_them_whatever_the_order_typed() -> None:
    game = _fec_running()
    assert [t.id for t in game.rules.train_specs(game, "FEC")] == ["2-4", "3-0"]
    best = game.round.best(game)
    by_train = {r.train: "-".join(s.hex for s in r.stops) for r in best.routes}
    assert len(by_train["3-0"].split("-")) > 3  # more stops than the 2-train may visit
    for text in (f"{by_train['2-4']}; {by_train['3-0']}",  # the corporation's order
                 f"{by_train['3-0']}; {by_train['2-4']}",  # the longer train's first
                 f"{by_train['3-0']}\n{by_train['2-4']}"):
        found = routes_from_text(game, "FEC", text)
        assert found.revenue == best.revenue
        assert {r.train: len(r.stops) for r in found.routes} == {r.train: len(r.stops) for r in best.routes}
    alone = routes_from_text(game, "FEC", f"; {by_train['3-0']}")  # one route: the train that can run it
    assert [r.train for r in alone.routes] == ["3-0"]
    with pytest.raises(GameError, match="train 2-4"):  # no train can run it: the refusal is the first reading's
        routes_from_text(game, "FEC", f"{by_train['3-0']}-{by_train['2-4']}")

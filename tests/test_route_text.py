"""Routes a player types (``engine.route_text``): given to the trains that run them best, whatever the order."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from engine.route_text import routes_from_text
from tests.positions import two_trains_run


def test_routes_are_given_to_the_trains_that_run_them_whatever_the_order_typed() -> None:
    game = two_trains_run()
    corp = game.round.corp
    short, long_ = [t.id for t in game.rules.train_specs(game, corp)]
    assert (short[0], long_[0]) == ("2", "3")
    best = game.round.best(game)
    by_train = {r.train: "-".join(s.hex for s in r.stops) for r in best.routes}
    assert len(by_train[long_].split("-")) > len(by_train[short].split("-"))
    for text in (f"{by_train[short]}; {by_train[long_]}",  # the corporation's order
                 f"{by_train[long_]}; {by_train[short]}",  # the longer train's first
                 f"{by_train[long_]}\n{by_train[short]}"):
        found = routes_from_text(game, corp, text)
        assert found.revenue == best.revenue
        assert {r.train: len(r.stops) for r in found.routes} == {r.train: len(r.stops) for r in best.routes}
    alone = routes_from_text(game, corp, f"; {by_train[long_]}")  # one route: the train that can run it
    assert [r.train for r in alone.routes] == [long_]
    # no train can run it: the refusal is the first reading's
    with pytest.raises(GameError, match=f"a {short[0]}-train may visit"):
        routes_from_text(game, corp, f"{by_train[long_]}-{by_train[short]}")

"""18AL property tests: seeded random games for 3, 4 and 5 players end with no invariant broken."""

from __future__ import annotations

import pytest

from engine import snapshot
from engine.selfplay import selfplay


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_selfplay_18al(players: int, seed: int) -> None:
    res = selfplay("18AL", players, seed)
    assert res["invariant_violations"] == []
    assert res["finished"], f"stopped after {res['actions']} actions"
    game = res["game"]
    # the log replays (trusted, routes taken from the log) to the same state, byte for byte
    assert snapshot.fingerprint(game.replayed()) == snapshot.fingerprint(game)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(3, 23))
def test_selfplay_18al_many(players: int, seed: int) -> None:
    res = selfplay("18AL", players, seed)
    assert res["invariant_violations"] == []
    assert res["finished"]


@pytest.mark.parametrize("option", ["double_yellow_first_or", "LN_home_city_moved", "unlimited_4d", "hard_rust_t4",
                                    "tournament_tie_break"])
def test_selfplay_18al_options(option: str) -> None:
    import random

    from engine import new_game
    from engine.invariants import violations
    from engine.selfplay import choose

    game = new_game("18AL", ["A", "B", "C", "D"], seed=7, options={option: True})
    rng = random.Random(7)
    for _ in range(4000):
        if game.finished:
            break
        game.process(choose(rng, game.legal_actions(), game))
        assert violations(game) == []
    assert game.finished

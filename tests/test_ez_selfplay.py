"""18EZ property tests: seeded random games for 2 to 6 players end by a rule with no invariant broken."""

from __future__ import annotations

import pytest

from engine.selfplay import selfplay


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_selfplay_18ez(players: int) -> None:
    res = selfplay("18EZ", players, seed=players)
    assert res["invariant_violations"] == []
    assert res["finished"] and res["end_reason"] in ("bank", "bankrupt"), f"stopped after {res['actions']} actions"
    game = res["game"]
    assert game.replayed().result() == game.result()  # the log replays to the same state


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(10, 30))
def test_selfplay_18ez_many(players: int, seed: int) -> None:
    res = selfplay("18EZ", players, seed)
    assert res["invariant_violations"] == []
    assert res["finished"] and res["end_reason"] in ("bank", "bankrupt")

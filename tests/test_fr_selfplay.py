"""18FR-RCE property tests: seeded random games end by a rule with every invariant holding after every action
(money constant, shares 100%, limits, tiles within supply, port markers never duplicated)."""

from __future__ import annotations

import pytest

from engine.selfplay import selfplay


def _check(players: int, seed: int) -> None:
    res = selfplay("18FR-RCE", players, seed)
    assert res["invariant_violations"] == []
    assert res["finished"], f"stopped after {res['actions']} actions"
    assert res["end_reason"] in ("bank", "bankrupt")
    game = res["game"]
    assert game.replayed().result() == game.result()  # the log replays to the same state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_selfplay_18fr_sample(players: int) -> None:
    _check(players, 1)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(2, 7))
def test_selfplay_18fr_many(players: int, seed: int) -> None:
    _check(players, seed)

"""Property tests: whole 18FL games by a seeded random player, checked after every action.

CI runs a bounded sample; the soak (``-m slow``) covers many more seeds.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import snapshot
from engine.record import from_record, to_record
from engine.selfplay import selfplay


def _check(players: int, seed: int) -> None:
    res = selfplay("18FL", players, seed)
    game = res["game"]
    assert res["invariant_violations"] == []
    assert res["finished"], f"seed {seed} did not finish: {game.describe_turn()}"
    assert res["end_reason"] in ("bank", "bankrupt")
    # determinism: the record replays to the same state, byte for byte
    again = from_record(json.loads(json.dumps(to_record(game))))
    assert snapshot.fingerprint(again) == snapshot.fingerprint(game)
    assert again.result() == game.result()
    assert again.messages == game.messages
    assert again.bank == game.bank and [p.cash for p in again.players] == [p.cash for p in game.players]


@pytest.mark.parametrize("seed", [100, 200])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_sample_games_finish_with_no_violation(players: int, seed: int) -> None:
    _check(players, seed + players)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 21))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak(players: int, seed: int) -> None:
    _check(players, seed)


def test_selfplay_command_prints_the_required_fields() -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "selfplay", "18FL", "--players", "2", "--seed", "5",
                          "--json"], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    for key in ("title", "seed", "players", "actions", "finished", "end_reason", "result", "invariant_violations"):
        assert key in data
    assert data["invariant_violations"] == [] and data["finished"]


def test_titles_command() -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "titles", "--json"], capture_output=True, text=True,
                         check=True)
    titles = json.loads(out.stdout)
    fl = next(t for t in titles if t["title"] == "18FL")
    assert (fl["min_players"], fl["max_players"]) == (2, 4)
    assert "two_player_share_limit" in fl["options"]

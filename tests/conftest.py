"""Fixtures shared by test modules."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.selfplay import selfplay


@pytest.fixture(scope="session")
def fl_played() -> Game:
    """An 18FL game some way into its operating rounds (a seeded self-played game, cut short); read it, do not
    change it."""
    return selfplay("18FL", 3, 4, max_actions=260, check=False)["game"]

"""Stationmaster's rules engine: pure, deterministic 18xx rules with no I/O.

The package face: ``new_game`` builds a game of a title (the registry in ``engine.titles`` picks its rules);
``Game`` is the state and bookkeeping every title shares, below the rounds and the titles.
"""

from .errors import GameError
from .game import Game
from .titles import PROFILES, TITLES, new_game, rules_for

__all__ = ["PROFILES", "TITLES", "Game", "GameError", "new_game", "rules_for"]

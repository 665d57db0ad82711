"""Positions kept as our own records (``tests/data``), for tests that need a position of a particular kind.

A self-played game reaches such a position by chance: any change to a title's rules sends the seeded game
elsewhere, so the position is kept as the moves that reach it. A record that no longer imports means the rules now
refuse a move it holds, which the test then names.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine import Game
from engine.record import read_own

DATA = Path(__file__).resolve().parent / "data"


def run_on_two_ways() -> tuple[Game, int]:
    """An 18EZ game (ann, ben, cid; seed 1) whose last action, at the index returned, is BR&N's run of a 4-train
    whose stops lie on more than one way of track."""
    game = read_own(json.loads((DATA / "18ez-run-on-two-ways.json").read_text()))
    return game, len(game.actions) - 1
